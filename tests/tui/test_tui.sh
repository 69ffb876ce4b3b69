#!/usr/bin/env bash
# tests/tui/test_tui.sh CROUPIER — drives the full-screen client in tmux, as a
# player would: a real terminal of 80x24 (tmux new-session -x 80 -y 24), keys
# sent with send-keys, the screen read with capture-pane.  Every wait polls
# the screen until the text appears (or fails after a timeout, printing the
# screen); nothing sleeps a fixed time.
#
#  1. against three bots: the screen shows the seat's Hand (the same cards as
#     the seat's observation from `croupier run --as`), the Stocks with each
#     card's Value, the Event, each opponent's Hand size and the Black
#     Markets, all at 80x24 without a key; Enter to the end; the final scores are those
#     of `croupier replay` of the saved record, and so are the achievements `a`
#     shows; the program exits with 0.
#  2. --ascii: no suit symbols, cards as codes.
#  3. hot seat (two humans): a privacy screen between them shows no table;
#     while one acts, no card of the other's Hand, King or offer that the
#     acting seat does not know appears anywhere on the screen; `u` never
#     takes back the other human's decision.
#  4. save, quit, resume: a game stopped and resumed from its record plays on
#     with the same bots and dice: its record equals the uninterrupted game's.
#  5. undo: after `u` and the same choice again the screen (log and table) is
#     what it was: the same dice.
#  6. the bots' pace: a bot's move stays on the screen; '-' shortens it.
#  7. the replay viewer: forwards, backwards, the public view, a seat's and
#     the open view (all cards).
#  8. a TERM ncurses does not know: line mode, with a note.
#  9. the log pane at a decision: the events since the last turn summarised
#     as line mode does (grouped by seat, merged), wrapped to the pane, with
#     the bots' groups whole and an early fact that one event a line could
#     not have kept in the pane; `l` still shows every event.
# 10. the letters of a composed choice keep their meaning (w withdraws, d is
#     done); a failed save: `s` to a path that cannot be written says so, the quit
#     prompt then says the game is not saved (it does not claim a save), `s`
#     to a good path saves, and quitting names that file to resume.
set -euo pipefail

. "$(dirname "$0")/tmux.sh" "$1" tui

