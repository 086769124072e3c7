"""Rules of the Ark Nova-style game, each checked with exact numbers in a constructed position."""

from __future__ import annotations

import pytest

from engine.arknova import tables
from engine.arknova.decisions import top
from engine.arknova.scoring import result
from engine.core import IllegalAction

from .positions import G, building, drain, fresh, kind_now, plain_animal, play, set_cards

ORDER = ["animals", "build", "cards", "association", "sponsors"]


# ------------------------------------------------------------------ tables
@pytest.mark.parametrize("appeal,money", [(0, 5), (4, 9), (5, 10), (6, 10), (7, 11), (17, 16),
                                          (20, 17), (32, 21), (56, 27), (61, 28), (96, 35),
                                          (102, 36), (113, 37)])
def test_appeal_income_checked_points(appeal, money):
    assert tables.appeal_income(appeal) == money


@pytest.mark.parametrize("appeal,cp,vp", [(0, 0, -114), (100, 7, 0), (99, 7, -1), (113, 41, 112)])
def test_victory_points(appeal, cp, vp):
    assert tables.victory_points(appeal, cp) == vp


@pytest.mark.parametrize("rep,folders", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (6, 3), (7, 4),
                                         (9, 4), (10, 5), (12, 5), (13, 6), (15, 6)])
def test_reputation_range(rep, folders):
    assert tables.reputation_range(rep) == folders


# ------------------------------------------------------------------ setup
def test_setup_numbers():
    state = G.setup(4, {}, 3)
    for s, p in enumerate(state["players"]):
        assert p["money"] == 25 and p["appeal"] == s and p["reputation"] == 1
        assert p["cards"][0] == "animals" and sorted(p["cards"]) == sorted(ORDER)
        assert len(p["final"]) == 2 and p["workers"] == 1
    assert state["break_len"] == 15 and len(state["base_projects"]) == 4
    assert G.waiting_for(state) == {0, 1, 2, 3}          # everyone keeps 4 of 8 at once
    assert len(G.legal_actions(state, 2)) == 70           # C(8, 4)
    assert G.setup(2, {}, 3)["break_len"] == 9 and G.setup(3, {}, 3)["break_len"] == 12


def test_keep_is_simultaneous_and_private():
    state = G.setup(2, {}, 5)
    offer1 = G.view(state, 1)["private"]["decision"]["offer"]
    keep = G.legal_actions(state, 1)[5]["cards"]
    state, _ = play(state, 1, {"type": "keep", "cards": keep})
    assert G.waiting_for(state) == {0}
    assert state["players"][1]["hand"] == keep
    assert sorted(set(offer1) - set(keep)) == sorted(state["discard"])
    assert G.view(state, None)["public"]["decision"] == {"kind": "keep", "waiting": [0]}


# ------------------------------------------------------------------ action cards
def test_card_rotation_moves_used_card_to_slot_one():
    state = fresh()
    set_cards(state, 0, ["animals", "build", "cards", "association", "sponsors"])
    state, _ = play(state, 0, {"type": "action", "card": "association", "x": 0})
    while kind_now(state) != "turn":
        state, _ = play(state, 0, {"type": "done"})
    assert state["players"][0]["cards"] == ["association", "animals", "build", "cards", "sponsors"]


def test_x_token_action_and_cap():
    state = fresh()
    state, _ = play(state, 0, {"type": "x_token", "card": "sponsors"})
    p = state["players"][0]
    assert p["x"] == 1 and p["cards"][0] == "sponsors"
    state["players"][1]["x"] = 5
    assert not [a for a in G.legal_actions(state, 1) if a["type"] == "x_token"]
    with pytest.raises(IllegalAction):
        G.apply(state, 1, {"type": "x_token", "card": "build"})


