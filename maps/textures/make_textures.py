#!/usr/bin/env python3
"""Writes the PNG textures of maps/textured.map (python3 standard library only).

    python3 maps/textures/make_textures.py

Procedural and deterministic: running it again rewrites the same files.
"""
import math
import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(name, width, height, pixel):
    """pixel(x, y) -> (r, g, b, a); writes HERE/name as 8-bit RGBA."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows.extend(bytes(max(0, min(255, int(c))) for c in pixel(x, y)))

    def chunk(kind, data):
        out = struct.pack(">I", len(data)) + kind + data
        return out + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    png += chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(png)


def noise(seed, n):
    rng = random.Random(seed)
    return [rng.random() for _ in range(n)]


def bricks():
    """64x64 red bricks, 16 high and 32 long, mortar between, offset rows."""
    grain = noise(1, 64 * 64)

    def px(x, y):
        row = y // 16
        bx = (x + (16 if row % 2 else 0)) % 32
        if y % 16 in (0, 15) or bx in (0, 31):
            g = 150 + 30 * grain[y * 64 + x]
            return (g, g, g - 10, 255)
        shade = 0.8 + 0.3 * grain[y * 64 + x] - 0.1 * (row % 2)
        return (170 * shade, 70 * shade, 50 * shade, 255)

    write_png("bricks.png", 64, 64, px)


def tiles():
    """64x64 floor: four 32x32 tiles, two shades of blue-grey, dark grout."""
    grain = noise(2, 64 * 64)

    def px(x, y):
        if x % 32 in (0, 31) or y % 32 in (0, 31):
            return (40, 40, 48, 255)
        light = 1.0 if (x // 32 + y // 32) % 2 == 0 else 0.75
        g = light * (150 + 25 * grain[y * 64 + x])
        return (g * 0.85, g * 0.9, g, 255)

    write_png("tiles.png", 64, 64, px)


def panels():
    """64x128 metal panels with rivets, for the tall room's walls."""
    grain = noise(3, 64 * 128)

    def px(x, y):
        if x % 64 in (0, 63) or y % 64 in (0, 63):
            return (50, 55, 60, 255)
        if (x % 64 in (6, 57)) and (y % 64 in (6, 57)):
            return (220, 220, 200, 255)
        g = 110 + 20 * grain[y * 64 + x] + 20 * math.sin(y / 9.0)
        return (g * 0.9, g, g * 1.05, 255)

    write_png("panels.png", 64, 128, px)


def sky():
    """256x128 sky: a blue gradient with soft white clouds, wrapping
    left to right (sums of sines with whole periods across the width)."""
    rng = random.Random(4)
    waves = [(rng.randint(1, 6), rng.uniform(0.02, 0.09), rng.uniform(0, 6.3), rng.uniform(0, 6.3))
             for _ in range(12)]

    def px(x, y):
        t = y / 127.0
        r, g, b = 40 + 90 * t, 90 + 100 * t, 200 + 40 * t
        a = x / 256.0 * 2 * math.pi
        c = sum(math.sin(k * a + p) * math.cos(f * y + q) for k, f, p, q in waves) / 4.0
        cloud = min(1.0, max(0.0, c - 0.15) * 1.8) * (1.0 - 0.6 * t)
        return (r + (255 - r) * cloud, g + (255 - g) * cloud, b + (255 - b) * cloud, 255)

    write_png("sky.png", 256, 128, px)


if __name__ == "__main__":
    bricks()
    tiles()
    panels()
    sky()
