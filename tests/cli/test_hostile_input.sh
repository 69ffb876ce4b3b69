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

# --- 2. a NUL byte at the play prompt refuses the line; nothing is played ---
printf 'quit\n' | "$cr" play dml --seed 5 --save "$tmp/q.rec" >/dev/null
printf '1\0junk\nquit\n' | "$cr" play dml --seed 5 --save "$tmp/nul.rec" >"$tmp/nul.out"
grep -q '^that line holds a NUL byte (at column 2): ignored' "$tmp/nul.out" ||
    fail "NUL line not refused: $(tail -5 "$tmp/nul.out")"
cmp -s "$tmp/q.rec" "$tmp/nul.rec" || fail "a line cut at its NUL byte was played"

# --- 3. terminal escapes in user text are shown escaped, never sent raw ---
esc=$'\x1b'
if "$cr" replay "$fixtures/cli/rec-terminal-escape.txt" 2>"$tmp/err"; then
    fail "a record of escapes replayed"
fi
if grep -q "$esc" "$tmp/err" || grep -q $'\a' "$tmp/err"; then fail "raw escape bytes in: $(cat -v "$tmp/err")"; fi
grep -qF "line 3: unknown action '\\x1b[31mRED\\x1b[0m\\x1b]0;title\\x07'" "$tmp/err" ||
    fail "escaped record text: $(cat -v "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "the error is not one line"
# at the prompt: an answer with ESC, an invalid byte and a bidi override;
# printable UTF-8 stays as it is
printf 'x\033[2J\xff\xe2\x80\xaey\nd\xc3\xa9j\xc3\xa0\nquit\n' |
    "$cr" play dml --seed 5 >"$tmp/esc.out"
if grep -q "$esc" "$tmp/esc.out"; then fail "raw ESC echoed at the prompt: $(grep -a 'x' "$tmp/esc.out" | cat -v)"; fi
grep -qF "unknown action 'x\\x1b[2J\\xff\\u202ey'" "$tmp/esc.out" ||
    fail "prompt echo not escaped: $(grep -a unknown "$tmp/esc.out" | cat -v)"
grep -qF "unknown action 'déjà'" "$tmp/esc.out" || fail "UTF-8 answer not kept as is"
# a file name is user text too
if "$cr" replay "$tmp/no${esc}]0;x" 2>"$tmp/err"; then fail "replay of a missing file"; fi
grep -qF 'no\x1b]0;x: No such file' "$tmp/err" || fail "path not escaped: $(cat -v "$tmp/err")"

# --- 4. endless or oversized inputs stop at 16 MiB; NUL bytes are refused ---
timeout 20 "$cr" replay /dev/zero 2>"$tmp/err" && fail "replay /dev/zero succeeded"
grep -q '^croupier: error: /dev/zero: NUL byte at offset 0$' "$tmp/err" ||
    fail "/dev/zero: $(cat "$tmp/err")"
set +e
timeout 20 bash -c 'tr "\0" "a" </dev/zero | "$1" replay -' _ "$cr" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "an endless pipe: exit status $rc"
grep -q '^croupier: error: -: larger than 16 MiB' "$tmp/err" || fail "endless pipe: $(cat "$tmp/err")"
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$tmp/big.rec"
if "$cr" replay "$tmp/big.rec" 2>"$tmp/err"; then fail "a 16 MiB + 1 record was read"; fi
grep -q 'larger than 16 MiB' "$tmp/err" || fail "big file: $(cat "$tmp/err")"
printf 'game dml\nplayers 4\0\nactions\n' >"$tmp/nul.rec"
if "$cr" replay "$tmp/nul.rec" 2>"$tmp/err"; then fail "a record with a NUL byte replayed"; fi
grep -q 'nul.rec: NUL byte at offset 18$' "$tmp/err" || fail "NUL in record: $(cat "$tmp/err")"
"$cr" run dml --position "$fixtures/dml-positions/thief_gift.json" --json >"$tmp/pos.json"
printf '\0' >>"$tmp/pos.json"
if "$cr" run dml --position "$tmp/pos.json" 2>"$tmp/err"; then fail "a position with a NUL byte loaded"; fi
grep -q 'pos.json: NUL byte at offset [0-9]' "$tmp/err" || fail "NUL in position: $(cat "$tmp/err")"

# --- 5. output paths are checked before any game runs; nothing left behind ---
rm -rf "$tmp/cwd" && mkdir "$tmp/cwd" && : >"$tmp/cwd/afile"
check_refused() { # what: the rest is a croupier command run in $tmp/cwd
    local what="$1"
    shift
    local rc=0
    (cd "$tmp/cwd" && timeout 60 "$cr" "$@" </dev/null >"$tmp/out" 2>"$tmp/err") || rc=$?
    [ "$rc" -ne 0 ] || fail "$what succeeded"
    [ "$rc" -ne 124 ] || fail "$what: not refused before the games ran"
    if grep -q 'game over\|games/s' "$tmp/out"; then fail "$what: refused only after the games"; fi
    grep -q "^croupier: error: .*$what" "$tmp/err" || fail "$what: $(cat "$tmp/err")"
    [ "$(tree "$tmp/cwd")" = "./afile" ] || fail "$what left files behind: $(tree "$tmp/cwd")"
}
big='--games 200 --threads 1 --no-progress' # the summary (games/s) shows they ran
# shellcheck disable=SC2086
{
    check_refused "cannot write nodir/r.json" sim dml $big --json nodir/r.json
    check_refused "cannot write nodir/r.csv" sim dml $big --json ok.json --csv nodir/r.csv
    check_refused "cannot write ok.csv" sim dml $big --csv ok.csv --json ok.csv/x
    check_refused "afile is not a directory" sim dml $big --plots afile --json ok.json
    check_refused "cannot create the plot directory nodir/p" sim dml $big --plots nodir/p
    check_refused "cannot write nodir/r.json" sim dml $big --plots newdir --json nodir/r.json
}
check_refused "cannot save to nodir/g.rec" play dml --seats random,random,random,random --save nodir/g.rec
# an existing file named as an output is not emptied by a failed run
echo 'keep me' >"$tmp/cwd/old.json"
# shellcheck disable=SC2086
if (cd "$tmp/cwd" && "$cr" sim dml $big --json old.json --csv nodir/x.csv 2>/dev/null); then
    fail "sim with a bad --csv succeeded"
fi
[ "$(cat "$tmp/cwd/old.json")" = 'keep me' ] || fail "a failed run emptied old.json"

echo "test_hostile_input.sh: all passed"