def test_x_tokens_raise_strength_and_constriction_lowers_it():
    from engine.arknova.turn import strength_of

    state = fresh()
    p = state["players"][0]
    set_cards(state, 0, ORDER)
    assert strength_of(p, "cards") == 3
    assert strength_of(p, "cards", 2) == 5
    p["constriction"] = ["cards"]
    assert strength_of(p, "cards") == 1
    assert strength_of(p, "animals") == 1
    p["constriction"] = ["animals"]
    assert strength_of(p, "animals") == 0


# ------------------------------------------------------------------ build
def test_first_building_must_touch_the_edge_and_costs_2_per_space():
    state = fresh()
    set_cards(state, 0, ["animals", "cards", "association", "sponsors", "build"])
    state, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                    {"type": "building", "building": "enclosure_3"})
    from engine.arknova.zoo import zoo_map

    zmap = zoo_map(state["players"][0])
    places = [a for a in G.legal_actions(state, 0) if a["type"] == "place"]
    assert places and all(any(tuple(c) in zmap.edge for c in a["cells"]) for a in places)
    money = state["players"][0]["money"]
    state, ev = play(state, 0, places[0])
    p = state["players"][0]
    bonus = sum(e["data"]["gains"].get("money", 0) for e in ev
                if e["kind"] == "gain" and e["data"]["source"] == "map")
    assert p["money"] == money - 6 + bonus
    assert [b["type"] for b in p["buildings"]] == ["enclosure_3"]


def test_later_buildings_must_be_adjacent_and_avoid_water_rock():
    state = fresh()
    from engine.arknova.zoo import zoo_map

    zmap = zoo_map(state["players"][0])
    edge_land = sorted(c for c in zmap.edge if c not in zmap.water | zmap.rock | zmap.upgrade_only)
    building(state, 0, "enclosure_1", [edge_land[0]])
    set_cards(state, 0, ["animals", "cards", "association", "build", "sponsors"])
    state, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                    {"type": "building", "building": "kiosk"})
    cells = [tuple(a["cells"][0]) for a in G.legal_actions(state, 0) if a["type"] == "place"]
    assert cells and all(c in zmap.nbrs[edge_land[0]] for c in cells)
    assert not set(cells) & (zmap.water | zmap.rock | zmap.upgrade_only)


def test_upgrade_only_spaces_need_build_two():
    state = fresh()
    from engine.arknova.zoo import zoo_map

    zmap = zoo_map(state["players"][0])
    target = sorted(zmap.upgrade_only)[0]
    nb = [c for c in zmap.nbrs[target] if c not in zmap.water | zmap.rock | zmap.upgrade_only][0]
    building(state, 0, "enclosure_1", [nb])
    set_cards(state, 0, ["animals", "cards", "association", "sponsors", "build"])
    s1, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                 {"type": "building", "building": "kiosk"})
    assert [list(target)] not in [a.get("cells") for a in G.legal_actions(s1, 0)]
    state["players"][0]["upgraded"]["build"] = True
    s2, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                 {"type": "building", "building": "kiosk"})
    assert [list(target)] in [a.get("cells") for a in G.legal_actions(s2, 0)]


def test_build_one_allows_one_building_build_two_several_different():
    state = fresh()
    set_cards(state, 0, ["animals", "cards", "association", "sponsors", "build"])
    s1, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                 {"type": "building", "building": "kiosk"})
    s1, _ = play(s1, 0, [a for a in G.legal_actions(s1, 0) if a["type"] == "place"][0])
    assert kind_now(s1) == "turn"                         # side I: exactly one building
    state["players"][0]["upgraded"]["build"] = True
    s2, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                 {"type": "building", "building": "kiosk"})
    s2, _ = play(s2, 0, [a for a in G.legal_actions(s2, 0) if a["type"] == "place"][0])
    offered = {a["building"] for a in G.legal_actions(s2, 0) if a["type"] == "building"}
    assert "kiosk" not in offered and "enclosure_4" in offered and "enclosure_5" not in offered


