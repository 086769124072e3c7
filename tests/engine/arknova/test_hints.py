"""The engine's hints: why a card or action cannot be used now, and costs after discounts.

Positions are built the way a saved game is edited: dump, change, load.
"""

from __future__ import annotations

import orjson
import pytest

from engine.arknova import deck, placement
from engine.arknova.actions.animals import animal_options
from engine.arknova.actions.sponsors import sponsor_options
from engine.arknova.tables import T, reputation_range
from engine.arknova.turn import strength_of
from engine.arknova.zoomap import load_buildings, load_maps
from engine.core import rng as _rng

from ..hidden import PERTURBERS
from .positions import G, building, cards_where, fresh, plain_animal

CARDS = deck.all_cards()


def edited(state, edit):
    data = G.dump(state)
    edit(data)
    return G.load(orjson.loads(orjson.dumps(data)))


def enclosure(s, seat, size):
    """Put a standard enclosure of ``size`` on the first place of the seat's map that fits."""
    zmap = load_maps()[s["players"][seat]["map"]]
    fp = next(iter(placement.footprints(zmap, load_buildings()[f"enclosure_{size}"])))
    return building(s, seat, f"enclosure_{size}", fp.cells)


def hand_hint(state, cid, seat=0):
    return G.hints(state, seat)["hand"][cid]


def test_short_of_money_by_the_difference():
    cid = plain_animal(size=2)
    cost = CARDS[cid]["cost"]

    def edit(s):
        p = s["players"][0]
        p["hand"] = [cid]
        p["money"] = cost - 3
        enclosure(s, 0, 2)
    state = edited(fresh(seed=4), edit)
    hint = hand_hint(state, cid)
    assert hint["cost"] == cost
    assert hint["reasons"] == [{"code": "short_money", "n": 3, "cost": cost}]
    # with the money it is playable, and the Animals action offers it
    state = edited(state, lambda s: s["players"][0].__setitem__("money", cost))
    assert hand_hint(state, cid)["reasons"] == []
    assert any(o["card"] == cid for o in animal_options(state, 0, 1))


def test_partner_zoo_discount_shows_the_reduced_cost():
    cid = cards_where(lambda c: c["type"] == "animal" and c.get("continent") == "africa"
                      and c["cost"] >= 10 and not c.get("special"))[0]
    base = CARDS[cid]["cost"]

    def edit(s):
        p = s["players"][0]
        p["hand"] = [cid]
        p["partners"] = ["africa"]
        p["money"] = base - T.association.partner_discount
    state = edited(fresh(seed=5), edit)
    hint = hand_hint(state, cid)
    assert hint["cost"] == base - T.association.partner_discount
    assert hint["base_cost"] == base
    assert not [r for r in hint["reasons"] if r["code"] == "short_money"]


def test_enclosure_and_icon_requirements_are_named():
    cid = "A118"  # needs 2 Africa icons
    c = CARDS[cid]
    assert c["requires"]["icons"] == {"africa": 2}

    def edit(s):
        p = s["players"][0]
        p["hand"] = [cid]
        p["money"] = 100
        p["buildings"] = []
    state = edited(fresh(seed=6), edit)
    reasons = hand_hint(state, cid)["reasons"]
    assert {"code": "needs_icon", "icon": "africa", "n": 2, "have": 0} in reasons
    encl = [r for r in reasons if r["code"] == "needs_enclosure"]
    assert encl and encl[0]["size"] == c["size"]
    assert not [r for r in reasons if r["code"] == "short_money"]


def test_display_reach_and_upgrade():
    far = reputation_range(1) + 1

    def edit(s):
        p = s["players"][0]
        p["reputation"] = 1
        p["money"] = 100
    state = edited(fresh(seed=7), edit)
    hints = G.hints(state, 0)
    assert hints["reach"] == reputation_range(1)
    far_hint = hints["display"][str(far)]
    assert {"code": "out_of_reach", "folder": far, "reach": reputation_range(1)} in far_hint["reasons"]
    near = hints["display"]["1"]
    action = {"animal": "animals", "sponsor": "sponsors", "project": "association"}.get(near["kind"])
    if action:
        assert {"code": "display_needs_upgrade", "action": action} in near["reasons"]
    # a display animal costs its folder number on top
    for f, h in hints["display"].items():
        if h["kind"] == "animal":
            assert h["base_cost"] == CARDS[h["card"]]["cost"] + int(f)


def test_sponsor_level_above_strength():
    sid = cards_where(lambda c: c["type"] == "sponsor" and c["level"] == 5
                      and not any(v for v in (c.get("requires") or {}).values())
                      and not c.get("building"))[0]

    def edit(s):
        p = s["players"][0]
        p["hand"] = [sid]
        p["x"] = 1
        p["cards"] = ["sponsors", "cards", "association", "build", "animals"]
    state = edited(fresh(seed=8), edit)
    # slot 1 + one X token: strength 2
    assert hand_hint(state, sid)["reasons"] == [{"code": "level_above", "level": 5, "strength": 2}]
    state = edited(state, lambda s: s["players"][0].__setitem__(
        "cards", ["cards", "association", "build", "animals", "sponsors"]))
    assert hand_hint(state, sid)["reasons"] == []