# The position of a saved record, and what seat S sees of it (JSON).
position_of() { "$BIN" replay "$1" --plain | awk '/^position:/{p=1;next} /^(scores|ranks):/{p=0} p' >"$2"; }
view_of() { "$BIN" run dml --position "$1" --as "$2"; }
# From a seat's observation: its own Hand, King and offer (card codes, one a line).
own_cards() {
    awk '/^  "(hand|offer)": \[\]/{next}
         /^  "(hand|offer)": \[/{p=1;next} p&&/^  \]/{p=0;next}
         p{gsub(/[",[:space:]]/,"");print}
         /^  "king": "/{gsub(/.*: "|",?$/,"");print}'
}
# From a seat's observation: the cards of seat $1's Hand and offer it knows.
known_of() {
    awk -v S="$1" '$0 ~ "\"seat\": \"" S "\"" {f=1}
         f&&/"(hand|offer)_known": \[\]/{next}
         f&&/"(hand|offer)_known": \[/{p=1;next} p&&/\]/{p=0;next}
         p{gsub(/[",[:space:]]/,"");print}
         f&&/"king": "/{gsub(/.*: "|",?$/,"");print}
         f&&/^    }/{exit}'
}
# A card code as the UTF-8 screen shows it: 7S -> 7♠.
utf8_card() { sed -e 's/S$/♠/' -e 's/C$/♣/' -e 's/H$/♥/' -e 's/D$/♦/' <<<"$1"; }

# ---- 1. three bots, to the end ---------------------------------------------
start bots play dml --seats human,heuristic,heuristic,heuristic --seed 7 --pace 0 --save bots.txt
wait_for "Your move, P0"
s=$(screen)
head -1 <<<"$s" | grep -q "P0's view · P0 you, P1 heuristic" || fail "the header does not name the view and the seats"
grep -q "^Hand: " <<<"$s" || fail "no Hand on the screen"
grep -q "Event: " <<<"$s" || fail "no Event on the screen"
grep -q "Stocks (card=Value now)" <<<"$s" || fail "no Stocks panel"
grep -Eq "^(Iron|Wood|Slaves|Spice) +.*[0-9TJQKA][♠♣♥♦]=[0-9]+" <<<"$s" || fail "no Stock card with its Value"
# the Hand shown is the seat's Hand
position_of bots.txt pos.json
view_of pos.json 0 >view0.json
# at 80x24 the whole table shows without pressing t: each opponent with the
# Hand size of the observation (the panels that do not fit on the left flow
# into the right column), and the Black Markets
grep -q "more: press t" <<<"$s" && fail "80x24: the table is cut"
for p in 1 2 3; do
    n=$(awk -v s="\"P$p\"" '$0 ~ "\"seat\": " s {f=1} f&&/"hand_count"/{gsub(/[^0-9]/,"");print;exit}' view0.json)
    grep -Eq "(^|│)P$p $n cards? " <<<"$s" || fail "80x24: no 'P$p $n cards' for P$p's Hand on the screen"
done
# the menu shows each label whole (wrapped to two rows at 80 columns): the
# first item's rows read as the footer's label of it
label=$(tail -1 <<<"$s" | sed -n -e 's/^1: \(.*\)   (Enter plays it.*/\1/p' -e 's/^1: \(.*\)  (Enter, ?, q)$/\1/p')
item=$(sed -n 's/^[^│]*│//p' <<<"$s" | awk '/^ 1 /{sub(/^ 1 /,""); t=$0; f=1; next}
    f&&/^   [^ ]/{sub(/^   /,""); t=t " " $0; next} f{print t; exit}')
[ -n "$label" ] && [ "$item" = "$label" ] || fail "80x24: the menu's first item reads '$item', its label is '$label'"
# each Black Market of the observation with its size
for bm in $(grep -oE '"label": [0-9]+' view0.json | grep -oE '[0-9]+$' | sed 's/^/BM/'); do
    grep -Eq "(^|│)$bm [0-9]+ cards?" <<<"$s" || fail "80x24: $bm is not on the screen"
done
want=$(own_cards <view0.json | grep -v '^K' | while read -r c; do utf8_card "$c"; done | sort | tr '\n' ' ')
got=$(grep "^Hand: " <<<"$s" | sed 's/^Hand: //; s/ *│.*//' | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
[ "$want" = "$got" ] || fail "the Hand shows '$got', the seat holds '$want'"
# play by keys to the end: Enter plays the highlighted action
for ((round = 0; round < 200; round++)); do
    screen | grep -q "Final scores:" && break
    keys Enter Enter Enter Enter Enter
    sleep 0.05
done
wait_for "Final scores:" 60
shown=$(screen | grep -o "Final scores:.*" | grep -oE "P[0-3] -?[0-9]+" | tr '\n' ' ')
# the final screen's two bottom lines do not cover the table: every
# opponent's row is there (one was overwritten when it was the last row)
fin=$(screen)
for p in 1 2 3; do
    grep -Eq "(^|│)P$p [0-9]+ cards?" <<<"$fin" || fail "the final screen lost P$p's row:
$fin"
done
# 'a' opens the achievements (the same as line mode's), any key closes them
keys a
wait_for " Achievements" 10
ach=$(screen)
keys x
wait_for "Final scores:" 10
keys q
wait_dead
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status) after the game"
want=$("$BIN" replay bots.txt --plain | grep '^scores:' | grep -oE "P[0-3] -?[0-9]+" | tr '\n' ' ')
[ -n "$want" ] && [ "$shown" = "$want" ] || fail "final scores shown '$shown', the record says '$want'"
# every achievement line mode names (seat and title) is in the window
"$BIN" replay bots.txt --plain | sed -n '/^achievements:/,$p' | grep '^  P' | sed 's/^  //; s/:.*//' >ach.txt
[ -s ach.txt ] || grep -q "Nobody earned an achievement" <<<"$ach" || fail "no achievements shown: $ach"
while read -r line; do
    grep -qF "$line" <<<"$ach" || fail "the achievements window lacks '$line':
$ach"
done <ach.txt
screen | grep -q "game over after" || fail "no summary after the client closed"
echo "ok 1 - three bots: Hand, Stocks with Values, Event, opponents and Black Markets at 80x24; played to the end: $shown"

# ---- 2. ASCII ----------------------------------------------------------------
# (seed 21 deals a Black Market at the start: it must show at 80x24 too)
start ascii play dml --seats human,random,random,random --seed 21 --pace 0 --ascii
wait_for "Your move, P0"
s=$(screen)
grep -q "[♠♣♥♦·—]" <<<"$s" && fail "--ascii shows non-ASCII symbols"
grep -Eq "^Hand: ([2-9TJQKA][SCHD]|X[12])" <<<"$s" || fail "--ascii: no Hand as card codes"
grep -Eq "(^|[|│])BM1 [0-9]+ cards?" <<<"$s" || fail "80x24: BM1 is not on the screen"
grep -q "more: press t" <<<"$s" && fail "80x24 --ascii: the table is cut"
# a larger window: the screen is laid out again (KEY_RESIZE)
tmux -L "$SOCK" resize-window -t "$SESSION" -x 120 -y 40
for ((i = 0; i < 200; i++)); do [ "$(screen | wc -l)" -ge 40 ] && screen | sed -n 40p | grep -q "(Enter" && break; sleep 0.05; done
screen | sed -n 40p | grep -q "Enter plays it" || fail "after a resize to 120x40 the last row is not the footer"
tmux -L "$SOCK" resize-window -t "$SESSION" -x 80 -y 24
keys q
wait_for "Quit the game?"
keys y
wait_dead
echo "ok 2 - --ascii, resize"

# ---- 3. hot seat -------------------------------------------------------------
start hot play dml --seats human,human,random,random --seed 5 --pace 0 --ascii --save hot.txt
checked=0 privacy=0
declare -a decided
for ((step = 0; step < 40; step++)); do
    for ((i = 0; i < 200; i++)); do
        s=$(screen)
        grep -qE "Pass to P[01]|Your move, P[01]" <<<"$s" && break
        sleep 0.05
    done
    if grep -q "Pass to P" <<<"$s"; then
        grep -Eq "Hand:|Stocks|Since your last turn|Event:" <<<"$s" && fail "the privacy screen shows the table"
        privacy=$((privacy + 1))
        keys Enter
        wait_for "Your move, P"
        s=$(screen)
    fi
    me=$(grep -oE "Your move, P[01]" <<<"$s" | grep -oE "[01]$")
    other=$((1 - me))
    grep -q "P${me}'s view" <<<"$s" || fail "P$me acts on a screen that is not P$me's view"
    # the record is saved before each human decision: what is hidden from me now?
    position_of hot.txt pos.json
    view_of pos.json "$other" >their-view.json
    view_of pos.json "$me" >my-view.json
    own_cards <their-view.json | sort -u >theirs.txt
    known_of "P$other" <my-view.json | sort -u >known.txt
    [ -s theirs.txt ] || fail "P$other's view lists no card of its own"
    # (a Black Market's "may hold" list names cards the seat cannot rule out:
    # its own reasoning, which may well name a card that is elsewhere)
    visible=$(sed 's/may hold [^│]*//' <<<"$s")
    for c in $(comm -23 theirs.txt known.txt); do
        if grep -qw -- "$c" <<<"$visible"; then fail "P$me's screen shows $c, a card of P$other it does not know"; fi
    done
    checked=$((checked + 1))
    # undo never takes back the other human's decision: once each seat has
    # decided and the other decided after, `u` is refused
    if [ "${decided[$me]:-0}" = 1 ] && [ "${last_human:-}" = "$other" ] && [ "${undo_checked:-0}" = 0 ]; then
        keys u
        wait_for "cannot undo: P$other has decided since"
        undo_checked=1
        s=$(screen)
    fi
    decided[$me]=1
    last_human=$me
    keys Enter
    # wait until the screen changed (next decision, privacy screen)
    for ((i = 0; i < 200; i++)); do [ "$(screen)" != "$s" ] && break; sleep 0.05; done
    screen | grep -q "Final scores:" && break
done
[ "$privacy" -ge 2 ] || fail "only $privacy privacy screens in $checked decisions"
[ "${undo_checked:-0}" = 1 ] || fail "the undo across humans was never tried"
keys q
for ((i = 0; i < 100; i++)); do screen | grep -qE "Quit the game|Final scores" && break; sleep 0.05; done
screen | grep -q "Quit the game" && keys y
wait_dead
echo "ok 3 - hot seat: $checked decisions checked, $privacy privacy screens"

# ---- 4. save, quit, resume ---------------------------------------------------
start whole play dml --seats human,heuristic,random,heuristic --seed 11 --pace 0 --save whole.txt
wait_for "Your move, P0"
keys Enter Enter Enter Enter Enter Enter s
wait_for "saved to whole.txt"
keys q
wait_for "Quit the game?"
keys y
wait_dead
start part play dml --seats human,heuristic,random,heuristic --seed 11 --pace 0 --save part.txt
wait_for "Your move, P0"
keys Enter Enter Enter q
wait_for "Quit the game?"
keys y
wait_dead
screen | grep -q "resume with: croupier play --load part.txt" || fail "no resume hint"
start resumed play --load part.txt --pace 0
wait_for "Your move, P0"
screen | head -1 | grep -q "P0 you, P1 heuristic, P2 random, P3 heuristic" || fail "the resumed game lost its seats"
keys Enter Enter Enter s
wait_for "saved to part.txt"
keys q
wait_for "Quit the game?"
keys y
wait_dead
cmp -s whole.txt part.txt || {
    diff whole.txt part.txt | head -20
    fail "the resumed game differs from the uninterrupted one"
}
grep -q "heuristic" part.txt || fail "the record lost its seats"
echo "ok 4 - save, quit, resume: the same opponents and dice ($(grep -c . part.txt) record lines)"

# ---- 5. undo -----------------------------------------------------------------
# Play until dice were rolled since the seat's last decision, then take that
# decision back and make it again: the same dice come (the log and the table
# are the same), and the record is the same.
start undo play dml --seats human,heuristic,heuristic,heuristic --seed 5 --pace 0 --save undo.txt
wait_for "Your move, P0"
# decide: Enter, then s; waits until the save of this decision shows
decide() {
    local prev
    prev=$(screen)
    keys "$@" s
    for ((i = 0; i < 400; i++)); do
        s=$(screen)
        [ "$s" != "$prev" ] && grep -q "saved to undo.txt" <<<"$s" && return 0
        sleep 0.05
    done
    fail "no save after the keys $*"
}
rolled=0
for ((k = 0; k < 60; k++)); do
    decide Enter
    if screen | grep -q " rolls ("; then rolled=1; break; fi
done
[ "$rolled" = 1 ] || fail "no dice were rolled between two decisions in 60 decisions"
before=$(screen | sed '$d')
cp undo.txt undo-before.txt
keys u
wait_for "took back your last decision"
decide Enter
after=$(screen | sed '$d')
[ "$before" = "$after" ] || {
    diff <(echo "$before") <(echo "$after") || true
    fail "after undo and the same choice the screen differs"
}
cmp -s undo.txt undo-before.txt || fail "after undo and the same choice the record differs"
keys q
wait_for "Quit the game?"
keys y
wait_dead
echo "ok 5 - undo: the same dice afterwards"
# ---- 6. bots' pace -------------------------------------------------------------
# --pace 3000: a bot's move stays on the screen, named on the last row; '-'
# halves the pause, a key typed ahead ends it and is kept for the decision.
start pace play dml --seats heuristic,human,heuristic,heuristic --seed 7 --pace 3000
for ((i = 0; i < 400; i++)); do
    s=$(screen)
    grep -q "played; 3000 ms a move" <<<"$s" && break
    if grep -q "Your move, P1" <<<"$s"; then
        keys Enter
        for ((j = 0; j < 100; j++)); do [ "$(screen)" != "$s" ] && break; sleep 0.05; done
    fi
    sleep 0.05
done
wait_for "played; 3000 ms a move"
screen | head -1 | grep -q "P1's view" || fail "between decisions the only human's view is not shown"
keys -
wait_for "played; 1500 ms a move"
keys q
wait_for "Quit the game?"
keys y
wait_dead
echo "ok 6 - the bots' pace: shown, adjustable"

# ---- 7. replay viewer --------------------------------------------------------
# the record's length and its winner, as the record says them
n=$(sed -n '/^actions$/,$p' bots.txt | grep -vc -e '^#' -e '^actions$')
w=$("$BIN" replay bots.txt --json | tr -d ' \n' | grep -o '"winners":\[[0-9]' | grep -o '[0-9]$')
[ -n "$w" ] || fail "the bots' game has no winner"
start replay replay bots.txt
wait_for "move 0 of $n"
keys Right Right Right
wait_for "move 3 of $n"
screen | head -1 | grep -q "public view" || fail "the replay does not start in the public view"
screen | grep -q "^Hand: " && fail "the public view shows a Hand"
keys v
wait_for "P0's view"
screen | grep -q "^Hand: " || fail "P0's view in the replay shows no Hand"
keys v v v v
wait_for "open view (all cards)"
keys v
wait_for "public view"
keys End
wait_for "move $n of $n"
wait_for "P$w wins"
keys Left
wait_for "move $((n - 1)) of $n"
# at the first tenth move where P0 holds cards, the open view shows P0's
# Hand, the public view does not
keys Home
wait_for "move 0 of $n"
for ((k = 1; k <= 20 && k * 10 <= n; k++)); do
    keys PageDown
    wait_for "move $((k * 10)) of $n"
    public_p0=$(screen | grep -oE "(^|│)P0 [0-9]+ card.*")
    keys v v v v v
    wait_for "open view (all cards)"
    open_p0=$(screen | grep -oE "(^|│)P0 [0-9]+ card.*")
    grep -q "known: " <<<"$open_p0" && break
    keys v
    wait_for "public view"
done
grep -q "known: " <<<"$open_p0" || fail "the open view does not show P0's Hand: $open_p0"
[ "$open_p0" != "$public_p0" ] || fail "the public view shows what the open view shows: $public_p0"
keys q
wait_dead
[ "$(exit_status)" = 0 ] || fail "replay: exit status $(exit_status)"
echo "ok 7 - replay: forwards, backwards; the public view, P0's and the open view"
# ---- 8. a terminal ncurses cannot drive: line mode --------------------------------
START_ENV=TERM=no-such-terminal start noterm play dml --seats human,random,random,random --seed 7
wait_for "P0>"
tmux -L "$SOCK" capture-pane -p -S - -t "$SESSION" |
    grep -qF "cannot use the terminal (TERM=no-such-terminal): line mode" ||
    fail "no note that the terminal cannot be used"
keys quit Enter
wait_for "the game stops here."
wait_dead
echo "ok 8 - an unknown terminal falls back to line mode"
# ---- 9. the log pane: a summary since the last turn -------------------------
# At the first decision against three bots the pane summarises the 36 events
# since the start as line mode does (grouped by seat, the same merging),
# wrapped to the pane: it shows the bots' groups with all they did and a fact
# from early on that one event a line could not have kept in the pane.
SEATS=human,heuristic,heuristic,heuristic
"$BIN" play dml --seats "$SEATS" --seed 21 --plain </dev/null >plain21.txt || true
"$BIN" play dml --seats "$SEATS" --seed 21 --plain --verbose </dev/null >verbose21.txt || true
first_block() { awk '/^since your last turn:$/{p=1;next} p&&!/^  /{exit} p' "$1"; }
first_block plain21.txt >sum21.txt
n_events=$(first_block verbose21.txt | grep -c '^    ')
[ "$n_events" -gt 20 ] || fail "line mode shows only $n_events events before the first decision"
start summary play dml --seats "$SEATS" --seed 21 --pace 0
wait_for "Your move, P0"
# a taller screen (80x40): at 80x24 the table's overflow and the menu leave
# the pane a few rows, too few to tell a summary from a list
tmux -L "$SOCK" resize-window -t "$SESSION" -x 80 -y 40
for ((i = 0; i < 200; i++)); do [ "$(screen | wc -l)" -ge 40 ] && screen | sed -n 40p | grep -q "(Enter" && break; sleep 0.05; done
# the pane: the rows from its title down to the menu, in the title's column
# (bash counts characters in a UTF-8 locale, so the table's symbols do not
# shift it); PANE_COL: its column
pane() {
    local line pre
    PANE_COL=-1
    while IFS= read -r line; do
        if ((PANE_COL < 0)); then
            [[ $line == *"Since your last turn ("* ]] || continue
            pre=${line%%Since your last turn (*}
            PANE_COL=${#pre}
        fi
        [[ ${line:PANE_COL} == "Your move, P"* ]] && break
        printf '%s\n' "${line:PANE_COL}"
    done < <(screen)
}
pane >pane21.txt
head -1 pane21.txt | grep -qF "Since your last turn ($n_events)" ||
    fail "the pane's title does not count the $n_events events: $(head -1 pane21.txt)"
# the bots' groups in order, each with everything line mode says it did
# (the pane leaves out the seat's own name after its header)
flat=$(tail -n +2 pane21.txt | sed 's/^ *//' | tr '\n' ' ' | tr -s ' ')
prev=0
for seat in 1 2 3; do
    at=$(grep -n "^P$seat (heuristic): " pane21.txt | head -1 | cut -d: -f1 || true)
    [ -n "$at" ] && [ "$at" -gt "$prev" ] || fail "no group 'P$seat (heuristic):' in order in the pane"
    prev=$at
    items=$(awk -v h="  P$seat (heuristic):" '$0==h{p=1;next} p&&/^  [^ ]/{p=0} p' sum21.txt |
        sed 's/^ *//' | tr '\n' ';' | sed 's/; */\n/g' | sed -E "s/^P$seat:? //" | grep . || true)
    [ -n "$items" ] || fail "line mode has no group for P$seat"
    while IFS= read -r item; do
        grep -qF -- "$item" <<<"$flat" || fail "the pane lacks P$seat's '$item' (line mode has it)"
    done <<<"$items"
done
# an early fact: the earliest event the pane shows whole (of 12 characters
# or more: no chance match); line mode has it too, and the events from it to
# the decision need more rows of the pane's width than the pane has, so one
# event a line could not have shown it
mapfile -t evs < <(first_block verbose21.txt | grep '^    ' | sed 's/^    //')
fact="" from=0
for ((i = 0; i < ${#evs[@]}; i++)); do
    if ((${#evs[i]} >= 12)) && grep -qF -- "${evs[i]}" <<<"$flat"; then
        fact=${evs[i]} from=$i
        break
    fi
done
[ -n "$fact" ] || fail "the pane shows no event of the line mode's whole"
grep -qF -- "$fact" sum21.txt || fail "line mode's summary lacks '$fact'"
width=$((80 - PANE_COL)) rows=$(($(wc -l <pane21.txt) - 1)) need=0
for ((i = from; i < ${#evs[@]}; i++)); do # an event takes at least ceil(length / width) rows
    need=$((need + (${#evs[i]} + width - 1) / width))
done
[ "$need" -gt "$rows" ] || fail "'$fact' would fit one event a line too ($need rows of $rows)"
# l: the whole log, every event, from the first
keys l
wait_for "The log (P0's view)"
keys Home
first_event=$(first_block verbose21.txt | grep -m1 '^    ' | sed 's/^ *//')
wait_for "$first_event"
keys x
wait_for "Your move, P0"
keys q
wait_for "Quit the game?"
keys y
wait_dead
echo "ok 9 - the log pane: $n_events events summarised by seat; '$fact' shown ($need rows one event a line, the pane has $rows)"
# ---- 10. stable letters; a failed save loses nothing ------------------------------------------
start badsave play dml --seats human,random,random,random --seed 9 --pace 0
wait_for "Your move, P0"
# (first, the letters keep their meaning: the game gives each kind its
# letter, e ends the Market Phase whatever else is offered; w withdraws
# before and after a card is chosen, d is done once it is offered)
screen | grep -q "e:end" || fail "the Market menu's legend has no e:end: $(screen | tail -3)"
# G opens the player's guide in the client; any other key closes it
keys G
wait_for "The player's guide"
wait_for "## The goal"
keys x
wait_for "Your move, P0"
keys b
wait_for "1: Buy: declare a target"
keys Enter
wait_for "w:undo"
screen | tail -2 | grep -q "d:undo" && fail "withdraw is d before a card is chosen"
keys Enter
wait_for "d:done"
screen | tail -2 | grep -q "w:undo" || fail "withdraw lost its letter w once a card is chosen: $(screen | tail -2 | head -1)"
# w highlights the group's action, Enter plays it: take back the card, then withdraw
keys w
wait_for ": Take back "
keys Enter
wait_for "1: Declare "
keys w
wait_for ": Withdraw: choose another option"
keys Enter
wait_for "1: Buy: declare a target"
keys s
wait_for "save to file"
keys "$TMP/no/such/dir/g.txt" Enter
wait_for "cannot save to $TMP/no/such/dir/g.txt"
keys q
wait_for "Quit the game? It is not saved"
keys n s
wait_for "save to file"
keys "$TMP/good.txt" Enter
wait_for "saved to $TMP/good.txt"
keys q
wait_for "Quit the game? It is saved first"
keys y
wait_dead
[ "$(exit_status)" = 0 ] || fail "badsave: exit status $(exit_status)"
screen | grep -qF "resume with: croupier play --load $TMP/good.txt" || fail "quitting does not name the saved file"
"$BIN" replay "$TMP/good.txt" --plain >/dev/null || fail "the saved file does not replay"
echo "ok 10 - stable letters; a failed save: the quit prompt says not saved; saving elsewhere works and is named"
echo "all tui tests passed"
