"""The solo game (1 seat; docs/rules/arknova.md, "Solo"): exact outcomes in set-up positions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine.arknova import deck, solo
from engine.arknova.abilities import resolve
from engine.arknova.actions.association import donation_cost
from engine.arknova.actions.projects import play_into_row
from engine.arknova.decisions import top
from engine.arknova.tables import T
from engine.core import BadSetup
from tests.engine.contract import play_random

from .positions import G, building, drain, kind_now, play, set_cards

ENCLOSURE_5 = [(0, 1), (0, 3), (0, 5), (1, 2), (1, 4)]


def solo_game(seed: int = 1, **options) -> dict:
    """A solo game after the opening keep (the seat to move, its hand as dealt)."""
    state = G.setup(1, {"map": "plains", **options}, seed)
    state, _ = G.apply(state, 0, G.legal_actions(state, 0)[0])
    assert kind_now(state) == "turn"
    return state


def quiet_turn(state: dict) -> dict:
    """One turn that changes nothing but the action cards: an X token, or (at the cap) the
    Sponsors break action; then every follow-up answered (a break's discards too)."""
    p = state["players"][0]
    if p["x"] < T.max_x:
        state, _ = play(state, 0, {"type": "x_token", "card": p["cards"][0]})
    else:
        state, _ = play(state, 0, {"type": "action", "card": "sponsors", "x": 0})
        if kind_now(state) == "sponsors":
            state, _ = play(state, 0, {"type": "done"})
    while G.waiting_for(state) and kind_now(state) != "turn":
        legal = G.legal_actions(state, 0)
        state, _ = G.apply(state, 0, {"type": "done"} if {"type": "done"} in legal else legal[0])
    return state


# --------------------------------------------------------------------------- setup
def test_setup_starts_at_20_appeal_with_nothing_blocked():
    state = solo_game()
    p = state["players"][0]
    assert p["appeal"] == 20 and p["conservation"] == 0
    assert state["solo"] == {"appeal": 20, "covered": 0}
    assert (state["break_pos"], state["break_len"]) == (0, 7)
    assert state["blocked"] == {} and state["donations"] == 0
    assert len(state["base_projects"]) == 3
    assert G.view(state, 0)["public"]["solo"] == {"appeal": 20, "covered": 0,
                                                  "turns_left": 27, "breaks": 6}


def test_the_starting_appeal_is_a_validated_option():
    desc = {o["name"]: o for o in G.describe()["options"]}["solo_appeal"]
    assert desc["default"] == 20 and desc["choices"] == T.solo.appeal_choices
    assert G.describe()["seats"] == {"min": 1, "max": 4}
    assert solo_game(solo_appeal=15)["players"][0]["appeal"] == 15
    for bad in (17, "20", 20.0, None):
        with pytest.raises(BadSetup) as err:
            G.setup(1, {"solo_appeal": bad}, 1)
        assert err.value.code == "bad_options"
    # multiplayer games ignore it
    two = G.setup(2, {"solo_appeal": 30}, 1)
    assert [p["appeal"] for p in two["players"]] == [0, 1] and two["solo"] is None


# --------------------------------------------------------------------------- the solo tile
def test_breaks_after_7_6_5_4_3_2_turns_and_the_end_after_27():
    state = solo_game(seed=3)
    break_after = []
    for turn in range(1, 40):
        before = state["breaks"]
        state = quiet_turn(state)
        if state["breaks"] > before:
            break_after.append(turn)
        if state["over"]:
            break
    assert break_after == [7, 13, 18, 22, 25, 27]
    assert turn == 27 == solo.total_turns() and state["turn"] == 27
    assert state["over"] and state["breaks"] == 6 and state["donations"] == 6
    res = G.result(state)
    vp = res["scores"][0]
    assert res["ranking"] == [0]
    assert res["details"]["solo"] == {"score": vp, "goal": 0, "reached": vp >= 0,
                                      "start_appeal": 20, "turns": 27, "breaks": 6}


def test_one_token_moves_per_turn_and_actions_do_not_advance_the_break():
    state = solo_game()
    p = state["players"][0]
    set_cards(state, 0, ["animals", "build", "association", "sponsors", "cards"])
    money = p["money"]
    state, ev = play(state, 0, {"type": "action", "card": "cards", "x": 0})
    state = drain(state, 0)
    assert state["break_pos"] == 1  # the token of the turn, not the Cards action's 2
    assert not [e for e in ev if e["kind"] == "break_advanced"]
    # the Sponsors break action: no break token moves, its money is still paid
    state, ev = play(state, 0, {"type": "action", "card": "sponsors", "x": 0},
                     {"type": "break_action"})
    p = state["players"][0]
    assert state["break_pos"] == 2 and p["money"] == money + 5
    assert not [e for e in ev if e["kind"] == "break_advanced"]
    # an ability that jumps the break token: the money only
    ev = []
    resolve(state, 0, "jumping", 3, "A001", ev)
    assert state["break_pos"] == 2 and state["players"][0]["money"] == money + 8


def test_a_break_gives_no_x_token_and_covers_the_lowest_donation_space():
    state = solo_game()
    state["break_pos"] = 6  # the last token of the first row moves this turn
    set_cards(state, 0, ["animals", "build", "association", "cards", "sponsors"])
    p = state["players"][0]
    p["hand"] = []  # no discards at the break
    x, money = p["x"], p["money"]
    assert donation_cost(state) == T.association.donations[0]
    state, ev = play(state, 0, {"type": "action", "card": "sponsors", "x": 0},
                     {"type": "break_action"})
    p = state["players"][0]
    kinds = [e["kind"] for e in ev]
    assert "break" in kinds and "solo_covered" in kinds
    assert state["breaks"] == 1 and p["x"] == x            # no X token for the break
    assert (state["break_pos"], state["break_len"]) == (0, 6)
    assert state["donations"] == 1 and state["solo"]["covered"] == 1
    assert donation_cost(state) == T.association.donations[1]  # 2 is covered: 5 is next
    income = next(e for e in ev if e["kind"] == "income")["data"]["money"]
    assert p["money"] == money + 5 + income


def test_donation_spaces_fill_from_the_lowest_and_then_stay_at_the_last_price():
    state = solo_game()
    costs = []
    for _ in range(6):
        ev = []
        state["break_pos"] = state["break_len"]
        solo.after_break(state, ev)
        if state["end"] is None:
            state["break_pos"] = 0
        costs.append(donation_cost(state))
    d = T.association.donations
    assert costs == [d[1], d[2], d[3], T.association.donation_after,
                     T.association.donation_after, T.association.donation_after]
    assert state["end"] == {"trigger": None, "remaining": []}


def test_at_most_two_projects_lie_in_the_row():
    state = solo_game()
    projects = sorted(deck.all_cards()[c]["id"] for c in deck.all_cards()
                      if deck.kind(c) == "project" and not deck.card(c)["base"])[:3]
    ev = []
    for pid in projects:
        play_into_row(state, pid, ev)
    assert state["project_row"] == [projects[2], projects[1]]
    assert projects[0] in state["discard"]


def test_reaching_zero_does_not_end_a_solo_game():
    state = solo_game()
    state["players"][0]["appeal"] = 120
    state = quiet_turn(state)
    assert state["end"] is None and kind_now(state) == "turn"


# --------------------------------------------------------------------------- solo effects
def test_interacting_animals_have_solo_effects_that_replace_the_interaction():
    interacting = [c for c in deck.all_cards().values() if c["type"] == "animal"
                   and any(a["keyword"] in ("venom", "constriction", "hypnosis", "pilfering")
                           for a in c["abilities"])]
    assert len(interacting) == 13 and all(c["solo"] for c in interacting)
    cobra = deck.card("A043")
    multi = {"solo": None}
    assert solo.abilities_of(multi, cobra) == cobra["abilities"]
    assert solo.abilities_of(solo_game(), cobra) == [{"keyword": "crowd", "value": 2}]
    catalog = {c["id"]: c for c in G.catalog()["cards"]["animals"]}
    assert catalog["A043"]["solo_texts"] == ["Solo: gain 2 appeal."]
    assert catalog["A074"]["solo_texts"] == ["Solo: gain 10 money."]


def test_king_cobra_draws_a_crowd_instead_of_venom():
    state = solo_game()
    b = building(state, 0, "enclosure_5", ENCLOSURE_5)
    p = state["players"][0]
    p["hand"], p["money"], p["partners"] = ["A043"], 50, []
    set_cards(state, 0, ["cards", "association", "build", "sponsors", "animals"])
    state, ev = play(state, 0, {"type": "action", "card": "animals", "x": 0},
                     {"type": "animal", "card": "A043", "enclosure": b["id"]})
    state = drain(state, 0)
    p = state["players"][0]
    assert p["appeal"] == 20 + 4 + 2  # the card's 4, the crowd's 2
    assert p["venom"] == [] and not [e for e in ev if e["kind"] == "venom"]
    assert {"kind": "ability", "data": {"seat": 0, "card": "A043", "keyword": "crowd",
                                        "value": 2}} in ev


def test_scavenge_gains_money():
    state = solo_game()
    money = state["players"][0]["money"]
    resolve(state, 0, "scavenge", 10, "A074", [])
    assert state["players"][0]["money"] == money + 10


def test_anaconda_grip_moves_a_card_to_slot_five_after_the_action():
    state = solo_game()
    b = building(state, 0, "enclosure_5", ENCLOSURE_5)
    p = state["players"][0]
    p["hand"], p["money"] = ["A069"], 50
    set_cards(state, 0, ["cards", "association", "animals", "build", "sponsors"])
    # the anaconda needs water next to its enclosure: the constructed enclosure is checked
    legal = None
    state, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0})
    legal = G.legal_actions(state, 0)
    if {"type": "animal", "card": "A069", "enclosure": b["id"]} not in legal:
        pytest.skip("the constructed enclosure touches no water on this map")
    state, _ = play(state, 0, {"type": "animal", "card": "A069", "enclosure": b["id"]})
    assert kind_now(state) == "grip"  # after the action: the Animals card is in slot 1
    assert state["players"][0]["cards"] == ["animals", "cards", "association", "build",
                                            "sponsors"]
    assert G.legal_actions(state, 0) == [{"type": "move_card", "card": c} for c in
                                         ["animals", "cards", "association", "build"]]
    state, ev = play(state, 0, {"type": "move_card", "card": "cards"})
    assert state["players"][0]["cards"] == ["animals", "association", "build", "sponsors",
                                            "cards"]
    assert [e for e in ev if e["kind"] == "gripped"]


