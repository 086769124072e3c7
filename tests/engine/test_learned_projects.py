"""The solo value's project features: ``project_near`` (a project level one or two icons away)
and ``money_per_turn`` (money counted no further than the turns left can spend)."""

from __future__ import annotations

import copy

import pytest

import engine
from engine.arknova.bot import learned
from engine.arknova.bot.evaluate import zoo_parts
from engine.arknova.bot.zooparts import project_near
from engine.arknova.zoo import icons

ARK = engine.get_game("arknova")


def solo(seed: str = "T:solo:1") -> dict:
    state = ARK.setup(1, {}, seed)
    assert state["base_projects"] == ["B01", "B03", "B10"]  # predator 5/4/2, primate and
    assert state["project_row"] == []                       # australia 4/3/2 icons (5/4/2 CP)
    return state


def with_animals(state: dict, *cards: str) -> dict:
    s = copy.deepcopy(state)
    s["players"][0]["animals"] = [{"card": c, "building": None} for c in cards]
    return s


def test_project_near_is_the_best_level_one_or_two_icons_away_halved_per_icon():
    state = solo()
    p = lambda s: s["players"][0]  # noqa: E731
    # no icons: every project's 2-icon level is 2 short (2 CP / 4); the 3- and 4-icon ones too far
    assert project_near(state, p(state), icons(p(state))) == 0.5
    one = with_animals(state, "A025")  # an Australian predator: 1 icon toward B01 and B10
    assert project_near(one, p(one), icons(p(one))) == 1.0  # 2 CP / 2, or 4 CP / 4
    two = with_animals(state, "A025", "A031")  # 2 Australian: B10's 2-icon level is met (not
    assert project_near(two, p(two), icons(p(two))) == 2.0  # near), its 3-icon one 1 short
    assert project_near(two, p(two), icons(p(two)), decay=0.7) == pytest.approx(2.8)
    # supported, or its open levels taken: a project counts no more
    gone = copy.deepcopy(two)
    gone["players"][0]["supported"] = ["B10"]
    assert project_near(gone, p(gone), icons(p(gone))) == 1.0  # B01: 1 icon short of 2
    taken = copy.deepcopy(two)
    taken["blocked"] = {"B10": [1]}  # its 3-icon level taken: the 4-icon one, 2 short
    assert project_near(taken, p(taken), icons(p(taken))) == 1.25  # 5 CP / 4


def test_the_solo_feature_counts_it_in_points_while_three_turns_are_left():
    state = with_animals(solo(), "A025", "A031")
    i = learned.SOLO.index("project_near")
    feats = learned.features(state, 0)
    assert feats[i] == zoo_parts(state, 0)[8] * 2.0
    assert learned.project_near(state, 0, 2.9) == 0.0
    out = copy.deepcopy(state)
    out["players"][0]["cubes_used"] = 99
    assert learned.project_near(out, 0, 20.0) == 0.0


def test_money_per_turn_counts_money_no_further_than_the_turns_left_spend(monkeypatch):
    state = solo()
    state["players"][0]["money"] = 200
    data = copy.deepcopy(learned.load())
    data["solo"]["money_cap"] = 50
    data["solo"]["money_per_turn"] = 12
    monkeypatch.setattr(learned, "load", lambda: data)
    i = learned.SOLO.index("money")
    assert learned.features(state, 0)[i] == 50  # 27 turns left: the cap
    late = copy.deepcopy(state)
    turns = learned.clock(late)[1]
    assert turns > 4
    monkeypatch.setattr(learned, "clock", lambda s: (1.0, 2.0))
    assert learned.features(late, 0)[i] == 24  # 2 turns left: 12 a turn
    del data["solo"]["money_per_turn"]
    assert learned.features(late, 0)[i] == 50
    for bad in (0, -1, float("inf"), "12"):
        broken = copy.deepcopy(data)
        broken["solo"]["money_per_turn"] = bad
        with pytest.raises(learned.ValueFileError):
            learned.validate(broken)
