#!/usr/bin/env python3
"""The order of the ROM's hot functions in link.x, chosen by replaying
recorded instruction fetches against other layouts.

The VR4300's instruction cache is 16 KiB, direct-mapped: code 16 KiB
apart shares lines. The functions a frame runs are several times that,
so some evict others whatever the order; which ones, and how often,
decides a tenth of a frame (cen64, the view tour), and moved by chance
whenever a change elsewhere shifted the code. This takes fetch traces
(cen64 built by build_cen64_stalls.sh, run by cen64_run.py with
$CEN64_ITRACE set: each run of fetches within one 32-byte line, by its
lowest and highest address), replays them through a model of the cache
with the functions moved (icache_sim.c: it counts what cen64 counts, to
within a few misses in a thousand), searches for the order of the traced
functions with the fewest misses, and writes it into link.x as section
patterns. The traces are from the tour ROM (its extra levels, all four
view modes), whose engine functions are the ROM's.

Usage:
  icache_layout.py ELF TRACE [TRACE ...] [--iterations N] [--window RUNS]
                   [--seed S] [--also PLAY_ELF] [--write LINK_X]
  icache_layout.py ELF TRACE [TRACE ...] --against OTHER_ELF
ELF is the program the traces were recorded with. The search works on
four windows of RUNS runs from each trace (all of it for the figures);
--write replaces the lines between link.x's "icache_layout.py: begin"
and "end" markers. --against replays the traces with the functions
where OTHER_ELF has them (a ROM linked with the new order: same code,
other addresses), to check the model against cen64's count for it.
--also orders only the functions that PLAY_ELF (the ROM that plays) has
as well, so that the tour's own functions leave no gaps in its order.
"""

import argparse
import array
import bisect
import fnmatch
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from tour_profile import readable, symbols

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN, END = "icache_layout.py: begin", "icache_layout.py: end"


def section_range(elf_path, name=".text"):
    """(start, end) of the ELF's section `name`."""
    data = open(elf_path, "rb").read()
    shoff, = struct.unpack(">I", data[32:36])
    shentsize, shnum, shstrndx = struct.unpack(">HHH", data[46:52])
    sections = [struct.unpack(">IIIIIIIIII", data[shoff + i * shentsize:shoff + i * shentsize + 40])
                for i in range(shnum)]
    names = sections[shstrndx]
    for sh in sections:
        start = names[4] + sh[0]
        if data[start:data.index(b"\0", start)].decode() == name:
            return sh[3], sh[3] + sh[5]
    sys.exit(f"icache_layout: {elf_path} has no {name} section")


def functions_of(elf_path):
    """[(start, size, name)] of the program's functions, and the .text range."""
    text = section_range(elf_path)
    return [(start, end - start, name) for start, end, name in symbols(elf_path)], text


