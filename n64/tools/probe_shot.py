#!/usr/bin/env python3
"""Checks the colour of single pixels in a screenshot.

    probe_shot.py SHOT.png X,Y,R,G,B [X,Y,R,G,B]...

Each pixel must be within compare_shot.TOLERANCE of the given colour on
every channel (the ROM's 16-bit colour and the emulator's rounding).
Exit status 0 when all match, 1 otherwise, 2 on bad input.
"""

import sys
import zlib

from compare_shot import TOLERANCE, read_png


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        width, height, rows = read_png(argv[1])
        probes = [tuple(int(v) for v in p.split(",")) for p in argv[2:]]
    except (OSError, ValueError, zlib.error) as e:
        print(f"probe_shot: {e}", file=sys.stderr)
        return 2
    status = 0
    for x, y, *want in probes:
        if not (0 <= x < width and 0 <= y < height) or len(want) != 3:
            print(f"probe_shot: bad probe {x},{y},{want}", file=sys.stderr)
            return 2
        got = rows[y][x]
        ok = all(abs(g - w) <= TOLERANCE for g, w in zip(got, want))
        print(f"pixel ({x}, {y}): {got}, expected {tuple(want)}: {'ok' if ok else 'WRONG'}")
        status |= 0 if ok else 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
