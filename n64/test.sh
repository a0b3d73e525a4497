#!/usr/bin/env bash
# Tests the Nintendo 64 ROM: host unit tests of the portable frontend code,
# then the emulator ROM in Debian's mupen64plus, headless (Xvfb, the
# glide64mk2 video plugin on Mesa's softpipe, --testshots to stop):
#
#   1. boot: the ROM starts and reports over the IS-Viewer;
#   2. render: a screenshot of the default level's first view matches the
#      desktop's headless render of the same view;
#   3. determinism: the demo the ROM plays at boot ends in the very state
#      the desktop's `--demo` run of the same map and demo ends in;
#   4. input: scripted controller input (our input plugin) moves and turns
#      the player, strafes with the C-buttons, and the dead zone holds;
#   5. levels: the R and L triggers switch level;
#   6. replay: Start plays the same demo on screen, in real time, to the
#      same final state;
#   7. exception: the exception handler reports cause and address, over
#      the IS-Viewer and on screen;
#   8. whole games: a ROM built from freedoom1.wad (every map on the
#      cartridge) boots in both emulators; its first, largest and last
#      maps, chosen in the menu, load and draw the desktop's first view
#      of each, and report their frame time; without an Expansion Pak the
#      largest is refused on screen and the first still plays; the ROM
#      from freedoom2.wad is built too and plays its first map;
#   9. the view tour: a measuring ROM (build.sh --tour, with Freedoom's
#      E1M1, E1M4 and MAP01) times and profiles every level's fixed views
#      in mupen64plus and in cen64 (a cycle-level model: its figures are
#      time), where the demo's final state must also be the desktop's;
#   plus the host unit tests, rustfmt and clippy and the ROMs' structure
#   (both flavours carry the same ELF); it prints the tour's figures and
#   profile for the README.
#
# Needs what scripts/setup installs. Ends with `n64: N passed, M failed`
# and exits non-zero on any failure. Work files: n64/target/test/.
set -uo pipefail
cd "$(dirname "$0")"
n64_dir="$(pwd)"
repo="$(cd .. && pwd)"
work="$n64_dir/target/test"
rm -rf "$work"
mkdir -p "$work"

