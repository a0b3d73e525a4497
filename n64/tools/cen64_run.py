#!/usr/bin/env python3
"""Runs a ROM in cen64 until the ROM prints a given line, and keeps what it
printed over the IS-Viewer.

cen64 (Debian's 0.3+git20200723) is a cycle-level model of the console's
CPU, caches included, so its Count ticks are time (mupen64plus's count
instructions). What running it takes (notes/n64-timing.md):

* a window: without one it stops as it starts, so run this under Xvfb
  (`xvfb-run -a python3 cen64_run.py ...`);
* a PIF boot ROM (build.sh makes a stand-in) and a cartridge whose IPL3
  has a CRC cen64 knows (build.sh sets it);
* its stdout read all the time: it prints a line for every TEQ the CPU
  executes and for every instruction its RSP does not know, tens of
  thousands a second, and blocks when the pipe is full. Those lines are
  counted and dropped; everything else goes to the log.

It stops cen64 (SIGTERM) when a line matches --until.

With --cen64 PATH it runs that cen64 instead. One built by
build_cen64_stalls.sh counts every stall by instruction address: with
--profile-from TEXT --profile-to TEXT --profile-out FILE its counts are of
the run between the ROM's line holding the first text and its line
holding the second (cen64 starts and writes them itself, at those
instructions), kept in FILE. stall_profile.py makes the table.

Usage: cen64_run.py --pif PIF --rom ROM --until REGEX --log FILE
                    [--timeout SECONDS] [--cen64 PATH]
                    [--profile-from TEXT --profile-to TEXT --profile-out FILE]
Exit status: 0 when the line came, 1 otherwise (timeout, cen64 exited).
"""

import argparse
import os
import re
import selectors
import signal
import subprocess
import sys
import time

# What the stall-counting cen64 prints when it has written ROM.profile.
PROFILE_WRITTEN = b"cen64: profile written"
NOISE = re.compile(rb"^Unimplemented instruction: |^Warning: cen64 is not using|"
                   rb"^cen64 will run, but|^cen64 compiled with:|^Your CPU supports:|^\s*$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pif", required=True)
    ap.add_argument("--rom", required=True)
    ap.add_argument("--until", required=True, help="stop when a line matches this")
    ap.add_argument("--log", required=True)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--cen64", default="cen64")
    ap.add_argument("--profile-from", help="count stalls from the ROM's line holding this")
    ap.add_argument("--profile-to", help="... to its line holding this")
    ap.add_argument("--profile-out", help="and keep the counts here")
    args = ap.parse_args()
    until = re.compile(args.until.encode())
    asked = (args.profile_from, args.profile_to, args.profile_out)
    if any(asked) and not all(asked):
        ap.error("--profile-from, --profile-to and --profile-out go together")
    profiling = all(asked)

    cmd = [args.cen64, "-noaudio", "-is-viewer", args.pif, args.rom]
    env = None
    if profiling:
        cmd.insert(1, "-profile")
        env = dict(os.environ, CEN64_PROFILE_FROM=args.profile_from,
                   CEN64_PROFILE_TO=args.profile_to)
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    os.set_blocking(proc.stdout.fileno(), False)

    dropped = 0
    matched = False
    profile_kept = False
    closing_since = None
    pending = b""
    with open(args.log, "wb") as log:
        def take(line):
            nonlocal dropped, matched, profile_kept
            if NOISE.search(line):
                dropped += 1
                return
            log.write(line + b"\n")
            log.flush()
            if profiling and line == PROFILE_WRITTEN:
                os.replace(args.rom + ".profile", args.profile_out)
                profile_kept = True
            if not matched and until.search(line):
                matched = True

        while True:
            for _ in sel.select(timeout=0.2):
                try:
                    chunk = proc.stdout.read(1 << 16)
                except BlockingIOError:
                    chunk = b""
                if chunk is None:
                    chunk = b""
                if chunk == b"" and proc.poll() is not None:
                    break
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    take(line)
            if proc.poll() is not None:
                rest = proc.stdout.read() or b""
                for line in (pending + rest).split(b"\n"):
                    take(line)
                break
            elapsed = time.monotonic() - started
            if matched and closing_since is None:
                proc.terminate()
                closing_since = time.monotonic()
            elif closing_since is not None and time.monotonic() - closing_since > 60:
                proc.kill()
            elif closing_since is None and elapsed > args.timeout:
                log.write(f"cen64_run: no line matching {args.until!r} in {args.timeout:.0f} s\n"
                          .encode())
                proc.terminate()
                closing_since = time.monotonic()
        elapsed = time.monotonic() - started
        log.write(f"cen64_run: {elapsed:.1f} s, {dropped} noise lines dropped, "
                  f"exit status {proc.returncode}\n".encode())
    if matched and profiling and not profile_kept:
        print(f"cen64_run: no profile: {args.cen64} never said {PROFILE_WRITTEN.decode()!r} "
              f"(is it built by build_cen64_stalls.sh, and does the ROM print a line holding "
              f"{args.profile_to!r}?)", file=sys.stderr)
        return 1
    return 0 if matched else 1


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
