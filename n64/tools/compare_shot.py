#!/usr/bin/env python3
"""Compares the emulator's screenshot of the ROM with the desktop's render.

    compare_shot.py EMULATOR.png DESKTOP.png... [--ignore X,Y,W,H]... [--diff OUT.png]

Both images are 320x240. The ROM renders the same view with the same
engine, but in 16-bit colour, and the emulator's video plugin adds its own
artefacts, so an exact match is not expected. A pixel matches when some
desktop pixel at most one pixel away (the plugin shifts the picture by
about one pixel and blacks out the last row and column) is within
TOLERANCE of it on every channel (a 5-bit channel c shows as about 8c, so
8-bit values lose up to 7 to the ROM's 16-bit colour and a few more to the
plugin's rounding). The images match when at least MIN_MATCH of the
compared pixels do. Rectangles given with --ignore (the ROM's on-screen
readout) are left out, and so is the one-pixel border, where the shift
leaves nothing to compare.

Given several desktop images (the same view at successive game ticks: a
level's flickering and glowing lights change the picture from tick to
tick, and when the emulator's screenshot is taken is known only to a
few ticks), the emulator's must match one of them; the first that
matches is named, else the closest.

To guard against comparing two blank pictures, the desktop image must show
at least MIN_COLOURS distinct colours.

Python 3 standard library only: the PNG decoder below handles 8-bit RGB
and RGBA, non-interlaced, which is what both programs write.

Exit status: 0 on a match, 1 on a mismatch, 2 on bad input.
"""

import argparse
import struct
import sys
import zlib

TOLERANCE = 12
MIN_MATCH = 0.995
MIN_COLOURS = 8


def read_png(path):
    """Returns (width, height, rows) with rows[y][x] = (r, g, b)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos = 8
    width = height = None
    colour_type = None
    idat = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour_type not in (2, 6) or interlace != 0:
                raise ValueError(
                    f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are supported "
                    f"(depth {depth}, colour type {colour_type}, interlace {interlace})"
                )
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if width is None:
        raise ValueError(f"{path}: no IHDR chunk")
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows = []
    previous = bytearray(stride)
    at = 0
    for _ in range(height):
        filter_type = raw[at]
        line = bytearray(raw[at + 1 : at + 1 + stride])
        at += 1 + stride
        unfilter(filter_type, line, previous, channels)
        rows.append([tuple(line[x * channels : x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def unfilter(filter_type, line, previous, bpp):
    """Undoes one PNG row filter in place."""
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = previous[i]
        up_left = previous[i - bpp] if i >= bpp else 0
        if filter_type == 0:
            continue
        if filter_type == 1:
            predicted = left
        elif filter_type == 2:
            predicted = up
        elif filter_type == 3:
            predicted = (left + up) // 2
        elif filter_type == 4:
            p = left + up - up_left
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
            predicted = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
        else:
            raise ValueError(f"bad PNG filter type {filter_type}")
        line[i] = (line[i] + predicted) & 0xFF


def write_png(path, width, height, rows):
    """Writes rows[y][x] = (r, g, b) as an 8-bit RGB PNG."""
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw)))
        f.write(chunk(b"IEND", b""))


def close(a, b):
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b))


def compare(emu, desk, ignored):
    """(matched, compared, in place, diff rows) of emu against desk."""
    eh, ew = len(emu), len(emu[0])

    def is_ignored(x, y):
        return any(rx <= x < rx + rw and ry <= y < ry + rh for rx, ry, rw, rh in ignored)

    compared = matched = exact_place = 0
    diff = [[(px[0] // 3, px[1] // 3, px[2] // 3) for px in row] for row in emu]
    for y in range(1, eh - 1):
        for x in range(1, ew - 1):
            if is_ignored(x, y):
                continue
            compared += 1
            here = emu[y][x]
            if close(here, desk[y][x]):
                matched += 1
                exact_place += 1
                continue
            if any(
                close(here, desk[y + dy][x + dx])
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
                if (dx, dy) != (0, 0)
            ):
                matched += 1
            else:
                diff[y][x] = (255, 0, 0)
    return matched, compared, exact_place, diff


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("emulator")
    parser.add_argument("desktop", nargs="+")
    parser.add_argument("--ignore", action="append", default=[], metavar="X,Y,W,H")
    parser.add_argument("--diff", metavar="OUT.png", help="write mismatching pixels in red")
    args = parser.parse_args()

    try:
        ew, eh, emu = read_png(args.emulator)
        ignored = [tuple(int(v) for v in r.split(",")) for r in args.ignore]
    except (OSError, ValueError, zlib.error) as e:
        print(f"compare_shot: {e}", file=sys.stderr)
        return 2

    best = None
    for number, path in enumerate(args.desktop, 1):
        try:
            dw, dh, desk = read_png(path)
        except (OSError, ValueError, zlib.error) as e:
            print(f"compare_shot: {e}", file=sys.stderr)
            return 2
        if (ew, eh) != (dw, dh):
            print(f"compare_shot: sizes differ: emulator {ew}x{eh}, desktop {dw}x{dh}", file=sys.stderr)
            return 2
        colours = {px for row in desk for px in row}
        if len(colours) < MIN_COLOURS:
            print(f"compare_shot: the desktop image {path} has only {len(colours)} colours: "
                  "nothing to compare")
            return 1
        matched, compared, exact_place, diff = compare(emu, desk, ignored)
        share = matched / compared if compared else 0.0
        if best is None or share > best[0]:
            best = (share, matched, compared, exact_place, diff, number, path, len(colours))
        if share >= MIN_MATCH:
            break

    share, matched, compared, exact_place, diff, number, path, colours = best
    if args.diff:
        write_png(args.diff, ew, eh, diff)
    verdict = "match" if share >= MIN_MATCH else "MISMATCH"
    which = f" (desktop image {number} of {len(args.desktop)}, {path})" if len(args.desktop) > 1 else ""
    print(
        f"compare_shot: {verdict}{which}: {matched}/{compared} pixels ({share:.2%}) within "
        f"+-{TOLERANCE} of the desktop's within one pixel ({exact_place / compared:.2%} "
        f"in place); need {MIN_MATCH:.1%}; desktop image has {colours} colours"
    )
    return 0 if share >= MIN_MATCH else 1


if __name__ == "__main__":
    sys.exit(main())
