#!/usr/bin/env bash
# test_play_session.sh — line-mode play as a session (issue 10): a resumed
# game keeps its opponents and saves back to its file, undo takes back past
# the bots' moves with the same dice, a hot-seat game hands the screen over
# and shows each human only their own view, bots' turns come as summaries
# (every event with --verbose), and replay prints the game move by move
# (--log, --as SEAT, the stepper).  Usage: test_play_session.sh CROUPIER
set -euo pipefail
cr="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
moves() { sed -n '/^actions$/,$p' "$1" | grep -vc -e '^#' -e '^actions$'; }
body() { grep -v '^#' "$1"; }
seats=human,heuristic,random,ismcts:iters=30

# --- resume: the recorded bots play on and the game saves back to FILE ---
printf '3\nquit\n' | "$cr" play dml --seats "$seats" --seed 8 --save "$tmp/r.rec" >"$tmp/r.out"
grep -q "resume with: croupier play --load $tmp/r.rec\$" "$tmp/r.out" || fail "resume hint: $(tail -2 "$tmp/r.out")"
n1=$(moves "$tmp/r.rec")
printf '1\nquit\n' | "$cr" play --load "$tmp/r.rec" >"$tmp/r2.out" || fail "resume"
grep -q "saving to $tmp/r.rec" "$tmp/r2.out" || fail "resume does not say where it saves: $(head -1 "$tmp/r2.out")"
grep -q "P1 heuristic, P2 random, P3 ismcts:iters=30" "$tmp/r2.out" || fail "resumed seats: $(sed -n 2p "$tmp/r2.out")"
n2=$(moves "$tmp/r.rec")
[ "$n2" -gt "$n1" ] || fail "a resumed game without --save did not save back to its file ($n1 -> $n2 moves)"
grep -q '^seat 3 ismcts:iters=30$' "$tmp/r.rec" || fail "the record lost its seats"
# The same answers in one sitting give the same record: the same bots, the same dice.
printf '3\n1\nquit\n' | "$cr" play dml --seats "$seats" --seed 8 --save "$tmp/one.rec" >/dev/null
cmp -s <(body "$tmp/r.rec") <(body "$tmp/one.rec") || fail "the resumed game differs from the uninterrupted one"
# --save after --load writes elsewhere and leaves FILE alone
cp "$tmp/r.rec" "$tmp/keep.rec"
printf '1\nquit\n' | "$cr" play --load "$tmp/r.rec" --save "$tmp/other.rec" >/dev/null
cmp -s "$tmp/r.rec" "$tmp/keep.rec" || fail "--load with --save OTHER changed FILE"
[ "$(moves "$tmp/other.rec")" -gt "$n2" ] || fail "--save OTHER not written"

# --- undo: back to the human's previous decision, past the bots' moves, same dice after ---
# (seed 18: P0's first answer is followed by the bots' moves before its next decision)
printf '3\nundo\n3\n1\nquit\n' | "$cr" play dml --seats "$seats" --seed 18 --save "$tmp/u.rec" >"$tmp/u.out"
grep -Eq 'P0 takes back the last decision \(([2-9]|[1-9][0-9]+) actions taken back' "$tmp/u.out" ||
    fail "undo did not take back past the bots' moves: $(grep 'takes back' "$tmp/u.out")"
printf '3\n1\nquit\n' | "$cr" play dml --seats "$seats" --seed 18 --save "$tmp/one18.rec" >/dev/null
cmp -s <(body "$tmp/u.rec") <(body "$tmp/one18.rec") || fail "undo then the same answer gave other dice or moves"
# the bots' turns after the redo are told exactly as the first time
told() { # the first 'since your last turn' after the k-th answer '3', up to the view
    awk -v k="$1" '/^P0> 3$/ { n++ } n == k && /^since your last turn/ { p = 1 }
                   p { print } p && /^Round/ { exit }' "$tmp/u.out"
}
told 1 >"$tmp/u.first"
told 2 >"$tmp/u.second"
[ -s "$tmp/u.first" ] && cmp -s "$tmp/u.first" "$tmp/u.second" || fail "the redone turn was told differently"

