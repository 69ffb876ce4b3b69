"""The croupier Python package against the engine (run by CTest as
python/pytest, through tests/python/run.sh)."""

import json
import random
import threading

import numpy as np
import pytest

import croupier


def chance(state, rng):
    """Draws a chance outcome from chance_outcomes' probabilities."""
    x, acc = rng.random(), 0.0
    outcomes = state.chance_outcomes()
    for a, p in outcomes:
        acc += p
        if x < acc:
            return a
    return outcomes[-1][0]


def play_bots(game, specs, seed, max_actions=100000):
    """Plays one game with a bot per seat; returns the final state."""
    bots = [croupier.make_bot(game, s, i, seed + i) for i, s in enumerate(specs)]
    state, rng = game.new_initial_state(), random.Random(seed)
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        p = state.current_player()
        state.apply_action(chance(state, rng) if p == croupier.CHANCE_PLAYER_ID
                           else bots[p].step(state))
    raise AssertionError("game did not end")


@pytest.fixture(scope="module")
def dml():
    return croupier.load_game("dml", {"players": 4})


# --- the registry and tables -------------------------------------------------

def test_registered_games_lists_variants_and_options():
    games = {g["name"]: g for g in croupier.registered_games()}
    assert set(croupier.registered_names()) == set(games)
    assert {"dml", "18dracula"} <= set(games)
    d = games["dml"]
    assert d["title"] == "Dragon's Money Laundering"
    assert {"full", "smackdown"} <= {v["name"] for v in d["variants"]}
    for v in d["variants"]:
        assert 1 <= v["min_players"] <= v["max_players"] <= 8
    keys = {o["key"]: o for o in d["options"]}
    assert keys["first-roller"]["type"] == "seat"


def test_load_game_params(dml):
    assert dml.num_players() == 4
    assert dml.num_distinct_actions() > 0
    assert dml.max_chance_outcomes() > 0
    p = dml.params()
    assert (p["name"], p["players"]) == ("dml", 4)
    g = croupier.load_game("dml", {"players": 3, "variant": "smackdown", "first-roller": 2})
    assert g.params()["variant"] == "smackdown"
    assert g.params()["options"]["first-roller"] == "2"


@pytest.mark.parametrize("name,params,message", [
    ("nosuchgame", None, "unknown game"),
    ("dml", {"players": 9}, "players"),
    ("dml", {"variant": "nosuch"}, "nosuch"),
    ("dml", {"no-such-option": 1}, "no-such-option"),
    ("dml", {"first-roller": 7}, "first-roller"),
])
def test_load_game_refuses_bad_tables(name, params, message):
    with pytest.raises(croupier.Error, match=message):
        croupier.load_game(name, params)


def test_load_game_wrong_types():
    with pytest.raises(TypeError):
        croupier.load_game(42)
    with pytest.raises(TypeError):
        croupier.load_game("dml", [("players", 4)])
    with pytest.raises(TypeError):
        croupier.load_game("dml", {"players": "four"})
    with pytest.raises(TypeError):
        croupier.load_game("dml", {"first-roller": 1.5})


# --- states ------------------------------------------------------------------

def test_initial_state_is_a_chance_node_with_probabilities(dml):
    s = dml.new_initial_state()
    assert s.current_player() == croupier.CHANCE_PLAYER_ID
    assert s.is_chance_node() and not s.is_terminal()
    outcomes = s.chance_outcomes()
    assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
    assert s.legal_actions() == []


