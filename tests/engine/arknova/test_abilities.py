"""Every ability keyword, each with its exact effect in a constructed position."""

from __future__ import annotations

import pytest

from engine.arknova.abilities import REGISTRY, resolve
from engine.arknova.keywords import ABILITY_KEYWORDS, SOLO_KEYWORDS

from .positions import G, building, fresh, kind_now, play

TESTED = set()


def _mark(keyword):
    TESTED.add(keyword)
    return keyword


def run(state, keyword, value, seat=0):
    ev = []
    resolve(state, seat, _mark(keyword), value, "A001", ev)
    return ev


def test_every_keyword_is_registered_and_known():
    # the solo effects resolve through the same registry (tests/engine/arknova/test_solo.py)
    assert set(REGISTRY) == set(ABILITY_KEYWORDS) | set(SOLO_KEYWORDS)


def test_money_reputation_inventive_hire():
    state = fresh()
    p = state["players"][0]
    money, rep, x, workers = p["money"], p["reputation"], p["x"], p["workers"]
    run(state, "money", 4)
    run(state, "reputation", 2)
    run(state, "inventive", 2)
    run(state, "hire", 1)
    assert (p["money"], p["reputation"], p["x"], p["workers"]) == (
        money + 4, rep + 2, x + 2, workers + 1)


def test_sprint_draws_from_the_deck():
    state = fresh()
    p = state["players"][0]
    hand, deck_top = list(p["hand"]), state["deck"][-3:]
    run(state, "sprint", 3)
    assert p["hand"] == hand + list(reversed(deck_top))


def test_jumping_advances_the_break_and_pays():
    state = fresh()
    money = state["players"][0]["money"]
    run(state, "jumping", 3)
    assert state["break_pos"] == 3 and state["players"][0]["money"] == money + 3


def test_pack_and_iconic_count_icons_with_caps():
    from engine.arknova.zoo import icons

    state = fresh()
    p = state["players"][0]
    asian = [cid for cid, c in sorted(__import__("engine.arknova.deck", fromlist=["x"])
                                       .all_cards().items())
             if c["type"] == "animal" and c.get("continent") == "asia"][:1]
    p["animals"] = [{"card": c, "building": None} for c in asian]
    p["partners"] = ["asia", "africa"]                     # a partner zoo is an icon too
    appeal = p["appeal"]
    run(state, "iconic", "asia")
    assert p["appeal"] == appeal + icons(p)["asia"] == appeal + 2
    predators = [cid for cid, c in sorted(__import__("engine.arknova.deck", fromlist=["x"])
                                           .all_cards().items())
                 if c["type"] == "animal" and c["classes"] == ["predator"]][:7]
    p["animals"] = [{"card": c, "building": None} for c in predators]
    appeal = p["appeal"]
    run(state, "pack", "predator")
    assert p["appeal"] == appeal + 5                       # 7 predator icons, at most 5


def test_upgrade_offers_every_side_one_card():
    state = fresh()
    state["players"][0]["upgraded"]["build"] = True
    run(state, "upgrade", None)
    assert kind_now(state) == "upgrade"
    assert [a["card"] for a in G.legal_actions(state, 0)] == [
        "animals", "cards", "association", "sponsors"]
    state, _ = play(state, 0, {"type": "upgrade", "card": "cards"})
    assert state["players"][0]["upgraded"]["cards"]


def test_hunter_keeps_one_animal_of_the_revealed_cards():
    from engine.arknova.deck import kind

    state = fresh()
    revealed = list(reversed(state["deck"][-5:]))
    hand = list(state["players"][0]["hand"])
    run(state, "hunter", 5)
    animals = [c for c in revealed if kind(c) == "animal"]
    if not animals:
        assert G.legal_actions(state, 0) == [{"type": "done"}]
        return
    assert {a["card"] for a in G.legal_actions(state, 0)} == set(animals)
    state, _ = play(state, 0, {"type": "keep_card", "card": animals[0]})
    assert state["players"][0]["hand"] == hand + [animals[0]]
    assert sorted(state["discard"][-4:]) == sorted(c for c in revealed if c != animals[0])


def test_perception_keeps_two_of_n():
    state = fresh()
    looked = list(reversed(state["deck"][-4:]))
    hand = list(state["players"][0]["hand"])
    run(state, "perception", 4)
    state, _ = play(state, 0, {"type": "keep_card", "card": looked[1]})
    state, _ = play(state, 0, {"type": "keep_card", "card": looked[3]})
    assert kind_now(state) == "turn"
    assert state["players"][0]["hand"] == hand + [looked[1], looked[3]]
    assert sorted(state["discard"][-2:]) == sorted([looked[0], looked[2]])


def test_scoring_draws_final_cards_and_keeps_one():
    state = fresh()
    drawn = list(reversed(state["final_deck"][-2:]))
    run(state, "scoring", 2)
    state, _ = play(state, 0, {"type": "keep_card", "card": drawn[0]})
    assert state["players"][0]["final"][-1] == drawn[0] and len(state["players"][0]["final"]) == 3
    assert state["final_deck"][0] == drawn[1]


def test_resistance_takes_an_unused_base_project_into_hand():
    state = fresh()
    pile = list(state["base_pile"])
    run(state, "resistance", None)
    state, _ = play(state, 0, {"type": "keep_card", "card": pile[-1]})
    assert pile[-1] in state["players"][0]["hand"] and pile[-1] not in state["base_pile"]


