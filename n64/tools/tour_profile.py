#!/usr/bin/env python3
"""Where a frame's time goes on the N64, by function: the view tour's
profile (a ROM built with `n64/build.sh --tour`) matched with the ELF's
symbols.

The tour samples the code address every INTERVAL Count ticks over each
level's timed frames (src/hw/sampler.rs) and prints the samples per 32
bytes of code. In cen64, which models the caches and the pipeline, a
sample is time: a function's samples times the interval are its Count
ticks. In mupen64plus, whose Count adds 2 per instruction, a sample is
instructions: samples times the interval, halved. The same ROM renders the
same frames in both, so the two together give each function's cycles per
instruction (CPU cycles are twice the Count ticks).

Code shared by two functions' 32 bytes is split between them by bytes
(the padding between them pro rata).
The function that waits for vertical blank is left out of the shares and
shown apart: its samples are waiting, not work.

Usage: tour_profile.py ELF CEN64_LOG [--mupen MUPEN_LOG] [--level NAME]
                       [--top N] [--markdown] [--hot N]
Without --level, every level's samples are added up. --hot lists the N
hottest 32 bytes of code instead, by address (for `objdump -d
--start-address`).
"""

import argparse
import bisect
import os
import re
import struct
import subprocess
import sys

WAITING = "wait_for_vertical_blank"
BUCKET = 32

PROFILE_START = re.compile(r"profile: level=(\S+) interval=(\d+)")
PROFILE_LINE = re.compile(r"profile: ([0-9a-f]{8}) (\d+)$")
PROFILE_END = re.compile(r"profile: level=(\S+) samples=(\d+)")
LEVEL_LINE = re.compile(r"tour: level=(\S+) views=(\d+) ")


def symbols(elf_path, kinds=(2,)):
    """(start, end, mangled name) of every symbol whose type is in `kinds`
    (2, STT_FUNC: the functions; 1, STT_OBJECT: data), by start. A file
    that is missing or not such an ELF stops the tool with an error line."""
    tool = os.path.basename(sys.argv[0])
    try:
        return elf_symbols(open(elf_path, "rb").read(), kinds)
    except (OSError, ValueError, IndexError, struct.error) as e:
        sys.exit(f"{tool}: {elf_path}: {e}")