def test_kiosk_distance_in_the_engine():
    state = fresh()
    building(state, 0, "kiosk", [(0, 5)])
    building(state, 0, "enclosure_2", [(0, 7), (0, 9)])
    set_cards(state, 0, ["animals", "cards", "association", "sponsors", "build"])
    state, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                    {"type": "building", "building": "kiosk"})
    from engine.arknova.hexes import distance

    cells = [tuple(a["cells"][0]) for a in G.legal_actions(state, 0) if a["type"] == "place"]
    assert cells and all(distance(c, (0, 5)) >= 3 for c in cells)


# ------------------------------------------------------------------ animals
def test_animal_needs_enclosure_and_partner_zoo_discount():
    state = fresh()
    cid = plain_animal(size=2)
    from engine.arknova.deck import card

    c = card(cid)
    p = state["players"][0]
    p["hand"] = [cid]
    p["money"] = 50
    set_cards(state, 0, ["cards", "association", "animals", "sponsors", "build"])
    s, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0})
    assert [a["type"] for a in G.legal_actions(s, 0)] == ["done"]     # no enclosure yet
    b = building(state, 0, "enclosure_2", [(0, 7), (0, 9)])
    if c["continent"]:
        p["partners"] = [c["continent"]]
    s, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0})
    assert {"type": "animal", "card": cid, "enclosure": b["id"]} in G.legal_actions(s, 0)
    s, _ = play(s, 0, {"type": "animal", "card": cid, "enclosure": b["id"]})
    q = s["players"][0]
    discount = 3 if c["continent"] else 0
    assert q["money"] == 50 - (c["cost"] - discount)
    assert q["appeal"] == 0 + c["appeal"]
    assert q["buildings"][-1]["animals"] == [cid]


def test_animals_table_and_side_two_reputation():
    from engine.arknova.tables import animals_allowed

    assert [animals_allowed(1, s) for s in range(1, 6)] == [0, 1, 1, 1, 2]
    assert [animals_allowed(2, s) for s in range(1, 6)] == [1, 1, 2, 2, 2]
    state = fresh()
    state["players"][0]["upgraded"]["animals"] = True
    set_cards(state, 0, ["cards", "association", "sponsors", "build", "animals"])
    s, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0})
    assert s["players"][0]["reputation"] == 2


# ------------------------------------------------------------------ cards
@pytest.mark.parametrize("side,strength,draw,discard", [
    (1, 1, 1, 1), (1, 2, 1, 0), (1, 3, 2, 1), (1, 4, 2, 0), (1, 5, 3, 1),
    (2, 1, 1, 0), (2, 2, 2, 1), (2, 3, 2, 0), (2, 4, 3, 1), (2, 5, 4, 1)])
def test_cards_action_tables_and_break_advance(side, strength, draw, discard):
    state = fresh()
    order = ["animals", "build", "association", "sponsors"]
    order.insert(strength - 1, "cards")
    set_cards(state, 0, order)
    state["players"][0]["upgraded"]["cards"] = side == 2
    hand = len(state["players"][0]["hand"])
    s, _ = play(state, 0, {"type": "action", "card": "cards", "x": 0})
    assert s["break_pos"] == 2
    for _ in range(draw):
        s, _ = play(s, 0, {"type": "draw"})
    for _ in range(discard):
        s, _ = play(s, 0, [a for a in G.legal_actions(s, 0) if a["type"] == "discard"][0])
    assert kind_now(s) == "turn" and s["active"] == 1
    assert len(s["players"][0]["hand"]) == hand + draw - discard


def test_cards_snap_at_strength_five_takes_any_display_card():
    state = fresh()
    set_cards(state, 0, ["animals", "build", "association", "sponsors", "cards"])
    s, _ = play(state, 0, {"type": "action", "card": "cards", "x": 0})
    sixth = s["display"][5]
    s, _ = play(s, 0, {"type": "snap", "folder": 6})
    assert sixth in s["players"][0]["hand"]


