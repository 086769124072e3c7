"""What a zoo's association tiles give (issue #32): partner zoos and universities.

Primary source: the published rulebook's association section. A partner zoo counts as one icon
of its continent wherever continent icons are counted, besides the separate "partner zoo of
continent X" requirement and the animal discount; of the three universities, one gives
+1 reputation and hand limit 5 (no science icon), one a science icon and +2 reputation, one
two science icons. Positions are built with dump -> edit -> load, as a stored game reloads.
"""

from __future__ import annotations

import pytest

from engine.arknova.scoring import count
from engine.arknova.tables import T
from engine.arknova.zoo import hand_limit, icons, meets, placements

from .positions import G, assoc_at, building, edited, fresh, kind_now, plain_animal, play

FIVE_CONTINENTS = "P011"    # project "distinct continents": levels need 5 / 4 / 3 (cp 5 / 4 / 2)
LION = "A118"               # animal, size 5, cost 22, Africa; needs 2 Africa icons
TORTOISE = "A042"           # animal, size 2, cost 11, no continent; needs 1 science icon


def _to_hand(d: dict, seat: int, cid: str) -> None:
    """Move card ``cid`` into the seat's hand from wherever the dumped state holds it."""
    if cid in d["deck"]:
        d["deck"].remove(cid)
    if cid in d["display"]:
        d["display"][d["display"].index(cid)] = d["deck"].pop()
    for q in d["players"]:
        if cid in q["hand"]:
            q["hand"].remove(cid)
    d["players"][seat]["hand"].append(cid)


# ------------------------------------------------------------------ partner zoos
def test_partner_zoos_are_icons_of_their_continent():
    state = edited(fresh(), lambda d: d["players"][0].update(partners=["africa", "asia"]))
    p = state["players"][0]
    assert icons(p)["africa"] == 1 and icons(p)["asia"] == 1 and icons(p)["europe"] == 0
    assert G.view(state, None)["public"]["players"][0]["icons"] == {"africa": 1, "asia": 1}
    # the separate partner-zoo requirement is unchanged
    assert meets(p, {"partner": "africa"}) and not meets(p, {"partner": "europe"})
    # final scoring: "continents" (Around the World, the Cartographers' Guild) and "icon:X"
    assert count(p, "continents") == 2 and count(p, "icon:asia") == 1
    assert count(p, "partners") == 2


def test_three_partner_zoos_and_no_animals_support_a_three_continents_project():
    def edit(d):
        d["players"][0].update(partners=["africa", "asia", "europe"], animals=[])
        _to_hand(d, 0, FIVE_CONTINENTS)

    state = edited(fresh(), edit)
    assert state["players"][0]["cards"][-1] == "association"           # strength 5
    s, _ = play(state, 0, {"type": "action", "card": "association", "x": 0})
    offered = [a for a in G.legal_actions(s, 0) if a["type"] == "support"
               and a["project"] == FIVE_CONTINENTS]
    assert offered == [{"type": "support", "project": FIVE_CONTINENTS, "level": 2,
                        "from": "hand"}]                               # 3 continents, not 4
    s, _ = play(s, 0, offered[0])
    q = s["players"][0]
    assert q["conservation"] == 2 and q["supported"] == [FIVE_CONTINENTS]
    assert s["cubes"][FIVE_CONTINENTS] == [{"seat": 0, "level": 2}]


def test_a_partner_zoo_is_the_only_australia_icon_a_requirement_needs():
    state = edited(fresh(), lambda d: d["players"][0].update(partners=["australia"]))
    p = state["players"][0]
    # an animal card's requirement "1 Australia icon", as the card data stores it
    needs = {"water": None, "rock": None, "icons": {"australia": 1}, "partner": None,
             "science": None, "reputation": None}
    assert not p["animals"] and not p["sponsors"]
    assert meets(p, needs)
    assert not meets(p, {**needs, "icons": {"australia": 2}})
    assert not meets(edited(state, lambda d: d["players"][0].update(partners=["asia"]))
                     ["players"][0], needs)


