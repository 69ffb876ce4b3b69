#!/usr/bin/env bash
# test_cli.sh — black-box tests of the croupier program: exit statuses, the
# one-line errors, piped play ending cleanly at end of input, --save/--load,
# same seed => same game, and records replaying.  Usage: test_cli.sh CROUPIER
set -euo pipefail
cr="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- help and errors ---
# (outputs are captured before grep -q reads them: with pipefail, a writer
# still writing when grep -q has its match would die of SIGPIPE)
grep -q '^usage: croupier' <<<"$("$cr" --help)" || fail "--help"
for c in games play run replay; do
    grep -q "^usage: croupier $c" <<<"$("$cr" "$c" --help)" || fail "$c --help"
done
set +e
"$cr" nosuch 2>"$tmp/err"; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "unknown command exits $rc"
grep -q '^croupier: error: unknown command' "$tmp/err" || fail "unknown command message"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "error is not one line"
if "$cr" play nosuch </dev/null 2>"$tmp/err"; then fail "play nosuch succeeded"; fi
grep -q "^croupier: error: unknown game 'nosuch'" "$tmp/err" || fail "unknown game message"
if "$cr" replay "$tmp/missing.rec" 2>"$tmp/err"; then fail "replay of a missing file"; fi
printf 'game dml\nplayers four\nactions\n' >"$tmp/bad.rec"
if "$cr" replay "$tmp/bad.rec" 2>"$tmp/err"; then fail "replay of a bad record"; fi
grep -q 'line 2:' "$tmp/err" || fail "bad record error names no line: $(cat "$tmp/err")"

# --- a position that is not at rest is refused with the key named ---
fixtures="$(dirname "$0")/../fixtures/dml-positions"
"$cr" run dml --position "$fixtures/thief_gift.json" --json >"$tmp/pos.json"
sed -e 's/"need": "[a-z]*"/"need": "run"/' -e 's/"kind": "[a-z_]*"/"kind": 0/' \
    "$tmp/pos.json" >"$tmp/running.json"
if "$cr" run dml --position "$tmp/running.json" >/dev/null 2>"$tmp/err"; then
    fail "a position waiting for nothing was accepted"
fi
grep -q '^croupier: error: .*need: "run" is not a resting state' "$tmp/err" ||
    fail "running-position message: $(cat "$tmp/err")"

# --- games ---
grep -q '^dml' <<<"$("$cr" games)" || fail "games lists no dml"
grep -q '^    bm-wager .*dml-2015 only)$' <<<"$("$cr" games)" || fail "games does not say bm-wager is dml-2015's"

# --- DML-2015 in line mode: a human answering 1 every time, to the end, and
# its record replayed; the words are the 2015 edition's ---
"$cr" play dml --variant dml-2015 --option cards-2015-06=yes --seats human,random,random,random \
    --seed 5 --plain --save "$tmp/y15.rec" < <(yes 1) >"$tmp/y15.out" 2>&1 ||
    fail "a dml-2015 game in line mode failed: $(tail -3 "$tmp/y15.out")"
grep -q '^game over' "$tmp/y15.out" || fail "the dml-2015 game did not end: $(tail -3 "$tmp/y15.out")"
grep -q 'Setup .* choose a face-down pile' "$tmp/y15.out" || fail "no pile choice in dml-2015"
grep -q 'Character Power Phase' "$tmp/y15.out" || fail "no Character Power Phase in dml-2015"
grep -q 'Market Action' "$tmp/y15.out" || fail "no Market Action in dml-2015's words"
grep -q 'Minor Action\|Vice Minister' "$tmp/y15.out" && fail "2016 words in a dml-2015 game"
"$cr" replay "$tmp/y15.rec" --log >"$tmp/y15.log" || fail "the dml-2015 record does not replay"
grep -q 'Character Power Phase' "$tmp/y15.log" || fail "the dml-2015 replay log lacks the CPP"
grep -q "^## The 2015 edition (dml-2015)" <<<"$("$cr" guide dml)" || fail "the guide has no 2015 section"

