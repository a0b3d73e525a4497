#!/usr/bin/env python3
"""Writes the PNG textures of maps/e1_hangar.map and maps/textured.map
(python3 standard library only).

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


def clamp(v):
    return max(0, min(255, v))


def grey(g, tint=(1.0, 1.0, 1.0)):
    return (g * tint[0], g * tint[1], g * tint[2], 255)


def concrete():
    """64x64 grey concrete blocks, 32x16 with thin dark joints: the
    tunnel, the stairs and the storage room's floor."""
    grain = noise(5, 64 * 64)

    def px(x, y):
        row = y // 16
        bx = (x + (16 if row % 2 else 0)) % 32
        if y % 16 == 15 or bx == 31:
            return grey(70 + 10 * grain[y * 64 + x])
        g = 130 + 30 * grain[y * 64 + x] - 12 * (row % 2)
        return grey(g, (1.0, 0.98, 0.93))

    write_png("concrete.png", 64, 64, px)


def plate():
    """64x64 diamond-plate steel floor, the hangar's and the dock's."""
    grain = noise(6, 64 * 64)

    def px(x, y):
        u, v = x % 16, y % 16
        d = abs(u - 8) + abs(v - 8)
        bump = 1 if (u + v) % 16 in (7, 8) and 4 < u < 12 else 0
        g = 105 + 25 * grain[y * 64 + x] + 45 * bump - 2 * d
        if x % 64 in (0, 63) or y % 64 in (0, 63):
            g = 60
        return grey(g, (0.95, 0.98, 1.05))

    write_png("plate.png", 64, 64, px)


def ceiling():
    """64x64 ceiling tiles with a bright light panel in the middle."""
    grain = noise(7, 64 * 64)

    def px(x, y):
        if x % 32 in (0, 31) or y % 32 in (0, 31):
            return grey(80)
        if 20 <= x < 44 and 20 <= y < 44:
            return (250, 250, 225, 255) if 22 <= x < 42 and 22 <= y < 42 else grey(200)
        return grey(165 + 20 * grain[y * 64 + x])

    write_png("ceil.png", 64, 64, px)


def grass():
    """64x64 grass for the yard: mottled greens."""
    grain = noise(8, 64 * 64)
    blades = noise(9, 64 * 64)

    def px(x, y):
        g = grain[y * 64 + x]
        if blades[y * 64 + x] > 0.93:
            return (120, 190, 80, 255)
        return (40 + 30 * g, 100 + 50 * g, 30 + 20 * g, 255)

    write_png("grass.png", 64, 64, px)


def dirt():
    """64x64 brown earth, the planters' beds."""
    grain = noise(10, 64 * 64)

    def px(x, y):
        g = grain[y * 64 + x]
        if g > 0.95:
            return (160, 150, 130, 255)  # a pebble
        return (100 + 40 * g, 70 + 25 * g, 40 + 15 * g, 255)

    write_png("dirt.png", 64, 64, px)


def wood():
    """64x64 planks running across, for the counter and the tree trunks."""
    grain = noise(11, 64)

    def px(x, y):
        plank = y // 16
        if y % 16 == 15:
            return (50, 30, 15, 255)
        ring = math.sin((x + 37 * plank) / 3.0 + 2.0 * math.sin(y / 5.0 + plank)) * 0.5 + 0.5
        shade = 0.8 + 0.25 * grain[(x + 17 * plank) % 64] + 0.15 * ring
        return (150 * shade, 95 * shade, 50 * shade, 255)

    write_png("wood.png", 64, 64, px)


