#!/usr/bin/env bash
# test_hints.sh — hints at a table of several humans (issue 19): refused
# unless every player agreed when the table was made (--hints); the
# agreement is in the saved record, so --load keeps it; --hints cannot be
# added to a game under way; a table of one human always has hints.
# Usage: test_hints.sh CROUPIER
set -euo pipefail
cr="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
seats=human,human,club,club

# without agreement: refused, and the table says so when it starts
printf '\nhint club\nquit\n' | "$cr" play dml --seats $seats --seed 4 --save "$tmp/no.rec" >"$tmp/no.out"
grep -q "^no hints: several humans play and did not agree to them (--hints)$" "$tmp/no.out" ||
    fail "the table does not say hints are off: $(sed -n 2p "$tmp/no.out")"
grep -q "^no hint: no hints in a game with other human players, unless all agreed when the table was made$" "$tmp/no.out" ||
    fail "a hint was given without agreement: $(grep -A1 'hint club' "$tmp/no.out")"
grep -q "^hints" "$tmp/no.rec" && fail "a record without agreement says hints"

# with --hints: given, and recorded
printf '\nhint club\nquit\n' | "$cr" play dml --seats $seats --seed 4 --hints --save "$tmp/yes.rec" >"$tmp/yes.out"
grep -q "^hints allowed: every player agreed (--hints)$" "$tmp/yes.out" || fail "the table does not say hints are allowed"
grep -q "^club would play: " "$tmp/yes.out" || fail "no hint with agreement: $(grep -A1 'hint club' "$tmp/yes.out")"
grep -q "^hints allowed$" "$tmp/yes.rec" || fail "the record does not keep the agreement"

# --load keeps it (with or without --hints repeated)
printf '\nhint club\nquit\n' | "$cr" play --load "$tmp/yes.rec" >"$tmp/yes2.out"
grep -q "^club would play: " "$tmp/yes2.out" || fail "--load lost the agreement: $(grep -A1 'hint club' "$tmp/yes2.out")"
grep -q "^hints allowed$" "$tmp/yes.rec" || fail "saving back lost the agreement"
printf 'quit\n' | "$cr" play --load "$tmp/yes.rec" --hints >/dev/null || fail "--hints repeated on an agreed record is refused"

# --hints cannot be added to a game under way: refused, the record unchanged
cp "$tmp/no.rec" "$tmp/keep.rec"
if printf 'quit\n' | "$cr" play --load "$tmp/no.rec" --hints >"$tmp/add.out" 2>&1; then
    fail "--hints added to a game under way"
fi
grep -q "was made without --hints: hints are agreed when the table is made" "$tmp/add.out" ||
    fail "the refusal does not say why: $(cat "$tmp/add.out")"
cmp -s "$tmp/no.rec" "$tmp/keep.rec" || fail "the refused --load changed the record"

# one human against bots: hints without --hints
printf 'hint club\nquit\n' | "$cr" play dml --seats human,club,club,club --seed 4 >"$tmp/one.out"
grep -q "^club would play: " "$tmp/one.out" || fail "no hint at a table of one human"
echo "ok - hints: refused without agreement, given with --hints, kept by --load, never added later"
