"""croupier: Python bindings of the croupier game engine (C11).

Everything goes through the engine's public C API (include/croupier/*.h):
the rules, the notation, the observations and the bots are the engine's,
and nothing here knows a game.  The names follow OpenSpiel's Python API
where the meaning is the same::

    import croupier
    game = croupier.load_game("dml", {"players": 4})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()     # [(action, probability)]
            ...
        else:
            state.apply_action(state.legal_actions()[0])
    state.returns()

Errors: a wrong type raises TypeError; anything the engine refuses (an
illegal action, a finished game, a bad record) raises croupier.Error, a
ValueError carrying the engine's message, and changes nothing.

The batched calls (play_random, rollouts) run in C on their own threads
without the GIL and return numpy arrays.
"""

from ._croupier import (  # noqa: F401  (re-exported)
    CHANCE_PLAYER_ID,
    OMNISCIENT_VIEW,
    PUBLIC_VIEW,
    TERMINAL_PLAYER_ID,
    Bot,
    Error,
    Game,
    State,
    alloc_count,
    load_game,
    make_bot,
    registered_games,
)
from . import _croupier

__all__ = [
    "CHANCE_PLAYER_ID", "TERMINAL_PLAYER_ID", "PUBLIC_VIEW", "OMNISCIENT_VIEW",
    "Error", "Game", "State", "Bot",
    "registered_games", "registered_names", "load_game", "make_bot",
    "load_record", "load_record_file", "save_record_file",
    "play_random", "rollouts",
]


def registered_names():
    """The names of every game (load_game's first argument)."""
    return [g["name"] for g in registered_games()]


def load_record(text):
    """The state a game record (docs/records.md) reaches, replayed by the
    engine: returns (state, seats, seed); seats is [] and seed None when
    the record has none."""
    return _croupier.load_record(text)


def load_record_file(path):
    """load_record of a file's text."""
    with open(path, encoding="utf-8") as f:
        return _croupier.load_record(f.read())


def save_record_file(state, path, seats=None, seed=None):
    """Writes state.to_record(seats, seed) to path."""
    text = state.to_record(seats=seats, seed=seed)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _threads(threads):
    if threads is None or threads == 0:
        import os
        return max(1, len(os.sched_getaffinity(0)))
    return threads


def play_random(game, n, seed=0, threads=1):
    """Plays n random games of `game` to the end in C: game i draws every
    chance outcome and choice from (seed, i), so the figures do not depend
    on `threads` (0 or None: every CPU).  Seats choose uniformly among the
    legal actions, withdraw actions skipped (the engine's cr_policy_random).

    Returns (returns, actions): numpy arrays of shape (n, num_players)
    float64 (each game's returns) and (n,) int64 (apply calls per game,
    chance outcomes included)."""
    import numpy as np
    if not isinstance(game, Game):
        raise TypeError("play_random() takes a croupier Game, not %s" % type(game).__name__)
    ret, act = _croupier._play_random(game, n, seed, _threads(threads))
    p = game.num_players()
    return (np.frombuffer(ret, dtype=np.float64).reshape(n, p),
            np.frombuffer(act, dtype=np.int64))


def rollouts(states, n, seed=0, threads=1):
    """n random playouts from each state (as play_random plays), in C:
    state i's playouts draw from (seed, i).  The states are copied and
    not changed.  Returns a numpy array of shape (len(states), num_players):
    each state's mean returns."""
    import numpy as np
    states = list(states)
    ret = _croupier._rollouts(states, n, seed, _threads(threads))
    if not states:
        return np.zeros((0, 0))
    p = states[0].get_game().num_players()
    return np.frombuffer(ret, dtype=np.float64).reshape(len(states), p)