# ------------------------------------------------------------------ reputation
def test_reputation_cap_and_bonuses():
    from engine.arknova.gains import add_reputation

    state = fresh()
    p = state["players"][0]
    ev = []
    add_reputation(state, 0, 3, ev)                       # 1 -> 4
    assert p["reputation"] == 4
    add_reputation(state, 0, 1, ev)                       # 5: an upgrade decision
    assert top(state)["kind"] == "upgrade"
    add_reputation(state, 0, 10, ev)                      # capped at 9 without Cards II
    assert p["reputation"] == 9 and p["workers"] == 2     # 8: an extra worker
    p["upgraded"]["cards"] = True
    cp, x = p["conservation"], p["x"]
    add_reputation(state, 0, 3, ev)                       # 10 (card), 11 (+1 CP), 12 (+1 X)
    assert p["reputation"] == 12 and p["conservation"] == cp + 1 and p["x"] == x + 1
    p["reputation"] = 15
    appeal = p["appeal"]
    add_reputation(state, 0, 2, ev)
    assert p["reputation"] == 15 and p["appeal"] == appeal + 2


# ------------------------------------------------------------------ association
def test_worker_doubling_and_third_use():
    state = fresh()
    p = state["players"][0]
    p["workers"] = 4
    p["upgraded"]["association"] = True
    set_cards(state, 0, ["animals", "build", "cards", "sponsors", "association"])
    s, _ = play(state, 0, {"type": "action", "card": "association", "x": 0},
                {"type": "task", "task": "reputation"}, {"type": "done"})
    q = s["players"][0]
    assert q["placed"] == 1 and q["reputation"] == 3
    # next turn of seat 0: the same task needs two workers
    s["stack"][-1]["seat"] = 0
    set_cards(s, 0, ["animals", "build", "cards", "sponsors", "association"])
    s, _ = play(s, 0, {"type": "action", "card": "association", "x": 0},
                {"type": "task", "task": "reputation"})
    s = drain(s, 0)                                   # reputation 5 offers an upgrade
    assert s["players"][0]["placed"] == 3 and s["players"][0]["reputation"] == 5
    s["stack"][-1]["seat"] = 0
    s["players"][0]["workers"] = 4
    set_cards(s, 0, ["animals", "build", "cards", "sponsors", "association"])
    s, _ = play(s, 0, {"type": "action", "card": "association", "x": 0})
    assert {"type": "task", "task": "reputation"} not in G.legal_actions(s, 0)   # third use


def test_one_worker_cannot_pay_for_a_doubled_task():
    state = fresh()
    p = state["players"][0]
    p["workers"] = 2
    p["placed"] = 1
    p["task_uses"] = {"reputation": 1}
    set_cards(state, 0, ["animals", "build", "cards", "sponsors", "association"])
    s, _ = play(state, 0, {"type": "action", "card": "association", "x": 0})
    assert {"type": "task", "task": "reputation"} not in G.legal_actions(s, 0)


def test_partner_zoos_limit_and_donation_needs_a_task():
    state = fresh()
    p = state["players"][0]
    p["workers"] = 4
    p["partners"] = ["africa", "asia"]
    set_cards(state, 0, ["animals", "build", "cards", "sponsors", "association"])
    s, _ = play(state, 0, {"type": "action", "card": "association", "x": 0})
    acts = G.legal_actions(s, 0)
    assert not [a for a in acts if a.get("task") == "partner"]     # 3rd needs Association II
    assert {"type": "donate"} not in acts                          # side I never donates
    p["upgraded"]["association"] = True
    s, _ = play(state, 0, {"type": "action", "card": "association", "x": 0})
    acts = G.legal_actions(s, 0)
    assert {"type": "task", "task": "partner", "continent": "europe"} in acts
    assert {"type": "donate"} not in acts                          # no task yet
    s, _ = play(s, 0, {"type": "task", "task": "reputation"})
    assert {"type": "donate"} in G.legal_actions(s, 0)
    money, cp = s["players"][0]["money"], s["players"][0]["conservation"]
    s, _ = play(s, 0, {"type": "donate"})
    # 2 players: the first 3 donation spaces (2, 5, 7) are covered at setup
    assert s["players"][0]["money"] == money - 10 and s["players"][0]["conservation"] == cp + 1
    assert s["donations"] == 4


