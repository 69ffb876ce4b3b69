#!/usr/bin/env bash
# test_guide.sh — `croupier guide GAME` prints the compiled-in guide
# (docs/play-GAME.md byte for byte), refuses what it cannot show, pages
# through $PAGER only at a terminal and without a shell, and `guide` at the
# play prompt shows it too.  Usage: test_guide.sh CROUPIER
set -euo pipefail
cr="$1"
docs="$(dirname "$0")/../../docs"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

grep -q '^usage: croupier guide' <<<"$("$cr" guide --help)" || fail "guide --help"
# not a terminal: printed as is, whatever $PAGER says (a pager that would
# leave a mark must not run)
PAGER="touch $tmp/pager-ran" "$cr" guide dml >"$tmp/out"
cmp -s "$tmp/out" "$docs/play-dml.md" || fail "guide dml differs from docs/play-dml.md"
[ ! -e "$tmp/pager-ran" ] || fail "the pager ran without a terminal"
grep -q '^## Glossary' "$tmp/out" || fail "no glossary"

set +e
"$cr" guide 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "guide without a game exits $rc"
"$cr" guide nosuch 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || fail "guide nosuch exits $rc"
grep -q "^croupier: error: unknown game 'nosuch'" "$tmp/err" || fail "unknown game message"
"$cr" guide dml --bogus 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "guide --bogus exits $rc"
set -e

# at a terminal (script(1) gives one): $PAGER is split at blanks and run
# without a shell; shell syntax in it stays literal text
if command -v script >/dev/null; then
    PAGER="head -n 2" script -qc "$cr guide dml" /dev/null >"$tmp/paged"
    [ "$(tr -d '\r' <"$tmp/paged" | wc -l)" -eq 2 ] || fail "pager 'head -n 2' not used"
    # a shell would touch "a" and run "b"; execvp touches the one file "a;b"
    PAGER="touch $tmp/a;b" script -qc "$cr guide dml" /dev/null >/dev/null
    [ -e "$tmp/a;b" ] && [ ! -e "$tmp/a" ] || fail "\$PAGER went through a shell"
    PAGER="/nonexistent/pager" script -qc "$cr guide dml" /dev/null >"$tmp/fallback"
    grep -q 'Glossary' "$tmp/fallback" || fail "no fallback when the pager is missing"
    # without $PAGER: the system's `pager` (here one of the test's, first on PATH)
    mkdir -p "$tmp/bin"
    printf '#!/bin/sh\ntouch "%s/system-pager-ran"\ncat >/dev/null\n' "$tmp" >"$tmp/bin/pager"
    chmod +x "$tmp/bin/pager"
    env -u PAGER PATH="$tmp/bin:$PATH" script -qc "$cr guide dml" /dev/null >/dev/null
    [ -e "$tmp/system-pager-ran" ] || fail "without \$PAGER the guide does not go through 'pager'"
fi

# `guide` at the play prompt
printf 'guide\nquit\n' | "$cr" play dml --seats human,random,random,random --seed 7 >"$tmp/play"
grep -q '^## Glossary' "$tmp/play" || fail "'guide' at the prompt shows no guide"
echo "guide: ok"
