#!/usr/bin/env bash
# tests/tui/test_18dracula_build.sh CROUPIER — an 18Dracula build chosen with
# the map and the help, in the full-screen client at 80x24, driven in tmux
# as a player would (tests/tui/tmux.sh):
#
#  0. a game of four heuristic seats (seed 3) gives the position: P0's first
#     build decision where some build raises the front's rampage revenue
#     (line mode's `help` at each of P0's builds, from the record cut
#     there); P0 takes it over as a human (`play --load`);
#  1. `m` shows the map with both ends of that build (their ids on the map,
#     their names in its key);
#  2. `?` gives the build help with the router's preview: the revenue now
#     and, for each build, its colour, cost and the rampage after it, the
#     same lines line mode gives, the chosen build's gain above 0;
#  3. typing the build's number highlights it (its group opens) and Enter
#     plays it: the record the client keeps saving ends with it;
#  4. `m` again: the map is drawn differently (the cube's colour on that
#     space), the rest of the decision goes on; q quits with status 0.
set -euo pipefail

. "$(dirname "$0")/tmux.sh" "$1" tui18build

# ---- 0. the position ----------------------------------------------------------
"$BIN" play 18dracula --seats heuristic,heuristic,heuristic,heuristic --seed 3 \
    --save game.txt </dev/null >/dev/null
"$BIN" replay game.txt --log >log.txt
head_lines=$(grep -n '^actions$' game.txt | cut -d: -f1)
move="" best=""
for m in $(awk '/^ *[0-9]+\. /{m=$1} /P0 for [A-Z]+: build [A-Z]/{sub(/\./, "", m); print m}' log.txt); do
    head -n $((head_lines + m - 1)) game.txt >cut.txt
    sed -i 's/^seat 0 heuristic$/seat 0 human/' cut.txt
    printf 'help\nquit\n' | "$BIN" play --load cut.txt --plain >help.txt 2>&1 || true
    # the preview's first line is the best build: "  A-B (ID-ID): green cube, cost 0; rampage 140 (+30)"
    line=$(awk '/^Rampage now: [0-9]+\. With one build:$/{getline; print; exit}' help.txt)
    if grep -qE '\(\+[1-9][0-9]*\)$' <<<"$line"; then
        move=$m best=$line
        break
    fi
done
[ -n "$move" ] || fail "no build of P0 in the game raises a rampage (the preview never shows a gain)"
build=$(sed -E 's/^ *[^(]+\(([A-Z]+-[A-Z]+)\):.*/\1/' <<<"$best") # e.g. NIG-CAN
a=${build%-*} b=${build#*-}
names=$(sed -E 's/^ *([^(]+) \(.*/\1/' <<<"$best") # e.g. Nightcombe-Candlemere
printf 'list\nquit\n' | "$BIN" play --load cut.txt --plain >list.txt 2>&1 || true
number=$(grep -oE "[0-9]+\. build $build( |$)" list.txt | head -1 | cut -d. -f1)
[ -n "$number" ] || fail "line mode lists no 'build $build'"
cp cut.txt play.txt

start build play --load play.txt --pace 0
wait_for "Your move, P0"

# ---- 1. the map shows both ends -----------------------------------------------
map_now() { # the whole map with its colours (the window made tall for the capture)
    tmux -L "$SOCK" resize-window -t "$SESSION" -x 80 -y 70
    wait_for "Cities: level, value now"
    tmux -L "$SOCK" capture-pane -e -p -t "$SESSION"
    tmux -L "$SOCK" resize-window -t "$SESSION" -x 80 -y 24
}
keys m
wait_for "Map, phase"
before=$(map_now)
for id in "$a" "$b"; do
    grep -qE "(^|[^A-Z])$id([^A-Z]|$)" <<<"$before" || fail "the map does not show $id"
done
keys Escape
wait_for "Your move, P0"

# ---- 2. the help with the router's preview --------------------------------------
keys '?'
wait_for "With one build:"
help=$(screen)
grep -qF "$(sed -E 's/^ +//' <<<"$best")" <<<"$help" ||
    fail "the help lacks the best build's preview: $best"
grep -qE '^ *Rampage now: [0-9]+\. With one build:' <<<"$help" || fail "the help gives no rampage now"
keys Escape
wait_for "Your move, P0"

# ---- 3. the build chosen by its number and played -------------------------------
keys "$number"
wait_for "$number "
keys Enter
last_action() { grep -v '^#' play.txt | tail -1; } # the record's last action (a comment may follow)
for ((i = 0; i < 400; i++)); do
    [ "$(last_action)" = "build $build" ] && break
    sleep 0.05
done
[ "$(last_action)" = "build $build" ] || fail "the record does not end with 'build $build' ($(last_action))"

# ---- 4. the map after the build ---------------------------------------------------
wait_for "Your move, P0"
keys m
wait_for "Map, phase"
after=$(map_now)
[ "$after" != "$before" ] || fail "the map is drawn the same after building $build"
keys Escape
wait_for "Your move, P0"
keys q
wait_for "(y/n)"
keys y
wait_dead
echo "ok: P0 built $build ($names) at move $move, chosen with the map and the preview '$(sed -E 's/^ +//' <<<"$best")'"
