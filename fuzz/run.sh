#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 20), starting from the
# seed corpora in fuzz/corpus/ (copied, so the repository's corpora stay
# as committed). A crash stops the run with the failing input saved under
# fuzz/artifacts/TARGET/; turn it into a regression test.
#
#   fuzz/run.sh            # the CI run: 20 s per target
#   fuzz/run.sh 3600       # an hour per target
#   fuzz/run.sh 600 wad    # one target
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); works on stable
# Rust through RUSTC_BOOTSTRAP=1 (cargo-fuzz uses nightly-only flags).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-20}"
shift || true
TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
    TARGETS=(map_loader text_map wad udmf compile_pipeline demo)
fi
export RUSTC_BOOTSTRAP=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
for t in "${TARGETS[@]}"; do
    [ -f "fuzz_targets/$t.rs" ] || continue
    mkdir -p "$work/$t"
    [ -d "corpus/$t" ] && cp -r "corpus/$t/." "$work/$t/"
    echo "fuzz: $t for ${SECONDS_PER_TARGET}s"
    if cargo fuzz run -O "$t" "$work/$t" -- -max_total_time="$SECONDS_PER_TARGET" \
        -timeout=10 -rss_limit_mb=2048 >"$work/$t.log" 2>&1; then
        passed=$((passed + 1))
        grep -E '^Done' "$work/$t.log" | sed "s/^/fuzz: $t: /"
    else
        failed=$((failed + 1))
        echo "fuzz: $t FAILED"
        grep -v '^\s*[0-9]*: \|^\s*at ' "$work/$t.log" | tail -40
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