passed=0
failed=0
failures=()
pass() { passed=$((passed + 1)); echo "n64 test: PASS: $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "n64 test: FAIL: $1"; }
# check NAME COMMAND...: runs the command, its output indented.
check() {
    local name="$1"
    shift
    if "$@" 2>&1 | sed 's/^/    /'; [ "${PIPESTATUS[0]}" -eq 0 ]; then
        pass "$name"
    else
        fail "$name"
    fi
}
finish() {
    echo
    ((failed)) && printf 'n64 test: failed: %s\n' "${failures[@]}"
    echo "n64: $passed passed, $failed failed"
    ((failed == 0))
    exit $?
}

mupen=/usr/games/mupen64plus
# How long one emulator run may take before it is killed (it normally
# ends by itself a frame after its last screenshot).
run_timeout=180

# ---------------------------------------------------------------- build
host="$(rustc -vV | sed -n 's/^host: //p')"
check "host unit tests (cargo test --lib --target $host)" \
    cargo test --quiet --lib --target "$host"
# The workspace's CI checks (rustfmt, clippy) do not reach this crate,
# which is not a workspace member: the same checks, here.
check "rustfmt --check" rustfmt --edition 2021 --check src/main.rs src/lib.rs build.rs
check "clippy (library, host)" cargo clippy --quiet --lib --tests --target "$host" -- -D warnings
for features in "" tour; do
    check "clippy (ROM program${features:+, $features feature})" env RUSTC_BOOTSTRAP=1 \
        cargo clippy --quiet --release --bin raycaster ${features:+--features $features} \
        -Zbuild-std=core,compiler_builtins -Zbuild-std-features=compiler-builtins-mem \
        -Zjson-target-spec --target mips-nintendo64-none.json -- -D warnings
done

if ! ./build.sh >"$work/build.log" 2>&1; then
    sed 's/^/    /' "$work/build.log"
    fail "ROM build (n64/build.sh)"
    finish
fi
pass "ROM build (n64/build.sh): console and emulator flavours"
rom="$n64_dir/target/rom/raycaster-emu.z64"

check "both ROMs carry the same ELF" python3 - "$n64_dir/target/rom" <<'EOF'
import struct, sys
rom_dir = sys.argv[1]
elf = open(f"{rom_dir}/raycaster.elf", "rb").read()
console = open(f"{rom_dir}/raycaster.z64", "rb").read()
emu = open(f"{rom_dir}/raycaster-emu.z64", "rb").read()
# Console ROM: libdragon's IPL3 finds the whole ELF at a 256-byte boundary.
at = console.find(elf[:64])
assert at > 0 and at % 256 == 0 and console[at:at + len(elf)] == elf, "ELF not in the console ROM"
# Emulator ROM: the ELF's one PT_LOAD segment (file bytes) at 0x1000.
phoff, = struct.unpack(">I", elf[28:32])
p_type, p_offset, p_vaddr, _, p_filesz = struct.unpack(">IIIII", elf[phoff:phoff + 20])
assert p_type == 1 and emu[0x1000:0x1000 + p_filesz] == elf[p_offset:p_offset + p_filesz], \
    "the emulator ROM's image is not the ELF's segment"
assert console[:4] == emu[:4] == b"\x80\x37\x12\x40", "not big-endian .z64 ROMs"
print(f"ELF {len(elf)} bytes: at 0x{at:x} in the console ROM ({len(console)} bytes), "
      f"its {p_filesz}-byte segment at 0x1000 in the emulator ROM ({len(emu)} bytes)")
EOF

plugin="$work/mupen64plus-input-scripted.so"
if ! gcc -O2 -Wall -Wextra -Werror -shared -fPIC -I/usr/include/mupen64plus \
        -o "$plugin" input-plugin/scripted_input.c 2>&1 | sed 's/^/    /'; then
    fail "scripted input plugin build"
fi

# ---------------------------------------------------------------- desktop
# The desktop's view of the same level and demo, from the same sources.
desktop_demo_line=""
(
    cd "$repo" &&
        cargo run --quiet --release -p desktop -- --headless --map maps/e1_hangar.map \
            --frames 0 --width 320 --height 240 --screenshot "$work/desktop-first-view.png" \
            >/dev/null &&
        cargo run --quiet --release -p desktop -- --headless --map maps/e1_hangar.map \
            --demo n64/demos/default.demo >"$work/desktop-demo.txt"
) 2>"$work/desktop.log" || sed 's/^/    /' "$work/desktop.log"
desktop_demo_line="$(tail -n1 "$work/desktop-demo.txt" 2>/dev/null || true)"

# ---------------------------------------------------------------- emulator
# run NAME FRAMES [INPUT_SCRIPT [CORE_SETTINGS]]: runs the ROM until frame
# FRAMES, when the screenshot is taken and the emulator stops. Log:
# $work/NAME/log.txt, shot: $work/NAME/shot.png. CORE_SETTINGS are lines
# of the core's [Core] section (mupen64plus 2.5.9 reads DisableExtraMem
# from its configuration file, not from --set).
run() {
    local name="$1" frames="$2" script="${3:-}" core_settings="${4:-}"
    local dir="$work/$name"
    mkdir -p "$dir/shots" "$dir/config"
    if [ -n "$core_settings" ]; then
        printf '[Core]\nVersion = 1.01\n%s\n' "$core_settings" >"$dir/config/mupen64plus.cfg"
    fi
    local input=(--input dummy)
    if [ -n "$script" ]; then
        printf '%s\n' "$script" >"$dir/input.txt"
        input=(--input "$plugin")
    fi
    # timeout runs inside xvfb-run so that a hung emulator is killed, not
    # orphaned; SDL ignores SIGTERM here, hence -k. stdbuf keeps the log
    # line-buffered so a killed run still shows how far it got.
    # --emumode 0, the pure interpreter: Debian's dynamic recompiler
    # mis-executes some builds (a scratch build's Freedoom E1M1 ROM took
    # a TLB miss in MapView::check_blockmap under it and ran correctly in
    # the interpreter); the interpreter is slower but counts the same
    # Count ticks. (--emumode 1, the cached interpreter, crashes here.)
    N64_INPUT_SCRIPT="$dir/input.txt" GALLIUM_DRIVER=softpipe \
        xvfb-run -a -s "-screen 0 640x480x24" \
        stdbuf -oL -eL timeout -k 5 "$run_timeout" "$mupen" \
        --emumode 0 --nosaveoptions --configdir "$dir/config" --datadir /usr/share/games/mupen64plus \
        --sshotdir "$dir/shots" --noosd --windowed --resolution 320x240 --nospeedlimit \
        --gfx mupen64plus-video-glide64mk2 --rsp mupen64plus-rsp-hle --audio dummy \
        "${input[@]}" --set 'Video-Glide64mk2[buff_clear]=0' \
        --testshots "$frames" "$rom" >"$dir/log.txt" 2>&1
    local status=$?
    mv "$dir/shots/raycaster-000.png" "$dir/shot.png" 2>/dev/null
    mv "$dir/shots/raycaster-001.png" "$dir/shot-2.png" 2>/dev/null
    if [ "$status" -ne 0 ]; then
        echo "    mupen64plus exited with status $status (124: timed out); log: $dir/log.txt"
        grep -v 'OpenCV\|GStreamer\|gst\|VIDEOIO' "$dir/log.txt" | tail -n 15 | sed 's/^/    /'
    fi
}

# Every run starts in the menu at boot, on the default level: A at poll 2
# (released at 3) plays it.
start_level=$'2 8000\n3 0000'

# Run 1: boot, A in the menu, then an untouched controller; the shot at
# frame 40 shows the first view (nobody moves) under the readout.
run boot 40 "$start_level"
check "boot (IS-Viewer report)" python3 tools/check_log.py boot "$work/boot/log.txt"
check "first view matches the desktop's render" \
    python3 tools/compare_shot.py "$work/boot/shot.png" "$work/desktop-first-view.png" \
    --ignore 0,0,168,15 --diff "$work/boot/diff.png"
if [ -n "$desktop_demo_line" ]; then
    check "demo final state equals the desktop's, bit for bit" \
        python3 tools/check_log.py demo "$work/boot/log.txt" "$desktop_demo_line"
else
    fail "demo final state equals the desktop's (no desktop result)"
fi

# Run 2: scripted controller. POLL BUTTONS X Y (one poll per frame):
# forward, turn right, strafe left, a resting stick inside the dead zone,
# then R once per level (round to the first again) and L once (back to the
# last), each level held long enough for a frame-time report of its first
# view.
level_count="$(sed -n 's/.*IS64: boot: .*, \([0-9][0-9]*\) levels.*/\1/p' "$work/boot/log.txt")"
level_count="${level_count:-1}"
input_script="$start_level"$'\n'"$(cat <<'EOF'
5   0000   0  80   # stick up
17  0000  80   0   # stick right (briefly: a whole turn would look like none)
19  0002   0   0   # C-left
41  0000   5  -6   # resting stick, inside the dead zone
EOF
)"
poll=46
for ((i = 0; i <= level_count; i++)); do
    button=0010 # R
    ((i == level_count)) && button=0020 # L
    input_script+=$'\n'"$poll $button 0 0"$'\n'"$((poll + 1)) 0000 0 0"
    poll=$((poll + 36))
