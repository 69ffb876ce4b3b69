#!/usr/bin/env bash
# tests/tui/test_dml2015.sh CROUPIER — DML's 2015 edition (variant dml-2015)
# in the full-screen client, driven in tmux at 80x24 as test_tui.sh does:
#
#  1. a Character Power Phase with the Rogue Jester on the Stack (the record
#     tests/tui/dml2015_jester_cpp.txt, a seeded random game cut
#     after the Jester's play, seat P1 made human): the Stack one card a
#     line, top first, with the 2015 names (Rogue Jester, Harlot Queen of
#     Smorgon), the step named a Character Power Phase, the menu's card
#     named as 2015 names it (Tithe Embezzeler); `?` explains the CPP and
#     what the Jester will do to the cards below it.
#  2. a whole dml-2015 game from the pile choice to the end, Enter at every
#     decision: the Setup offers the face-down piles, the Market its
#     forfeits, and the game ends with a result.
set -euo pipefail

FIXTURE=$(readlink -f "$(dirname "$0")/dml2015_jester_cpp.txt")
. "$(dirname "$0")/tmux.sh" "$1" tui15

# ---- 1. the Rogue Jester on the Stack ---------------------------------------
cp "$FIXTURE" jester.txt
start jester play --load jester.txt --pace 0
wait_for "Your move, P1"
s=$(screen)
grep -q "P1 decides: stack, Character Power Phase" <<<"$s" || fail "the step is not named a Character Power Phase"
grep -q "Stack (top resolves first)" <<<"$s" || fail "no 2015 Stack panel"
grep -q "^top J♣ P3 Power: Rogue Jester" <<<"$s" || fail "the Rogue Jester is not on top of the Stack"
grep -q "^    Q♥ P2 Power: Pampered Heiress" <<<"$s" || fail "the Heiress is not under the Jester"
grep -q "^    Q♣ P3 Power: Harlot Queen of Smorgon" <<<"$s" || fail "the Harlot Queen is not at the bottom"
grep -q "Tithe Embezzeler" <<<"$s" || fail "the menu does not use the 2015 name of JD"
grep -q "Vice Minister\|Supreme Secretary" <<<"$s" && fail "a 2016 name on a 2015 screen"
keys '?'
wait_for "Character Power Phase (DML-2015)"
wait_for "resolves next."
keys Escape
wait_for "Your move, P1"
keys q
wait_for "Quit the game?"
keys y
wait_dead
echo "ok 1 - a 2015 CPP with the Rogue Jester on the Stack, in 2015 words, and its help"

# ---- 2. a whole dml-2015 game ------------------------------------------------
start whole play dml --variant dml-2015 --seats human,random,random,random --seed 11 --pace 0 --save whole.txt
wait_for "Your move, P0"
wait_for "Take face-down pile"
screen | grep -q "Piles" || fail "the table does not show the piles left"
piles=0 forfeit=0
for ((n = 0; n < 600; n++)); do
    s=$(screen)
    grep -q "Game over" <<<"$s" && break
    grep -q "Forfeit" <<<"$s" && forfeit=1
    keys Enter
    sleep 0.05
done
wait_for "Game over" 30
[ "$forfeit" = 1 ] || fail "no Market decision offered a forfeit"
keys q
sleep 0.2
dead || keys y
wait_dead
"$BIN" replay whole.txt --plain | grep -q "^scores:" || fail "the dml-2015 record does not replay"
echo "ok 2 - a whole dml-2015 game at the full-screen client, and its replay"
echo "all dml-2015 tui tests passed"