def test_random_game_to_the_end(dml):
    rng = random.Random(7)
    s = dml.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(chance(s, rng))
        else:
            p = s.current_player()
            legal = s.legal_actions()
            assert legal == sorted(set(legal)) and legal
            assert s.legal_actions(p) == legal
            assert s.legal_actions((p + 1) % 4) == []
            mask = s.legal_actions_mask()
            assert len(mask) == dml.num_distinct_actions()
            assert [a for a, m in enumerate(mask) if m] == legal
            assert not any(s.legal_actions_mask((p + 1) % 4))
            # prefer non-withdraw moves: the engine's random policy does too
            s.apply_action(croupier.make_bot(dml, "heuristic", p, 1).step(s))
    r = s.returns()
    assert len(r) == 4 and abs(sum(r) - 1.0) < 1e-9
    assert [s.player_return(p) for p in range(4)] == r
    res = s.result()
    assert len(res["ranks"]) == 4 and res["winners"]
    assert s.current_player() == croupier.TERMINAL_PLAYER_ID
    assert s.move_number() == len(s.history()) > 0


def test_clone_is_independent(dml):
    s = dml.new_initial_state()
    c = s.clone()
    c.apply_action(c.chance_outcomes()[0][0])
    assert s.move_number() == 0 and c.move_number() == 1
    assert s.serialize() != c.serialize()
    assert s.clone().serialize() == s.serialize()


def test_action_strings_both_ways(dml):
    s = play_prefix(dml, 30)
    for a, _ in (s.chance_outcomes() if s.is_chance_node() else []):
        assert s.string_to_action(s.action_to_string(a)) == a
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    p = s.current_player()
    for a in s.legal_actions():
        text = s.action_to_string(a)
        assert text
        assert s.string_to_action(text) == a
        assert s.string_to_action(p, text) == a
        assert s.action_to_string(p, a) == text


def play_prefix(game, n, seed=3):
    rng = random.Random(seed)
    s = game.new_initial_state()
    bots = [croupier.make_bot(game, "heuristic", i, seed) for i in range(game.num_players())]
    for _ in range(n):
        if s.is_terminal():
            break
        p = s.current_player()
        s.apply_action(chance(s, rng) if p < 0 else bots[p].step(s))
    return s


# --- bad input: an exception with the engine's message, nothing changed -----

def test_illegal_action_raises_and_changes_nothing(dml):
    s = play_prefix(dml, 20)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    before, hist = s.serialize(), s.history()
    legal = set(s.legal_actions())
    illegal = next(a for a in range(dml.num_distinct_actions()) if a not in legal)
    with pytest.raises(croupier.Error, match="not legal now"):
        s.apply_action(illegal)
    with pytest.raises(croupier.Error, match="no action"):
        s.apply_action(dml.num_distinct_actions())
    with pytest.raises(croupier.Error, match="no action"):
        s.apply_action(-1)
    with pytest.raises(croupier.Error, match="no action"):
        s.apply_action(2 ** 80)
    with pytest.raises(TypeError):
        s.apply_action("1")
    with pytest.raises(TypeError):
        s.apply_action(1.0)
    with pytest.raises(TypeError):
        s.apply_action(None)
    with pytest.raises(croupier.Error, match="unknown action"):
        s.string_to_action("this is not notation")
    with pytest.raises(croupier.Error, match="not your turn"):
        s.string_to_action((s.current_player() + 1) % 4, s.action_to_string(min(legal)))
    with pytest.raises(croupier.Error, match="no seat"):
        s.string_to_action(2 ** 70, "done")
    with pytest.raises(croupier.Error, match="no seat"):
        s.action_to_string(-2 ** 70, min(legal))
    with pytest.raises(croupier.Error, match="NUL"):
        s.string_to_action("done\0")
    with pytest.raises(croupier.Error, match="no seat"):
        s.observation_string(4)
    with pytest.raises(TypeError):
        s.observation_string("0")
    assert s.serialize() == before and s.history() == hist


def test_finished_state_refuses_actions(dml):
    s = play_bots(dml, ["random"] * 4, 5)
    before = s.serialize()
    with pytest.raises(croupier.Error, match="the game is over"):
        s.apply_action(0)
    with pytest.raises(croupier.Error, match="the game is over"):
        s.string_to_action("done")
    bot = croupier.make_bot(dml, "random", 0, 1)
    with pytest.raises(croupier.Error, match="the game is over"):
        bot.step(s)
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    assert s.serialize() == before


