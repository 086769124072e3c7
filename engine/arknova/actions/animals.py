"""The Animals action (spec §4.2): play animals into enclosures, then their abilities."""

from __future__ import annotations

from ...core import event
from .. import deck, solo
from ..abilities import resolve
from ..decisions import Decision, decision, finish, push
from ..gains import add_reputation, gain
from ..sponsors_fx import trigger
from ..tables import T, animals_allowed
from ..zoo import animal_cost, building_by_id, capacity, homes, icons, meets, touching
from . import action


@action("animals")
def start(state, seat, strength, side, ev):
    n = animals_allowed(side, strength)
    if side == 2 and strength >= T.strength.animals_rep_bonus_side2_at:
        add_reputation(state, seat, 1, ev)
    if n:
        push(state, "animals", seat=seat, side=side, left=n)


def animal_options(state: dict, seat: int, side: int, only: str | None = None) -> list[dict]:
    """The legal animal plays (``only``: just those of that card id)."""
    p = state["players"][seat]
    sources = [(cid, 0) for cid in p["hand"]]
    if side == 2:
        sources += [(state["display"][f - 1], f) for f in deck.reachable_folders(p)
                    if state["display"][f - 1]]
    if only is not None:
        sources = [s for s in sources if s[0] == only]
        if not sources:
            return []
    zoo_icons = None  # computed when a card needs it
    out = []
    seen = set()
    for cid, folder in sources:
        if (cid, folder) in seen:
            continue
        seen.add((cid, folder))
        c = deck.card(cid)
        if c["type"] != "animal":
            continue
        if animal_cost(p, c) + folder > p["money"]:
            continue
        if zoo_icons is None:
            zoo_icons = icons(p)
        if not meets(p, c.get("requires") or {}, zoo_icons):
            continue
        for home in homes(p, c):
            a = {"type": "animal", "card": cid, "enclosure": home}
            if folder:
                a["folder"] = folder
            out.append(a)
    return out


@decision
class Animals(Decision):
    kind = "animals"

    def skip(self, state, frame):
        return frame["left"] <= 0

    def legal(self, state, frame, seat):
        return animal_options(state, seat, frame["side"]) + [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        if action["type"] == "done":
            finish(state, frame)
            return
        frame["left"] -= 1
        if frame["left"] <= 0:
            finish(state, frame)
        play_animal(state, seat, action["card"], action["enclosure"], action.get("folder", 0), ev)


def play_animal(state, seat, cid, home, folder, ev) -> None:
    p = state["players"][seat]
    c = deck.card(cid)
    cost = animal_cost(p, c) + folder
    p["money"] -= cost
    if folder:
        deck.take_from_display(state, folder)
    else:
        p["hand"].remove(cid)
    if home is not None:
        b = building_by_id(p, home)
        b["animals"].append(cid)
        if b["kind"] == "special":
            b["used"] += c["special"]["spaces"]
    p["animals"].append({"card": cid, "building": home})
    ev.append(event("animal", seat=seat, card=cid, enclosure=home, cost=cost, folder=folder))
    gain(state, seat, {"appeal": c["appeal"], "conservation": c["conservation"],
                       "reputation": c["reputation"]}, ev, source=cid)

    trigger(state, seat, "animal", {"card": cid}, ev)

    for ab in solo.abilities_of(state, c):  # solo: the card's solo effects for interactions
        resolve(state, seat, ab["keyword"], ab.get("value"), cid, ev)


def relocatable(p: dict, special: dict) -> list[str]:
    """Animals in standard enclosures that may move into the special enclosure ``special``."""
    out = []
    room = capacity(special) - special["used"]
    for b in p["buildings"]:
        if b["kind"] != "enclosure":
            continue
        for cid in b["animals"]:
            c = deck.card(cid)
            sp = c.get("special")
            if not sp or sp["enclosure"] != special["type"] or sp["spaces"] > room:
                continue
            req = c.get("requires") or {}
            if (req.get("water") or 0) > touching(p, special, "water"):
                continue
            if (req.get("rock") or 0) > touching(p, special, "rock"):
                continue
            out.append(cid)
    return out


@decision
class Relocate(Decision):
    """Move animals into a newly built special enclosure, freeing their standard enclosures."""

    kind = "relocate"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        special = building_by_id(p, frame["building"])
        return [{"type": "relocate", "card": c} for c in relocatable(p, special)] + [
            {"type": "done"}]

    def skip(self, state, frame):
        p = state["players"][frame["seat"]]
        return not relocatable(p, building_by_id(p, frame["building"]))

    def apply(self, state, frame, seat, action, ev):
        if action["type"] == "done":
            finish(state, frame)
            return
        p = state["players"][seat]
        special = building_by_id(p, frame["building"])
        cid = action["card"]
        for b in p["buildings"]:
            if b["kind"] == "enclosure" and cid in b["animals"]:
                b["animals"].remove(cid)
                old = b["id"]
                break
        special["animals"].append(cid)
        special["used"] += deck.card(cid)["special"]["spaces"]
        for a in p["animals"]:
            if a["card"] == cid and a["building"] == old:
                a["building"] = special["id"]
                break
        ev.append(event("relocated", seat=seat, card=cid, to=special["type"]))