done
run input $((poll - 33)) "$input_script"
check "scripted controller input moves the player" python3 tools/check_log.py input "$work/input/log.txt"
check "L/R switch level" python3 tools/check_log.py levels "$work/input/log.txt"

# Run 3: (after A in the menu) Start replays the demo on screen, at 35 ticks a second whatever
# the frame rate; it must end where the boot-time run (and the desktop)
# did. Then Z + Start raises a test exception (a load from address 0).
# The replay lasts the demo's ticks in Count time, so its length in frames
# depends on the frame time: estimated from run 1's (ticks per frame, at
# most the 10 a frame may catch up), with a margin of 2x for the views on
# the way.
first_frame="$(sed -n 's/.*IS64: frame: level=e1_hangar .* avg=\([0-9][0-9]*\) .*/\1/p' \
    "$work/boot/log.txt" | head -n1)"
demo_ticks="$(sed -n 's/.*IS64: demo: .*: \([0-9][0-9]*\) ticks in .*/\1/p' "$work/boot/log.txt")"
replay_frames="$(python3 -c "
import math, sys
frame, ticks = int(sys.argv[1] or 1562500), int(sys.argv[2] or 1000)
per_frame = min(10.0, frame * 35 / 46875000)
print(math.ceil(ticks / per_frame))" "$first_frame" "$demo_ticks")"
crash_poll=$((5 + 2 * replay_frames))
crash_poll=$((crash_poll + 2))
run replay $((crash_poll + 10)) "$start_level"$'\n'"$(printf '5 1000\n6 0000\n%d 2000\n%d 3000\n' \
    "$crash_poll" "$((crash_poll + 1))")"
if [ -n "$desktop_demo_line" ]; then
    check "demo replayed on screen ends in the desktop's state" \
        python3 tools/check_log.py replay "$work/replay/log.txt" "$desktop_demo_line"
else
    fail "demo replayed on screen ends in the desktop's state (no desktop result)"
