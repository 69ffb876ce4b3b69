#!/usr/bin/env bash
# scripts/fuzz.sh — build the libFuzzer targets (fuzz/) and run each for a while.
#
#   bash scripts/fuzz.sh [--update-corpus] [SECONDS] [TARGET...]
#
# Builds build-fuzz/ with clang (-DCR_FUZZ=ON: libFuzzer, ASan, UBSan, asserts
# on), then runs each TARGET (default: every fuzz/fuzz_*.c target) for SECONDS
# (default 60), one after the other, on a copy of its seed corpus
# fuzz/corpus/TARGET/ in build-fuzz/run/TARGET/corpus: the repository's corpus
# is never written, unless --update-corpus merges the inputs that found new
# coverage back into it (libFuzzer -merge=1).
#
# fuzz/TARGET.dict, when present, is passed as the libFuzzer dictionary.
#
# A crash, a failed check, a leak or a timeout stops that target; its input is
# saved under build-fuzz/run/TARGET/crashes/ and the script goes on with the
# next target, then exits non-zero.  Reproduce with
#   build-fuzz/fuzz/TARGET build-fuzz/run/TARGET/crashes/crash-...
# docs/conformance.md says how to run the targets for hours.
#
# Environment: CC (default clang), FUZZ_BUILD_JOBS (default 1),
# FUZZ_FLAGS (extra libFuzzer flags, e.g. "-jobs=2 -workers=2").
set -euo pipefail
cd "$(dirname "$0")/.."

update=0
if [ "${1:-}" = "--update-corpus" ]; then
    update=1
    shift
fi
seconds="${1:-60}"
shift || true
case "$seconds" in
'' | *[!0-9]*)
    echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2
    echo "usage: bash scripts/fuzz.sh [--update-corpus] [SECONDS] [TARGET...]" >&2
    exit 2
    ;;
esac

if [ $# -eq 0 ]; then
    set --
    for src in fuzz/fuzz_*.c; do
        name="$(basename "$src" .c)"
        case "$name" in fuzz_common | fuzz_main) continue ;; esac
        set -- "$@" "$name"
    done
fi
for t in "$@"; do
    if [ ! -f "fuzz/$t.c" ]; then
        echo "fuzz.sh: no target '$t' (fuzz/$t.c does not exist)" >&2
        exit 2
    fi
done

build=build-fuzz
cmake -S . -B "$build" -DCMAKE_C_COMPILER="${CC:-clang}" -DCR_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$build" -j "${FUZZ_BUILD_JOBS:-1}" --target "$@"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

failed=()
for t in "$@"; do
    run="$build/run/$t"
    rm -rf "$run/corpus"
    mkdir -p "$run/corpus" "$run/crashes"
    if [ -d "fuzz/corpus/$t" ]; then
        cp -R "fuzz/corpus/$t/." "$run/corpus/"
    fi
    dict=()
    if [ -f "fuzz/$t.dict" ]; then
        dict=(-dict="fuzz/$t.dict")
    fi
    echo "== $t: ${seconds}s on $(find "$run/corpus" -type f | wc -l) seed inputs =="
    # shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
    if "$build/fuzz/$t" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$run/crashes/" "${dict[@]}" ${FUZZ_FLAGS:-} "$run/corpus" \
        >"$run/log.txt" 2>&1; then
        tail -n 12 "$run/log.txt" | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+.*DONE)' || true
        if [ "$update" = 1 ]; then
            mkdir -p "fuzz/corpus/$t"
            "$build/fuzz/$t" -merge=1 "fuzz/corpus/$t" "$run/corpus" >>"$run/log.txt" 2>&1
            echo "$t: merged new coverage into fuzz/corpus/$t"
        fi
    else
        if ! grep -E 'ERROR|SUMMARY|fuzz check failed|runtime error|Test unit written' \
            "$run/log.txt" | head -n 20 >&2; then
            tail -n 5 "$run/log.txt" >&2
        fi
        echo "$t: FAILED (log: $run/log.txt; input saved in $run/crashes/)" >&2
        failed+=("$t")
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz.sh: failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz.sh: ${seconds}s each, no crash: $*"
