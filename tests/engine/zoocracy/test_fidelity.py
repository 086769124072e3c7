"""Rules fidelity (issue #16): Zoocracy's last deviations from the rules (seed 000, German,
quoted in our translation). Positions are stored and reloaded (dump -> edit -> load) as the
server would."""

from __future__ import annotations

from engine.zoocracy.parties import government_seats

from .positions import G, frame, kind, play, propose, vote_all, waiting
from .test_rules import at_event, at_progress, election


def reloaded(state: dict, edit=None) -> dict:
    data = G.dump(state)
    if edit:
        edit(data)
    return G.load(data)


def pass_until(state: dict, phase: str) -> dict:
    """Every party passes in the card windows until the window of ``phase`` is open."""
    while kind(state) == "window" and frame(state)["phase"] != phase:
        state, _ = play(state, waiting(state)[0], {"type": "pass"})
    assert kind(state) == "window" and frame(state)["phase"] == phase, kind(state)
    return state


# ------------------------------------------------------------------ 8 events and A21
def test_a_keeper_strike_also_stops_the_grassroots_movement():
    """Seed 000, phase 5: the event may rule that "political goals may not be realised in this
    round" — any goal, so also the one a card (A21) would advance."""
    s, _ = at_event("E4", hands={0: ["A21"]}, promises={"4": 2})
    s = pass_until(reloaded(s), "progress")
    assert s["food"][0] >= 6 and waiting(s) == [0]
    assert G.legal_actions(s, 0) == [{"type": "pass"}]
    s, _ = play(s, 0, {"type": "pass"})
    assert s["goals"] == [0, 0, 0]


def test_an_audit_raises_the_price_of_the_grassroots_movement():
    """Seed 000, phase 5: goals may be realised "only with an extra payment" — E5's 3 food
    come on top of A21's 6."""
    s, _ = at_event("E5", hands={0: ["A21"]})
    s = pass_until(reloaded(s), "progress")
    assert s["food"][0] == 18
    s, _ = play(s, 0, {"type": "card", "card": "A21"})
    assert s["goals"][0] == 1 and s["food"][0] == 18 - 6 - 3


def test_an_audit_grassroots_needs_the_extra_food_too():
    s, _ = at_event("E5", hands={0: ["A21"]})
    s = pass_until(reloaded(s), "no_confidence")
    s = reloaded(s, lambda d: d["food"].__setitem__(0, 8))     # enough for 6, not for 9
    s = pass_until(s, "progress")
    assert G.legal_actions(s, 0) == [{"type": "pass"}]


def test_a_filibuster_blocks_only_the_promised_goal_not_a_bought_one():
    """A20 blocks "this round's promised goal"; it is no event, so A21 still works."""
    s, _ = at_progress(promises={"4": 2}, hands={0: ["A20"], 1: ["A21"]})
    s, _ = play(s, 0, {"type": "card", "card": "A20"})
    s, _ = play(s, 1, {"type": "card", "card": "A21"})
    assert s["goals"] == [0, 1, 0]


# ------------------------------------------------------------------ 9 caretaker and A11
#: seats 5 / 4 / 3 (12 in all, majority 7): the government of parties 1 and 2 has exactly 7
CLOSE = {"lion_house": {0: 1}, "elephant_park": {1: 1}, "aquarium": {2: 1}}
CARETAKER = ([1, 2], 1, 2, 1)


def _fail_formation(s: dict) -> dict:
    while kind(s) == "proposal":
        p = waiting(s)[0]
        others = [x for x in range(s["seats"]) if x != p]
        s, _ = propose(s, p, [p] + others, p, p, p, p, others[0])
        s, _ = vote_all(s, {x: False for x in range(s["seats"])})
    return s


def _to_no_confidence(s: dict) -> dict:
    while kind(s) == "window":
        s, _ = play(s, waiting(s)[0], {"type": "pass"})
    return s


def test_a_caretaker_that_loses_its_majority_to_a_defector_faces_no_confidence():
    """Seed 000, phase 6: "if the government no longer has a majority because of played action
    cards, the opposition leader may make a new coalition proposal" — A11 in the parliament
    window is such a card, also for a caretaker government."""
    s, _ = election(board_=CLOSE, gov=CARETAKER, hands={0: ["A11"]})
    s = reloaded(s)
    assert s["parliament"] == [5, 4, 3] and kind(s) == "window"
    assert s["gov"]["had_majority"] is True                # 7 of 12 under the new parliament
    s, _ = play(s, 0, {"type": "card", "card": "A11"}, {"type": "target", "party": 1})
    assert s["parliament"] == [6, 3, 3] and s["majority"] == 7
    s = _fail_formation(s)
    assert s["gov"]["caretaker"] is True and government_seats(s) == 6
    s = _to_no_confidence(s)
    assert kind(s) == "nc_offer" and waiting(s) == [0] and s["opposition_leader"] == 0


def test_a_caretaker_without_a_majority_after_the_election_faces_none():
    """Losing the majority in the election itself is no card's doing: no vote of no
    confidence (the other half of the same sentence)."""
    s, _ = election(board_=CLOSE, gov=([1], 1, 1, 1), hands={0: ["A12"]})
    assert s["gov"]["had_majority"] is False               # 4 of 12
    s = _fail_formation(_to_no_confidence(s))
    assert s["gov"]["caretaker"] is True
    s = _to_no_confidence(s)
    assert kind(s) != "nc_offer" and s["phase"] in ("progress", "end_round", "president",
                                                    "campaign")
