"""The learned value near a solo game's end: the strength term fades over the last turns
(``strength_fade``) and the last turn's own chain is followed to the game's end
(``last_turn_depth``), where the value is the final score (docs/bots.md, "The solo's last
turns")."""

from __future__ import annotations

import copy

import pytest

import engine
from engine.arknova import solo
from engine.arknova.bot import learned
from engine.bots.evaluation import evaluator_for, searching
from engine.bots.greedy import finish_chain
from engine.core.state import clone

from .test_bots import positions

ARK = engine.get_game("arknova")


def turn_starts(seats: int, seed: int):
    """Turn-start states of a random game, each with its clock's turns left."""
    for s in positions(ARK, seats, seed, every=1, limit=5000):
        if s["stack"][-1]["kind"] == "turn":
            yield s


@pytest.fixture
def weights(monkeypatch):
    data = copy.deepcopy(learned.load())
    monkeypatch.setattr(learned, "load", lambda: data)
    return data


def test_the_strength_term_fades_over_the_last_turns(weights):
    weights["solo"].update(strength_used=0.7, strength_fade=4)
    weights["solo"].pop("strength_by_card", None)
    seen = set()
    for state in turn_starts(1, 58):
        left = solo.turns_left(clone(state))
        p = state["players"][0]
        build = {"type": "action", "card": "build", "x": 0}
        s = p["cards"].index("build") + 1
        want = 0.7 * min(1.0, left / 4) * (s - 3)
        assert learned.answer_term(state, 0, build) == pytest.approx(want)
        seen.add(min(left, 5))
    assert seen == {1, 2, 3, 4, 5}  # the last four turns and one before them were met
    weights["solo"].pop("strength_fade")  # absent: the term never fades
    last = [s for s in turn_starts(1, 58) if solo.turns_left(s) == 1][0]
    s = last["players"][0]["cards"].index("build") + 1
    assert learned.answer_term(last, 0, {"type": "action", "card": "build", "x": 0}) == \
        pytest.approx(0.7 * (s - 3))


def test_the_last_turns_chain_is_followed_to_the_final_score(weights):
    weights["solo"]["last_turn_depth"] = 40
    starts = list(turn_starts(1, 58))
    last = next(s for s in starts if solo.turns_left(s) == 1)
    early = next(s for s in starts if solo.turns_left(s) > 1)
    assert learned.chain_depth(last, 0, 8) == 40 and learned.chain_depth(early, 0, 8) == 8
    ev = evaluator_for(ARK, "learned")
    ended = 0
    with searching(ev):
        for a in ARK.legal_actions(last, 0):
            end, v = finish_chain(ARK, ev, ARK.simulate(last, 0, a), 0, 1, 6)
            assert end["over"] or ARK.waiting_for(end) == {0}
            if end["over"]:
                ended += 1
                assert ev.value(end, 0) == learned.value(end, 0)
                score = ARK.result(end)["scores"][0]
                assert learned.value(end, 0) == pytest.approx(score + (20 if score >= 0 else -20))
    assert ended == len(ARK.legal_actions(last, 0))  # every answer's chain reached the end
    weights["solo"].pop("last_turn_depth")  # absent: the bot's own depth
    assert learned.chain_depth(last, 0, 8) == 8
    duel = next(turn_starts(2, 58))
    assert "last_turn_depth" not in weights["duel"] and learned.chain_depth(duel, 0, 8) == 8


@pytest.mark.parametrize("key", ["strength_fade", "last_turn_depth"])
@pytest.mark.parametrize("bad", [0, -1, float("nan"), "4", True])
def test_a_bad_setting_is_refused(weights, key, bad):
    broken = copy.deepcopy(weights)
    broken["solo"][key] = bad
    with pytest.raises(learned.ValueFileError):
        learned.validate(broken)