def test_a_partner_zoo_completes_the_lions_two_africa_icons_and_still_gives_the_discount():
    africa = plain_animal(continent="africa")

    def edit(d, partners):
        p = d["players"][0]
        p.update(partners=partners, money=30, cards=["cards", "animals", "association",
                                                     "build", "sponsors"])
        p["animals"] = [{"card": africa, "building": None}]
        cells = placements(state0["players"][0], "enclosure_5", False)[0]
        building(d, 0, "enclosure_5", cells)
        _to_hand(d, 0, LION)

    state0 = fresh()
    without = edited(state0, lambda d: edit(d, []))
    s, _ = play(without, 0, {"type": "action", "card": "animals", "x": 0})
    assert [a for a in G.legal_actions(s, 0) if a.get("card") == LION] == []   # 1 Africa icon

    state = edited(state0, lambda d: edit(d, ["africa"]))
    assert icons(state["players"][0])["africa"] == 2
    s, _ = play(state, 0, {"type": "action", "card": "animals", "x": 0})
    lion = [a for a in G.legal_actions(s, 0) if a.get("card") == LION]
    assert len(lion) == 1
    s, _ = play(s, 0, lion[0])
    q = s["players"][0]
    assert q["money"] == 30 - (22 - T.association.partner_discount) == 11
    assert LION in [a["card"] for a in q["animals"]]


# ------------------------------------------------------------------ universities
@pytest.mark.parametrize("uni,reputation,science,limit", [
    ("research", 2, 1, 3), ("library", 1, 0, 5), ("laboratory", 0, 2, 3)])
def test_each_university_gives_its_reputation_science_and_hand_limit(uni, reputation, science,
                                                                     limit):
    state = edited(fresh(), lambda d: d["players"][0].update(cards=assoc_at(4)))
    before = state["players"][0]["reputation"]
    assert before == 1
    s, _ = play(state, 0, {"type": "action", "card": "association", "x": 0},
                {"type": "task", "task": "university", "university": uni})
    q = s["players"][0]
    assert q["universities"] == [uni]
    assert q["reputation"] == before + reputation
    assert icons(q)["science"] == science
    assert hand_limit(q) == limit


def test_the_library_alone_does_not_meet_a_science_requirement():
    def edit(d, unis):
        p = d["players"][0]
        p.update(universities=unis, money=30,
                 cards=["cards", "animals", "association", "build", "sponsors"])
        building(d, 0, "enclosure_2", placements(state0["players"][0], "enclosure_2", False)[0])
        _to_hand(d, 0, TORTOISE)

    state0 = fresh()
    library = edited(state0, lambda d: edit(d, ["library"]))
    assert not meets(library["players"][0], {"science": 1})
    s, _ = play(library, 0, {"type": "action", "card": "animals", "x": 0})
    assert [a for a in G.legal_actions(s, 0) if a.get("card") == TORTOISE] == []

    research = edited(state0, lambda d: edit(d, ["research"]))
    s, _ = play(research, 0, {"type": "action", "card": "animals", "x": 0})
    assert len([a for a in G.legal_actions(s, 0) if a.get("card") == TORTOISE]) == 1


def test_the_library_keeps_five_cards_at_the_break():
    def edit(d):
        d["players"][0]["universities"] = ["library"]
        for q in d["players"]:
            while len(q["hand"]) < 6:
                q["hand"].append(d["deck"].pop())
            del q["hand"][6:]
        d["break_pos"] = d["break_len"]

    state = edited(fresh(), edit)
    free = state["players"][0]["cards"][0]
    s, _ = play(state, 0, {"type": "x_token", "card": free})
    assert kind_now(s) == "hand_limit"
    assert s["stack"][-1]["excess"] == {"0": 1, "1": 3}                # 6 - 5 and 6 - 3


def test_the_rules_pages_say_so_in_every_language():
    """docs/rules (en/uk/de): no page still says partner zoos are not icons or that the library
    gives a science icon; each names the library's reputation."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "docs" / "rules"
    pages = {"arknova.md": ("it is **not** a continent icon", "| Library | 1 science icon",
                            "| Library | +1 reputation, hand limit 5"),
             "arknova.uk.md": ("символом континенту він **не** є", "| Бібліотека | 1 символ науки",
                               "| Бібліотека | +1 до репутації, ліміт руки 5"),
             "arknova.de.md": ("ein Kontinentsymbol ist er **nicht**",
                               "| Bibliothek | 1 Wissenschaftssymbol",
                               "| Bibliothek | +1 Ansehen, Handkartenlimit 5")}
    for name, (old_icons, old_library, library) in pages.items():
        text = " ".join((root / name).read_text().split())
        assert old_icons not in text and old_library not in text, name
        assert library in text, name