def test_chance_node_refuses_a_decision(dml):
    s = dml.new_initial_state()
    outcomes = {a for a, _ in s.chance_outcomes()}
    not_outcome = next(a for a in range(dml.num_distinct_actions()) if a not in outcomes)
    with pytest.raises(croupier.Error, match="chance outcome is expected"):
        s.apply_action(not_outcome)
    assert s.move_number() == 0


# --- observations ------------------------------------------------------------

def test_observations_text_and_json(dml):
    s = play_prefix(dml, 40)
    for seat in range(4):
        assert s.observation_string(seat)
        json.loads(s.observation_json(seat))
    json.loads(s.observation_json(croupier.PUBLIC_VIEW))
    assert str(s) == s.observation_string(croupier.OMNISCIENT_VIEW)


def test_observation_hides_other_seats_hands(dml):
    """Two states that differ only in what seat 1 holds look the same to
    seat 0 whenever the engine's own observation says so: the bindings add
    nothing of their own (the engine's leak test covers the rules)."""
    s = play_prefix(dml, 40)
    omni = s.observation_json(croupier.OMNISCIENT_VIEW)
    mine = s.observation_json(0)
    assert mine != omni  # something is hidden from seat 0


# --- positions and records ---------------------------------------------------

def test_serialize_round_trip(dml):
    s = play_prefix(dml, 25)
    t = dml.deserialize_state(s.serialize())
    assert t.serialize() == s.serialize()
    assert t.current_player() == s.current_player()
    with pytest.raises(croupier.Error):
        dml.deserialize_state("{}")
    with pytest.raises(croupier.Error):
        dml.deserialize_state("not json")


def test_record_round_trip(dml, tmp_path):
    s = play_bots(dml, ["heuristic", "random", "random", "random"], 11)
    seats = ["heuristic", "random", "random", "random"]
    text = s.to_record(seats=seats, seed=11)
    assert text.startswith("# croupier record")
    t, got_seats, seed = croupier.load_record(text)
    assert (got_seats, seed) == (seats, 11)
    assert t.history() == s.history()
    assert t.serialize() == s.serialize()
    assert t.returns() == s.returns()
    path = tmp_path / "game.txt"
    croupier.save_record_file(s, str(path))
    u, seats2, seed2 = croupier.load_record_file(str(path))
    assert (seats2, seed2) == ([], None) and u.history() == s.history()


def test_record_of_unfinished_game_resumes(dml):
    s = play_prefix(dml, 50)
    t, _, _ = croupier.load_record(s.to_record())
    assert t.serialize() == s.serialize()
    assert t.legal_actions() == s.legal_actions()


def test_bad_record_raises():
    with pytest.raises(croupier.Error):
        croupier.load_record("game dml\nplayers 4\nactions\nnot an action\n")
    with pytest.raises(croupier.Error):
        croupier.load_record("")
    with pytest.raises(TypeError):
        croupier.load_record(b"game dml\n")


# --- bots --------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iters=50"])
def test_bots_play_a_game(dml, spec):
    s = play_bots(dml, [spec, "random", "random", "random"], 21)
    assert s.is_terminal()


def test_bot_is_reproducible_and_checks_its_seat(dml):
    s = play_prefix(dml, 30)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    p = s.current_player()
    a1 = croupier.make_bot(dml, "ismcts:iters=100", p, 9).step(s)
    a2 = croupier.make_bot(dml, "ismcts:iters=100", p, 9).step(s)
    assert a1 == a2 and a1 in s.legal_actions()
    other = croupier.make_bot(dml, "random", (p + 1) % 4, 1)
    with pytest.raises(croupier.Error, match="not your turn"):
        other.step(s)
    b = croupier.make_bot(dml, "heuristic", p, 1)
    assert (b.seat(), b.spec(), b.kind()) == (p, "heuristic", "heuristic")


