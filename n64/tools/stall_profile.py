#!/usr/bin/env python3
"""Where a frame's cycles go, by function: a cen64 profile with stall
counts (build_cen64_stalls.sh, cen64_run.py --profile-out) against the
ELF's symbols.

Each address's counts are weighed by what cen64 charges for them:
an instruction 1 cycle, a data-cache miss (or uncached access) 45, a
load-use interlock 1, a data-cache-busy interlock 1, an instruction-cache
miss 50, a multiply or divide its own count of cycles. Their sum over a
frame is cen64's frame time in CPU cycles (two a Count tick) to within a
few per cent; what is left is exceptions (the tour's sampler) and the
pipeline's other corners. The vertical-blank wait is shown and left out
of the totals.

Usage: stall_profile.py ELF PROFILE [--frames N] [--top N] [--function NAME]
  --frames N      divide by N (the tour renders each view twice: 32 for
                  one level's 16 views)
  --function NAME also list NAME's addresses with their counts, beside
                  its disassembly when llvm-objdump is there
"""

import argparse
import collections
import shutil
import subprocess
import sys

from tour_profile import WAITING, namer, symbols

KINDS = ["instructions", "d-misses", "ldi", "dcb", "i-misses", "mul/div"]
WEIGHTS = [1, 45, 1, 1, 50, 1]


def load(path):
    rows = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                fields = line.split()
                try:
                    if len(fields) != 7:
                        raise ValueError
                    rows.append((int(fields[0], 16), [int(x) for x in fields[1:]]))
                except ValueError:
                    sys.exit(f"stall_profile: {path}:{number}: {line.strip()[:60]!r} is not an "
                             "address and six counts: is it from build_cen64_stalls.sh's cen64?")
    except OSError as e:
        sys.exit(f"stall_profile: {e}")
    return rows


def cycles(counts):
    return sum(c * w for c, w in zip(counts, WEIGHTS))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("elf")
    ap.add_argument("profile")
    ap.add_argument("--frames", type=float, default=1)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--function")
    args = ap.parse_args()
    if not args.frames > 0:
        ap.error("--frames must be more than 0")

    syms = symbols(args.elf)
    name_at = namer(syms)
    by_function = collections.defaultdict(lambda: [0] * len(KINDS))
    by_address = collections.defaultdict(list)
    for address, counts in load(args.profile):
        name = name_at(address)
        total = by_function[name]
        for i, c in enumerate(counts):
            total[i] += c
        by_address[name].append((address, counts))

    n = args.frames
    summed = [sum(t[i] for name, t in by_function.items() if WAITING not in name)
              for i in range(len(KINDS))]
    whole = cycles(summed) or 1
    print(f"a frame, the vertical-blank wait left out: {whole / n:,.0f} cycles "
          f"({whole / n / 2:,.0f} Count ticks)")
    for kind, c, w in zip(KINDS, summed, WEIGHTS):
        print(f"  {kind:<13} {c / n:>11,.0f} x{w:<3} {c * w / whole:6.1%}")
    print()
    print(f"| function | cycles a frame | share | instructions | d-misses | ldi | dcb "
          f"| i-misses | mul/div |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    ranked = sorted(by_function.items(), key=lambda kv: -cycles(kv[1]))
    for name, t in ranked[:args.top]:
        share = "" if WAITING in name else f"{cycles(t) / whole:.1%}"
        print(f"| `{name}` | {cycles(t) / n:,.0f} | {share} | "
              + " | ".join(f"{c / n:,.0f}" for c in t) + " |")

    if args.function:
        matching = [name for name in by_address if args.function in name]
        if not matching:
            sys.exit(f"stall_profile: no function with {args.function!r} in its name ran")
        text = {}
        if shutil.which("llvm-objdump"):
            dis = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", "--demangle",
                                  args.elf], capture_output=True, text=True).stdout
            for line in dis.splitlines():
                head, _, rest = line.partition(":")
                head = head.strip()
                if len(head) == 8 and rest.strip() and all(
                        c in "0123456789abcdef" for c in head):
                    text[int(head, 16)] = rest.strip().split(" <")[0]
        for name in matching:
            print(f"\n{name}\naddress  " + " ".join(f"{k:>12}" for k in KINDS))
            for address, counts in sorted(by_address[name]):
                print(f"{address:x} " + " ".join(f"{c / n:>12,.0f}" for c in counts)
                      + f"  {text.get(address, '')}")


if __name__ == "__main__":
    main()