# ------------------------------------------------------------------ break
def test_break_at_nine_for_two_players_x_token_to_trigger():
    state = fresh()
    state["break_pos"] = 8
    p0, p1 = state["players"]
    p0["appeal"], p1["appeal"] = 7, 20
    p0["hand"] = p0["hand"][:3]
    p1["hand"] = p1["hand"][:3]
    money0, money1 = p0["money"], p1["money"]
    set_cards(state, 0, ["animals", "build", "association", "sponsors", "cards"])
    p0["upgraded"]["cards"] = True                         # draw 4 discard 1 -> hand 6
    s, _ = play(state, 0, {"type": "action", "card": "cards", "x": 0})
    for _ in range(4):
        s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, [a for a in G.legal_actions(s, 0) if a["type"] == "discard"][0])
    # break: seat 0 is over the hand limit (6 > 3) and discards 3, one at a time
    assert kind_now(s) == "hand_limit" and G.waiting_for(s) == {0}
    for _ in range(3):
        s, _ = play(s, 0, G.legal_actions(s, 0)[0])
    q0, q1 = s["players"]
    assert s["break_pos"] == 0 and s["breaks"] == 1
    assert q0["x"] == 1 and q1["x"] == 0
    assert q0["money"] == money0 + tables.appeal_income(7)
    assert q1["money"] == money1 + tables.appeal_income(20)
    assert len(q0["hand"]) == 3 and s["active"] == 1


def test_break_clears_tokens_and_workers_and_refreshes_display():
    state = fresh()
    state["break_pos"] = 9
    p0 = state["players"][0]
    p0["venom"], p0["constriction"], p0["placed"] = ["build"], ["cards"], 1
    folder3 = state["display"][2]
    s, _ = play(state, 0, {"type": "x_token", "card": "build"})
    while kind_now(s) != "turn":
        s, _ = play(s, min(G.waiting_for(s)), G.legal_actions(s, min(G.waiting_for(s)))[0])
    q = s["players"][0]
    assert q["venom"] == [] and q["constriction"] == [] and q["placed"] == 0
    assert s["display"][0] == folder3                  # folders 1-2 discarded, rest shifted


def test_kiosk_income():
    from engine.arknova.breaks import kiosk_income

    state = fresh()
    cid = plain_animal(size=1)
    building(state, 0, "kiosk", [(4, 5)])
    building(state, 0, "enclosure_1", [(4, 3)], animals=[cid])       # occupied: pays
    building(state, 0, "enclosure_1", [(4, 7)])                      # empty: no
    building(state, 0, "pavilion", [(3, 4)])                         # pays
    assert kiosk_income(state["players"][0]) == 2


# ------------------------------------------------------------------ interactions
def _animal_with(keyword):
    from .positions import cards_where

    found = cards_where(lambda c: c["type"] == "animal" and any(
        a["keyword"] == keyword for a in c.get("abilities") or ()))
    assert found, keyword
    return found[0]


def test_venom_skips_zoos_below_appeal_five_and_costs_two_per_turn():
    from engine.arknova.abilities import resolve

    state = fresh(seats=3)
    p0, p1, p2 = state["players"]
    p0["appeal"], p1["appeal"], p2["appeal"] = 2, 4, 9
    resolve(state, 0, "venom", None, _animal_with("venom"), [])
    assert p1["venom"] == [] and p2["venom"] == [p2["cards"][-1]]
    p2["money"] = 1
    from engine.arknova.turn import pay_venom

    pay_venom(state, 2, [])
    assert p2["money"] == 0 and p2["appeal"] == 8


