#!/usr/bin/env python3
"""Teaches a cen64 source tree to count, per instruction address, what each
stall costs: the one tool that says where a frame's cycles go, not only
where its time was sampled.

cen64's `-profile` (from its commit 81bf109, 2020-12, newer than Debian's
build) writes `ROM.profile` when it exits: per address, the instructions
executed and the data-cache misses. This adds, per address, the load-use
interlocks (LDI, 1 cycle), the data-cache-busy interlocks (DCB, 1 cycle: a
cached access after a cached store), the instruction-cache misses (ICB, 50
cycles a 32-byte line) and the multiply/divide cycles (MCI); and, so that
a run can be cut to exactly the frames measured, the counts start again
when the ROM prints a line holding $CEN64_PROFILE_FROM and the file is
written when it prints one holding $CEN64_PROFILE_TO (cen64_run.py
--profile-from, --profile-to). While the counts run and $CEN64_ITRACE
names a file, every run of fetches within one instruction-cache line is
written there too (icache_layout.py replays them), and while $CEN64_DTRACE
names one, every data-cache miss with the line it evicts (dcache_misses.py
reads them). A data-cache miss costs 45
cycles (cen64's DCACHE_ACCESS_DELAY, 44, and one), an uncached access
about the same: the counts times those weights add up to cen64's Count
ticks a frame to within a few per cent (n64/README.md, "Where the cycles
go").

Usage: cen64_stalls.py CEN64_SOURCE_DIR   (build_cen64_stalls.sh runs it)
Each edit finds its place by a line of cen64's source; if one is missing
(another cen64 version) it says which and changes nothing.
"""

import pathlib
import sys

# cen64's counters: SLOTS arrays of SLOT counts, one per address of the
# first 8 MiB; the first two are cen64's own (instructions, data misses).
SLOT = "(8 * 1024 * 1024)"
SLOTS = 6


def count(slot, pc, by="1"):
    """C that adds `by` to counter `slot` of the instruction at `pc`."""
    return (f"if (vr4300->profile_samples) {{ uint32_t pidx = ((uint32_t) ({pc}) - 0x80000000)"
            f" & ({SLOT} - 1); vr4300->profile_samples[pidx + {slot} * {SLOT}] += {by}; }}\n")


MCI_ANCHOR = ("static inline int vr4300_do_mci(struct vr4300 *vr4300, unsigned cycles) {\n")

