"""The engine contract, checked over every registered game and the test-only toy game."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine.core import BadSetup, BadState, IllegalAction
from tests.toygame import TOY

from .contract import play_random
from .hidden import PERTURBERS

GAMES = [TOY] + [engine.get_game(n) for n in engine.game_names()]
IDS = [g.name for g in GAMES]
# CI and `make test` run a few hundred games per game here; MENAGERIE_SOAK raises it.
EXAMPLES = int(os.environ.get("MENAGERIE_SOAK", "25"))


def test_every_game_has_a_leak_perturber():
    for game in GAMES:
        assert game.name in PERTURBERS, f"tests/engine/hidden.py has no perturber for {game.name}"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_describe_is_complete(game):
    d = game.describe()
    assert d["name"] == game.name and d["title"]
    assert 1 <= d["seats"]["min"] <= d["seats"]["max"]
    for opt in d["options"]:
        assert {"name", "default", "description"} <= set(opt)
    assert isinstance(game.catalog(), dict)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_prepare_changes_no_state(game):
    state = game.setup(game.min_seats, {}, 4)
    before = game.state_hash(state)
    assert game.prepare() is None
    game.prepare()  # twice is fine
    assert game.state_hash(state) == before
    seat = min(game.waiting_for(state))
    assert game.legal_actions(state, seat)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_setup_is_deterministic_and_validated(game):
    lo = game.min_seats
    assert game.state_hash(game.setup(lo, {}, 5)) == game.state_hash(game.setup(lo, {}, 5))
    assert game.state_hash(game.setup(lo, {}, 5)) != game.state_hash(game.setup(lo, {}, 6))
    for bad in (lo - 1, game.max_seats + 1, "2", None, True):
        with pytest.raises(BadSetup) as err:
            game.setup(bad, {}, 1)
        assert err.value.code == "bad_seats"
    with pytest.raises(BadSetup) as err:
        game.setup(lo, {"no_such_option": 1}, 1)
    assert err.value.code == "bad_options"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_malformed_actions_are_refused_with_codes(game):
    state = game.setup(game.min_seats, {}, 3)
    seat = min(game.waiting_for(state))
    for bad in (None, 3, "x", [], {}, {"type": 5}, {"type": "no-such-move"},
                {"type": "play", "card": {"deep": [1, 2, 3]}}):
        with pytest.raises(IllegalAction) as err:
            game.apply(state, seat, bad)
        assert err.value.code and err.value.message
    idle = [s for s in range(game.min_seats) if s not in game.waiting_for(state)]
    for s in idle + [-1, 99, "0"]:
        with pytest.raises(IllegalAction) as err:
            game.apply(state, s, game.legal_actions(state, seat)[0])
        assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_load_refuses_foreign_states(game):
    with pytest.raises(BadState):
        game.load({"game": "something-else"})
    state = game.setup(game.min_seats, {}, 1)
    data = game.dump(state)
    data["format"] = -1
    with pytest.raises(BadState):
        game.load(data)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**31), data=st.data())
def test_random_games_keep_the_contract(game, seed, data):
    seats = data.draw(st.integers(min_value=game.min_seats, max_value=game.max_seats))
    # full checks every step for small games, every 7th step for big ones (still hundreds)
    every = 1 if game.name == "toy" else 7
    state, log = play_random(game, seats, seed, check_every=every)
    replayed = engine.replay(game.name, seats, {}, seed, log) if game.name != "toy" else None
    if replayed is not None:
        assert game.state_hash(replayed) == game.state_hash(state)


#: Configurations the random games above may rarely draw, checked on their own: (game, seats,
#: options). The zoo builder's solo game (1 seat) at its default and at its hardest start.
CONFIGURATIONS = [("arknova", 1, {}), ("arknova", 1, {"solo_appeal": 10})]


@pytest.mark.parametrize("name,seats,options", CONFIGURATIONS,
                         ids=[f"{n}-{s}-{'-'.join(map(str, o.values())) or 'default'}"
                              for n, s, o in CONFIGURATIONS])
@settings(max_examples=max(3, EXAMPLES // 3), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_configurations_keep_the_contract(name, seats, options, seed):
    game = engine.get_game(name)
    state, log = play_random(game, seats, seed, options=options, check_every=3)
    assert game.result(state) is not None
    replayed = engine.replay(name, seats, options, seed, log)
    assert game.state_hash(replayed) == game.state_hash(state)


def test_toy_replay_is_exact():
    engine.register(TOY, replace=True)
    try:
        state, log = play_random(TOY, 3, 17)
        again = engine.replay("toy", 3, {}, 17, log)
        assert TOY.state_hash(again) == TOY.state_hash(state)
    finally:
        engine.unregister("toy")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_actions_must_equal_a_legal_answer_exactly(game):
    """7.0 is not 7 and true is not 1: only the exact JSON of a legal answer is accepted."""
    state = game.setup(game.min_seats, {}, 8)

    def with_int(legal):
        return next((a for a in legal if any(isinstance(v, int) and not isinstance(v, bool)
                                             for v in a.values())), None)
    for _ in range(200):  # play on until some decision has an integer field
        seat = min(game.waiting_for(state))
        legal = game.legal_actions(state, seat)
        target = with_int(legal)
        if target is not None:
            break
        state, _ = game.apply(state, seat, legal[0])
    assert target is not None, "no decision with an integer field in 200 steps"
    for key, value in target.items():
        if isinstance(value, int) and not isinstance(value, bool):
            for twisted in (float(value), value == 1):
                bad = {**target, key: twisted}
                if bad in legal and any(type(bad[key]) is type(a.get(key)) and a == bad
                                        for a in legal):
                    continue
                with pytest.raises(IllegalAction):
                    game.apply(state, seat, bad)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, True, legal[0])
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_apply_in_place_refuses_without_changing_the_state(game):
    from engine.core.state import clone

    state = game.setup(game.min_seats, {}, 8)
    seat = min(game.waiting_for(state))
    owned = clone(state)
    for bad in ({"type": "no-such-move"}, {"type": 5}, None):
        with pytest.raises(IllegalAction):
            game.apply_in_place(owned, seat, bad)
        assert owned == state
    action = game.legal_actions(state, seat)[0]
    expected, events = game.apply(state, seat, action)
    kept = clone(action)
    assert game.apply_in_place(owned, seat, action) == events
    assert owned == expected and action == kept  # the answer itself is never changed
    assert game.state_hash(owned) == game.state_hash(expected)