def test_constriction_tokens_per_track_ahead():
    from engine.arknova.abilities import resolve

    state = fresh(seats=3)
    p0, p1, p2 = state["players"]
    p0["appeal"], p0["conservation"] = 6, 2
    p1["appeal"], p1["conservation"] = 10, 5       # ahead on both: two tokens
    p2["appeal"], p2["conservation"] = 5, 3        # ahead on conservation only: one
    resolve(state, 0, "constriction", None, _animal_with("constriction"), [])
    assert p1["constriction"] == p1["cards"][-1:-3:-1]
    assert p2["constriction"] == [p2["cards"][-1]]


def test_pilfering_is_a_decision_of_the_target():
    from engine.arknova.abilities import resolve

    state = fresh(seats=3)
    p0, p1, p2 = state["players"]
    p0["appeal"], p1["appeal"], p2["appeal"] = 1, 3, 8
    p2["conservation"] = 4
    resolve(state, 0, "pilfering", 2, _animal_with("pilfering"), [])
    assert G.waiting_for(state) == {2}             # seat 1 (appeal 3) is immune
    money0, money2 = p0["money"], p2["money"]
    state, _ = play(state, 2, {"type": "give", "what": "money"})
    assert state["players"][0]["money"] == money0 + 5
    assert state["players"][2]["money"] == money2 - 5


def test_hypnosis_uses_the_targets_card_at_its_slot_strength():
    from engine.arknova.abilities import resolve

    state = fresh()
    p0, p1 = state["players"]
    p1["appeal"] = 12
    set_cards(state, 1, ["sponsors", "cards", "build", "animals", "association"])
    resolve(state, 0, "hypnosis", 3, _animal_with("hypnosis"), [])
    acts = G.legal_actions(state, 0)
    assert [a["card"] for a in acts] == ["sponsors", "cards", "build"]
    money = p0["money"]
    state, _ = play(state, 0, {"type": "hypnotize", "card": "cards"},)
    assert state["players"][1]["cards"][0] == "cards"
    assert state["break_pos"] == 2 and kind_now(state) == "cards"
    assert state["players"][0]["money"] == money


# ------------------------------------------------------------------ end of game
def test_end_trigger_gives_others_one_more_turn():
    state = fresh(seats=3)
    state["players"][0]["appeal"] = 100
    state["players"][0]["conservation"] = 7
    s, ev = play(state, 0, {"type": "x_token", "card": "build"})
    assert s["end"]["remaining"] == [2] and s["active"] == 1
    s, _ = play(s, 1, {"type": "x_token", "card": "build"})
    assert s["active"] == 2
    s, _ = play(s, 2, {"type": "x_token", "card": "build"})
    while G.waiting_for(s):                                  # final-scoring discards
        seat = min(G.waiting_for(s))
        s, _ = play(s, seat, G.legal_actions(s, seat)[0])
    res = G.result(s)
    assert res is not None and res["ranking"][0] == 0


def test_tie_breaks_projects_then_shared():
    state = {"over": True, "final_details": [
        {"vp": 5, "projects": 2, "money": 1}, {"vp": 5, "projects": 3, "money": 0},
        {"vp": 5, "projects": 4, "money": 0}, {"vp": 7, "projects": 0, "money": 0}]}
    res = result(state)
    assert res["ranking"] == [3, 2, 1, 0]
    state["final_details"][1]["projects"] = 4       # money never breaks a tie
    res = result(state)
    assert res["details"]["places"][1] == res["details"]["places"][2] == 2


def test_conservation_ten_makes_everyone_discard_a_final_card():
    from engine.arknova.gains import add_conservation

    state = fresh()
    state["players"][0]["conservation"] = 9
    state["players"][0]["cp_bonuses"] = [2, 5, 8]
    add_conservation(state, 0, 1, [])
    assert top(state)["kind"] == "final_discard" and G.waiting_for(state) == {0, 1}
    s, _ = play(state, 1, G.legal_actions(state, 1)[0])
    assert G.waiting_for(s) == {0} and len(s["players"][1]["final"]) == 1


