#!/usr/bin/env bash
# tests/tui/test_sheet.sh CROUPIER — the spreadsheet (`S`) and the last
# rampage on the map (`m`) in the full-screen client, at 80x24, driven in
# tmux (every wait polls the screen, nothing sleeps a fixed time):
#
#  1. a game of four heuristic bots is recorded (seed 3); the replay viewer
#     goes to the move where the third operating round begins (two played);
#     `S` shows the players against the fronts, each player's cash,
#     certificates and worth as the record's position at that move has
#     them, and the operating rounds 1.1 and 2.1, each front's cell of 2.1
#     being what the log says ("pays out N", the price it moved to);
#  2. `m` at that move draws the last rampage's routes with '*' and names
#     it (SAN earned 140), no line wider than 80;
#  3. backwards, at the rampage itself (its dividend not yet decided), the
#     sheet shows SAN's 2.1 revenue undecided ('?');
#  4. `croupier play --load` of the record cut there, with P0 human: `S` at
#     P0's first decision shows the history rebuilt from the record;
#  4b. line mode's `sheet` prints it too, without markup;
#  5. a game without a spreadsheet (DML) says so.
set -euo pipefail

. "$(dirname "$0")/tmux.sh" "$1" tuisheet
exits_0() { # the program ends, with status 0 (the line may have scrolled up)
    local i
    for ((i = 0; i < 400; i++)); do
        tmux -L "$SOCK" capture-pane -p -S -100 -t "$SESSION" | grep -qF "[exit status 0]" && return 0
        sleep 0.05
    done
    fail "the program did not exit with 0"
}

# ---- the record ------------------------------------------------------------
"$BIN" play 18dracula --seats heuristic,heuristic,heuristic,heuristic --seed 3 \
    --save game.txt </dev/null >/dev/null