# --- bots only: a whole game, twice with the same seed ---
"$cr" play dml --seats random,random,random,random --seed 7 --save "$tmp/a.rec" >"$tmp/a.out"
"$cr" play dml --seats random,random,random,random --seed 7 --save "$tmp/b.rec" >"$tmp/b.out"
cmp -s "$tmp/a.rec" "$tmp/b.rec" || fail "same seed, different records"
grep -q '^game over' "$tmp/a.out" || fail "the bots' game did not end"
"$cr" replay "$tmp/a.rec" --json >"$tmp/a.json"
grep -q '"over": true' "$tmp/a.json" || fail "replayed record is not over"
# the end shows what each seat earned, in words, in play and in replay alike
# (a Full Game of four: its winner is a Market manipulator)
w=$(tr -d ' \n' <"$tmp/a.json" | grep -o '"winners":\[[0-9]' | grep -o '[0-9]$')
[ -n "$w" ] || fail "the bots' game has no winner"
grep -q "^  P$w Market manipulator: " "$tmp/a.out" || fail "no achievements after the game: $(tail -5 "$tmp/a.out")"
"$cr" replay "$tmp/a.rec" >"$tmp/a.replay"
[ "$(sed -n '/^achievements:/,$p' "$tmp/a.out" | grep '^  P')" = "$(sed -n '/^achievements:/,$p' "$tmp/a.replay" | grep '^  P')" ] ||
    fail "replay shows other achievements than the game did"

# --- the other bots take seats too, reproducibly; a bad seat is refused ---
seats='heuristic,ismcts:iters=30,threads=1,heuristic,random'
"$cr" play dml --seats "$seats" --seed 9 --save "$tmp/h1.rec" >"$tmp/h1.out"
"$cr" play dml --seats "$seats" --seed 9 --save "$tmp/h2.rec" >/dev/null
grep -q '^game over' "$tmp/h1.out" || fail "the heuristic/ismcts game did not end"
grep -q 'P1 ismcts:iters=30,threads=1' "$tmp/h1.out" || fail "seat list not shown"
cmp -s "$tmp/h1.rec" "$tmp/h2.rec" || fail "same seed, different games with heuristic and ismcts"
if "$cr" play dml --seats human,bogus,random,random </dev/null 2>"$tmp/err"; then
    fail "an unknown seat kind was accepted"
fi
grep -q "^croupier: error: seat P1: unknown bot" "$tmp/err" || fail "bad seat message: $(cat "$tmp/err")"

# --- a human through a pipe: answers, a bad answer, end of input saves ---
printf '1\nno-such-action\n999\n1\n' | "$cr" play dml --seed 3 --save "$tmp/h.rec" >"$tmp/h.out"
grep -q "unknown action 'no-such-action'" "$tmp/h.out" || fail "bad answer not rejected"
grep -q 'no choice 999' "$tmp/h.out" || fail "bad number not rejected"
grep -q '^# unfinished' "$tmp/h.rec" || fail "unfinished game not saved"
n1=$(grep -c . "$tmp/h.rec")
# resume, answer once more, stop with quit
printf '1\nquit\n' | "$cr" play --load "$tmp/h.rec" --save "$tmp/h2.rec" >"$tmp/h2.out"
grep -q '^resuming' "$tmp/h2.out" || fail "--load did not resume"
n2=$(grep -c . "$tmp/h2.rec")
[ "$n2" -gt "$n1" ] || fail "resumed game did not grow ($n1 -> $n2 lines)"
"$cr" replay "$tmp/h2.rec" >/dev/null || fail "resumed record does not replay"

# --- a human plays to the end by typing choices; an illegal notation gets a
# reason; the replayed end position loads back unchanged through `run` ---
{ echo 'roll 1 1'; for _ in $(seq 4000); do echo 1; done; } |
    "$cr" play dml --seats human,random,random,random --seed 11 --save "$tmp/e.rec" >"$tmp/e.out" ||
    fail "typed game failed"
grep -q '^game over' "$tmp/e.out" || fail "the typed game did not end"
grep -q "'roll 1 1' is not legal now" "$tmp/e.out" || fail "illegal answer without a reason"
"$cr" replay "$tmp/e.rec" --json >"$tmp/e.json" || fail "replay --json"
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["position"], open(sys.argv[2], "w"))' \
    "$tmp/e.json" "$tmp/e.pos" 2>/dev/null || cp /dev/null "$tmp/e.pos"
if [ -s "$tmp/e.pos" ]; then
    : >"$tmp/none.txt"
    "$cr" run dml --position "$tmp/e.pos" --actions "$tmp/none.txt" --json >"$tmp/e.run" || fail "run of the end position"
    python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
        "$tmp/e.pos" "$tmp/e.run" || fail "the replayed end position does not load back unchanged"
fi

# --- table options, seats in the record, undo, seat views (issue 7) ---
# Seats are kept in the record, and the resumed game seats the same bots.
printf '1\nquit\n' | "$cr" play dml --seats human,heuristic,random,ismcts:iters=30 --seed 8 \
    --option first-roller=2 --save "$tmp/s.rec" >"$tmp/s.out" || fail "play with options"
