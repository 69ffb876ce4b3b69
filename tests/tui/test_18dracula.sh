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
#  4. `t` shows the whole table: the Fronts, the Bank, the Associates and
#     the market grid;
#  5. `m` shows the map (mapgrid.c), scrolled: places by id, the key with
#     cities and towns by name and the off-boards' values, no line over 80
#     columns; `h` gives a hint ("club would play: ..."); q quits (y), the
#     program exits with 0.
set -euo pipefail

BIN=$(readlink -f "$1")
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/setup.sh installs it)"; exit 1; }
TMP=$(mktemp -d)
SOCK="croupier-tui18-$$"
SESSION=d18
cleanup() {
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
cd "$TMP"
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color

screen() { tmux -L "$SOCK" capture-pane -p -t "$SESSION"; }
keys() { tmux -L "$SOCK" send-keys -t "$SESSION" "$@"; }
fail() {
    echo "FAIL: $*"
    echo "--- screen ---"; screen || true; echo "--------------"
    exit 1
}
wait_for() {
    local text=$1 limit=${2:-20} i
    for ((i = 0; i < limit * 20; i++)); do
        screen | grep -qF -- "$text" && return 0
        sleep 0.05
    done
    fail "'$text' did not appear within ${limit}s"
}
dead() { [ "$(tmux -L "$SOCK" display-message -p -t "$SESSION" '#{pane_dead}')" = 1 ]; }

tmux -L "$SOCK" new-session -d -x 80 -y 24 -s idle sleep 3600
tmux -L "$SOCK" set-option -g remain-on-exit on
tmux -L "$SOCK" new-session -d -x 80 -y 24 -s "$SESSION" \
    sh -c '"$0" "$@"; echo "[exit status $?]"' "$BIN" play 18dracula \
    --seats human,heuristic,heuristic --seed 3 --pace 0 --save game.txt

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
keys q
wait_for "(y/n)"
keys y
for ((i = 0; i < 400; i++)); do dead && break; sleep 0.05; done
dead || fail "the program did not exit"
screen | grep -qF "[exit status 0]" || fail "the program did not exit with 0"
echo "ok: 18Dracula's table at 80x24, $n decisions played by keys"