# (file, anchor, text, where): the text goes after the anchor ("after") or
# before it ("before"); each anchor must occur exactly once.
EDITS = [
    # Six counters per address instead of two.
    ("vr4300/cpu.c", "calloc(2 * 8 * 1024 * 1024", f"calloc({SLOTS} * {SLOT}", "replace"),
    # ICB: the fetch misses the instruction cache.
    ("vr4300/pipeline.c", "  if (!(line && cached)) {\n    rfex_latch->paddr = paddr;\n",
     "    " + count(4, "vaddr"), "after"),
    # LDI: the instruction in EX needs a load's result that is not there yet.
    ("vr4300/pipeline.c", "    VR4300_LDI(vr4300);\n    return 1;\n",
     "    " + count(2, "rfex_latch->common.pc"), "before"),
    # DCB: a cached access right after a cached store.
    ("vr4300/pipeline.c", "        if (last_cache_was_store) {\n",
     "          " + count(3, "exdc_latch->common.pc"), "after"),
    # MCI: a multiply or divide holds the pipeline `cycles` cycles.
    ("vr4300/functions.c", MCI_ANCHOR,
     "  " + count(5, "vr4300->pipeline.exdc_latch.common.pc", "cycles"), "after"),
    ("vr4300/cp1.c", MCI_ANCHOR,
     "  " + count(5, "vr4300->pipeline.exdc_latch.common.pc", "cycles"), "after"),
    # The file: every counter, and a dump that can be asked for.
    ("device/device.c",
     "      if (sample < 10 && l1d_sample < 10)\n        continue;\n"
     "      fprintf(f, \"%x %lu %lu\\n\", i + 0x80000000, sample, l1d_sample);\n",
     "      uint64_t more[4]; unsigned k;\n"
     "      for (k = 0; k < 4; k++)\n"
     f"        more[k] = get_profile_sample(device->vr4300, i + (k + 2) * {SLOT});\n"
     "      if (!sample && !l1d_sample && !more[2])\n        continue;\n"
     "      fprintf(f, \"%x %lu %lu %lu %lu %lu %lu\\n\", i + 0x80000000, sample, l1d_sample,\n"
     "        more[0], more[1], more[2], more[3]);\n",
     "replace"),
    ("device/device.c",
     "void device_destroy(struct cen64_device *device, const char *cart_path) {\n"
     "  vr4300_free(device->vr4300);\n  rsp_destroy(&device->rsp);\n",
     "void device_destroy(struct cen64_device *device, const char *cart_path) {\n"
     "  device_write_profile(device, cart_path);\n"
     "  vr4300_free(device->vr4300);\n  rsp_destroy(&device->rsp);\n}\n\n"
     "void device_write_profile(struct cen64_device *device, const char *cart_path) {\n",
     "replace"),
    ("device/device.c", "\n    fclose(f);\n  }\n}\n",
     "\n    fclose(f);\n  }\n}\n\n"
     "void device_reset_profile(struct cen64_device *device) {\n"
     "  size_t i;\n"
     "  if (has_profile_samples(device->vr4300))\n"
     f"    for (i = 0; i < (size_t) {SLOTS} * {SLOT}; i++)\n"
     "      device->vr4300->profile_samples[i] = 0;\n}\n",
     "replace"),
    ("device/device.c", "#include \"device/device.h\"\n",
     "#include \"vr4300/cpu.h\"\n", "after"),
    ("device/device.h",
     "cen64_cold void device_destroy(struct cen64_device *device, const char *cart_path);\n",
     "void device_write_profile(struct cen64_device *device, const char *cart_path);\n"
     "void device_reset_profile(struct cen64_device *device);\n", "after"),
    # The counts start again when the ROM prints a line holding
    # $CEN64_PROFILE_FROM and are written when it prints one holding
    # $CEN64_PROFILE_TO: in the emulator's own thread, at that instruction,
    # so the counts are of exactly the run between the two lines.
    ("pi/is_viewer.c", "        if (is->show_output)\n          printf(",
     "        cen64_profile_line((const char *) is->output_buffer_conv);\n", "before"),
    ("pi/is_viewer.c", "#include \"is_viewer.h\"\n",
     "void cen64_profile_line(const char *line);\n", "after"),
    ("cen64.c", "int cen64_main(int argc, const char **argv) {\n",
     "#include <stdio.h>\n#include <string.h>\n"
     "static struct cen64_device *profiled_device;\nstatic const char *profiled_cart;\n"
     "void cen64_profile_line(const char *line) {\n"
     "  const char *from = getenv(\"CEN64_PROFILE_FROM\"), *to = getenv(\"CEN64_PROFILE_TO\");\n"
     "  if (!profiled_device)\n    return;\n"
     "  if (from && *from && strstr(line, from))\n"
     "    device_reset_profile(profiled_device);\n"
     "  if (to && *to && strstr(line, to)) {\n"
     "    device_write_profile(profiled_device, profiled_cart);\n"
     "    fprintf(stdout, \"cen64: profile written\\n\");\n    fflush(stdout);\n  }\n}\n\n",
     "before"),
    # The fetch trace: while a profile runs and $CEN64_ITRACE names a
    # file, each run of fetches within one 32-byte line is written there
    # as two 32-bit words (its lowest and highest address, host byte
    # order), for icache_layout.py to replay against other layouts.
    ("vr4300/pipeline.c", "  // If not cached or we miss in the IC, it's an ICB.\n",
     "  if (cen64_itrace) {\n"
     "    static uint32_t run[2];\n"
     "    uint32_t pc = (uint32_t) vaddr;\n"
     "    if ((pc >> 5) != cen64_itrace_line) {\n"
     "      if (cen64_itrace_line)\n        fwrite(run, 4, 2, cen64_itrace);\n"
     "      cen64_itrace_line = pc >> 5;\n      run[0] = run[1] = pc;\n"
     "    } else {\n"
     "      run[0] = pc < run[0] ? pc : run[0];\n      run[1] = pc > run[1] ? pc : run[1];\n"
     "    }\n  }\n", "before"),
    ("vr4300/pipeline.c", "#include \"vr4300/segment.h\"\n",
     "#include <stdio.h>\nextern FILE *cen64_itrace;\nextern uint32_t cen64_itrace_line;\n",
     "after"),
    ("cen64.c", "void cen64_profile_line(const char *line) {\n",
     "FILE *cen64_itrace;\nuint32_t cen64_itrace_line;\n", "before"),
    ("cen64.c", "  if (from && *from && strstr(line, from))\n"
     "    device_reset_profile(profiled_device);\n",
     "  if (from && *from && strstr(line, from)) {\n"
     "    device_reset_profile(profiled_device);\n"
     "    if (getenv(\"CEN64_ITRACE\") && !cen64_itrace)\n"
     "      cen64_itrace = fopen(getenv(\"CEN64_ITRACE\"), \"wb\");\n"
     "  }\n", "replace"),
    ("cen64.c", "    device_write_profile(profiled_device, profiled_cart);\n",
     "    if (cen64_itrace) {\n      fclose(cen64_itrace);\n      cen64_itrace = NULL;\n"
     "      cen64_itrace_line = 0;\n    }\n", "before"),
    # The data-miss trace: while a profile runs and $CEN64_DTRACE names a
    # file, each cached data-cache miss is written there as three 32-bit
    # words (host byte order): the instruction's address; the line's
    # address, plus 1 for a load; the line it evicts, plus 1 if dirty
    # (0xffffffff: none valid). dcache_misses.py reads them.
    ("vr4300/fault.c", "  // Cached accesses require us to potentially flush the old line.\n",
     "  if (cen64_dtrace) {\n"
     "    const struct vr4300_dcache_line *old = vr4300->dcache.lines + (vaddr >> 4 & 0x1FF);\n"
     "    uint32_t rec[3];\n"
     "    rec[0] = (uint32_t) exdc_latch->common.pc;\n"
     "    rec[1] = (paddr & ~0xFU) | (exdc_latch->request.type == VR4300_BUS_REQUEST_READ);\n"
     "    rec[2] = (old->metadata & 1) ? ((old->metadata & ~0xFFFU) | ((uint32_t) vaddr & 0xFF0U)\n"
     "      | (old->metadata >> 1 & 1)) : 0xFFFFFFFFU;\n"
     "    fwrite(rec, 4, 3, cen64_dtrace);\n"
     "  }\n", "before"),
    ("vr4300/fault.c", "#include \"vr4300/pipeline.h\"\n",
     "#include <stdio.h>\nextern FILE *cen64_dtrace;\n", "after"),
    ("cen64.c", "void cen64_profile_line(const char *line) {\n",
     "FILE *cen64_dtrace;\n", "before"),
    ("cen64.c", "    if (getenv(\"CEN64_ITRACE\") && !cen64_itrace)\n",
     "    if (getenv(\"CEN64_DTRACE\") && !cen64_dtrace)\n"
     "      cen64_dtrace = fopen(getenv(\"CEN64_DTRACE\"), \"wb\");\n", "before"),
    ("cen64.c", "    if (cen64_itrace) {\n      fclose(cen64_itrace);\n",
     "    if (cen64_dtrace) {\n      fclose(cen64_dtrace);\n      cen64_dtrace = NULL;\n    }\n",
     "before"),
    ("cen64.c", "      device->multithread = options.multithread;\n",
     "      profiled_device = device;\n      profiled_cart = options.cart_path;\n",
     "after"),
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-3])
    root = pathlib.Path(sys.argv[1])
    texts = {}
    for name, anchor, text, where in EDITS:
        path = root / name
        if name not in texts:
            try:
                texts[name] = path.read_text()
            except OSError as e:
                sys.exit(f"cen64_stalls: {e}")
        found = texts[name].count(anchor)
        if found != 1:
            sys.exit(f"cen64_stalls: {name}: expected one {anchor.splitlines()[0]!r}, found {found};"
                     " not changed (is it cen64 at the commit build_cen64_stalls.sh names?)")
        if where == "after":
            new = anchor + text
        elif where == "before":
            new = text + anchor
        else:
            new = text
        texts[name] = texts[name].replace(anchor, new)
    for name, text in texts.items():
        (root / name).write_text(text)
    print(f"cen64_stalls: {len(EDITS)} edits in {len(texts)} files")


if __name__ == "__main__":
    main()
