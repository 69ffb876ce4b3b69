#!/usr/bin/env python3
"""check_move.py — checks one decision of a recorded game in the lab: from
the true position before the decision, plays the move the seat played and
each alternative to the end many times with the given bots, and prints the
seat's win rate after each, with 95% intervals, and each alternative's
gain over the move played (a paired difference, with its 95% interval).

    PYTHONPATH=build/python python3 examples/check_move.py RECORD MOVE ALT... \
        [--games N] [--seats SPEC[,SPEC...]] [--seed S]

MOVE is the decision's number in the record's actions, counting from 1,
as `croupier analyse` prints it in its "move" column; each ALT is a move in the game's notation
(the analysis's "best" column).  The bots play every seat from the
decision on (--seats: one spec for all, or one per seat; default club).
Trial i draws its chance outcomes and its bots' seeds from (seed, i), and
every move is tried with the same trials, so their difference is not the
luck of different dice.

This is the check of `croupier analyse`'s verdicts that docs/bots.md
describes: the analysis searched from what the seat knew; this plays from
the whole position, hidden cards included, so it answers a different
question — what the move was worth in this deal — and agrees with the
analysis only on average.  It reads the whole record: use it after the game.
"""
import argparse
import math
import random
import sys

import croupier


def wilson(wins, n):
    """The 95% Wilson score interval of wins out of n (wins may be fractional)."""
    if n == 0:
        return (0.0, 0.0)
    z = 1.959964
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, mid - half), min(1.0, mid + half))


def position_before(path, move):
    """The record's game, its true state before action `move` (counting
    from 1) and the action played there."""
    final, _seats, _seed = croupier.load_record_file(path)
    history = final.history()
    if not 1 <= move <= len(history):
        raise SystemExit("check_move: the record has no move %d (1 to %d)"
                         % (move, len(history)))
    step = move - 1
    game = final.get_game()
    state = game.new_initial_state()
    for a in history[:step]:
        state.apply_action(a)
    if state.current_player() < 0:
        raise SystemExit("check_move: move %d is a chance outcome, not a decision" % move)
    return game, state, history[step]


def play_out(state, bots, rng):
    while not state.is_terminal():
        player = state.current_player()
        if player == croupier.CHANCE_PLAYER_ID:
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights=probs)[0])
        else:
            state.apply_action(bots[player].step(state))
    return state.returns()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("record")
    ap.add_argument("move", type=int)
    ap.add_argument("alts", nargs="+", metavar="ALT")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seats", default="club")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")

    game, base, played = position_before(args.record, args.move)
    seat = base.current_player()
    specs = args.seats.split(",")
    if len(specs) == 1:
        specs *= game.num_players()
    if len(specs) != game.num_players():
        ap.error("--seats: %d specs for %d seats" % (len(specs), game.num_players()))
    moves = [played]
    for text in args.alts:
        try:
            a = base.string_to_action(seat, text)
        except croupier.Error as e:
            raise SystemExit("check_move: %s: %s" % (text, e))
        if a not in moves:
            moves.append(a)
    bots = [croupier.make_bot(game, spec, s) for s, spec in enumerate(specs)]

    print("P%d's decision at move %d of %s: %d trials a move, bots %s, seed %d"
          % (seat, args.move, args.record, args.games, ",".join(specs), args.seed))
    first = None
    for k, a in enumerate(moves):
        won = []
        for i in range(args.games):
            trial = args.seed * 1000003 + i
            for s, bot in enumerate(bots):
                bot.reseed(trial * 16 + s)
            state = base.clone()
            state.apply_action(a)
            won.append(play_out(state, bots, random.Random(trial))[seat])
        wins = sum(won)
        lo, hi = wilson(wins, args.games)
        line = ("  %-8s %-28s win %5.1f%%  [%4.1f%%, %4.1f%%]"
                % ("played" if k == 0 else "instead", base.action_to_string(seat, a),
                   100 * wins / args.games, 100 * lo, 100 * hi))
        if first is None:
            first = won
        else:
            # The same trials for every move: the difference's interval
            # comes from the per-trial differences (a paired comparison).
            d = [x - y for x, y in zip(won, first)]
            mean = sum(d) / len(d)
            var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
            half = 1.959964 * math.sqrt(var / len(d))
            line += "  %+5.1f points [%+.1f, %+.1f]" % (100 * mean, 100 * (mean - half),
                                                       100 * (mean + half))
        print(line)

if __name__ == "__main__":
    main(sys.argv[1:])