def runs_of(path, funcs, windows=None):
    """The trace at `path` as int32 triples (function, lowest, highest):
    offsets into the function, or addresses (function -1) outside all."""
    raw = array.array("I")
    try:
        with open(path, "rb") as f:
            raw.frombytes(f.read())
    except OSError as e:
        sys.exit(f"icache_layout: {e}")
    if len(raw) % 2:
        sys.exit(f"icache_layout: {path}: not whole (lowest, highest) pairs")
    pairs = len(raw) // 2
    spans = [(0, pairs)]
    if windows:
        spans = [(pairs * k // 4, min(pairs, pairs * k // 4 + windows)) for k in range(4)]
    starts = [f[0] for f in funcs]
    found = {}
    out = array.array("i")
    for a, b in spans:
        for k in range(2 * a, 2 * b, 2):
            lo, hi = raw[k], raw[k + 1]
            i = found.get(lo)
            if i is None:
                i = bisect.bisect_right(starts, lo) - 1
                if i < 0 or lo >= funcs[i][0] + funcs[i][1]:
                    i = -1
                found[lo] = i
            if i < 0 or hi < lo:
                out.extend((-1, lo, max(lo, hi)))
            else:
                base, size = funcs[i][0], funcs[i][1]
                out.extend((i, lo - base, min(hi, base + size - 1) - base))
    return out


def tokens(name):
    """The mangled (Rust v0) `name` cut into its parts, each crate hash and
    back-reference (which points past hashes, so moves with their length)
    as `*`."""
    out, i, n = [], 0, len(name)
    base62 = set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    def past_base62(j):
        while j < n and name[j] in base62:
            j += 1
        return j + 1 if j < n and name[j] == "_" else j

    if name.startswith("_R"):
        out.append("_R")
        i = 2
    while i < n:
        c = name[i]
        if c.isdigit():  # an identifier: its length, an optional _, itself
            j = i
            while j < n and name[j].isdigit():
                j += 1
            length = int(name[i:j])
            j += name[j:j + 1] == "_"
            out.append(name[i:j + length])
            i = j + length
        elif c == "N" and i + 1 < n:  # a namespace and its letter
            out.append(name[i:i + 2])
            i += 2
        elif c == "C" and name[i + 1:i + 2] == "s":  # a crate and its hash
            out.append("C*")
            i = past_base62(i + 2)
        elif c == "B":
            out.append("*")
            i = past_base62(i + 1)
        elif c == "s":  # a disambiguator
            j = past_base62(i + 1)
            out.append(name[i:j])
            i = j
        elif c == "K" and i + 1 < n:  # a constant: its type, its hex digits
            j = i + 2 + (name[i + 2:i + 3] == "n")
            while j < n and name[j] in "0123456789abcdef":
                j += 1
            j += name[j:j + 1] == "_"
            out.append(name[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return out


def pattern(name, every):
    """A section pattern for `name` that of all the functions in `every`
    matches it alone: its parts (`tokens`) from the first name after its
    crate's on (the whole path, so that it still says what it is), or
    with the crate, or the whole name; names not Rust's as they are."""
    if not name.startswith("_R"):
        return name
    parts = tokens(name)
    names = [k for k, part in enumerate(parts) if part[:1].isdigit()]
    for k in names[1:2] + names[:1]:
        text = "*" + "".join(parts[k:])
        while "**" in text:
            text = text.replace("**", "*")
        if fnmatch.filter(every, text) == [name]:
            return text
    return name


def simulator(workdir):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        sys.exit("icache_layout: needs a C compiler (cc) for icache_sim.c")
    exe = os.path.join(workdir, "icache_sim")
    subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "icache_sim.c"), "-lm"], check=True)
    return exe


def run(exe, workdir, runs, funcs_file, order, iterations=0, seed=1, temperature=0.0):
    """(recorded misses, misses of `order`, best order found, its misses)."""
    trace = os.path.join(workdir, "trace.bin")
    with open(trace, "wb") as f:
        runs.tofile(f)
    order_in, order_out = os.path.join(workdir, "order.in"), os.path.join(workdir, "order.out")
    with open(order_in, "w") as f:
        f.write("".join(f"{i}\n" for i in order))
    out = subprocess.run([exe, trace, funcs_file, order_in, str(iterations), str(seed),
                          str(temperature), order_out], capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"icache_layout: {out.stderr.strip()}")
    figures = dict(line.split() for line in out.stdout.splitlines())
    best = [int(x) for x in open(order_out).read().split()]
    return int(figures["recorded"]), int(figures["order"]), best, int(figures["best"])


def write_functions(path, funcs, text, addresses=None):
    with open(path, "w") as f:
        f.write(f"{text[0]:x}\n")
        for i, (start, size, _) in enumerate(funcs):
            pinned = addresses is not None or not text[0] <= start < text[1]
            at = addresses[i] if addresses is not None else start
            f.write(f"{at:x} {size} 4 {int(pinned)}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("elf")
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--iterations", type=int, default=20000)
    ap.add_argument("--window", type=int, default=150000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", metavar="LINK_X")
    ap.add_argument("--against", metavar="OTHER_ELF")
    ap.add_argument("--also", metavar="OTHER_ELF",
                    help="order only functions that OTHER_ELF has too (the ROM that plays, "
                         "without the tour's own functions)")
    args = ap.parse_args()

    funcs, text = functions_of(args.elf)
    with tempfile.TemporaryDirectory() as workdir:
        exe = simulator(workdir)
        funcs_file = os.path.join(workdir, "functions.txt")
        if args.against:
            other = {name: start for start, _, name in functions_of(args.against)[0]}
            missing = [name for _, _, name in funcs if name not in other]
            addresses = [other.get(name, start) for start, _, name in funcs]
            write_functions(funcs_file, funcs, text, addresses)
            print(f"| trace | runs | misses at {os.path.basename(args.elf)}'s addresses | "
                  f"at {os.path.basename(args.against)}'s |\n|---|---:|---:|---:|")
            write_functions(os.path.join(workdir, "recorded.txt"), funcs, text)
            for path in args.traces:
                runs = runs_of(path, funcs)
                before = run(exe, workdir, runs, os.path.join(workdir, "recorded.txt"), [])[0]
                after = run(exe, workdir, runs, funcs_file, [])[0]
                print(f"| {os.path.basename(path)} | {len(runs) // 3:,} | {before:,} | {after:,} |")
            if missing:
                print(f"({len(missing)} functions not in {args.against} stay where they were)")
            return

        write_functions(funcs_file, funcs, text)
        sample = array.array("i")
        for path in args.traces:
            sample.extend(runs_of(path, funcs, args.window))
        hot = sorted({i for i in sample[0::3] if i >= 0 and text[0] <= funcs[i][0] < text[1]},
                     key=lambda i: funcs[i][0])
        if args.also:
            # The tour's own functions (its output, its scenes) are not in
            # the ROM that plays: ordered among the others, they would
            # leave gaps there that move what follows them.
            every = [name for _, _, name in funcs]
            theirs = [name for _, _, name in functions_of(args.also)[0]]
            hot = [i for i in hot if len(fnmatch.filter(theirs, pattern(funcs[i][2], every))) == 1]
        recorded, _, order, best = run(exe, workdir, sample, funcs_file, hot, args.iterations,
                                       args.seed, 300.0)
        print(f"search: {len(hot)} functions, {len(sample) // 3:,} runs: "
              f"{recorded:,} misses as recorded, {best:,} in the order found")
        print("| trace | runs | misses as recorded | in the order found |\n|---|---:|---:|---:|")
        for path in args.traces:
            runs = runs_of(path, funcs)
            before, after, _, _ = run(exe, workdir, runs, funcs_file, order)
            print(f"| {os.path.basename(path)} | {len(runs) // 3:,} | {before:,} | {after:,} |")

    names = [funcs[i][2] for i in order]
    every = [name for _, _, name in funcs]
    shown = readable(names)
    lines = []
    for name in names:
        note = shown.get(name, name)[:70].replace("*/", "* /")
        lines.append(f"        *(.text.{pattern(name, every)})  /* {note} */\n")
    if not args.write:
        sys.stdout.write("".join(lines))
        return
    try:
        script = open(args.write).read().splitlines(keepends=True)
    except OSError as e:
        sys.exit(f"icache_layout: {e}")
    begin = [k for k, line in enumerate(script) if BEGIN in line]
    end = [k for k, line in enumerate(script) if END in line]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        sys.exit(f"icache_layout: {args.write} needs one {BEGIN!r} line and one {END!r} after it")
    script[begin[0] + 1:end[0]] = lines
    with open(args.write, "w") as f:
        f.write("".join(script))
    print(f"icache_layout: {len(lines)} functions in order in {args.write}")


if __name__ == "__main__":
    main()