# ------------------------------------------------------------------ more mechanics
def _first(pred):
    from .positions import cards_where

    found = cards_where(pred)
    assert found
    return found[0]


def test_animal_moves_into_a_later_built_special_enclosure():
    cid = _first(lambda c: c["type"] == "animal" and (c.get("special") or {}).get(
        "enclosure") == "reptile_house" and not c["special"]["only"]
        and not any((c.get("requires") or {}).values()))
    from engine.arknova.deck import card

    c = card(cid)
    state = fresh()
    std = building(state, 0, "enclosure_5", [(0, 1), (0, 3), (0, 5), (1, 2), (1, 4)],
                   animals=[cid])
    building(state, 0, "kiosk", [(0, 9)])
    p = state["players"][0]
    p["upgraded"]["build"] = True
    p["money"] = 40
    set_cards(state, 0, ["animals", "cards", "association", "sponsors", "build"])
    state, _ = play(state, 0, {"type": "action", "card": "build", "x": 0},
                    {"type": "building", "building": "reptile_house"})
    state, _ = play(state, 0, [a for a in G.legal_actions(state, 0) if a["type"] == "place"][0])
    assert kind_now(state) == "relocate"
    state, _ = play(state, 0, {"type": "relocate", "card": cid})
    q = state["players"][0]
    house = [b for b in q["buildings"] if b["type"] == "reptile_house"][0]
    assert house["animals"] == [cid] and house["used"] == c["special"]["spaces"]
    assert [b for b in q["buildings"] if b["id"] == std["id"]][0]["animals"] == []


def test_release_project_returns_the_animal_and_its_appeal():
    pid = _first(lambda c: c["type"] == "project" and c["kind"] == "release"
                 and not c.get("base"))
    from engine.arknova.actions.projects import _matches
    from engine.arknova.deck import card

    project = card(pid)
    need = project["levels"][-1]["need"]
    cid = _first(lambda c: c["type"] == "animal" and c["size"] >= need and not c.get("special")
                 and _matches(c, {k: v for k, v in (project.get("filter") or {}).items() if v}))
    state = fresh()
    building(state, 0, "enclosure_5", [(0, 1), (0, 3), (0, 5), (1, 2), (1, 4)],
                 animals=[cid])
    p = state["players"][0]
    p["appeal"] = 20
    p["hand"] = [pid]
    set_cards(state, 0, ["animals", "cards", "build", "sponsors", "association"])
    state, _ = play(state, 0, {"type": "action", "card": "association", "x": 0})
    act = {"type": "support", "project": pid, "level": 2, "from": "hand", "release": cid}
    assert act in G.legal_actions(state, 0)
    state, _ = play(state, 0, act)
    q = state["players"][0]
    assert q["appeal"] == 20 - card(cid)["appeal"]
    assert q["animals"] == [] and q["buildings"][0]["animals"] == []
    assert state["project_row"] == [pid] and q["supported"] == [pid]
    assert state["cubes"][pid] == [{"seat": 0, "level": 2}]
    assert q["conservation"] >= project["levels"][2]["cp"]


def test_project_row_pushes_out_the_oldest_and_its_cubes():
    from engine.arknova.actions.projects import play_into_row

    state = fresh()                                   # 2 players: room for 2 projects
    zoo_projects = [c for c in sorted(state["deck"] + state["discard"]) if c.startswith("P")][:3]
    state["cubes"] = {zoo_projects[0]: [{"seat": 1, "level": 0}]}
    for pid in zoo_projects:
        play_into_row(state, pid, [])
    assert state["project_row"] == [zoo_projects[2], zoo_projects[1]]
    assert zoo_projects[0] not in state["cubes"] and zoo_projects[0] in state["discard"]


