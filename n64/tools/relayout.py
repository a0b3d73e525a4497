#!/usr/bin/env python3
"""Finds link.x's order again for a changed tour ROM: records the fetch
traces icache_layout.py searches with, runs its search with several
seeds, and keeps the order with the fewest misses.

Any change to the hot code moves the functions after it, and the order
in link.x, found for the code before, goes stale (a change can gain in
its loop and lose more in the instruction cache). Judging a change
takes the order found again for it; this is that, in one command.

For each level it traces the tour's 16 default views (from the ROM's
"level=L load=" line to "level=L views=16") and, unless --no-low, its
low detail ones (from "level=L mode=bar views=16" to "level=L mode=low
views=16"), --jobs runs at a time, with cen64 built by
build_cen64_stalls.sh. Then it runs icache_layout.py over all the traces
once per seed (--jobs at a time) and writes the best order into link.x
(--write).

Usage:
  relayout.py ROM_DIR [--levels L,L,...] [--no-low] [--seeds 1,2]
              [--jobs 2] [--work DIR] [--cen64 PATH] [--write LINK_X]
ROM_DIR is a tour ROM built from the tree to lay out (from n64/:
`N64_EXTRA_MAPS=A.spmp:B.spmp N64_ROM_DIR=DIR ./build.sh --tour`), with
raycaster-emu.elf, raycaster-emu.z64, pif_emu.bin and, for the order's
functions, the ROM that plays (raycaster.elf). Without --write it prints
the figures and writes nothing. Then rebuild the ROM and time it (the
tour in Debian's cen64, as n64/test.sh does): the model's figure is a
guide, the tour is the measure.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
N64 = os.path.dirname(HERE)
LEVELS = "e1_hangar,corners,stairs,textured,E1M1,E1M4,MAP01"
FOUND = re.compile(r"([\d,]+) misses as recorded, ([\d,]+) in the order found")


def windows(levels, low):
    """(name, from, to) of each run to trace."""
    runs = [(lv, f"level={lv} load=", f"level={lv} views=16") for lv in levels]
    if low:
        runs += [(f"{lv}-low", f"level={lv} mode=bar views=16", f"level={lv} mode=low views=16")
                 for lv in levels]
    return runs


def trace(rom_dir, cen64, work, run):
    """Records one run's fetch trace; its path, or None (and why) if it failed."""
    name, start, end = run
    out = os.path.join(work, name + ".itrace")
    # A copy of the ROM for each run: cen64 writes its counts beside the
    # ROM, and two runs at once would write the same file.
    rom = os.path.join(work, name + ".z64")
    shutil.copy(os.path.join(rom_dir, "raycaster-emu.z64"), rom)
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 640x480x24", sys.executable,
           os.path.join(HERE, "cen64_run.py"), "--cen64", cen64,
           "--pif", os.path.join(rom_dir, "pif_emu.bin"),
           "--rom", rom,
           # cen64's own line once the window closes: the trace is complete.
           "--until", "cen64: profile written",
           "--profile-from", start, "--profile-to", end,
           "--profile-out", os.path.join(work, name + ".profile"),
           "--log", os.path.join(work, name + ".log"), "--timeout", "1800"]
    env = dict(os.environ, CEN64_ITRACE=out)
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode != 0 or not os.path.exists(out) or os.path.getsize(out) == 0:
        return None, f"{name}: no trace (cen64_run.py exit {done.returncode}; " \
                     f"log {os.path.join(work, name + '.log')}) {done.stderr.strip()}"
    return out, None


def search(elf, play_elf, traces, seed, link_x):
    """Runs icache_layout.py with `seed`, writing into `link_x`; the misses it found."""
    cmd = [sys.executable, os.path.join(HERE, "icache_layout.py"), elf, *traces,
           "--also", play_elf, "--seed", str(seed), "--write", link_x]
    done = subprocess.run(cmd, capture_output=True, text=True)
    found = FOUND.search(done.stdout)
    if done.returncode != 0 or not found:
        sys.exit(f"relayout: icache_layout.py failed with seed {seed}:\n{done.stdout}{done.stderr}")
    return int(found.group(1).replace(",", "")), int(found.group(2).replace(",", "")), done.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rom_dir")
    ap.add_argument("--levels", default=LEVELS)
    ap.add_argument("--no-low", action="store_true", help="trace the default views only")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", help="keep the traces here (default: a temporary directory)")
    ap.add_argument("--cen64", default=os.path.join(N64, "target", "cen64-stalls", "cen64"))
    ap.add_argument("--write", metavar="LINK_X")
    args = ap.parse_args()

    elf = os.path.join(args.rom_dir, "raycaster-emu.elf")
    play_elf = os.path.join(args.rom_dir, "raycaster.elf")
    for path in (elf, play_elf, os.path.join(args.rom_dir, "raycaster-emu.z64"),
                 os.path.join(args.rom_dir, "pif_emu.bin")):
        if not os.path.isfile(path):
            sys.exit(f"relayout: {path} is missing (build a tour ROM: see --help)")
    if not os.access(args.cen64, os.X_OK):
        sys.exit(f"relayout: no cen64 with the stall counters at {args.cen64} "
                 "(n64/tools/build_cen64_stalls.sh builds it)")
    if shutil.which("xvfb-run") is None:
        sys.exit("relayout: xvfb-run is missing (Debian: apt-get install xvfb)")
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        sys.exit(f"relayout: --seeds takes numbers separated by commas, not {args.seeds!r}")
    levels = [lv for lv in args.levels.split(",") if lv]
    if not levels or not seeds or args.jobs < 1:
        sys.exit("relayout: at least one level, one seed and one job")
    if args.write and not os.path.isfile(args.write):
        sys.exit(f"relayout: {args.write} is missing")

    work = args.work or tempfile.mkdtemp(prefix="relayout-")
    os.makedirs(work, exist_ok=True)
    runs = windows(levels, not args.no_low)
    print(f"relayout: tracing {len(runs)} runs into {work}", flush=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda r: trace(args.rom_dir, args.cen64, work, r), runs))
    failed = [why for _, why in results if why]
    if failed:
        sys.exit("relayout: " + "\n".join(failed))
    traces = [path for path, _ in results]

    with tempfile.TemporaryDirectory(prefix="relayout-") as tmp:
        def one(seed):
            link_x = os.path.join(tmp, f"link-{seed}.x")
            shutil.copy(args.write or os.path.join(N64, "link.x"), link_x)
            return (*search(elf, play_elf, traces, seed, link_x), seed, link_x)

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            searched = list(pool.map(one, seeds))
        for recorded, found, _, seed, _ in searched:
            print(f"relayout: seed {seed}: {found:,} misses in the order found "
                  f"({recorded:,} in the ROM's)", flush=True)
        _, found, table, seed, link_x = min(searched, key=lambda r: r[1])
        print(table, end="")
        if args.write:
            shutil.copy(link_x, args.write)
            print(f"relayout: seed {seed}'s order written into {args.write}")
    if not args.work:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