def test_grip_resolved_outside_an_action():
    state = solo_game()
    set_cards(state, 0, ["cards", "association", "build", "sponsors", "animals"])
    resolve(state, 0, "grip", None, "A071", [])
    assert top(state)["kind"] == "grip"
    state, _ = play(state, 0, {"type": "move_card", "card": "association"})
    assert state["players"][0]["cards"] == ["cards", "build", "sponsors", "animals",
                                            "association"]


def test_mimic_carries_out_an_own_action_card_at_its_slot_strength():
    state = solo_game()
    set_cards(state, 0, ["cards", "sponsors", "association", "build", "animals"])
    money = state["players"][0]["money"]
    resolve(state, 0, "mimic", 3, "A030", [])
    assert top(state)["kind"] == "mimic"
    assert G.legal_actions(state, 0) == [
        {"type": "hypnotize", "card": "cards"}, {"type": "hypnotize", "card": "sponsors"},
        {"type": "hypnotize", "card": "association"}, {"type": "done"}]
    state, ev = play(state, 0, {"type": "hypnotize", "card": "sponsors"})
    assert {"kind": "mimic", "data": {"seat": 0, "card": "sponsors", "strength": 2}} in ev
    assert state["players"][0]["cards"][0] == "sponsors"
    state, _ = play(state, 0, {"type": "break_action"})  # strength 2: 2 money
    assert state["players"][0]["money"] == money + 2


