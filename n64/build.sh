#!/usr/bin/env bash
# Builds the Nintendo 64 ROMs, both from one ELF and one level pack:
#
#   n64/target/rom/raycaster.z64      console ROM: libdragon's open IPL3
#                                     (signed: passes a real console's boot
#                                     check), for flash cartridges
#   n64/target/rom/raycaster-emu.z64  emulator ROM: our own boot loader
#                                     (src/hw/ipl3_emu.s), for emulators
#                                     that cannot run libdragon's IPL3
#                                     (Debian's mupen64plus)
#
# (With --wad W.wad they are W.z64 and W-emu.z64.) The levels are not in
# the program: `tools pack` compiles them into a level pack, appended to
# each ROM at the first 1 MiB boundary past the program (and past the
# first 1 MiB + 4 KiB, which the boot checksum covers); the ROM copies a
# level into RDRAM when it starts (src/cartridge.rs).
#
# Usage: n64/build.sh [--debug] [--tour] [--wad WAD [--iwad IWAD]]
#   --tour       a measuring ROM: after the demo check it times every
#                level's fixed views (src/view_tour.rs) instead of playing
#   --wad WAD    every map of WAD, in order, instead of maps/ (a bare name
#                such as freedoom1.wad is looked for where the source ports
#                look: ., $DOOMWADDIR, /usr/share/games/doom)
#   --iwad IWAD  textures for a PWAD given with --wad
# Environment: N64_EXTRA_MAPS=a.map:b.spmp adds levels after the others,
# N64_ROM_DIR=DIR writes the ROMs there instead.
# Needs Rust (rustup) with the rust-src component and nust64 0.4.1; both
# are installed here if missing (scripts/setup does the same).
set -euo pipefail
cd "$(dirname "$0")"

usage() { echo "usage: n64/build.sh [--debug] [--tour] [--wad WAD [--iwad IWAD]]" >&2; exit 2; }
profile=release
features=()
wad=""
iwad=""
while [ $# -gt 0 ]; do
    case "$1" in
        --debug) profile=debug ;;
        --tour) features=(--features tour) ;;
        --wad) [ $# -ge 2 ] || usage; wad="$2"; shift ;;
        --iwad) [ $# -ge 2 ] || usage; iwad="$2"; shift ;;
        *) usage ;;
    esac
    shift
done
[ -n "$iwad" ] && [ -z "$wad" ] && { echo "n64/build.sh: --iwad goes with --wad" >&2; exit 2; }

if ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "n64/build.sh: installing the rust-src component (for -Zbuild-std)" >&2
    rustup component add rust-src >&2
fi
if ! command -v nust64 >/dev/null 2>&1; then
    echo "n64/build.sh: installing nust64 0.4.1" >&2
    cargo install nust64 --version 0.4.1 --locked >&2
fi

# The target is a JSON spec and the standard library is built from source
# for it: both unstable cargo features, enabled on a stable toolchain with
# RUSTC_BOOTSTRAP=1.
flags=(-Zbuild-std=core,compiler_builtins -Zbuild-std-features=compiler-builtins-mem
       -Zjson-target-spec --target mips-nintendo64-none.json)
[ "$profile" = release ] && flags+=(--release)
RUSTC_BOOTSTRAP=1 cargo build --bin raycaster "${flags[@]}" ${features[@]+"${features[@]}"}

# Cargo's output directory: n64/target unless CARGO_TARGET_DIR says
# otherwise. The ROMs go to n64/target/rom, or to N64_ROM_DIR (n64/test.sh
# builds a measurement ROM with an extra level there).
target_dir="${CARGO_TARGET_DIR:-target}"
elf="$target_dir/mips-nintendo64-none/$profile/raycaster"
out="${N64_ROM_DIR:-target/rom}"
mkdir -p "$out"

# rust-objcopy ships with every toolchain (llvm-objcopy under another name).
sysroot="$(rustc --print sysroot)"
objcopy="$(ls "$sysroot"/lib/rustlib/*/bin/rust-objcopy | head -n1)"

# Our emulator IPL3: cut out of the ELF, padded to the 4032 bytes
# (ROM 0x40..0x1000) that nust64 places before the program, its last four
# bytes set so that cen64 takes it for a CIC-6102 cartridge's. And the
# stand-in PIF boot ROM that cen64 runs before it, padded to 2048 bytes.
LD_LIBRARY_PATH="$sysroot/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$objcopy" --dump-section .ipl3_emu="$out/ipl3_emu.bin" \
    --dump-section .pif_emu="$out/pif_emu.bin" "$elf" /dev/null
truncate -s 4032 "$out/ipl3_emu.bin"
python3 tools/cic_crc.py "$out/ipl3_emu.bin"
truncate -s 2048 "$out/pif_emu.bin"

# The level pack: our maps (the default level first, as the desktop's
# built-in one), or every map of the WAD; then the extra maps.
pack_inputs=()
pack_flags=()
if [ -n "$wad" ]; then
    pack_inputs+=("$wad")
    [ -n "$iwad" ] && pack_flags+=(--iwad "$iwad")
else
    pack_inputs+=(../maps/e1_hangar.map)
    for map in ../maps/*.map; do
        [ "$map" = ../maps/e1_hangar.map ] || pack_inputs+=("$map")
    done
fi
IFS=: read -r -a extra <<<"${N64_EXTRA_MAPS:-}"
for map in ${extra[@]+"${extra[@]}"}; do
    [ -n "$map" ] && pack_inputs+=("$map")
done
cargo run --quiet --release --manifest-path ../Cargo.toml -p tools -- \
    pack "${pack_inputs[@]}" ${pack_flags[@]+"${pack_flags[@]}"} -o "$out/levels.pack"

# nust64 names its output after the ELF, so each flavour gets its own
# copy of the same ELF.
name=raycaster
if [ -n "$wad" ]; then
    name="$(basename "$wad")"
    name="${name%.*}"
fi
cp "$elf" "$out/$name.elf"
cp "$elf" "$out/$name-emu.elf"
nust64 --libdragon release --name "RAYCASTER" --elf "$out/$name.elf" >/dev/null
nust64 --ipl3 "$out/ipl3_emu.bin" --name "RAYCASTER" --elf "$out/$name-emu.elf" >/dev/null
for rom in "$out/$name.z64" "$out/$name-emu.z64"; do
    python3 tools/append_pack.py "$rom" "$out/levels.pack"
done

echo "$out/$name.z64      (console: flash cartridges)"
echo "$out/$name-emu.z64  (emulators)"
echo "$out/pif_emu.bin        (a stand-in PIF boot ROM, for cen64)"
