#!/usr/bin/env python3
"""Checks what the ROM reported over the IS-Viewer in a mupen64plus log.

mupen64plus prints each IS-Viewer line as `Core: IS64: <line>`; the ROM's
lines start with a keyword (see n64/src/main.rs). Subcommands:

    check_log.py boot LOG
        the ROM booted: a `boot:` line and a `level:` line for the default
        level.
    check_log.py demo LOG EXPECTED_LINE
        the `demo final state:` line equals EXPECTED_LINE byte for byte.
    check_log.py replay LOG EXPECTED_LINE
        the `demo replay final state:` line (the demo replayed on screen
        after Start) equals EXPECTED_LINE byte for byte.
    check_log.py input LOG
        scripted controller input moved the player as n64/test.sh's script
        asks (see INPUT_STEPS), and the dead zone held.
    check_log.py levels LOG
        R, pressed once per level, visited every level in order and wrapped
        round to the first; then L wrapped back to the last.
    check_log.py frames LOG
        prints one line per level: the frame time in Count ticks from its
        first `frame:` report (the start view, nobody moving).
    check_log.py exception LOG
        the test exception was reported with its cause and address.

Python 3 standard library only. Exit status 0 when the check holds.
"""

import json
import re
import sys

PREFIX = "Core: IS64: "

# What n64/test.sh's input script holds, in order, as the engine inputs
# (FORWARD STRAFE TURN) the ROM must map them to, with what must change
# while each is held.
INPUT_STEPS = [
    ("100 0 0", "moves"),  # stick fully up: full speed forward
    ("0 0 -5", "turns"),  # stick fully right: the fastest right turn
    ("0 -100 0", "moves"),  # C-left: strafe left
    ("0 0 0", "stops"),  # stick inside the dead zone: nothing
]


def rom_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.rstrip("\n")[len(PREFIX):] for line in f if line.startswith(PREFIX)]


def fail(message):
    print(message)
    return 1


def check_boot(lines):
    boot = [l for l in lines if l.startswith("boot: ")]
    level = [l for l in lines if l.startswith("level: ")]
    if not boot:
        return fail("no `boot:` line: the ROM did not start (or the IS-Viewer is not working)")
    if not level or not level[0].startswith("level: e1_hangar (1/"):
        return fail(f"the first level is not e1_hangar: {level[:1]}")
    print(boot[0])
    return 0


def check_demo(lines, expected, key="demo final state: "):
    found = [l[len(key):] for l in lines if l.startswith(key)]
    if not found:
        return fail(f"no `{key.strip()}` line")
    if found[0] != expected:
        return fail(f"demo final states differ:\n  ROM:     {found[0]}\n  desktop: {expected}")
    print(f"demo final state equal: {found[0]}")
    return 0


def check_input(lines):
    changes = []
    for l in lines:
        m = re.match(r"input: (-?\d+ -?\d+ -?\d+) at (\{.*\})$", l)
        if m:
            changes.append((m.group(1), json.loads(m.group(2))))
        elif l.startswith("level: ") and changes:
            break  # a level switch ends the movement part of the script
    inputs = [c[0] for c in changes]
    expected = [s[0] for s in INPUT_STEPS]
    if inputs[: len(expected)] != expected:
        return fail(f"controller inputs were {inputs}, expected {expected} (stick and C-button mapping)")
    if len(inputs) != len(expected):
        return fail(f"extra input changes after the script's last step: {inputs[len(expected):]}")
    # Each step's effect shows in the state at the next change. The last
    # step holds the stick inside the dead zone: that it reads as 0 0 0
    # and that no change follows it is the dead zone's check.
    for i, (step, effect) in enumerate(INPUT_STEPS[:-1]):
        before, after = changes[i][1], changes[i + 1][1]
        moved = (before["x"], before["y"]) != (after["x"], after["y"])
        turned = before["angle"] != after["angle"]
        if effect == "moves" and not moved:
            return fail(f"input {step} did not move the player: {before} -> {after}")
        if effect == "turns" and not turned:
            return fail(f"input {step} did not turn the player: {before} -> {after}")
        # Signed change in (-180, 180]: turning right is negative.
        turn = (after["angle"] - before["angle"] + 180) % 360 - 180
        if effect == "turns" and turn >= 0:
            return fail(f"input {step} turned left, not right: {before['angle']} -> {after['angle']}")
        if step == "0 -100 0" and turned:
            return fail(f"strafing turned the player: {before} -> {after}")
        print(f"input {step}: {effect}: ({before['x']}, {before['y']}) {before['angle']} deg "
              f"-> ({after['x']}, {after['y']}) {after['angle']} deg")
    print("input 0 0 0: the stick inside the dead zone reads as no input")
    return 0


def check_levels(lines):
    seen = []
    for l in lines:
        m = re.match(r"level: (\S+) \((\d+)/(\d+)\)", l)
        if m:
            seen.append((m.group(1), int(m.group(2)), int(m.group(3))))
    if not seen:
        return fail("no `level:` line")
    count = seen[0][2]
    # Boot on level 1, R once per level (2, 3, ..., count, then 1), L once.
    expected = [1] + list(range(2, count + 1)) + [1, count]
    got = [index for _, index, _ in seen]
    if got != expected:
        return fail(f"level numbers were {got}, expected {expected} (R: next, L: previous, wrapping)")
    print(f"levels: {' -> '.join(name for name, _, _ in seen)}")
    return 0


def frame_figures(lines):
    figures = {}
    for l in lines:
        m = re.match(r"frame: level=(\S+) frames=(\d+) avg=(\d+) max=(\d+) render_avg=(\d+) "
                     r"budget=(\d+) stack=(\d+)", l)
        if m and m.group(1) not in figures:
            figures[m.group(1)] = {
                "avg": int(m.group(3)),
                "max": int(m.group(4)),
                "render": int(m.group(5)),
                "budget": int(m.group(6)),
                "stack": int(m.group(7)),
            }
    return figures


def check_frames(lines):
    figures = frame_figures(lines)
    if not figures:
        return fail("no `frame:` report")
    for name, f in figures.items():
        print(f"frame time {name}: {f['avg']} Count ticks per frame (max {f['max']}, "
              f"render {f['render']}), {f['avg'] / f['budget']:.2f}x the {f['budget']} of 1/30 s; "
              f"stack high-water {f['stack']} bytes")
    return 0


def check_exception(lines):
    found = [l for l in lines if l.startswith("exception: ")]
    if not found:
        return fail("no `exception:` line")
    line = found[0]
    if "TLB miss on load" not in line or "(code 2)" not in line or "bad address 0x00000000" not in line:
        return fail(f"unexpected exception report: {line}")
    if not re.search(r"at pc 0x8[0-9a-f]{7}", line):
        return fail(f"no faulting address in: {line}")
    print(line)
    return 0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    command, log = argv[1], argv[2]
    lines = rom_lines(log)
    if command == "boot":
        return check_boot(lines)
    if command == "demo" and len(argv) == 4:
        return check_demo(lines, argv[3])
    if command == "replay" and len(argv) == 4:
        return check_demo(lines, argv[3], key="demo replay final state: ")
    if command == "input":
        return check_input(lines)
    if command == "levels":
        return check_levels(lines)
    if command == "frames":
        return check_frames(lines)
    if command == "exception":
        return check_exception(lines)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