def test_bad_bots_raise(dml):
    with pytest.raises(croupier.Error):
        croupier.make_bot(dml, "nosuchbot", 0)
    with pytest.raises(croupier.Error):
        croupier.make_bot(dml, "ismcts:iters=-3", 0)
    with pytest.raises(croupier.Error, match="no seat"):
        croupier.make_bot(dml, "random", 4)
    with pytest.raises(TypeError):
        croupier.make_bot("dml", "random", 0)
    other = croupier.load_game("dml", {"players": 3})
    with pytest.raises(croupier.Error, match="not of the bot's game"):
        croupier.make_bot(other, "random", 0).step(dml.new_initial_state())


# --- batches -----------------------------------------------------------------

def test_play_random_is_reproducible_across_threads(dml):
    r1, a1 = croupier.play_random(dml, 64, seed=5, threads=1)
    r2, a2 = croupier.play_random(dml, 64, seed=5, threads=2)
    assert r1.shape == (64, 4) and a1.shape == (64,)
    assert np.array_equal(r1, r2) and np.array_equal(a1, a2)
    assert np.allclose(r1.sum(axis=1), 1.0) or (r1.sum(axis=1) <= 1.0 + 1e-9).all()
    assert (a1 > 0).all()
    r3, _ = croupier.play_random(dml, 64, seed=6, threads=2)
    assert not np.array_equal(r1, r3)


def test_rollouts(dml):
    states = [play_prefix(dml, k) for k in (0, 20, 40)]
    before = [s.serialize() for s in states]
    m1 = croupier.rollouts(states, 8, seed=1, threads=1)
    m2 = croupier.rollouts(states, 8, seed=1, threads=2)
    assert m1.shape == (3, 4) and np.array_equal(m1, m2)
    assert ((m1 >= 0) & (m1 <= 1)).all()
    assert [s.serialize() for s in states] == before
    finished = play_bots(dml, ["random"] * 4, 3)
    assert np.allclose(croupier.rollouts([finished], 2)[0], finished.returns())
    assert croupier.rollouts([], 3).shape == (0, 0)


def test_batches_refuse_bad_input(dml):
    with pytest.raises(TypeError):
        croupier.rollouts([dml.new_initial_state(), "x"], 2)
    with pytest.raises(croupier.Error, match="different games"):
        croupier.rollouts([dml.new_initial_state(),
                           croupier.load_game("dml", {"players": 3}).new_initial_state()], 2)
    with pytest.raises(croupier.Error, match="n must be"):
        croupier.rollouts([dml.new_initial_state()], 0)
    with pytest.raises(croupier.Error, match="threads"):
        croupier.play_random(dml, 4, threads=1000)
    with pytest.raises(croupier.Error, match="n must be"):
        croupier.play_random(dml, -1)
    with pytest.raises(TypeError):
        croupier.play_random("dml", 4)


def test_batches_release_the_gil(dml):
    """Another Python thread makes progress while play_random runs."""
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)

    t = threading.Thread(target=tick)
    t.start()
    try:
        croupier.play_random(dml, 400, seed=1, threads=1)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 100


# --- the engine's hot path allocates nothing ---------------------------------

def test_apply_and_legal_actions_allocate_nothing_in_the_engine(dml):
    s = play_prefix(dml, 10)
    rng = random.Random(1)
    s.apply_action(chance(s, rng) if s.is_chance_node() else s.legal_actions()[0])
    n0 = croupier.alloc_count()
    for _ in range(200):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(chance(s, rng))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    # the history grows by doubling from 256 entries: at most one realloc here
    assert croupier.alloc_count() - n0 <= 1
    n1 = croupier.alloc_count()
    croupier.play_random(dml, 20, seed=2, threads=1)
    # per thread: a state, a legal list and a context (context + scratch)
    assert croupier.alloc_count() - n1 <= 5