grep -q '^option first-roller 2$' "$tmp/s.rec" || fail "the record lacks the option"
grep -q '^seat 1 heuristic$' "$tmp/s.rec" || fail "the record lacks the seats"
grep -q '^rules 1$' "$tmp/s.rec" || fail "the record lacks the rules version"
grep -q "resume with: croupier play --load $tmp/s.rec$" "$tmp/s.out" ||
    fail "the resume hint"
printf 'quit\n' | "$cr" play --load "$tmp/s.rec" >"$tmp/s2.out" || fail "resume"
grep -q 'P1 heuristic, P2 random, P3 ismcts:iters=30' "$tmp/s2.out" ||
    fail "the resumed game does not seat the recorded bots: $(head -3 "$tmp/s2.out")"
# unknown and bad options are refused with the reason
if "$cr" play dml --option colour=red </dev/null 2>"$tmp/err"; then fail "unknown option accepted"; fi
grep -q "dml has no option 'colour' (options: first-roller, bm-wager," "$tmp/err" || fail "unknown option message"
# a switch of the 2015 edition names its variant when given to another (issue 16)
if "$cr" play dml --option bm-wager=yes </dev/null 2>"$tmp/err"; then fail "a 2015 switch accepted by full"; fi
grep -q "option bm-wager belongs to variant dml-2015, not full" "$tmp/err" ||
    fail "the switch's variant is not named: $(cat "$tmp/err")"
if "$cr" play dml --board "$tmp/none.board" </dev/null 2>"$tmp/err"; then fail "--board accepted for dml"; fi
grep -q "no option 'board'" "$tmp/err" || fail "--board message: $(cat "$tmp/err")"
if "$cr" play dml --option first-roller=7 </dev/null 2>"$tmp/err"; then fail "bad seat accepted"; fi
grep -q "a seat from 0 to 3" "$tmp/err" || fail "bad option value message"
for c in "sim dml --games 1" "bench dml" "replay $tmp/s.rec" "run dml --position $fixtures/thief_gift.json"; do
    # shellcheck disable=SC2086  # c is a command and its arguments
    if "$cr" $c --option colour=red >/dev/null 2>"$tmp/err"; then fail "$c accepted an unknown option"; fi
    grep -q "no option 'colour'" "$tmp/err" || fail "$c --option message: $(cat "$tmp/err")"
done
# undo takes back the human's last decision; the same answers replay the same dice
printf '1\n1\nundo\n1\nquit\n' | "$cr" play dml --seed 21 --save "$tmp/u.rec" >"$tmp/u.out" ||
    fail "play with undo"
grep -q 'P0 takes back the last decision' "$tmp/u.out" || fail "undo did not take back"
printf '1\n1\nquit\n' | "$cr" play dml --seed 21 --save "$tmp/u2.rec" >/dev/null
grep -v '^#' "$tmp/u.rec" >"$tmp/u.a"
grep -v '^#' "$tmp/u2.rec" >"$tmp/u2.a"
cmp -s "$tmp/u.a" "$tmp/u2.a" || fail "undo then redo did not give the same game"
# resign: the match ends, the others share the win, the record marks it
printf '1\nresign\n' | "$cr" play dml --seed 5 --save "$tmp/r.rec" >"$tmp/r.out" || fail "resign"
grep -q 'P0 resigns' "$tmp/r.out" || fail "resign not acknowledged"
grep -q 'P1, P2, P3 share the win' "$tmp/r.out" || fail "resign result: $(tail -3 "$tmp/r.out")"
grep -q '^! resign 0$' "$tmp/r.rec" && grep -q '^! end$' "$tmp/r.rec" || fail "resign not recorded"
"$cr" replay "$tmp/r.rec" >"$tmp/r.replay" || fail "replay of a resigned game"
grep -q 'the match ended' "$tmp/r.replay" || fail "replay of a resigned game: $(head -5 "$tmp/r.replay")"
# run --as: a seat's view, never the state
"$cr" run dml --position "$fixtures/thief_gift.json" --as 1 >"$tmp/as.out" || fail "run --as 1"
grep -q '== view ==' "$tmp/as.out" || fail "run --as prints no view"
grep -q '"seat": "P1"' "$tmp/as.out" || fail "run --as 1 is not P1's view: $(head -5 "$tmp/as.out")"
"$cr" run dml --position "$fixtures/thief_gift.json" --as public >"$tmp/pub.out" || fail "run --as public"
grep -q '"seat": null' "$tmp/pub.out" || fail "run --as public is not the public view"
if "$cr" run dml --position "$fixtures/thief_gift.json" --as 9 2>"$tmp/err"; then fail "--as 9"; fi

