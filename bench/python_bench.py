#!/usr/bin/env python3
"""python_bench.py — random DML games driven from Python, beside the same
games played by the batched calls and by the C benchmark, in one run.

    cmake --build build --target croupier-python bench_dml
    PYTHONPATH=build/python python3 bench/python_bench.py [SECONDS] [THREADS]

Three figures, in actions/s (apply calls, chance outcomes included):
  python-driven  a Python loop: legal_actions(), apply_action(), the
                 chance outcome drawn by the engine's random-policy
                 equivalent in Python (random.choices over chance_outcomes())
                 and a uniform choice among the legal actions;
  batched        croupier.play_random(game, n, seed, threads) on 1 and on
                 THREADS threads (C, off the GIL);
  C              build/bench/bench_dml's "random playouts, 1 thread" line
                 (src/sim/bench.c), when that program is built.
The Python-driven loop picks uniformly among all legal actions, as the
`random` bot does; the batched and C playouts skip withdraw actions, so
their games are a little shorter; the rates compare per action.
"""
import os
import random
import re
import subprocess
import sys
import time

import croupier


def python_driven(game, seconds, seed=1):
    rng = random.Random(seed)
    actions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < 20000:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights=probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        actions += n
        games += 1
    return actions / (time.perf_counter() - t0), games


def batched(game, seconds, threads):
    n = 256
    while True:
        t0 = time.perf_counter()
        _, acts = croupier.play_random(game, n, seed=1, threads=threads)
        dt = time.perf_counter() - t0
        if dt >= seconds or n >= 1 << 22:
            return acts.sum() / dt, n
        n *= 2


def c_figure(seconds):
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, "..", "build", "bench", "bench_dml")
    if not os.path.exists(exe):
        return None, "build/bench/bench_dml not built (cmake --build build --target bench_dml)"
    out = subprocess.run([exe, str(seconds)], capture_output=True, text=True).stdout
    m = re.search(r"random playouts, 1 thread:.*?([\d.]+)M actions/s", out)
    return (float(m.group(1)) * 1e6, out) if m else (None, out)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    game = croupier.load_game("dml", {"players": 4})
    py, py_games = python_driven(game, seconds)
    b1, n1 = batched(game, seconds, 1)
    bt, nt = batched(game, seconds, threads)
    c, _ = c_figure(seconds)
    print("DML, 4 players, random games, %.1f s per figure (Python %s)"
          % (seconds, sys.version.split()[0]))
    print("python-driven (1 thread):      %12.0f actions/s  (%d games)" % (py, py_games))
    print("batched play_random, 1 thread: %12.0f actions/s  (%d games)  x%.0f"
          % (b1, n1, b1 / py))
    print("batched play_random, %d threads:%12.0f actions/s  (%d games)  x%.0f"
          % (threads, bt, nt, bt / py))
    if c is not None:
        print("C bench_dml, 1 thread:         %12.0f actions/s  (batched/C: %.2f)" % (c, b1 / c))
    else:
        print("C bench_dml: not measured: build/bench/bench_dml is not built")


if __name__ == "__main__":
    main()
