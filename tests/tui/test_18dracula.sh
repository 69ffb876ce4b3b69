#!/usr/bin/env bash
# tests/tui/test_18dracula.sh CROUPIER — 18Dracula in the full-screen client,
# driven in tmux as a player would (80x24, keys with send-keys, the screen read
# with capture-pane; every wait polls the screen, nothing sleeps a fixed time):
#
#  1. the table (src/games/18dracula/panels.c) opens with the decision, the
#     acting seat's cash and the market's panel;
#  1b. an amount action (a bid) takes any amount of its range, typed, and
#     refuses one off its steps;
#  2. the auction and the first stock round are played by keys (Enter plays
#     the highlighted action) until a front is on the market: the Market
#     panel shows it in the bracket of its price;
#  3. after `s` (save) the cash the screen gives the acting seat is the cash
#     of the saved record's position (`croupier replay`);
#  3b. the stock round's menu is grouped and whole on the screen: every kind
#     of two or more actions the line client lists (from the saved record)
#     is one row "▸ Title (N)", a kind of one its action by its number;
#     typing an action's number opens its group with it highlighted, Esc
#     goes back; Enter opens a group (IPO or market when there is one), `?`
#     explains there too, and Enter buys its first share, which the record
#     then holds;
#  4. `t` shows the whole table: the Fronts, the Bank, the Associates and
#     the market grid;
#  5. `m` shows the map (mapgrid.c), scrolled: places by id, the key with
#     cities and towns by name and the off-boards' values, no line over 80
#     columns; `h` gives a hint ("club would play: ...");
#  6. played on by keys until P0 buys monsters: the purchase's label names
#     the monster's card in words ("Buy a Nurse for 40 (home, eaten in phase
#     4)"); q quits (y), the program exits with 0.
set -euo pipefail

. "$(dirname "$0")/tmux.sh" "$1" tui18
start d18 play 18dracula --seats human,heuristic,heuristic --seed 3 --pace 0 --save game.txt

# ---- 1. the table ----------------------------------------------------------
wait_for "Your move, P0"
wait_for "Now: associate auction"
wait_for "P0 to act (cash 800)"
wait_for "Market: [price fronts]"

# ---- 1b. any amount: a bid the menu does not list ------------------------------
keys 2
keys Enter
wait_for "amount from 55 to 800, in steps of 5"
keys 6 3 Enter
wait_for "not an amount of this action: from 55 to 800 on its steps"
keys 2
keys Enter
wait_for "amount from 55 to 800, in steps of 5"
keys 6 5 Enter
wait_for "P0 735, 1/23 JH" # JH was bought at the bid of 65

# ---- 2. play by keys until a front is on the market ---------------------
for ((n = 0; n < 60; n++)); do
    screen | grep -qE '^row [0-9]+: .*\[[0-9]+ [A-Z]{3}' && break
    before=$(screen)
    keys Enter
    # the next decision of P0 (the screen changes once the bots have moved)
    for ((i = 0; i < 400; i++)); do
        s=$(screen)
        [ "$s" != "$before" ] && grep -qF "Your move, P0" <<<"$s" && break
        sleep 0.05
    done
done
screen | grep -qE '^row [0-9]+: .*\[[0-9]+ [A-Z]{3}' || fail "no front on the market after $n decisions"
screen | grep -qF "Now: stock round" || fail "not in a stock round"

# ---- 3. the acting seat's cash is the saved position's ------------------
keys s
wait_for "saved to"
cash=$(screen | grep -oE 'P0 to act \(cash [0-9]+\)' | grep -oE '[0-9]+\)' | tr -d ')')
[ -n "$cash" ] || fail "no cash for P0 on the screen"
"$BIN" replay game.txt --plain >replay.txt
want=$(awk '/^position:/{p=1;next} p&&/"cash": \[/{getline; gsub(/[ ,]/,""); print; exit}' replay.txt)
[ "$cash" = "$want" ] || fail "the screen gives P0 $cash, the record's position $want"
line=$(screen | grep -E '^>P0 ' | head -1)
grep -qE "^>P0 $cash, " <<<"$line" || fail "the Players panel does not give P0 $cash: $line"

# ---- 3b. the stock round's menu, grouped ------------------------------------
# The line client lists the same decision (from the saved record): each kind
# of action of two or more is one row "▸ Title (N)" of the top level, a kind
# of one its action by its number; all of them on the screen at once.
keys Escape # the top level (Esc there changes nothing)
printf 'quit\n' | "$BIN" play --load game.txt --save listed.txt --plain >listed.out 2>&1 || true
items=$(awk '/^ +[0-9]+\. /{buf = buf $0 "\n"; next} /^P0> /{printf "%s", buf; exit} {buf = ""}' \
    listed.out | grep -oE '[0-9]+\. [a-z-]+')
