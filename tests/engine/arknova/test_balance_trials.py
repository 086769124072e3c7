"""The balance trials' one intervention: moving a card into a hand keeps every card once."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine import get_game
from tests.scripts import load_script


@pytest.fixture(scope="module")
def trials():
    return load_script("scripts/balance_trials.py")


def _cards(state):
    piles = [state["deck"], state["discard"], [c for c in state["display"] if c]]
    piles += [p["hand"] for p in state["players"]]
    return Counter(c for pile in piles for c in pile)


def _after_opening(seed):
    game = get_game("arknova")
    state = game.setup(2, {}, seed)
    for seat in (0, 1):  # keep the first four offered cards
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[0])
    assert len(game.waiting_for(state)) == 1
    return state


@pytest.mark.parametrize("where", ["deck", "display", "other_hand"])
def test_the_card_changes_place_with_one_of_the_holders_cards(trials, where):
    state = _after_opening("trial-test")
    card = {"deck": state["deck"][-1], "display": state["display"][2],
            "other_hand": state["players"][1]["hand"][0]}[where]
    before = copy.deepcopy(state)
    replaced = state["players"][0]["hand"][3]
    trials._move_into_hand(state, card, 0, 3)
    assert state["players"][0]["hand"][3] == card
    assert _cards(state) == _cards(before)  # every card still exactly once
    # the replaced card took the moved card's place; nothing else changed
    spot = {"deck": ("deck", -1), "display": ("display", 2)}.get(where)
    if spot:
        assert state[spot[0]][spot[1]] == replaced
    else:
        assert state["players"][1]["hand"][0] == replaced
    for key in before:
        if key not in ("deck", "display", "players"):
            assert state[key] == before[key]
    # the game goes on from the changed position
    game = get_game("arknova")
    seat = next(iter(game.waiting_for(state)))
    game.apply(state, seat, game.legal_actions(state, seat)[0])


def test_a_card_out_of_play_is_refused(trials):
    state = _after_opening("trial-test")
    with pytest.raises(ValueError):
        trials._move_into_hand(state, "NOPE", 0, 0)
