"""The read-only memo of the zoo questions (engine/arknova/zoo.py ``reading``).

``legal_actions`` and ``hints`` remember icons, homes and occupied cells per player while they
run; these tests check the answers are exactly those computed without the memo, that the memo
is gone when the call returns, and that blocks nest."""

from __future__ import annotations

import engine
from engine.arknova import zoo
from engine.bots import get_bot
from engine.core import rng as _rng


def _positions(seeds=(0, 1), every=7):
    game = engine.get_game("arknova")
    bot = get_bot("random")
    for seed in seeds:
        state = game.setup(2, {}, seed)
        rng = {"rng": _rng.seed_to_int(f"memo-{seed}")}
        i = 0
        while game.waiting_for(state):
            seat = sorted(game.waiting_for(state))[0]
            legal = game.legal_actions(state, seat)
            if i % every == 0:
                yield game, state, seat
            state, _ = game.apply(state, seat, bot.choose(game, None, legal, rng))
            i += 1


def test_answers_with_the_memo_equal_those_without(monkeypatch):
    seen = 0
    for game, state, seat in _positions():
        with_memo = (game.legal_actions(state, seat), game.hints(state, seat))
        with monkeypatch.context() as m:
            m.setattr(zoo, "start_reading", lambda: False)
            without = (game.legal_actions(state, seat), game.hints(state, seat))
        assert with_memo == without
        seen += 1
    assert seen > 100


def test_the_memo_lives_only_inside_the_block():
    game, state, seat = next(_positions(every=1))
    assert not zoo.in_reading()
    game.legal_actions(state, seat)
    game.hints(state, seat)
    assert not zoo.in_reading()
    with zoo.reading():
        p = state["players"][seat]
        assert zoo.icons(p) is zoo.icons(p)  # remembered
        with zoo.reading():  # nested: the outer block keeps its memo
            game.hints(state, seat)
        assert zoo.in_reading()
    assert not zoo.in_reading()
    p = state["players"][seat]
    assert zoo.icons(p) is not zoo.icons(p)  # outside: computed each time


def test_a_changed_zoo_outside_the_block_is_seen():
    game, state, seat = next(_positions(every=1))
    p = {k: v for k, v in state["players"][seat].items()}
    p["buildings"] = [dict(b) for b in p["buildings"]]
    with zoo.reading():
        before = zoo.placements(p, "enclosure_1", False)
    p["buildings"].append({"kind": "enclosure", "type": "enclosure_1", "id": 999,
                           "cells": [list(before[0][0])], "animals": [], "used": 0})
    with zoo.reading():
        after = zoo.placements(p, "enclosure_1", False)
    assert before[0] not in after
