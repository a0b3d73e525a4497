#!/usr/bin/env python3
"""Checks what the ROM reported over the IS-Viewer in an emulator's log.

mupen64plus prints each IS-Viewer line as `Core: IS64: <line>`, cen64 (as
tools/cen64_run.py keeps it) as it is; the ROM's lines start with a keyword
(see n64/src/main.rs). Subcommands:

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
    check_log.py exception LOG
        the test exception was reported with its cause and address.
    check_log.py tour LOG
        the view tour (a `--tour` ROM) timed and profiled every level and
        finished.
    check_log.py tour-table MUPEN_LOG CEN64_LOG
        prints the tour's figures per level from both emulators: the median
        and the worst frame in cen64 Count ticks, the median in
        mupen64plus, and the cycles per instruction; then cen64's median
        and worst frame in each view mode.

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
    """The ROM's lines: mupen64plus's prefixed ones, or all of a log that
    has none (cen64's)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip("\n") for line in f]
    if any(line.startswith(PREFIX) for line in lines):
        return [line[len(PREFIX):] for line in lines if line.startswith(PREFIX)]
    return lines


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


TOUR_VIEW = re.compile(r"tour: level=(\S+) view=(\d+) frame=(\d+) render=(\d+) at ")
TOUR_MODE = re.compile(r"tour: level=(\S+) mode=(\S+) views=(\d+) frame_median=(\d+) "
                       r"render_median=(\d+) worst_frame=(\d+) worst_render=(\d+) worst_view=(\d+)$")
TOUR_LEVEL = re.compile(r"tour: level=(\S+) views=(\d+) frame_median=(\d+) render_median=(\d+) "
                        r"worst_frame=(\d+) worst_render=(\d+) worst_view=(\d+)$")
# Count ticks in a second.
SECOND = 46_875_000


def tour_figures(lines):
    """{level: {"views": [(frame, render)], "median": .., "worst": .., ...}}"""
    levels = {}
    for l in lines:
        m = TOUR_VIEW.match(l)
        if m:
            levels.setdefault(m.group(1), {"views": []})["views"].append(
                (int(m.group(3)), int(m.group(4))))
            continue
        m = TOUR_LEVEL.match(l)
        if m:
            entry = levels.setdefault(m.group(1), {"views": []})
            entry.update(count=int(m.group(2)), frame_median=int(m.group(3)),
                         render_median=int(m.group(4)), worst_frame=int(m.group(5)),
                         worst_view=int(m.group(7)))
            continue
        m = TOUR_MODE.match(l)
        if m:
            entry = levels.setdefault(m.group(1), {"views": []})
            entry.setdefault("modes", {})[m.group(2)] = (int(m.group(4)), int(m.group(6)))
    return levels


def check_tour(lines):
    levels = tour_figures(lines)
    if not levels:
        return fail("no `tour:` line: not a --tour ROM, or it did not get that far")
    profiled = {m.group(1) for m in (re.match(r"profile: level=(\S+) samples=(\d+)$", l)
                                     for l in lines) if m and int(m.group(2)) > 0}
    for name, f in levels.items():
        if "count" not in f or f["count"] == 0 or len(f["views"]) != f["count"]:
            return fail(f"level {name}: views timed {len(f['views'])}, summary {f.get('count')}")
        if name not in profiled:
            return fail(f"level {name}: no profile samples")
    if not any(l.startswith("tour: done: ") for l in lines):
        return fail("the tour did not finish (no `tour: done:` line)")
    print(f"tour: {len(levels)} levels timed and profiled: {', '.join(levels)}")
    return 0


def tour_table(mupen_lines, cen64_lines):
    mupen, cen64 = tour_figures(mupen_lines), tour_figures(cen64_lines)
    if not cen64:
        return fail("no tour figures from cen64")
    print("| level | views | cen64 frame, median | fps | cen64 worst frame (view) | fps | "
          "cen64 render, median | mupen64plus render, median | cycles per instruction |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, c in cen64.items():
        m = mupen.get(name)
        cen_render = sum(r for _, r in c["views"])
        if m and len(m["views"]) == len(c["views"]) and sum(r for _, r in m["views"]):
            # Count: cen64 half a CPU cycle, mupen64plus two per instruction.
            cpi = f"{4 * cen_render / sum(r for _, r in m['views']):.2f}"
            mupen_median = f"{m['render_median']:,}"
        else:
            cpi, mupen_median = "-", "-"
        print(f"| {name} | {c['count']} | {c['frame_median']:,} | {SECOND / c['frame_median']:.1f} | "
              f"{c['worst_frame']:,} ({c['worst_view']}) | {SECOND / c['worst_frame']:.1f} | "
              f"{c['render_median']:,} | {mupen_median} | {cpi} |")
    modes = sorted({mode for c in cen64.values() for mode in c.get("modes", {})},
                   key=["bar", "low", "low+bar"].index)
    if modes:
        print()
        print("| level | full: median / worst | " + " | ".join(f"{m}: median / worst" for m in modes) + " |")
        print("|---|" + "---:|" * (len(modes) + 1))
        for name, c in cen64.items():
            cells = [f"{c['frame_median']:,} / {c['worst_frame']:,}"]
            for mode in modes:
                median, worst = c.get("modes", {}).get(mode, (0, 0))
                cells.append(f"{median:,} / {worst:,}" if median else "-")
            print(f"| {name} | " + " | ".join(cells) + " |")
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
    if command == "exception":
        return check_exception(lines)
    if command == "tour":
        return check_tour(lines)
    if command == "tour-table" and len(argv) == 4:
        return tour_table(lines, rom_lines(argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
