"""Take-backs: the engine marks information barriers (``undo_depth``, ``can_undo``)."""

from __future__ import annotations

import random

import pytest

import engine


def _start_arknova():
    g = engine.get_game("arknova")
    s = g.setup(2, {}, "undo-1")
    for _ in range(2):  # both seats keep their first four cards (a simultaneous decision)
        seat = sorted(g.waiting_for(s))[0]
        s, _ = g.apply(s, seat, g.legal_actions(s, seat)[0])
    return g, s


def test_choosing_an_action_card_can_be_taken_back_but_a_draw_cannot():
    g, s = _start_arknova()
    assert g.waiting_for(s) == {0}
    s1, _ = g.apply(s, 0, {"type": "action", "card": "cards", "x": 0})
    assert g.undo_depth(s1, 0) == 1
    assert g.view(s1, 0)["private"]["can_undo"] is True
    assert g.view(s1, 1)["private"]["can_undo"] is False  # only the seat that decided
    assert "can_undo" not in g.view(s1, None)["public"]
    deck = len(s1["deck"])
    s2, events = g.apply(s1, 0, {"type": "draw"})
    assert len(s2["deck"]) == deck - 1  # a hidden card came into the hand: a barrier
    assert g.undo_depth(s2, 0) == 0
    assert g.view(s2, 0)["private"]["can_undo"] is False


def test_another_seats_decision_ends_the_take_back():
    g, s = _start_arknova()
    s1, _ = g.apply(s, 0, {"type": "x_token", "card": "build"})  # ends seat 0's turn
    assert g.waiting_for(s1) == {1}
    assert g.undo_depth(s1, 0) == 1  # seat 1 has not decided yet: seat 0 may take it back
    s2, _ = g.apply(s1, 1, {"type": "x_token", "card": "build"})
    assert g.undo_depth(s2, 0) == 0
    assert g.undo_depth(s2, 1) == 1


def test_a_chain_of_own_decisions_counts_up():
    g, s = _start_arknova()
    s1, _ = g.apply(s, 0, {"type": "action", "card": "build", "x": 0})
    assert g.undo_depth(s1, 0) == 1
    legal = g.legal_actions(s1, 0)
    assert legal
    s2, events = g.apply(s1, 0, legal[0])
    if g.information_marks(s2) == g.information_marks(s1) and \
            not any("only" in e for e in events):
        assert g.undo_depth(s2, 0) == 2
    else:  # pragma: no cover - depends on the dealt position
        assert g.undo_depth(s2, 0) == 0


def test_secret_answers_are_barriers_in_zoocracy():
    g = engine.get_game("zoocracy")
    s = g.setup(3, {}, "undo-z")
    rng = random.Random(3)
    seen_simultaneous = False
    for _ in range(400):
        waiting = sorted(g.waiting_for(s))
        if not waiting:
            break
        seat = waiting[0]
        before = s
        s, _ = g.apply(s, seat, rng.choice(g.legal_actions(s, seat)))
        if len(waiting) > 1:
            seen_simultaneous = True
            assert g.undo_depth(s, seat) == 0
        if g.information_marks(s) != g.information_marks(before):
            assert g.undo_depth(s, seat) == 0
    assert seen_simultaneous


@pytest.mark.parametrize("name,seats", [("arknova", 2), ("arknova", 3), ("zoocracy", 3)])
def test_a_take_back_never_crosses_hidden_information(name, seats):
    """In random games: whenever a seat may take back n decisions, the last n decisions are its
    own, and the position n decisions ago had the same hidden-information marks and owed
    only that seat a decision (nothing was drawn, revealed or answered by others since)."""
    g = engine.get_game(name)
    rng = random.Random(f"{name}{seats}")
    s = g.setup(seats, {}, f"undo-{name}-{seats}")
    history: list[tuple[dict, int]] = []
    checked = 0
    for _ in range(600):
        waiting = sorted(g.waiting_for(s))
        if not waiting:
            break
        seat = rng.choice(waiting)
        history.append((s, seat))
        s, _ = g.apply(s, seat, rng.choice(g.legal_actions(s, seat)))
        for who in range(seats):
            n = g.undo_depth(s, who)
            if n:
                checked += 1
                last = history[-n:]
                assert all(x[1] == who for x in last)
                first_state = last[0][0]
                assert g.information_marks(first_state) == g.information_marks(s)
                assert g.waiting_for(first_state) == {who}
    assert checked > 20