# --- replay --json: the seed exactly as the record holds it (an unsigned
# 64-bit decimal, as a string), and --as SEAT|public|open honoured ---
"$cr" play dml --seats random,random,random,random --seed 14317054375612524609 \
    --save "$tmp/big.rec" >/dev/null || fail "play with a seed of 2^63 or more"
grep -q '^seed 14317054375612524609$' "$tmp/big.rec" || fail "the record's seed"
"$cr" replay "$tmp/big.rec" --json >"$tmp/big.json" || fail "replay --json of big.rec"
grep -q '^  "seed": "14317054375612524609",$' "$tmp/big.json" ||
    fail "replay --json seed: $(grep seed "$tmp/big.json")"
grep -q ', seed 14317054375612524609$' <<<"$("$cr" replay "$tmp/big.rec" | head -1)" ||
    fail "replay seed in the summary"
# An unfinished game (a hand each): the seed stays secret, and each view is
# what `run --as` shows of the same position (run --as is the seat-view
# reference: observe(), never the state).
printf '1\n1\n1\nquit\n' | "$cr" play dml --seed 3 --save "$tmp/v.rec" >/dev/null || fail "play v.rec"
"$cr" replay "$tmp/v.rec" --json >"$tmp/v-default.json" || fail "replay --json"
"$cr" replay "$tmp/v.rec" --json --as open >"$tmp/v-open.json" || fail "replay --json --as open"
cmp -s "$tmp/v-default.json" "$tmp/v-open.json" || fail "--json is not the open view by default"
grep -q '^  "seed": null,$' "$tmp/v-open.json" || fail "the seed of an unfinished game is shown"
grep -q '^  "view": "open",$' "$tmp/v-open.json" || fail "--as open: no view key"
# the last key, "position" or "observation", up to the closing brace
last_key() { sed -n "/^  \"$1\": /,\$p" "$2" | sed -e "1s/^  \"$1\": //" -e '$d'; }
last_key position "$tmp/v-open.json" >"$tmp/v.pos"
squash() { tr -d ' \n\t' <"$1"; }
for as in 1 public; do
    "$cr" replay "$tmp/v.rec" --json --as "$as" >"$tmp/v-$as.json" || fail "replay --json --as $as"
    grep -q '"position"' "$tmp/v-$as.json" && fail "--json --as $as prints the whole position"
    grep -q '^  "scores": null,$' "$tmp/v-$as.json" || fail "--json --as $as: scores before the end"
    last_key observation "$tmp/v-$as.json" >"$tmp/v-$as.obs"
    "$cr" run dml --position "$tmp/v.pos" --as "$as" --json >"$tmp/v-$as.run" || fail "run --as $as"
    [ "$(squash "$tmp/v-$as.obs")" = "$(squash "$tmp/v-$as.run")" ] ||
        fail "replay --json --as $as is not the seat's view (run --as $as)"
done
grep -q '^  "view": 1,$' "$tmp/v-1.json" || fail "--as 1: view key"
grep -q '^    "seat": "P1",$' "$tmp/v-1.obs" || fail "--as 1 is not P1's observation"
[ "$(squash "$tmp/v-1.obs")" != "$(squash "$tmp/v.pos")" ] || fail "--as 1 is the open view"
[ "$(squash "$tmp/v-1.obs")" != "$(squash "$tmp/v-public.obs")" ] || fail "--as 1 is the public view"
# P1's hand is in the open position and in P1's view, and in no other view
hand1="$(sed -n '/"hand": \[/,/\]/p' "$tmp/v-1.obs" | tr -d ' \n')"
[ -n "$hand1" ] && [ "$hand1" != '"hand":[]' ] || fail "P1 holds no cards to hide"
squash "$tmp/v-public.obs" | grep -qF -- "$hand1" && fail "the public view shows P1's hand"

# --- a rating in parts: each part's games as CSV, fitted together with --from ---
rate=(sim dml --rate beginner,club --games 6 --seed 2 --threads 1 --no-progress)
"$cr" "${rate[@]}" >"$tmp/rate-whole.txt" || fail "sim --rate"
"$cr" "${rate[@]}" --part 1/2 --csv "$tmp/rate-1.csv" >/dev/null || fail "sim --rate --part 1/2"
"$cr" "${rate[@]}" --part 2/2 --csv "$tmp/rate-2.csv" >/dev/null || fail "sim --rate --part 2/2"
"$cr" "${rate[@]}" --from "$tmp/rate-2.csv" --from "$tmp/rate-1.csv" >"$tmp/rate-read.txt" ||
    fail "sim --rate --from"