def computer():
    """64x64 console front: a dark screen with text lines, a row of lamps."""
    grain = noise(12, 64 * 64)
    lamps = [(255, 60, 40), (60, 220, 60), (250, 210, 40), (60, 140, 255)]

    def px(x, y):
        if x % 64 in (0, 63) or y % 64 in (0, 63):
            return grey(50)
        if 6 <= x < 58 and 6 <= y < 34:
            if 8 <= x < 56 and 8 <= y < 32:
                line = (y - 10) % 5 == 0 and y < 31 and grain[y * 64 + x // 3] > 0.35
                return (60, 230, 120, 255) if line else (10, 40, 25, 255)
            return grey(30)
        if 40 <= y < 46 and (x - 8) % 12 < 6 and 8 <= x < 56:
            r, g, b = lamps[((x - 8) // 12) % 4]
            return (r, g, b, 255)
        return grey(95 + 20 * grain[y * 64 + x], (0.95, 0.97, 1.0))

    write_png("computer.png", 64, 64, px)


def doortrak():
    """16x128 door jamb: a dark steel channel."""

    def px(x, y):
        if x in (0, 15):
            return grey(40)
        if 6 <= x < 10:
            return grey(60)
        return grey(100 + 5 * math.sin(y / 4.0), (0.95, 0.97, 1.0))

    write_png("doortrak.png", 16, 128, px)


def door():
    """64x128 sliding door: steel panels, a window strip, yellow and black
    stripes along its foot (the bottom rows lead as it rises)."""
    grain = noise(13, 64 * 128)

    def px(x, y):
        if x in (0, 63) or y in (0, 127):
            return grey(45)
        if y >= 112:
            stripe = ((x + y) // 8) % 2 == 0
            return (230, 190, 30, 255) if stripe else (30, 30, 30, 255)
        if 24 <= y < 40 and 12 <= x < 52:
            return (70, 110, 150, 255) if 14 <= x < 50 and 26 <= y < 38 else grey(55)
        if y % 36 == 4 or x in (31, 32):
            return grey(70)
        return grey(120 + 20 * grain[y * 64 + x], (0.95, 0.98, 1.05))

    write_png("door.png", 64, 128, px)


# A 3x5 pixel font for the signs.
GLYPHS = {
    "E": ["111", "100", "110", "100", "111"],
    "X": ["101", "101", "010", "101", "101"],
    "I": ["111", "010", "010", "010", "111"],
    "T": ["111", "010", "010", "010", "010"],
}


def sign(text, x0, y0, scale):
    """The set of (x, y) pixels that `text` covers, from (x0, y0)."""
    on = set()
    for k, ch in enumerate(text):
        for gy, row in enumerate(GLYPHS[ch]):
            for gx, bit in enumerate(row):
                if bit == "1":
                    for dy in range(scale):
                        for dx in range(scale):
                            on.add((x0 + (k * 4 + gx) * scale + dx, y0 + gy * scale + dy))
    return on


def switch(name, on):
    """64x128 exit switch, the control room's: an EXIT sign over a lever
    box. `on` is the used look (SW2): lever down, lamp green."""
    grain = noise(14, 64 * 128)
    letters = sign("EXIT", 9, 14, 2)

    def px(x, y):
        if x % 64 in (0, 63) or y in (0, 127):
            return (50, 55, 60, 255)
        # The sign: red letters on black.
        if 6 <= x < 58 and 8 <= y < 32:
            if (x, y) in letters:
                return (255, 40, 30, 255)
            return grey(15)
        # The lever box.
        if 20 <= x < 44 and 48 <= y < 100:
            if x in (20, 43) or y in (48, 99):
                return grey(35)
            lamp = (40, 230, 60) if on else (240, 40, 30)
            if 28 <= x < 36 and 54 <= y < 62:
                return lamp + (255,)
            handle_y = range(80, 94) if on else range(66, 80)
            if 29 <= x < 35 and y in handle_y:
                return (210, 210, 200, 255)
            if 26 <= x < 38 and (y == (93 if on else 66)):
                return (230, 40, 30, 255)
            return grey(70)
        g = 110 + 20 * grain[y * 64 + x] + 20 * math.sin(y / 9.0)
        return (g * 0.9, g, g * 1.05, 255)

    write_png(name, 64, 128, px)


def lift():
    """64x64 lift face: a band of yellow and black stripes at the top (the
    edge the player steps over), ribbed steel below."""
    grain = noise(15, 64 * 64)

    def px(x, y):
        if y < 12:
            stripe = ((x - y) // 8) % 2 == 0
            return (235, 195, 30, 255) if stripe else (25, 25, 25, 255)
        if y % 8 == 0:
            return grey(60)
        return grey(115 + 20 * grain[y * 64 + x], (0.95, 0.97, 1.0))

    write_png("lift.png", 64, 64, px)


def gate():
    """64x64 teleporter pad: glowing rings on dark."""

    def px(x, y):
        r = math.hypot(x - 31.5, y - 31.5)
        glow = 0.5 + 0.5 * math.cos(r / 2.2)
        fade = max(0.0, 1.0 - r / 46.0)
        v = glow * fade
        return (20 + 60 * v, 60 + 190 * v, 60 + 170 * v, 255)

    write_png("gate.png", 64, 64, px)


if __name__ == "__main__":
    bricks()
    tiles()
    panels()
    sky()
    concrete()
    plate()
    ceiling()
    grass()
    dirt()
    wood()
    computer()
    doortrak()
    door()
    switch("sw1exit.png", on=False)
    switch("sw2exit.png", on=True)
    lift()
    gate()