def test_sponsor_income_and_trigger():
    from engine.arknova.actions.animals import play_animal
    from engine.arknova.breaks import BreakRest
    from engine.arknova.deck import card

    trig = _first(lambda c: c["type"] == "sponsor" and any(
        t["on"] == "animal" and not any((t.get("filter") or {}).values())
        for t in c.get("triggers") or ()) or (c["type"] == "sponsor" and any(
            t["on"] == "animal" and (t.get("filter") or {}).get("size_min")
            for t in c.get("triggers") or ())))
    inc = _first(lambda c: c["type"] == "sponsor" and (c.get("income") or {}).get("money"))
    state = fresh()
    p = state["players"][0]
    p["sponsors"] = [trig, inc]
    t = [t for t in card(trig)["triggers"] if t["on"] == "animal"][0]
    size = (t.get("filter") or {}).get("size_min") or 1
    cid = _first(lambda c: c["type"] == "animal" and c["size"] >= size and not c.get("special")
                 and not c.get("abilities"))
    b = building(state, 0, "enclosure_5", [(0, 1), (0, 3), (0, 5), (1, 2), (1, 4)])
    p["hand"] = [cid]
    p["money"] = 100
    ev = []
    play_animal(state, 0, cid, b["id"], 0, ev)
    gains = [e["data"]["gains"] for e in ev if e["kind"] == "gain" and e["data"]["source"] == trig]
    assert gains == [{k: v for k, v in t["gain"].items() if v}]
    money = p["money"]
    BreakRest().run(state, {"seat": 0}, [])
    from engine.arknova.breaks import kiosk_income

    expected = tables.appeal_income(p["appeal"]) + kiosk_income(p) + card(inc)["income"]["money"]
    assert p["money"] - money >= expected - (card(trig).get("income") or {}).get("money", 0) * 0
    assert p["money"] - money == expected + ((card(trig).get("income") or {}).get("money") or 0)


def test_clever_resolves_after_the_card_has_moved():
    cid = _first(lambda c: c["type"] == "animal" and [a["keyword"] for a in c["abilities"]] ==
                 ["clever"] and not c.get("special") and not any((c.get("requires") or {}).values()))
    from engine.arknova.deck import card

    state = fresh()
    b = building(state, 0, "enclosure_5", [(0, 1), (0, 3), (0, 5), (1, 2), (1, 4)])
    p = state["players"][0]
    p["hand"] = [cid]
    p["money"] = 100
    set_cards(state, 0, ["cards", "association", "build", "sponsors", "animals"])
    state, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0},
                    {"type": "animal", "card": cid, "enclosure": b["id"]})
    if kind_now(state) == "animals":
        state, _ = play(state, 0, {"type": "done"})
    assert kind_now(state) == "clever"
    assert state["players"][0]["cards"][0] == "animals"        # already moved
    state, _ = play(state, 0, {"type": "move_card", "card": "sponsors"})
    assert state["players"][0]["cards"] == ["sponsors", "animals", "cards", "association", "build"]
    assert card(cid)["size"] <= 5


def test_end_triggered_in_a_break_gives_everyone_one_more_turn():
    state = fresh(seats=3)
    state["break_pos"] = 12
    p = state["players"][0]
    sid = _first(lambda c: c["type"] == "sponsor" and (c.get("income") or {}).get("appeal"))
    from engine.arknova.deck import card

    # one short of the end after the turn; the sponsor's appeal income at the break reaches it
    p["appeal"], p["conservation"] = 100 - card(sid)["income"]["appeal"], 7
    p["sponsors"] = [sid]
    for q in state["players"]:
        q["hand"] = q["hand"][:3]
    s, _ = play(state, 0, {"type": "x_token", "card": "build"})
    assert s["end"] is not None and s["end"]["remaining"] == [2, 0]
    assert s["active"] == 1                        # 1, then 2, then 0 again, then scoring