def test_idle_actions_name_why():
    def edit(s):
        p = s["players"][0]
        p["hand"] = []
        p["buildings"] = []
        p["placed"] = p["workers"]
        p["x"] = 0
        p["cards"] = ["cards", "build", "sponsors", "association", "animals"]
    state = edited(fresh(seed=9), edit)
    acts = G.hints(state, 0)["actions"]
    assert acts["animals"]["idle"] == ["no_playable_animal"]
    assert acts["association"]["idle"] == ["no_free_worker"]
    assert acts["cards"]["idle"] == [None]
    assert acts["sponsors"]["idle"] == [None]
    state = edited(state, lambda s: s["players"][0].__setitem__("placed", 0))
    assert G.hints(state, 0)["actions"]["association"]["idle"] == [None]


def test_spectator_and_finished_games_get_nothing():
    state = fresh(seed=10)
    assert G.hints(state, None) == {}
    assert G.hints(state, 7) == {}
    assert set(G.hints(state, 1)) == {"hand", "display", "actions", "reach"}


def test_hints_show_only_the_seats_own_hand():
    state = fresh(seed=11)
    other = PERTURBERS["arknova"](state, 1)
    assert other["players"][1]["hand"] != state["players"][1]["hand"]
    assert G.hints(other, 0) == G.hints(state, 0)
    assert set(G.hints(state, 0)["hand"]) == set(state["players"][0]["hand"])


OWN_FRAME = {"animals": "animals", "build": "build", "association": "association"}


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_hints_agree_with_the_legal_answers(seed):
    """Along random games: a hand or display animal has no reasons exactly when the Animals
    action would offer it; an action is idle exactly when choosing it offers nothing but done."""
    state = G.setup(2, {"map": "plains"}, seed)
    chooser = {"rng": _rng.seed_to_int(f"hints-{seed}")}
    checked = 0
    for _ in range(400):
        waiting = sorted(G.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        frame = state["stack"][-1]
        legal = G.legal_actions(state, seat)
        if frame["kind"] == "turn":
            hints = G.hints(state, seat)
            p = state["players"][seat]
            side = 2 if p["upgraded"]["animals"] else 1
            offered = {(o["card"], o.get("folder", 0)) for o in animal_options(state, seat, side)}
            for cid, h in hints["hand"].items():
                if h["kind"] == "animal":
                    assert (not h["reasons"]) == ((cid, 0) in offered), (cid, h)
            for f, h in hints["display"].items():
                if h["kind"] == "animal":
                    assert (not h["reasons"]) == ((h["card"], int(f)) in offered), (f, h)
            # sponsors: what the Sponsors action would offer with every X token spent
            sside = 2 if p["upgraded"]["sponsors"] else 1
            strength = strength_of(p, "sponsors", p["x"])
            frame = {"side": sside, "played": 0,
                     "left": strength + (T.sponsors.side2_bonus_strength if sside == 2 else 0)}
            offered = {(o["card"], o.get("folder", 0)) for o in sponsor_options(state, seat, frame)}
            for cid, h in hints["hand"].items():
                if h["kind"] == "sponsor":
                    assert (not h["reasons"]) == ((cid, 0) in offered), (cid, h)
            for f, h in hints["display"].items():
                if h["kind"] == "sponsor":
                    assert (not h["reasons"]) == ((h["card"], int(f)) in offered), (f, h)
            for card, kind in OWN_FRAME.items():
                for x, idle in enumerate(hints["actions"][card]["idle"]):
                    after, _ = G.apply(state, seat, {"type": "action", "card": card, "x": x})
                    top = after["stack"][-1]
                    mine = top["kind"] == kind and top.get("seat") == seat
                    nothing = not mine or G.legal_actions(after, seat) == [{"type": "done"}]
                    assert (idle is not None) == nothing, (card, x, idle)
                    checked += 1
        action = legal[_rng.randbelow(chooser, len(legal))]
        state, _ = G.apply(state, seat, action)
    assert checked > 20


def test_every_code_has_words_in_every_language():
    import json
    import re
    from pathlib import Path

    from engine.arknova.presentation import hints as mod

    source = Path(mod.__file__).read_text()
    assert set(re.findall(r'"code": "(\w+)"', source)) == set(mod.REASONS)
    idle_part = source[source.index("def _idle"):]
    assert set(re.findall(r'"((?:no|nothing)_\w+|strength_zero)"', idle_part)) == set(mod.IDLE)
    static = Path(__file__).resolve().parents[3] / "static" / "i18n"
    for lang in ("en", "uk", "de"):
        cat = json.loads((static / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [c for c in mod.REASONS if f"why.{c}" not in cat]
        missing += [c for c in mod.IDLE if f"idle.{c}" not in cat]
        assert not missing, (lang, missing)


def test_the_contract_suite_catches_leaking_hints():
    """check_views compares every viewer's hints with another seat's secrets changed: hints that
    showed the other seat's hand would fail it."""
    from engine.arknova.game import ArkNova

    from ..contract import check_views

    class Leaky(ArkNova):
        def _hints(self, state, seat):
            other = state["players"][1 - seat]
            return {**super()._hints(state, seat), "peek": sorted(other["hand"])}

    state = fresh(seed=12)
    check_views(G, state)
    with pytest.raises(AssertionError, match="hints of"):
        check_views(Leaky(), state)