def test_snapping_takes_display_cards_from_any_folder():
    state = fresh()
    sixth, fifth = state["display"][5], state["display"][4]
    run(state, "snapping", 2)
    state, _ = play(state, 0, {"type": "snap", "folder": 6}, {"type": "snap", "folder": 5})
    assert state["players"][0]["hand"][-2:] == [sixth, fifth]


def test_digging_replaces_display_and_hand_cards():
    state = fresh()
    old = state["display"][2]
    nxt = state["deck"][-1]
    run(state, "digging", 2)
    state, _ = play(state, 0, {"type": "dig", "folder": 3})
    assert state["display"][2] == nxt and state["discard"][-1] == old
    card = state["players"][0]["hand"][0]
    state, _ = play(state, 0, {"type": "dig", "card": card})
    assert card not in state["players"][0]["hand"] and state["discard"][-1] == card
    assert len(state["players"][0]["hand"]) == 4 and kind_now(state) == "turn"


@pytest.mark.parametrize("keyword,key,each", [("sell", "money", 3), ("pouch", "appeal", 2)])
def test_sell_and_pouch(keyword, key, each):
    state = fresh()
    p = state["players"][0]
    before = p[key]
    value = {"max": 2, key: each}
    run(state, keyword, value)
    hand = list(p["hand"])
    state, _ = play(state, 0, {"type": keyword, "card": hand[0]}, {"type": keyword,
                                                                     "card": hand[1]})
    q = state["players"][0]
    assert q[key] == before + 2 * each and len(q["hand"]) == len(hand) - 2
    if keyword == "pouch":
        assert q["tucked"] == {"A001": 2}


@pytest.mark.parametrize("keyword", ["kiosk", "pavilion"])
def test_free_kiosk_and_pavilion(keyword):
    state = fresh()
    building(state, 0, "enclosure_1", [(0, 5)])
    p = state["players"][0]
    money, appeal = p["money"], p["appeal"]
    run(state, keyword, None)
    place = [a for a in G.legal_actions(state, 0) if a["type"] == "place"][0]
    state, ev = play(state, 0, place)
    q = state["players"][0]
    bonus = sum(e["data"]["gains"].get("money", 0) for e in ev
                if e["kind"] == "gain" and e["data"]["source"] == "map")
    assert q["buildings"][-1]["type"] == keyword and q["money"] == money + bonus
    assert q["appeal"] >= appeal + (1 if keyword == "pavilion" else 0)


def test_flock_lives_beside_a_large_herbivore_enclosure():
    from engine.arknova.deck import all_cards
    from engine.arknova.zoo import homes

    _mark("flock")
    cards = all_cards()
    flock = next(c for c in cards.values() if c["type"] == "animal" and any(
        a["keyword"] == "flock" for a in c["abilities"]))
    herbivore = next(cid for cid, c in sorted(cards.items()) if c["type"] == "animal"
                     and "herbivore" in c["classes"] and c["size"] <= 4 and not c["special"])
    state = fresh()
    p = state["players"][0]
    assert None not in homes(p, flock)
    building(state, 0, "enclosure_4", [(0, 1), (1, 0), (1, 2), (2, 1)], animals=[herbivore])
    assert None in homes(p, flock)


def test_partner_and_university_for_free():
    state = fresh()
    p = state["players"][0]
    p["partners"] = ["africa"]
    run(state, "partner", None)
    state, _ = play(state, 0, {"type": "partner", "continent": "asia"})
    assert state["players"][0]["workers"] == 2            # 2nd partner slot bonus: a worker
    run(state, "partner", None)                           # a third, even without Association II
    state, _ = play(state, 0, {"type": "partner", "continent": "europe"})
    run(state, "university", None)
    state, _ = play(state, 0, {"type": "university", "university": "laboratory"})
    q = state["players"][0]
    assert q["partners"] == ["africa", "asia", "europe"] and q["universities"] == ["laboratory"]
    from engine.arknova.zoo import icons

    assert icons(q)["science"] == 2 and icons(q)["europe"] == 1    # a partner zoo: its icon
    assert state["supply"]["partners"]["europe"] == 0                # taken from the board
    assert state["supply"]["universities"]["laboratory"] == 0


def test_boost_takes_another_action_after_the_action():
    state = fresh()
    state["current"] = {"seat": 0, "card": "animals", "after": []}
    run(state, "boost", {"action": "cards", "strength": 2})
    assert state["current"]["after"] == [{"kind": "boost", "seat": 0, "action": "cards",
                                          "strength": 2}]
    state["current"] = None
    run(state, "boost", {"action": "cards", "strength": 2})   # outside an action: at once
    from engine.arknova.decisions import advance

    advance(state, [])
    assert kind_now(state) == "cards" and state["break_pos"] == 2


def test_clever_is_queued_after_the_action():
    state = fresh()
    state["current"] = {"seat": 0, "card": "animals", "after": []}
    run(state, "clever", None)
    assert state["current"]["after"] == [{"kind": "clever", "seat": 0}]


def test_interactions_are_tested_in_test_rules():
    # venom, constriction, hypnosis and pilfering have exact tests in test_rules.py
    for k in ("venom", "constriction", "hypnosis", "pilfering"):
        TESTED.add(k)


def test_every_keyword_has_a_test_here():
    missing = set(ABILITY_KEYWORDS) - TESTED
    assert not missing, f"keywords without an effect test: {sorted(missing)}"