def test_mimic_after_an_animal_skips_the_card_just_used():
    state = solo_game()
    b = building(state, 0, "enclosure_5", ENCLOSURE_5)
    p = state["players"][0]
    p["hand"], p["money"] = ["A030"], 50
    set_cards(state, 0, ["cards", "association", "animals", "build", "sponsors"])
    state, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0},
                    {"type": "animal", "card": "A030", "enclosure": b["id"]})
    assert kind_now(state) == "mimic"
    offered = [a.get("card") for a in G.legal_actions(state, 0)]
    assert offered == ["cards", "association", None]  # slots 2 and 3; not the Animals card


# --------------------------------------------------------------------------- whole games
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**31),
       appeal=st.sampled_from(T.solo.appeal_choices))
def test_random_solo_games_end_after_27_turns_and_replay_exactly(seed, appeal):
    options = {"solo_appeal": appeal}
    state, log = play_random(G, 1, seed, options=options, check_every=5)
    assert state["over"] and state["turn"] == 27 and state["breaks"] == 6
    res = G.result(state)
    assert res["details"]["solo"]["start_appeal"] == appeal
    assert res["details"]["solo"]["reached"] == (res["scores"][0] >= 0)
    again = engine.replay("arknova", 1, options, seed, log)
    assert G.state_hash(again) == G.state_hash(state)


def test_a_state_stored_before_solo_games_loads_as_a_new_setup_would_be():
    state = G.setup(2, {"map": "plains"}, 4)
    old = G.dump(state)
    del old["solo"], old["options"]["solo_appeal"]
    assert G.state_hash(G.load(old)) == G.state_hash(state)