def elf_symbols(data, kinds):
    """`symbols` of the ELF's bytes `data`."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 2:
        raise ValueError("not a 32-bit big-endian ELF")
    shoff, = struct.unpack(">I", data[32:36])
    shentsize, shnum = struct.unpack(">HH", data[46:50])
    sections = [struct.unpack(">IIIIIIIIII", data[shoff + i * shentsize:shoff + i * shentsize + 40])
                for i in range(shnum)]
    out = []
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        strings = data[strtab[4]:strtab[4] + strtab[5]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            name_off, value, size, info = struct.unpack(">IIIB", data[off:off + 13])
            if info & 0xF not in kinds or value == 0:
                continue
            end = strings.index(b"\0", name_off)
            out.append((value, value + max(size, 4), strings[name_off:end].decode()))
    out.sort()
    return out


def namer(syms, unnamed=lambda address: "(no symbol)"):
    """A function from an address to the readable name of the symbol of
    `syms` (as `symbols` gives them) that holds it, or `unnamed(address)`."""
    starts = [start for start, _, _ in syms]
    names = readable([name for _, _, name in syms])

    def name(address):
        k = bisect.bisect_right(starts, address) - 1
        if k >= 0 and address < syms[k][1]:
            return names[syms[k][2]]
        return unnamed(address)
    return name


def readable(names):
    """Demangled (binutils' c++filt knows Rust's v0 mangling), without the
    crate hashes, paths inside generic arguments cut to their last name."""
    try:
        text = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                              text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        text = list(names)
    out = {}
    for mangled, name in zip(names, text):
        name = re.sub(r"\[[0-9a-f]+\]", "", name)
        # Inside <...>, `a::b::C` becomes `C`.
        result, depth, i = [], 0, 0
        while i < len(name):
            c = name[i]
            if c == "<":
                depth += 1
            elif c == ">":
                depth -= 1
            if depth > 0 and (c.isalpha() or c == "_"):
                m = re.match(r"[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+", name[i:])
                if m:
                    result.append(m.group().split("::")[-1])
                    i += len(m.group())
                    continue
            result.append(c)
            i += 1
        out[mangled] = "".join(result)
    return out


def read_log(path):
    """{level: (interval, {address: samples})} and {level: views}."""
    profiles, views, current = {}, {}, None
    for raw in open(path, errors="replace"):
        line = raw.strip()
        if "IS64: " in line:
            line = line.split("IS64: ", 1)[1]
        m = LEVEL_LINE.match(line)
        if m:
            views[m.group(1)] = int(m.group(2))
            continue
        m = PROFILE_START.match(line)
        if m:
            current = (m.group(1), int(m.group(2)), {})
            continue
        m = PROFILE_LINE.match(line)
        if m and current:
            current[2][int(m.group(1), 16)] = int(m.group(2))
            continue
        m = PROFILE_END.match(line)
        if m and current and m.group(1) == current[0]:
            profiles[current[0]] = (current[1], current[2])
            current = None
    return profiles, views


def by_function(syms, starts, buckets):
    """{mangled name or None: samples}, a bucket split between the
    functions in it by their bytes (the padding between two functions is
    neither's: its share goes to them pro rata)."""
    out = {}
    for address, samples in buckets.items():
        end = address + BUCKET
        i = max(bisect.bisect_right(starts, address) - 1, 0)
        parts = []
        while i < len(syms) and syms[i][0] < end:
            lo, hi = max(syms[i][0], address), min(syms[i][1], end)
            if hi > lo:
                parts.append((syms[i][2], hi - lo))
            i += 1
        covered = sum(n for _, n in parts)
        if not covered:
            out[None] = out.get(None, 0.0) + samples
        for name, n in parts:
            out[name] = out.get(name, 0.0) + samples * n / covered
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("elf")
    ap.add_argument("cen64_log")
    ap.add_argument("--mupen", help="the same ROM's log from mupen64plus")
    ap.add_argument("--level", help="one level (default: all added up)")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--hot", type=int, help="list the N hottest 32-byte buckets instead")
    args = ap.parse_args()

    syms = symbols(args.elf)
    starts = [s[0] for s in syms]

    def gather(path):
        profiles, views = read_log(path)
        levels = [args.level] if args.level else list(profiles)
        missing = [lv for lv in levels if lv not in profiles]
        if missing:
            sys.exit(f"tour_profile.py: no profile of {', '.join(missing)} in {path}")
        total, frames, raw = {}, 0, {}
        for lv in levels:
            interval, buckets = profiles[lv]
            for name, n in by_function(syms, starts, buckets).items():
                total[name] = total.get(name, 0.0) + n * interval
            for address, n in buckets.items():
                raw[address] = raw.get(address, 0) + n * interval
            frames += views.get(lv, 0)
        return total, max(frames, 1), levels, raw

    cen, frames, levels, cen_raw = gather(args.cen64_log)
    mup = gather(args.mupen)[0] if args.mupen else {}
    if args.hot:
        return hot(syms, starts, cen_raw, frames, args.hot)
    names = readable([n for n in set(cen) | set(mup) if n])
    names[None] = "(outside every function)"

    def is_waiting(n):
        return n is not None and names[n].endswith(WAITING)

    work_cen = sum(v for n, v in cen.items() if not is_waiting(n))
    work_mup = sum(v for n, v in mup.items() if not is_waiting(n))
    rows = sorted((n for n in set(cen) | set(mup) if not is_waiting(n)),
                  key=lambda n: -cen.get(n, 0))

    header = ["function", "time", "Count a frame"]
    if mup:
        header += ["instructions", "a frame", "cycles/instr"]

    def row(label, c, m):
        r = [label, f"{100 * c / work_cen:.1f}%" if work_cen else "-", f"{c / frames:,.0f}"]
        if mup:
            instr = m / 2
            r += [f"{100 * m / work_mup:.1f}%" if work_mup else "-", f"{instr / frames:,.0f}",
                  f"{2 * c / instr:.2f}" if instr else "-"]
        return r

    table = [header]
    for n in rows[:args.top]:
        table.append(row(names[n], cen.get(n, 0), mup.get(n, 0)))
    rest = rows[args.top:]
    if rest:
        table.append(row(f"({len(rest)} more)", sum(cen.get(n, 0) for n in rest),
                         sum(mup.get(n, 0) for n in rest)))
    table.append(row("all (but waiting)", work_cen, work_mup))
    waiting = sum(v for n, v in cen.items() if is_waiting(n))

    title = (f"{', '.join(levels)}: {frames} frames, time sampled in cen64"
             + (", instructions in mupen64plus" if mup else ""))
    if args.markdown:
        print(f"{title}\n")
        print("| " + " | ".join(header) + " |")
        print("|---|" + "---:|" * (len(header) - 1))
        for r in table[1:]:
            label = r[0] if r[0].startswith(("(", "all")) else f"`{r[0]}`"
            print("| " + " | ".join([label] + r[1:]) + " |")
    else:
        print(title)
        width = min(max(len(r[0]) for r in table), 90)
        cols = [max(len(r[i]) for r in table) for i in range(1, len(header))]
        for r in table:
            label = r[0] if len(r[0]) <= width else r[0][:width - 3] + "..."
            print(label.ljust(width) + "  " + "  ".join(c.rjust(w) for c, w in zip(r[1:], cols)))
    print(f"(waiting for vertical blank, left out: {waiting / frames:,.0f} Count a frame)")


def hot(syms, starts, cen, frames, count):
    """The hottest buckets by cen64's samples. (mupen64plus's are left
    out: its interpreter takes interrupts only at branches, so its samples
    pile up on a loop's branch, right by function but not by address.)"""
    names = readable(sorted({s[2] for s in syms}))

    def name_of(address):
        i = bisect.bisect_right(starts, address + BUCKET - 1) - 1
        return names[syms[i][2]] if i >= 0 and address < syms[i][1] else "?"

    rows = [(a, c, name_of(a)) for a, c in cen.items()]
    rows = [r for r in rows if not r[2].endswith(WAITING)]
    work = sum(c for _, c, _ in rows)
    print("address   time  Count a frame  function")
    for address, c, name in sorted(rows, key=lambda r: -r[1])[:count]:
        print(f"{address:08x}  {100 * c / work:4.1f}%  {c / frames:13,.0f}  {name[:90]}")


if __name__ == "__main__":
    main()
