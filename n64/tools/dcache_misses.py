#!/usr/bin/env python3
"""Which code's data-cache misses evict which lines: a data-miss trace
(the patched cen64's $CEN64_DTRACE, see cen64_stalls.py) read with the
ELF's symbols.

Usage: dcache_misses.py ELF TRACE [--renders N] [--top K]

Prints the misses by function and by what they fetch (a data symbol of the
ELF, or the 64 KiB block of RDRAM for the rest: the stack, the level's
data); then, for the data symbol that is fetched most (the framebuffer),
how many times each of its lines was fetched, which functions fetch the
lines fetched more than once a render, and who evicted a line before each
fetch after its first. `--renders`: how many renders the trace's window
holds (the tour's window from one view's line to the next holds two:
its lines fetched twice are fetched once a render), to give figures a
render.
"""

import argparse
import collections
import struct
import sys

from tour_profile import namer, symbols


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("elf")
    ap.add_argument("trace")
    ap.add_argument("--renders", type=int, default=1)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    if args.renders < 1:
        ap.error("--renders must be at least 1")
    per = args.renders
    syms = symbols(args.elf, kinds=(1, 2))
    # Data outside the ELF's symbols (the stack, the level's data) by its
    # 64 KiB block of RDRAM.
    name = namer(syms, lambda address: f"RDRAM 0x{address & 0x1fff0000:06x}")
    try:
        data = open(args.trace, "rb").read()
    except OSError as e:
        sys.exit(f"dcache_misses.py: {e}")
    cut = lambda n: n[:70]
    by_code, by_target = collections.Counter(), collections.Counter()
    fetched = collections.defaultdict(collections.Counter)  # line -> code -> times
    evicted_by = {}  # line -> (code, what it fetched) that last evicted it
    again = collections.Counter()
    for pc, line, old in struct.iter_unpack("<3I", data[:len(data) // 12 * 12]):
        # Lines are physical addresses; the symbols, KSEG0's.
        line = line & ~15 | 0x80000000
        code, target = cut(name(pc)), cut(name(line))
        by_code[code] += 1
        by_target[target] += 1
        if line in fetched:
            again[(code, target) + evicted_by.get(line, ("?", ""))] += 1
        fetched[line][code] += 1
        if old != 0xFFFFFFFF:
            evicted_by[old & ~15 | 0x80000000] = (code, target)
    print(f"{sum(by_code.values()) / per:,.0f} misses a render")
    for title, counts in (("by the code that misses", by_code), ("by what it fetches", by_target)):
        print(f"\n{title}, a render:")
        for k, v in counts.most_common(args.top):
            print(f"  {v / per:10,.0f}  {k}")
    top = by_target.most_common(1)[0][0]
    lines = [codes for line, codes in fetched.items() if cut(name(line)) == top]
    times = collections.Counter(sum(c.values()) for c in lines)
    print(f"\n{top}: {len(lines):,} lines, fetched {by_target[top] / per:,.0f} times a render;"
          f" lines by fetches in the window: {sorted(times.items())}")
    print(f"lines fetched more than {per} times, by the code that fetches them:")
    sharing = collections.Counter(" + ".join(sorted(c)) for c in lines if sum(c.values()) > per)
    for k, v in sharing.most_common(args.top):
        print(f"  {v:10,}  {k}")
    print("fetches after a line's first, a render (the code <- the code that evicted it, its line):")
    for k, v in again.most_common(args.top):
        if k[1] == top:
            print(f"  {v / per:10,.0f}  {k[0]} <- {k[2]} ({k[3]})")


if __name__ == "__main__":
    main()