fi
check "exception report (cause and address)" python3 tools/check_log.py exception "$work/replay/log.txt"
# On screen: the red panel, and the heading's first glyph (C, scaled 3x at
# 8,48: its left column is lit on rows 1-3).
check "exception report on screen" python3 tools/probe_shot.py "$work/replay/shot.png" \
    300,100,160,0,0 9,52,255,255,255

# Whole games: a ROM from freedoom1.wad, its 36 maps in the cartridge's
# level pack. Each of three maps (the first, the largest, the last) is
# chosen in the menu (D-pad presses, then A) in a run of its own and
# must load, show the desktop's first view of that map, and report its
# frame time. The lights of a Freedoom map flicker and glow, so the
# picture is compared with the desktop's view at each of the ticks the
# screenshot can fall on (0 to 120).
freedoom_dir=/usr/share/games/doom
wad_rom_dir="$work/wad-rom"
if [ ! -f "$freedoom_dir/freedoom1.wad" ]; then
    fail "ROM from freedoom1.wad (the freedoom package is not installed)"
elif ! { time N64_ROM_DIR="$wad_rom_dir" ./build.sh --wad freedoom1.wad >"$work/wad-build.log" 2>&1; } \
        2>"$work/wad-build.time"; then
    sed 's/^/    /' "$work/wad-build.log" | tail -n 20
    fail "ROM from freedoom1.wad (n64/build.sh --wad freedoom1.wad)"
else
    wad_rom="$wad_rom_dir/freedoom1-emu.z64"
    rom="$wad_rom" # what `run` runs
    check "ROM from freedoom1.wad: $(stat -c %s "$wad_rom") bytes (at most 64 MiB), built in \
$(sed -n 's/^real[[:space:]]*//p' "$work/wad-build.time")" test "$(stat -c %s "$wad_rom")" -le $((64 << 20))
    # first, largest and last: "INDEX NAME" lines, from the pack's index.
    picks="$(python3 - "$wad_rom_dir/levels.pack" <<'EOF'
import struct, sys
pack = open(sys.argv[1], "rb").read()
count, = struct.unpack(">H", pack[6:8])
levels = []
for i in range(count):
    record = pack[24 + 80 * i: 24 + 80 * (i + 1)]
    levels.append((record[:24].rstrip(b"\0").decode(), struct.unpack(">I", record[72:76])[0]))
largest = max(range(count), key=lambda i: levels[i][1])
for i in dict.fromkeys([0, largest, count - 1]):
    print(i, levels[i][0], count)
EOF
)"
    while read -r index name count; do
        [ -n "$index" ] || continue
        # Down from the first, or up round from the first to the last.
        script="" poll=2 button=0400 presses="$index"
        if ((index > count / 2)); then button=0800 presses=$((count - index)); fi
        for ((k = 0; k < presses; k++)); do
            script+="$poll $button"$'\n'"$((poll + 1)) 0000"$'\n'
            poll=$((poll + 2))
        done
        script+="$poll 8000"$'\n'"$((poll + 1)) 0000"
        run "wad-$name" $((2 * poll + 220)) "$script"
        rom_log="$work/wad-$name/log.txt"
        check "freedoom1.wad ROM: $name ($((index + 1))/$count) chosen in the menu loads and reports its frame time" \
            python3 - "$rom_log" "$name" "$((index + 1))" "$count" <<'EOF'
import re, sys
log, name, number, count = sys.argv[1:]
lines = [l.split("IS64: ", 1)[1].rstrip() for l in open(log, errors="replace") if "IS64: " in l]
level = [l for l in lines if l.startswith(f"level: {name} ")]
frames = [l for l in lines if l.startswith(f"frame: level={name} ")]
if not level or not level[0].startswith(f"level: {name} ({number}/{count})") or "loaded in" not in level[0]:
    sys.exit(f"no `level: {name} ({number}/{count}) ... loaded in` line: {[l for l in lines if l.startswith('level')]}")
if not frames:
    sys.exit(f"no `frame: level={name}` line")
