"""``idle_strength`` (a value file's part, engine/arknova/bot/learned.py): the share of the
strength term an answer keeps when its chain leaves the zoo as it was (an Animals action that
played no animal)."""

from __future__ import annotations

import copy

import pytest

import engine
from engine.arknova.bot import learned
from engine.bots import FastBot, decide
from engine.bots.evaluation import evaluator_for, searching, step
from engine.bots.greedy import finish_chain, score_answers

ARK = engine.get_game("arknova")


@pytest.fixture
def data(monkeypatch):
    d = copy.deepcopy(learned.load())
    d["solo"]["strength_used"] = 0.7
    d["solo"].pop("strength_fade", None)
    d["solo"].pop("idle_strength", None)  # the tests set it
    monkeypatch.setattr(learned, "load", lambda: d)
    return d


ANIMALS = {"type": "action", "card": "animals", "x": 0}


def animal_or_nothing():
    """A solo turn start of a fast game where the Animals action may play an animal or none
    (random play seldom builds an enclosure; the fast level does within a few turns)."""
    s = ARK.setup(1, {}, "idle-term")
    rng = {"rng": 7}
    bot = FastBot()
    while ARK.waiting_for(s):
        if s["stack"][-1]["kind"] == "turn" and ANIMALS in ARK.legal_actions(s, 0):
            opened = step(ARK, s, 0, ANIMALS)
            kinds = {a["type"] for a in ARK.legal_actions(opened, 0)}
            if {"animal", "done"} <= kinds:
                return s, opened
        s, _ = ARK.apply(s, 0, decide(bot, ARK, s, 0, rng))
    raise AssertionError("the fast game never could play an animal")


def test_an_animals_action_that_plays_nothing_keeps_the_idle_share_of_its_term(data):
    state, opened = animal_or_nothing()
    p = state["players"][0]
    animals = ANIMALS
    legal = ARK.legal_actions(opened, 0)
    empty = step(ARK, opened, 0, next(a for a in legal if a["type"] == "done"))
    played = step(ARK, opened, 0, next(a for a in legal if a["type"] == "animal"))
    assert learned.idle(p, empty["players"][0])
    assert not learned.idle(p, played["players"][0])
    full = 0.7 * (p["cards"].index("animals") + 1 - 3)
    assert full != 0
    assert learned.answer_term(state, 0, animals, empty) == pytest.approx(full)  # absent: all
    data["solo"]["idle_strength"] = 0.0
    assert learned.answer_term(state, 0, animals, empty) == 0.0
    assert learned.answer_term(state, 0, animals) == pytest.approx(full)  # end not known
    data["solo"]["idle_strength"] = 0.5
    assert learned.answer_term(state, 0, animals, empty) == pytest.approx(full / 2)
    assert learned.answer_term(state, 0, animals, played) == pytest.approx(full)
    # a Cards action always draws: never idle, the whole term
    cards = {"type": "action", "card": "cards", "x": 0}
    drawn = finish_chain(ARK, evaluator_for(ARK, "learned"), step(ARK, state, 0, cards), 0, 8, 6)[0]
    assert not learned.idle(p, drawn["players"][0])
    assert learned.answer_term(state, 0, cards, drawn) == pytest.approx(
        0.7 * (p["cards"].index("cards") + 1 - 3))


def test_x_tokens_spent_on_an_action_that_does_nothing_leave_it_idle():
    """The tokens spent on the card itself are not a change of the zoo: an Animals action with
    a token on it that plays nothing used the card for nothing (and the token besides)."""
    p = animal_or_nothing()[0]["players"][0]
    spent = {**copy.deepcopy(p), "x": p["x"] - 1}
    assert learned.idle(p, spent, 1) and not learned.idle(p, spent)
    assert not learned.idle(p, {**spent, "reputation": p["reputation"] + 1}, 1)


def test_the_one_ply_look_charges_an_idle_answer_by_where_its_chain_ends(data):
    state = animal_or_nothing()[0]
    legal = ARK.legal_actions(state, 0)
    ev = evaluator_for(ARK, "learned")
    with searching(ev):
        before = score_answers(ARK, ev, state, 0, legal, depth=8, width=6)
        data["solo"]["idle_strength"] = 0.0
        after = score_answers(ARK, ev, state, 0, legal, depth=8, width=6)
        ends = [finish_chain(ARK, ev, step(ARK, state, 0, a), 0, 8, 6)[0] for a in legal]
    p = state["players"][0]
    idle = [learned.idle(p, end["players"][0], a.get("x", 0)) for a, end in zip(legal, ends)]
    assert True in idle and False in idle
    for a, v0, v1, empty in zip(legal, before, after, idle):
        assert v1 == pytest.approx(v0 - (learned.answer_term(state, 0, a) if empty else 0.0))


@pytest.mark.parametrize("bad", [1.5, -0.1, "none", float("nan")])
def test_a_bad_idle_share_is_refused(data, bad):
    broken = copy.deepcopy(data)
    broken["solo"]["idle_strength"] = bad
    with pytest.raises(learned.ValueFileError):
        learned.validate(broken)
