#!/usr/bin/env bash
# Builds cen64 with per-address stall counters (tools/cen64_stalls.py) into
# n64/target/cen64-stalls/cen64: a measuring tool, not part of the tests.
# Its Count ticks are the same as Debian's cen64 (checked on the view
# tour's frames, to the tick); only the profile file is new.
#
# Needs git, network access (or CEN64_SRC=a clone of cen64), cmake, a C
# compiler and cen64's libraries:
#   apt-get install cmake gcc libopenal-dev libgl-dev libx11-dev
# Then run a ROM with it, the counts cut to the run between two of the
# ROM's lines (here E1M1's 16 timed views, each rendered twice):
#   xvfb-run -a python3 n64/tools/cen64_run.py --cen64 n64/target/cen64-stalls/cen64 \
#       --pif PIF --rom ROM --until 'tour: level=E1M1 views=' --log LOG \
#       --profile-from 'tour: level=E1M1 load=' --profile-to 'tour: level=E1M1 views=' \
#       --profile-out E1M1.profile
#   python3 n64/tools/stall_profile.py ELF E1M1.profile --frames 32
# With CEN64_ITRACE=FILE set for cen64_run.py, the same run also writes a
# fetch trace for tools/icache_layout.py.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=target/cen64-stalls
commit="${CEN64_COMMIT:-e0641c8}"
if [ ! -d "$dir/src/.git" ]; then
    mkdir -p "$dir"
    git clone -q "${CEN64_SRC:-https://github.com/n64dev/cen64}" "$dir/src"
fi
git -C "$dir/src" checkout -q -f "$commit"
git -C "$dir/src" clean -qfdx
python3 tools/cen64_stalls.py "$dir/src"
cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >"$dir/cmake.log" 2>&1 ||
    { cat "$dir/cmake.log"; exit 1; }
make -C "$dir/build" -j"$(nproc)" >"$dir/make.log" 2>&1 || { tail -30 "$dir/make.log"; exit 1; }
cp "$dir/build/cen64" "$dir/cen64"
echo "build_cen64_stalls: $dir/cen64 (cen64 $commit, with stall counters)"
