#!/usr/bin/env python3
"""ismcts_vs_random.py — a game of DML from Python: ISMCTS in seat 0
against three random bots, every decision made by the engine's bots
through the croupier package, every chance outcome drawn here from the
probabilities the engine gives.

    PYTHONPATH=build/python python3 examples/ismcts_vs_random.py [GAMES] [ITERS] [SEED]

(or after `pip install --no-build-isolation --no-index ./python`, without
PYTHONPATH).  Prints each game's scores and the ISMCTS seat's win rate.
"""
import random
import sys

import croupier


def play(game, specs, seed):
    bots = [croupier.make_bot(game, spec, seat, seed * 10 + seat)
            for seat, spec in enumerate(specs)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == croupier.CHANCE_PLAYER_ID:
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights=probs)[0]
        else:
            action = bots[player].step(state)  # the bot sees its seat's observation only
        state.apply_action(action)
    return state


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    game = croupier.load_game("dml", {"players": 4})
    specs = ["ismcts:iters=%d" % iters, "random", "random", "random"]
    wins = 0.0
    for i in range(games):
        state = play(game, specs, seed + i)
        result = state.result()
        wins += state.returns()[0]
        print("game %d: %d actions, scores %s, winners %s"
              % (i + 1, state.move_number(), result["scores"],
                 ["P%d" % s for s in result["winners"]]))
    print("%s won %.1f of %d games against %s" % (specs[0], wins, games, ", ".join(specs[1:])))


if __name__ == "__main__":
    main()