"$BIN" replay game.txt --log >log.txt
# the move whose events begin the third operating round
move=$(awk '/^ *[0-9]+\. /{m=$1} /Operating round 3 begins/{sub(/\./,"",m); print m; exit}' log.txt)
[ -n "$move" ] || fail "no third operating round in the record"
# the record cut after that move, and its position then
head_lines=$(grep -n '^actions$' game.txt | cut -d: -f1)
head -n $((head_lines + move)) game.txt >cut.txt
"$BIN" replay cut.txt --plain >cut_replay.txt
cash=$(awk '/^position:/{p=1;next} p&&/"cash": \[/{c=1;next} c&&/\]/{exit} c{gsub(/[ ,]/,""); printf "%s ", $0}' cut_replay.txt)
[ -n "$cash" ] || fail "no cash in the cut record's position"
read -r -a cash_of <<<"$cash"
# what the second operating round did, by the log: "X pays out N" and X's
# price after ("X's share price moves from A to B" in the same move)
awk '/Operating round 2 begins/{on=1} /Operating round 3 begins/{on=0}
     on && /share price moves from/ {split($1, f, "'"'"'"); price[f[1]] = $NF}
     on && / pays out / {n = $4; sub(/:/, "", n); print $1, n, price[$1]}' log.txt >paid.txt
[ -s paid.txt ] || fail "nobody paid out in the second operating round"

# ---- 1. the spreadsheet at that move of the replay -------------------------
start replay replay game.txt
wait_for "move 0 of"
for ((i = 0; i < move / 10; i++)); do keys NPage; done
for ((i = 0; i < move % 10; i++)); do keys Right; done
wait_for "move $move of"
keys S
wait_for "The spreadsheet"
wait_for "Players and fronts"
sheet=$(screen)
echo "--- the spreadsheet at move $move (two operating rounds played), 80x24 ---"
echo "$sheet"
echo "---"
for p in 0 1 2 3; do
    line=$(grep -E "^ *P$p " <<<"$sheet" | head -1)
    [ -n "$line" ] || fail "no line for P$p"
    got=$(awk '{print $2}' <<<"$line")
    [ "$got" = "${cash_of[$p]}" ] || fail "the sheet gives P$p cash $got, the position ${cash_of[$p]}"
    grep -qE "^ *P$p +[0-9]+ +[0-9]+/19 +[0-9]+" <<<"$line" || fail "P$p's line lacks certs/worth: $line"
done
for want in "Operating rounds" "IPO" "Price" "Treasury"; do
    grep -qF "$want" <<<"$sheet" || fail "the sheet lacks '$want'"
done
grep -qE '^ *1\.1 ' <<<"$sheet" || fail "no row for OR 1.1"
row=$(grep -E '^ *2\.1 ' <<<"$sheet") || fail "no row for OR 2.1"
while read -r front paid price; do
    grep -qF " ${paid}p${price}" <<<"$row" || fail "$front paid $paid (price $price) but OR 2.1 reads: $row"
done <paid.txt
if awk 'length > 80' <<<"$sheet" | grep -q .; then fail "a sheet line is wider than 80"; fi
# the last rampage, further down
keys NPage
wait_for "The last rampage"
wait_for "SAN earned 140 (OR 2.1), paid"
wait_for "Its routes (the map draws them *)"
keys Escape
wait_for "move $move of"

# ---- 2. the map: the last rampage's routes ----------------------------------
keys m
wait_for "Map, phase"
wait_for "* the last rampage: SAN earned 140 on these routes"
map=$(screen)
stars=$(grep -v "the last rampage" <<<"$map" | tr -cd '*' | wc -c)
[ "$stars" -ge 5 ] || fail "the routes are not drawn with '*' ($stars)"
if awk 'length > 80' <<<"$map" | grep -q .; then fail "a map line is wider than 80"; fi
keys Escape
wait_for "move $move of"

# ---- 3. backwards: at the rampage, its dividend undecided -------------------
rampage=$(awk '/^ *[0-9]+\. /{m=$1} /SAN.s rampage earns 140/{sub(/\./,"",m); r=m} END{print r}' log.txt)
[ -n "$rampage" ] || fail "no SAN rampage of 140 in the log"
for ((i = rampage; i < move; i++)); do keys Left; done
wait_for "move $rampage of"
keys S
wait_for "The spreadsheet"
grep -E '^ *2\.1 ' <<<"$(screen)" | grep -qF "140?" || fail "SAN's undecided 140 is not in OR 2.1"
keys Escape
keys q
exits_0

# ---- 4. resumed from the record: the history rebuilt ------------------------
sed -i 's/^seat 0 heuristic$/seat 0 human/' cut.txt
start resumed play --load cut.txt --pace 0
wait_for "Your move, P0"
keys S
wait_for "The spreadsheet"
resumed=$(screen)
grep -qE '^ *1\.1 ' <<<"$resumed" || fail "the resumed game's sheet has no OR 1.1"
grep -qE '^ *2\.1 ' <<<"$resumed" || fail "the resumed game's sheet has no OR 2.1"
keys Escape
wait_for "Your move, P0"
keys q
wait_for "(y/n)"
keys y
exits_0

# ---- 4b. line mode: `sheet` ---------------------------------------------------
printf 'sheet\nquit\n' | "$BIN" play --load cut.txt --plain >line.txt 2>&1 || true
grep -qF "== Players and fronts" line.txt || fail "line mode's sheet has no players: $(cat line.txt)"
grep -qE '^2\.1 ' line.txt || fail "line mode's sheet has no OR 2.1"
if grep -q $'\x02' line.txt; then fail "line mode's sheet shows markup"; fi

# ---- 5. a game without a spreadsheet ----------------------------------------
start dml play dml --seats human,random,random,random --seed 1 --pace 0
wait_for "Your move, P0"
keys S
wait_for "this game has no spreadsheet"
keys q
wait_for "(y/n)"
keys y
exits_0
echo "ok: the spreadsheet at move $move (after two operating rounds), the map's last rampage, resumed and in DML"