print(level[0])
print(frames[0])
EOF
        shots=()
        for ((tick = 0; tick <= 120; tick++)); do
            shot="$work/wad-$name/desktop-$tick.png"
            (cd "$repo" && cargo run --quiet --release -p desktop -- --headless --map "$freedoom_dir/freedoom1.wad" \
                --warp "$name" --frames "$tick" --width 320 --height 240 --screenshot "$shot") \
                >/dev/null 2>&1 && shots+=("$shot")
        done
        check "freedoom1.wad ROM: $name shows the desktop's first view" \
            python3 tools/compare_shot.py "$work/wad-$name/shot.png" "${shots[@]}" \
            --ignore 0,0,168,15 --diff "$work/wad-$name/diff.png"
    done <<<"$picks"
    # Without an Expansion Pak: the boot line says so, the largest map
    # (freedoom1's E2M5, 2.8 MB, more than the 2.78 MB that 4 MiB leave)
    # is refused with a notice on screen, A goes back to the menu, and
    # the first map still plays. Down to the largest map, A: refused (the
    # first shot, the notice); A: the menu, on that map; up to the first,
    # A: it loads (the second shot).
    read -r largest_index largest_name _ <<<"$(sed -n 2p <<<"$picks")"
    script="" poll=2
    press() { script+="$poll $1"$'\n'"$((poll + 1)) 0000"$'\n'; poll=$((poll + 2)); }
    for ((k = 0; k < largest_index; k++)); do press 0400; done
    press 8000
    # The menu and the notice poll the controller once a frame.
    notice_frame=$((poll + 20))
    poll=$((poll + 40)) # the notice stays up a while
    press 8000
    for ((k = 0; k < largest_index; k++)); do press 0800; done
    press 8000
    run "wad-no-pak" "$notice_frame,$((2 * poll + 220))" "$script" "DisableExtraMem = True"
    check "freedoom1.wad ROM without an Expansion Pak: $largest_name refused, the first map plays" \
        python3 - "$work/wad-no-pak/log.txt" "$largest_name" <<'EOF'
import re, sys
log, largest = sys.argv[1:]
lines = [l.split("IS64: ", 1)[1].rstrip() for l in open(log, errors="replace") if "IS64: " in l]
def one(pattern, what):
    found = [l for l in lines if re.search(pattern, l)]
    if not found:
        sys.exit(f"no {what} line (want /{pattern}/); the ROM said: {lines[:12]}")
    print(found[0])
    return found[0]
one(r"^boot: .* level memory \d+ bytes, 4 MiB RDRAM \(no Expansion Pak\)$", "boot")
one(rf"^level: {largest} does not load: level of \d+ bytes does not fit in \d+ bytes$", "refusal")
one(rf"^menu: \d+ levels, on {largest} ", "menu again")
first = one(r"^level: \S+ \(1/\d+\) .* loaded in ", "first level's")
one(rf"^frame: level={first.split()[1]} ", "frame")
EOF
    check "freedoom1.wad ROM without an Expansion Pak: the notice on screen" \
        python3 tools/probe_shot.py "$work/wad-no-pak/shot.png" 12,8,255,255,0 12,14,0,0,0 7,59,255,255,255
    mkdir -p "$work/wad-cen64"
    xvfb-run -a -s "-screen 0 640x480x24" python3 tools/cen64_run.py \
        --pif "$wad_rom_dir/pif_emu.bin" --rom "$wad_rom" --until '^menu: ' \
        --log "$work/wad-cen64/log.txt" --timeout "$run_timeout" 2>&1 | sed 's/^/    /'
    check "freedoom1.wad ROM boots in cen64 to its menu" \
        grep -q '^menu: 36 levels' "$work/wad-cen64/log.txt"
fi

# freedoom2.wad's ROM: built and timed, and A in its menu plays MAP01.
wad2_rom_dir="$work/wad2-rom"
if [ ! -f "$freedoom_dir/freedoom2.wad" ]; then
    fail "ROM from freedoom2.wad (the freedoom package is not installed)"
elif ! { time N64_ROM_DIR="$wad2_rom_dir" ./build.sh --wad freedoom2.wad >"$work/wad2-build.log" 2>&1; } \
        2>"$work/wad2-build.time"; then
    sed 's/^/    /' "$work/wad2-build.log" | tail -n 20
    fail "ROM from freedoom2.wad (n64/build.sh --wad freedoom2.wad)"
else
    rom="$wad2_rom_dir/freedoom2-emu.z64"
    check "ROM from freedoom2.wad: $(stat -c %s "$rom") bytes (at most 64 MiB), built in \
$(sed -n 's/^real[[:space:]]*//p' "$work/wad2-build.time")" test "$(stat -c %s "$rom")" -le $((64 << 20))
    run wad2-MAP01 240 "$start_level"
    check "freedoom2.wad ROM: MAP01 (1/32), the menu's first, loads and reports its frame time" \
        bash -c 'grep -m1 "IS64: level: MAP01 (1/32) .* loaded in " "$1" && grep -m1 "IS64: frame: level=MAP01 " "$1"' \
        _ "$work/wad2-MAP01/log.txt"