# --- bots' turns: a summary per turn; --verbose keeps every event ---
printf '3\n1\nquit\n' | "$cr" play dml --seats "$seats" --seed 8 >"$tmp/s.out"
printf '3\n1\nquit\n' | "$cr" play dml --seats "$seats" --seed 8 --verbose >"$tmp/v.out"
grep -q '^since your last turn:$' "$tmp/s.out" || fail "no 'since your last turn' summary"
grep -q '^  P3 (ismcts:iters=30):$' "$tmp/s.out" || fail "no summary headed by the bot's seat"
[ "$(grep -c "dealt to P[0-3]'s Hand" "$tmp/v.out")" -eq 8 ] || fail "--verbose lost events"
[ "$(grep -c . "$tmp/s.out")" -lt "$(( $(grep -c . "$tmp/v.out") - 15 ))" ] || fail "the summary is not shorter"
grep -q 'P0 rolls (2,6); P1 rolls (1,2)' "$tmp/s.out" || fail "short lines are not grouped"
grep -q "2D, 3D dealt to P0's Hand" "$tmp/s.out" || fail "like moves are not merged"
grep -q "a card dealt to P1's Hand ×2" "$tmp/s.out" || fail "repeats are not counted"
if grep -Eq '(2S|3S|2H|3H|2C|3C) dealt to' "$tmp/s.out"; then
    fail "the summary names another seat's dealt card"
fi
# a table of bots: one omniscient summary per seat's run of moves
"$cr" play dml --seats random,random,random,random --seed 7 >"$tmp/b.out"
grep -q '^P2 (random):$' "$tmp/b.out" || fail "bots-only game has no per-seat summaries"
grep -q '^game over after' "$tmp/b.out" || fail "bots-only game did not end"

# --- hot seat: a hand-over before each human, each section only its human's view ---
yes 1 | head -n 300 | "$cr" play dml --seats human,random,human,random --seed 5 >"$tmp/h.out" || true
[ "$(grep -c '^==== Pass the screen to P' "$tmp/h.out")" -ge 4 ] || fail "too few hand-overs"
awk -v dir="$tmp" '
    /^==== Pass the screen to P/ { n++; seat = substr($6, 2, 1) + 0; file = dir "/sec." n "." seat; next }
    n > 0 { print > file }' "$tmp/h.out"
for f in "$tmp"/sec.*; do
    own=${f##*.}
    other=$((2 - own))
    if grep -q "Your hand (P$other)\|P$other (you)\|^P$other> " "$f"; then
        fail "P$own's section shows P$other's view: $(grep "P$other" "$f" | head -3)"
    fi
done
grep -B60 '^==== Pass the screen to P2' "$tmp/h.out" | head -55 | grep -qv . ||
    fail "the hand-over does not push the last view off the screen"

# --- replay: the game in words, move by move, from a view ---
printf '3\n1\nquit\n' | "$cr" play dml --seats "$seats" --seed 8 --save "$tmp/g.rec" >/dev/null
"$cr" replay "$tmp/g.rec" --log --as open >"$tmp/open.log" || fail "replay --log --as open"
# by default --log is the public view (as the full-screen viewer): no Hand shows
"$cr" replay "$tmp/g.rec" --log >"$tmp/default.log" || fail "replay --log"
sed -n 1p "$tmp/default.log" | grep -q "public view" || fail "--log's default view: $(sed -n 1p "$tmp/default.log")"
grep -q "a card dealt to P0's Hand" "$tmp/default.log" || fail "--log's default view shows P0's cards"
grep -q '^   1\. chance: roll 2 6$' "$tmp/open.log" || fail "--log does not number moves: $(sed -n 3p "$tmp/open.log")"
grep -q '^        P0 rolls (2,6)$' "$tmp/open.log" || fail "--log lacks the chance results"
grep -Eq '^ *[0-9]+\. P3 \(ismcts:iters=30\): ' "$tmp/open.log" || fail "--log lacks who did what"
grep -q 'unfinished: P0 to act' "$tmp/open.log" || fail "--log lacks the end"
"$cr" replay "$tmp/g.rec" --log --as 1 >"$tmp/p1.log" || fail "replay --log --as 1"
"$cr" replay "$tmp/g.rec" --log --as public >"$tmp/pub.log" || fail "replay --log --as public"
grep -q "P1's view" "$tmp/p1.log" || fail "--as 1 does not say whose view"
# a step of another seat's choice that reported nothing says so (it was an empty entry)
awk 'bare && !/^        /{bad=1} {bare=/^ *[0-9]+\. P[0-9] \([^)]*\)$/} END{exit bad || bare}' "$tmp/p1.log" ||
    fail "--as 1 prints a move with nothing under it"
grep -q ': a step this view does not see$' "$tmp/p1.log" || fail "--as 1: no hidden step named"
for c in $(sed -n 's/^ *\([0-9TJQKAX][0-9SCHDX]*\) dealt to P0\(.s Hand\| as Merchant King\)$/\1/p' "$tmp/open.log"); do
    if grep -q "\\b$c\\b" "$tmp/p1.log" "$tmp/pub.log"; then fail "P0's hidden card $c shows in another view"; fi
done
grep -q "a card dealt to P0's Hand" "$tmp/p1.log" || fail "--as 1 lost the hidden moves"
if grep -q 'chance: ' "$tmp/p1.log"; then fail "--as 1 prints chance notation (a draw may be hidden)"; fi
printf 'n\ng 20\np\nbogus\ng 999\ne\nq\n' | "$cr" replay "$tmp/g.rec" --step --as 0 >"$tmp/step.out" ||
    fail "replay --step"
for want in '== move 1 of' '== move 20 of' '== move 19 of' "unknown command 'bogus'" 'no move .999.'; do
    grep -q "$want" "$tmp/step.out" || fail "stepper: no '$want'"
done
grep -q 'Your hand (P0)' "$tmp/step.out" || fail "the stepper does not show P0's view"
"$cr" replay "$tmp/g.rec" --json >"$tmp/g.json" || fail "replay --json"
grep -q '"actions"' "$tmp/g.json" || fail "replay --json prints no record"
if "$cr" replay "$tmp/g.rec" --log --as 7 2>"$tmp/err"; then fail "--as 7 accepted"; fi
grep -q 'no seat P7' "$tmp/err" || fail "--as 7 message: $(cat "$tmp/err")"
set +e
"$cr" replay "$tmp/g.rec" --log --as banana 2>"$tmp/err"; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--as banana exits $rc"
# a resigned game: the mark is in the log
printf '3\nresign\n' | "$cr" play dml --seats "$seats" --seed 8 --save "$tmp/x.rec" >/dev/null
"$cr" replay "$tmp/x.rec" --log --as open >"$tmp/x.log"
grep -q -- '-- P0 resigns' "$tmp/x.log" && grep -q 'the match ended' "$tmp/x.log" || fail "--log of a resigned game: $(tail -3 "$tmp/x.log")"

# an action whose notation is a command word is listed in words with its
# number: DML's Withdraw is `undo`, which typed takes back a decision
printf '1\n' | "$cr" play dml --seats human,heuristic,heuristic,heuristic --seed 9 --plain >"$tmp/w.out" || true
grep -q '[0-9]\. Withdraw: choose another option (type [0-9]*)' "$tmp/w.out" ||
    fail "the Withdraw choice is not listed in words: $(grep -E '^ +[0-9]+\.' "$tmp/w.out" | tail -1)"
if grep -Eq '(^| )[0-9]+\. undo( |$)' "$tmp/w.out"; then fail "a choice reads 'undo', the command's word"; fi

echo "test_play_session.sh: all passed"