[ -n "$items" ] || fail "the line client listed no menu: $(tail -5 listed.out)"
title_of() {
    case $1 in
    start) echo "Start a front" ;; ipo) echo "Buy from the IPO" ;;
    market) echo "Buy from the market" ;; sell) echo "Sell shares" ;;
    offer) echo "Offer for an associate" ;; pass) echo "Pass" ;; end) echo "End your turn" ;;
    *) fail "a kind of stock-round action the test does not know: $1" ;;
    esac
}
right() { screen | sed -n "s/^[^│]*│//p"; } # the right column: the log and the menu
groups=0 open_kind="" open_n=0
for kind in $(awk '{print $2}' <<<"$items" | sort -u); do
    n=$(awk -v k="$kind" '$2 == k' <<<"$items" | wc -l)
    first=$(awk -v k="$kind" '$2 == k {sub(/\./, "", $1); print $1; exit}' <<<"$items")
    title=$(title_of "$kind")
    if ((n >= 2)); then
        groups=$((groups + 1))
        right | grep -qF "▸ $title ($n)" || fail "the top level lacks '▸ $title ($n)'"
        if [ "$kind" = ipo ] || [ "$kind" = market ] || [ -z "$open_kind" ]; then
            [ "$open_kind" = ipo ] || [ "$open_kind" = market ] || { open_kind=$kind open_n=$n; }
        fi
    else
        right | grep -qE "^ ?$first " || fail "the top level lacks action $first ($kind) on its own"
    fi
done
shown=$(right | grep -c "▸" || true)
[ "$shown" = "$groups" ] || fail "$shown groups on the screen, $groups kinds of two or more actions"
((groups >= 1)) || fail "no group in this stock round: $items"
# a number still picks its action: it opens the action's group; Esc goes back
first=$(awk -v k="$open_kind" '$2 == k {sub(/\./, "", $1); print $1; exit}' <<<"$items")
title=$(title_of "$open_kind")
keys $(sed 's/./& /g' <<<"$first")
wait_for "▾ $title ($open_n)"
screen | tail -1 | grep -qE "^$first: " || fail "action $first is not highlighted after typing it"
keys Escape
wait_for "$title: $open_n choices"
# open the group with Enter; ? explains there too (and Esc leaves the help,
# not the group); Enter buys its first share
keys Enter
wait_for "▾ $title ($open_n)"
keys ?
wait_for "Help: this decision"
keys Escape
wait_for "▾ $title ($open_n)"
front=$(screen | tail -1 | sed -nE 's/^[0-9]+: (Buy an? ([A-Z]{3}) share|Start ([A-Z]{3})).*/\2\3/p')
[ -n "$front" ] || fail "no share highlighted in the group '$title'"
before=$(screen)
keys Enter
for ((i = 0; i < 400; i++)); do
    s=$(screen)
    [ "$s" != "$before" ] && grep -qF "Your move, P0" <<<"$s" && ! grep -qF "▾ $title" <<<"$s" && break
    sleep 0.05
done
"$BIN" replay game.txt --log >bought.txt
grep -qE "P0: $open_kind $front" bought.txt || fail "the record lacks P0's '$open_kind $front'"

# ---- 4. the whole table --------------------------------------------------
keys t
wait_for "The table"
all=$(screen)
for ((page = 0; page < 8; page++)); do # page down until the end shows
    before=$(screen)
    keys NPage
    for ((i = 0; i < 40; i++)); do
        [ "$(screen)" != "$before" ] && break
        sleep 0.05
    done
    all="$all
$(screen)"
done
for want in "Fronts" "Phase 1, tracker" "Associates" "Market grid" "row 0:"; do
    grep -qF "$want" <<<"$all" || fail "the whole table lacks '$want'"
done
keys Escape
wait_for "Your move, P0"

# ---- 5. the map, and a hint -------------------------------------------------
keys m
wait_for "The map"
wait_for "Map, phase 1"
map=$(screen)
for ((page = 0; page < 6; page++)); do
    before=$(screen)
    keys NPage
    for ((i = 0; i < 40; i++)); do
        [ "$(screen)" != "$before" ] && break
        sleep 0.05
    done
    map="$map
$(screen)"
done
# places by id on the picture, by name in the key, off-boards with their value
for want in "RAV" "Ravenspire" "Cities: level, value now" "Helifax 30" "Towns"; do
    grep -qF "$want" <<<"$map" || fail "the map lacks '$want'"
done
# at 80 columns no line of it is cut
if awk 'length > 80' <<<"$map" | grep -q .; then fail "a map line is wider than 80"; fi
keys Escape
wait_for "Your move, P0"
keys h
wait_for "would play:"

# ---- 6. a monster purchase names the card ----------------------------------
# Enter on and on (a group opens, its first action plays) until P0 buys
# monsters for an entity it runs: the label says how the monster moves and
# when it is eaten, in words.
card='for [0-9]+ \((home|howl|dit [0-9]+|city [0-9]+|major [0-9]+|any length)(, [a-z0-9 ]+)*, (eaten in phase [0-9]|permanent)\)'
for ((m = 0; m < 300; m++)); do
    screen | grep -qE "$card" && break
    before=$(screen)
    keys Enter
    for ((i = 0; i < 400; i++)); do
        s=$(screen)
        [ "$s" != "$before" ] && grep -qF "Your move, P0" <<<"$s" && break
        grep -qF "Game over" <<<"$s" && fail "the game ended before P0 bought a monster"
        sleep 0.05
    done
done
screen | grep -qE "$card" || fail "no monster purchase with its card after $m more decisions"
label=$(screen | grep -oE "Buy an? [A-Z][a-z]+( [A-Z][a-z]+)? $card" | head -1)
[ -n "$label" ] || fail "a card without 'Buy a <monster>' before it"
keys q
wait_for "(y/n)"
keys y
for ((i = 0; i < 400; i++)); do dead && break; sleep 0.05; done
dead || fail "the program did not exit"
screen | grep -qF "[exit status 0]" || fail "the program did not exit with 0"
echo "ok: 18Dracula's table at 80x24, $n decisions played by keys, $groups groups in a stock round, $m more to '$label'"