grep -q ', read from 2 files, seed 2; every two bots met in 12 games or more$' "$tmp/rate-read.txt" ||
    fail "--from: $(head -1 "$tmp/rate-read.txt")"
# the table itself (the lines after the first) is the whole rating's
[ "$(tail -n +2 "$tmp/rate-read.txt")" = "$(tail -n +2 "$tmp/rate-whole.txt")" ] ||
    fail "the parts' fit is not the whole rating's"
"$cr" "${rate[@]}" --from "$tmp/rate-1.csv" --from "$tmp/rate-1.csv" >/dev/null 2>"$tmp/err" &&
    fail "a part read twice was fitted"
grep -q "rate-1.csv:2: the game comes twice" "$tmp/err" || fail "twice: $(cat "$tmp/err")"
"$cr" "${rate[@]}" --seed 3 --from "$tmp/rate-1.csv" >/dev/null 2>"$tmp/err" &&
    fail "another seed's games were fitted"
grep -q "rate-1.csv:2: its game seed is not that game's under the rating's seed" "$tmp/err" ||
    fail "another seed: $(cat "$tmp/err")"
# a file with Windows line ends reads the same
sed 's/$/\r/' "$tmp/rate-1.csv" >"$tmp/rate-1-crlf.csv"
"$cr" "${rate[@]}" --from "$tmp/rate-2.csv" --from "$tmp/rate-1-crlf.csv" >"$tmp/rate-crlf.txt" ||
    fail "--from a CRLF file"
[ "$(tail -n +2 "$tmp/rate-crlf.txt")" = "$(tail -n +2 "$tmp/rate-whole.txt")" ] ||
    fail "the CRLF file's fit is not the whole rating's"
"$cr" "${rate[@]}" --from "$tmp/rate-1.csv" --part 1/2 >/dev/null 2>"$tmp/err" &&
    fail "--from with --part was taken"
grep -q -- "--from fits games already played" "$tmp/err" || fail "--from --part: $(cat "$tmp/err")"
"$cr" "${rate[@]}" --csv /dev/full >/dev/null 2>"$tmp/err" && fail "a CSV on a full disk was taken"
grep -q "/dev/full: writing the CSV: No space left on device" "$tmp/err" ||
    fail "a full disk: $(cat "$tmp/err")"
cp "$tmp/rate-1.csv" "$tmp/kept.csv"
"$cr" sim dml --rate random,heuristc --games 2 --csv "$tmp/kept.csv" >/dev/null 2>"$tmp/err" &&
    fail "a mistyped bot was rated"
grep -q "heuristc" "$tmp/err" || fail "a mistyped bot: $(cat "$tmp/err")"
cmp -s "$tmp/rate-1.csv" "$tmp/kept.csv" || fail "a mistyped bot emptied the --csv file"
"$cr" "${rate[@]}" --part 3/2 >/dev/null 2>"$tmp/err" && fail "--part 3/2 was played"
grep -q -- "--part K/M needs 1 <= K <= M" "$tmp/err" || fail "--part 3/2: $(cat "$tmp/err")"
"$cr" "${rate[@]}" --json "$tmp/r.json" >/dev/null 2>&1 && fail "--rate --json was taken"
"$cr" sim dml --games 2 --from "$tmp/rate-1.csv" >/dev/null 2>"$tmp/err" && fail "--from without --rate"
grep -q -- "--rotate, --part and --from go with --rate" "$tmp/err" || fail "--from alone: $(cat "$tmp/err")"
# the same rating as a Slurm job array of two tasks (run here without Slurm,
# as sbatch would set them): the second task to end fits the whole rating
slurm="$(cd "$(dirname "$0")/../../docs/slurm" && pwd)/croupier-rate.sbatch"
for k in 2 1; do
    (cd "$tmp" && SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_MAX=2 CROUPIER="$cr" GAME=dml \
        TIERS=beginner,club GAMES=6 PLAYERS=4 SEED=2 ROTATE=no OUT=slurm-rate \
        bash "$slurm" >"$tmp/slurm-$k.out") || fail "croupier-rate.sbatch task $k"
done
grep -q "part 1 is not written yet" "$tmp/slurm-2.out" || fail "task 2 fitted before part 1"
[ "$(tail -n +2 "$tmp/slurm-rate.txt")" = "$(tail -n +2 "$tmp/rate-whole.txt")" ] ||
    fail "the job array's fit is not the whole rating's"

echo "test_cli.sh: all passed"
