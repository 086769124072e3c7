"""Checks of the engine contract that hold for every game (used by test_contract.py)."""

from __future__ import annotations

import json

import orjson

from engine.core import IllegalAction, rng as _rng
from engine.core.game import events_for
from engine.core.state import clone

from .hidden import PERTURBERS


def check_views(game, state):
    n = game.seat_count(state)
    spectator = game.view(state, None)
    assert spectator["private"] is None
    public = orjson.dumps(spectator["public"])
    for seat in range(n):
        v = game.view(state, seat)
        assert orjson.dumps(v["public"]) == public, "public view differs between viewers"
        assert v["private"] is not None
    # no view may depend on another seat's hidden information (or on the generator)
    perturb = PERTURBERS[game.name]
    for seat in range(n):
        other = perturb(state, seat)
        for viewer in [None, *range(n)]:
            if viewer == seat:
                continue
            assert orjson.dumps(game.view(other, viewer)) == orjson.dumps(game.view(state, viewer)), (
                f"view of {viewer} depends on hidden information of seat {seat}")
            assert orjson.dumps(game.hints(other, viewer)) == orjson.dumps(game.hints(state, viewer)), (
                f"hints of {viewer} depend on hidden information of seat {seat}")
    assert game.hints(state, None) == {}, "a spectator gets hints"


def check_roundtrip(game, state):
    dumped = game.dump(state)
    assert json.loads(json.dumps(dumped)) == dumped, "dump is not plain JSON"
    loaded = game.load(json.loads(json.dumps(dumped)))
    assert game.state_hash(loaded) == game.state_hash(state)
    assert loaded == state


def play_random(game, seats, seed, *, options=None, check_every=1, max_steps=20000):
    """Play a random legal game to the end, checking the contract along the way.

    Returns ``(state, log)``.
    """
    state = game.setup(seats, options or {}, seed)
    chooser = {"rng": _rng.seed_to_int(f"chooser-{seed}")}
    log = []
    step = 0
    while True:
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        assert game.result(state) is None
        if step % check_every == 0:
            check_roundtrip(game, state)
            check_views(game, state)
        seat = waiting[_rng.randbelow(chooser, len(waiting))]
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is waited for but has no legal action"
        for other in range(seats):
            if other not in waiting:
                assert game.legal_actions(state, other) == []
                try:
                    game.apply(state, other, legal[0])
                except IllegalAction as exc:
                    assert exc.code == "not_your_turn"
                else:
                    raise AssertionError("a seat that owes nothing was allowed to act")
        action = legal[_rng.randbelow(chooser, len(legal))]
        before = game.state_hash(state)
        snapshot = clone(state)
        new, events = game.apply(state, seat, clone(action))
        assert game.state_hash(state) == before and state == snapshot, "apply mutated its input"
        assert isinstance(events, list)
        # the owner's path: the same answer applied in place to a private copy gives the same
        # state and the same events
        in_place_events = game.apply_in_place(snapshot, seat, clone(action))
        assert snapshot == new and in_place_events == events, "apply_in_place differs from apply"
        # the searches' path: the same rules without the check and the take-back marks
        simulated = game.simulate(state, seat, clone(action))
        assert game.state_hash(state) == before, "simulate mutated its input"
        assert {k: v for k, v in simulated.items() if k != "undo"} == \
            {k: v for k, v in new.items() if k != "undo"}, "simulate differs from apply"
        assert game.simulate(clone(state), seat, clone(action), in_place=True) == simulated
        for ev in events:
            assert isinstance(ev.get("kind"), str) and isinstance(ev.get("data"), dict)
            json.dumps(ev)
        # spectators never see events limited to seats
        assert all("only" not in e for e in events_for(events, None))
        log.append((seat, action))
        state = new
        step += 1
        assert step < max_steps, "game did not end"
    result = game.result(state)
    assert result is not None
    assert set(result["scores"]) == set(range(seats))
    assert sorted(result["ranking"]) == list(range(seats))
    check_roundtrip(game, state)
    return state, log