def test_18dracula_loads_and_plays():
    g = croupier.load_game("18dracula", {"players": 3})
    r, a = croupier.play_random(g, 2, seed=1, threads=2)
    assert r.shape == (2, 3) and (a > 0).all()
    s = g.new_initial_state()
    assert s.current_player() in range(-1, 3)
    json.loads(s.observation_json(0))


# --- the example and the benchmark run ---------------------------------------

def _source(*parts):
    import os
    src = os.environ.get("CROUPIER_SOURCE_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    return os.path.join(src, *parts)


def test_example_ismcts_vs_random_runs():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, _source("examples", "ismcts_vs_random.py"), "1", "30"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "ismcts:iters=30 won" in out



def test_example_check_move(tmp_path):
    """examples/check_move.py plays a recorded decision's move and an
    alternative from the true position: the same trials for both, the same
    output on every run, and a clear refusal for a move that is not a
    decision or not in the record."""
    import subprocess
    import sys
    game = croupier.load_game("dml", {"players": 4})
    bots = [croupier.make_bot(game, "heuristic", s, 7 + s) for s in range(4)]
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if p == croupier.CHANCE_PLAYER_ID:
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights=probs)[0])
        else:
            state.apply_action(bots[p].step(state))
    path = tmp_path / "game.txt"
    croupier.save_record_file(state, str(path), seats=["heuristic"] * 4, seed=3)
    # The first decision with two or more choices, and one it did not play.
    history = state.history()
    s = game.new_initial_state()
    for k, a in enumerate(history):
        p = s.current_player()
        if p >= 0 and len(s.legal_actions()) > 1:
            alt = next(x for x in s.legal_actions() if x != a)
            move, played, alt_text = k + 1, s.action_to_string(p, a), s.action_to_string(p, alt)
            break
        s.apply_action(a)
    script = _source("examples", "check_move.py")
    cmd = [sys.executable, script, str(path), str(move), alt_text, "--games", "12", "--seed", "5"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout
            for _ in range(2)]
    assert runs[0] == runs[1]
    lines = runs[0].splitlines()
    assert lines[0].startswith("P%d's decision at move %d" % (s.current_player(), move))
    assert lines[1].split()[:2] == ["played", played]
    assert lines[2].split()[:2] == ["instead", alt_text] and "points [" in lines[2]
    # Move 1 of a DML game is the first-player roll: a chance outcome.
    bad = subprocess.run([sys.executable, script, str(path), "1", alt_text, "--games", "2"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "chance outcome" in bad.stderr
    bad = subprocess.run([sys.executable, script, str(path), str(len(history) + 1), "x"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "has no move" in bad.stderr
    bad = subprocess.run([sys.executable, script, str(path), str(move), "no-such-move"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "no-such-move" in bad.stderr

def test_python_bench_runs():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, _source("bench", "python_bench.py"), "0.05", "2"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "python-driven" in out and "batched play_random" in out


# --- observation tensors ------------------------------------------------------

def test_observation_tensor_shape_and_cards(dml):
    size = dml.observation_tensor_size()
    assert dml.observation_tensor_shape() == [size]
    s = play_prefix(dml, 60)
    for seat in list(range(4)) + [croupier.PUBLIC_VIEW, croupier.OMNISCIENT_VIEW]:
        t = s.observation_tensor(seat)
        assert t.dtype == np.float32 and t.shape == (size,)
        assert np.isfinite(t).all() and (t >= 0).all()
        cards = t[:54 * 30].reshape(54, 30)  # docs/clients.md: each card's place, one-hot
        assert (cards.sum(axis=1) == 1).all()
    # the omniscient view places every card; a seat does not
    assert s.observation_tensor(croupier.OMNISCIENT_VIEW)[:54 * 30].reshape(54, 30)[:, 0].sum() == 0
    assert s.observation_tensor(0)[:54 * 30].reshape(54, 30)[:, 0].sum() > 0
    with pytest.raises(croupier.Error, match="no seat"):
        s.observation_tensor(4)


def test_observation_tensor_holds_no_hidden_information(dml):
    """A seat's tensor is the same for every state the seat cannot tell
    from the true one (the engine's determinizations of its observation),
    while the true states differ: nothing of another seat's hidden cards
    gets into it."""
    rng = random.Random(4)
    s = dml.new_initial_state()
    bots = [croupier.make_bot(dml, "heuristic", i, 4) for i in range(4)]
    checked = differed = 0
    for step in range(400):
        if s.is_terminal():
            break
        if step % 9 == 0:
            for seat in range(4):
                t = s.observation_tensor(seat)
                for k in range(3):
                    other = s.resample_from_infostate(seat, seed=step * 10 + k)
                    assert other.observation_string(seat) == s.observation_string(seat)
                    assert np.array_equal(other.observation_tensor(seat), t)
                    checked += 1
                    if other.serialize() != s.serialize():
                        differed += 1
        p = s.current_player()
        s.apply_action(chance(s, rng) if p < 0 else bots[p].step(s))
    assert checked > 50 and differed > checked // 2


def test_18dracula_observation_tensor():
    """18Dracula's tensor (docs/python.md): 4,810 floats, the same for
    every seat and view (nothing is hidden, R7), and it follows the game:
    the stage one-hot, seat blocks with cash in thousands, the bank."""
    g = croupier.load_game("18dracula", {"players": 4})
    size = g.observation_tensor_size()
    assert size == 4810 and g.observation_tensor_shape() == [size]
    rng = random.Random(5)
    s = g.new_initial_state()
    seen = set()
    for step in range(600):
        if s.is_terminal():
            break
        if step % 50 == 0:
            t = s.observation_tensor(0)
            assert t.dtype == np.float32 and t.shape == (size,)
            assert np.isfinite(t).all() and (t >= 0).all()
            assert t[0:13].sum() == 1  # the stage, one-hot
            for seat in list(range(1, 4)) + [croupier.PUBLIC_VIEW, croupier.OMNISCIENT_VIEW]:
                assert np.array_equal(s.observation_tensor(seat), t)
            seats = t[64:64 + 6 * 42].reshape(6, 42)
            assert (seats[:4, 0] == 1).all() and (seats[4:] == 0).all()  # 4 seats at the table
            p = s.current_player()
            if p >= 0:
                assert seats[p, 2] == 1 and seats[:, 2].sum() == 1  # the seat to act
            view = json.loads(s.observation_json(0))
            assert t[44] == np.float32(view["bank"] / 1000)  # the bank, in thousands
            for q in range(4):
                assert seats[q, 1] == np.float32(view["cash"][q] / 1000)
            seen.add(t.tobytes())
        p = s.current_player()
        if p < 0:
            s.apply_action(chance(s, rng))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert len(seen) > 5  # it changes as the game goes on
    with pytest.raises(croupier.Error, match="no seat"):
        s.observation_tensor(4)


def test_a_bot_thinks_on_one_thread_at_a_time(dml):
    """step() searches without the GIL; a second thread entering the same
    bot meanwhile is refused, not let into the C bot."""
    s = play_prefix(dml, 30)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    bot = croupier.make_bot(dml, "ismcts:iters=20000", s.current_player(), 1)
    errors, results = [], []

    def think():
        try:
            results.append(bot.step(s))
        except croupier.Error as e:
            errors.append(str(e))

    threads = [threading.Thread(target=think) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) + len(errors) == 2 and results
    assert all("already choosing" in e for e in errors)


def test_states_without_a_history_have_no_record(dml):
    s = play_prefix(dml, 25)
    for t in (dml.deserialize_state(s.serialize()), s.resample_from_infostate(0, 1)):
        with pytest.raises(croupier.Error, match="no record"):
            t.to_record()
        with pytest.raises(croupier.Error, match="no record"):
            t.clone().to_record()
    assert s.clone().to_record() == s.to_record()
