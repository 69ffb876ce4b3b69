#!/usr/bin/env bash
# tests/tui/test_replay_coach.sh CROUPIER — the replay viewer's coach (key
# c), driven in tmux at 80x24 as a player would (tests/tui/tmux.sh has
# the helpers' story: keys by send-keys, the screen by capture-pane, every
# wait polling the screen).
#
#  1. from the public view, c asks which seat; the analysis (a small
#     budget) ends with the counts `croupier analyse --json` gives for the
#     same record, seat, iterations and seed 1, in that seat's view.
#  2. ] goes to the seat's first doubtful move or blunder, whose coach line
#     shows the move played with its win chance, the mark, the best
#     alternative with its win chance, as `analyse --json` says them.
#  3. c again: the summary screen with the error rate; 1 goes to the worst
#     decision (the largest loss).
#  4. another seat's view does not show the analysed seat's line (the best
#     alternative may name a card of its hand).
#  5. a long analysis shows its progress and Esc stops it; the viewer goes
#     on and q ends it with status 0.
#  6. the line replay: --log --analyse 1 --as 1 prints a coach's line under
#     each of P1's analysed decisions and the same counts; in another view
#     it is refused (it would name P1's options).
set -euo pipefail

. "$(dirname "$0")/tmux.sh" "$1" coach
WAIT_SECONDS=30
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read --json"; exit 1; }

# a finished game of bots, and P1's analysis as `croupier analyse` gives it
"$BIN" play dml --seats club,random,random,random --seed 3 --save g.txt --plain >/dev/null
n=$(sed -n '/^actions$/,$p' g.txt | grep -vc -e '^#' -e '^actions$' -e '^!')
"$BIN" analyse g.txt --as 1 --iters 60 --json >a.json
read -r decisions doubtful blunders rate first_move first_line worst_move < <(python3 - <<'PY'
import json
a = json.load(open("a.json"))
s = a["summary"]
marked = [d for d in a["decisions"] if d["mark"] != "fine"]
f = marked[0] if marked else None
mark = {"doubtful": "?", "blunder": "??"}
line = ("played_%s,_%.0f%%_%s;_best_%s,_%.0f%%" % (f["played"], 100 * f["played_win"], mark[f["mark"]],
        f["best"], 100 * f["best_win"])).replace(" ", "_") if f else "-"
worst = max(marked, key=lambda d: d["loss"]) if marked else None
print(s["analysed"], s["doubtful"], s["blunders"], "%.1f" % s["error_rate"],
      f["step"] if f else 0, line, worst["step"] if worst else 0)
PY
)
[ "$doubtful" -gt 0 ] || [ "$blunders" -gt 0 ] || fail "P1 (random) made no marked move: the test needs one"
first_line=${first_line//_/ }

# ---- 1. c from the public view asks for the seat, then analyses it ----------
start coach replay g.txt --analyse-iters 60
wait_for "move 0 of $n"
keys c
wait_for "coach: analyse which seat? 0-3"
keys 1
wait_for "P1 analysed: $decisions decisions, $doubtful doubtful (?), $blunders blunders"
screen | head -1 | grep -q "P1's view" || fail "the analysed seat's view is not shown"
echo "ok 1 - c analyses the seat asked for: the counts of croupier analyse"

# ---- 2. ] to the first marked move, its line as analyse --json says it ------
keys ']'
wait_for "move $first_move of $n"
wait_for "$first_line"
screen | grep -q "coach P1, decision" || fail "no coach line at a marked move"
echo "ok 2 - ] goes to the first marked move: played, its win chance, the mark, the best"

# ---- 3. the summary, and 1 to the worst decision ----------------------------
keys c
wait_for "Coach: P1's decisions (60 iterations each)"
wait_for "Error rate $rate"
keys 1
wait_for "move $worst_move of $n"
echo "ok 3 - c shows the summary (error rate $rate); 1 goes to the worst decision"

# ---- 4. another seat's view hides the line -----------------------------------
keys v
wait_for "P2's view"
wait_for "coach: P1's analysis shows in P1's view or the open view"
screen | grep -q "coach P1, decision" && fail "P2's view shows P1's analysis"
keys q
wait_dead
echo "ok 4 - another seat's view does not show the analysis"

# ---- 5. progress, and Esc stops a long analysis -------------------------------
start slow replay g.txt --as 2 --analyse-iters 200000
wait_for "move 0 of $n"
keys c
wait_for "analysing P2:"
keys Escape
wait_for "analysis stopped"
keys Right
wait_for "move 1 of $n"
keys q
wait_dead
echo "ok 5 - a long analysis shows its progress; Esc stops it and the viewer goes on"

# ---- 6. --log --analyse ---------------------------------------------------------
"$BIN" replay g.txt --log --analyse 1 --as 1 --analyse-iters 60 >log.txt
lines=$(grep -c '^        coach: ' log.txt)
[ "$lines" = "$decisions" ] || fail "--log --analyse printed $lines coach lines for $decisions decisions"
grep -q "^coach: P1: $decisions decisions analysed, $doubtful doubtful (?), $blunders blunder" log.txt ||
    fail "--log --analyse: no summary with the counts of croupier analyse"
if "$BIN" replay g.txt --log --analyse 1 >/dev/null 2>err.txt; then fail "--analyse 1 in the public view was not refused"; fi
grep -q "with --as 1 or --as open" err.txt || fail "the refusal does not say why: $(cat err.txt)"
echo "ok 6 - --log --analyse: a coach's line under each decision, the same counts; refused in another view"