fi

# The view tour: a measuring ROM (build.sh --tour) with Freedoom's E1M1,
# E1M4 and MAP01 as extra levels when the freedoom package is installed
# (compiled from the IWADs by our compiler, textures and all; the shipped
# ROM has only maps/). At boot it plays the demo, then renders and times
# every level's fixed views and profiles them (src/view_tour.rs), then
# plays. Run in both emulators: mupen64plus counts instructions, cen64
# models the caches and the pipeline, so its Count ticks are time.
tour_maps=()
if [ -f "$freedoom_dir/freedoom1.wad" ] && [ -f "$freedoom_dir/freedoom2.wad" ]; then
    for wad_map in freedoom1:E1M1 freedoom1:E1M4 freedoom2:MAP01; do
        wad="${wad_map%%:*}" map="${wad_map##*:}"
        # --open: the tour's figures have always been of the maps walked
        # through, doors open (comparable from one commit to the next).
        if (cd "$repo" && cargo run --quiet --release -p tools -- compile "$freedoom_dir/$wad.wad" \
                --map "$map" --open -o "$work/$map.spmp") >>"$work/tour-build.log" 2>&1; then
            tour_maps+=("$work/$map.spmp")
        else
            fail "Freedoom $map compiles for the tour"
        fi
    done
else
    echo "n64 test: Freedoom not installed: the tour has only maps/"
fi
tour_rom_dir="$work/tour-rom"
if N64_EXTRA_MAPS="$(IFS=:; echo "${tour_maps[*]}")" N64_ROM_DIR="$tour_rom_dir" \
        ./build.sh --tour >>"$work/tour-build.log" 2>&1; then
    pass "tour ROM build (n64/build.sh --tour, $((level_count + ${#tour_maps[@]})) levels)"
    rom="$tour_rom_dir/raycaster-emu.z64"
    # Five frames shown per view (timed, profiled, then timed in the three
    # other view modes), 16 views a level.
    run tour $((80 * (level_count + ${#tour_maps[@]}) + 10))
    check "view tour in mupen64plus (every level timed and profiled)" \
        python3 tools/check_log.py tour "$work/tour/log.txt"

    mkdir -p "$work/cen64"
    xvfb-run -a -s "-screen 0 640x480x24" python3 tools/cen64_run.py \
        --pif "$tour_rom_dir/pif_emu.bin" --rom "$rom" --until 'tour: done' \
        --log "$work/cen64/log.txt" --timeout "$run_timeout" 2>&1 | sed 's/^/    /'
    check "boots in cen64 (stand-in PIF boot ROM, CIC-6102 CRC)" \
        grep -q '^boot: ' "$work/cen64/log.txt"
    if [ -n "$desktop_demo_line" ]; then
        check "demo final state in cen64 equals the desktop's, bit for bit" \
            python3 tools/check_log.py demo "$work/cen64/log.txt" "$desktop_demo_line"
    fi
    check "view tour in cen64 (every level timed and profiled)" \
        python3 tools/check_log.py tour "$work/cen64/log.txt"

    echo
    echo "n64 view tour (Count ticks a frame over each level's fixed views; cen64 models"
    echo "the caches and pipeline, mupen64plus adds 2 per instruction: see n64/README.md):"
    python3 tools/check_log.py tour-table "$work/tour/log.txt" "$work/cen64/log.txt" |
        tee "$work/tour-table.md" | sed 's/^/    /'
    echo
    echo "n64 profile, all levels (time sampled in cen64, instructions in mupen64plus):"
    python3 tools/tour_profile.py "$tour_rom_dir/raycaster-emu.elf" "$work/cen64/log.txt" \
        --mupen "$work/tour/log.txt" --top 15 | sed 's/^/    /'
    for level in $(sed -n 's/^tour: level=\([^ ]*\) views=.*/\1/p' "$work/cen64/log.txt"); do
        python3 tools/tour_profile.py "$tour_rom_dir/raycaster-emu.elf" "$work/cen64/log.txt" \
            --mupen "$work/tour/log.txt" --level "$level" --top 40 >"$work/profile-$level.txt"
    done
    echo "    (each level's: $work/profile-LEVEL.txt)"
else
    sed 's/^/    /' "$work/tour-build.log"
    fail "tour ROM build (n64/build.sh --tour)"
fi

finish
