"""The Sponsors action (spec §4.5): play sponsor cards, or take the break action for money."""

from __future__ import annotations

from ...core import event
from .. import deck
from ..abilities import resolve
from ..breaks import advance_break
from ..decisions import Decision, decision, finish, push
from ..sponsors_fx import trigger
from ..tables import T
from ..zoo import icons, meets, placements
from . import action


@action("sponsors")
def start(state, seat, strength, side, ev):
    bonus = T.sponsors.side2_bonus_strength if side == 2 else 0
    push(state, "sponsors", seat=seat, side=side, strength=strength, left=strength + bonus,
         played=0)


def sponsor_options(state: dict, seat: int, frame: dict, only: str | None = None) -> list[dict]:
    """The legal sponsor plays (``only``: just those of that card id)."""
    p = state["players"][seat]
    if frame["side"] == 1 and frame["played"]:
        return []
    sources = [(cid, 0) for cid in sorted(set(p["hand"]))]
    if frame["side"] == 2:
        sources += [(state["display"][f - 1], f) for f in deck.reachable_folders(p)
                    if state["display"][f - 1]]
    if only is not None:
        sources = [s for s in sources if s[0] == only]
        if not sources:
            return []
    zoo_icons = icons(p)
    out = []
    for cid, folder in sources:
        c = deck.card(cid)
        if c["type"] != "sponsor" or c["level"] > frame["left"] or folder > p["money"]:
            continue
        if not meets(p, c.get("requires") or {}, zoo_icons):
            continue
        if c.get("building") and not placements(p, c["building"]["id"], p["upgraded"]["build"]):
            continue
        a = {"type": "sponsor", "card": cid}
        if folder:
            a["folder"] = folder
        out.append(a)
    return out


@decision
class Sponsors(Decision):
    kind = "sponsors"

    def legal(self, state, frame, seat):
        out = sponsor_options(state, seat, frame)
        if not frame["played"] and frame["strength"] > 0:
            out.append({"type": "break_action"})
        return out + [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        p = state["players"][seat]
        if action["type"] == "done":
            finish(state, frame)
            return
        if action["type"] == "break_action":
            finish(state, frame)
            money = frame["strength"] * T.sponsors.break_money_factor[str(frame["side"])]
            advance_break(state, frame["strength"], ev, seat)
            p["money"] += money
            ev.append(event("break_action", seat=seat, money=money))
            return
        c = deck.card(action["card"])
        frame["played"] += 1
        frame["left"] -= c["level"]
        if frame["side"] == 1 or frame["left"] <= 0:
            finish(state, frame)
        play_sponsor(state, seat, action["card"], action.get("folder", 0), ev)


def play_sponsor(state, seat, cid, folder, ev) -> None:
    p = state["players"][seat]
    c = deck.card(cid)
    if folder:
        p["money"] -= folder
        deck.take_from_display(state, folder)
    else:
        p["hand"].remove(cid)
    p["sponsors"].append(cid)
    ev.append(event("sponsor", seat=seat, card=cid, folder=folder))

    trigger(state, seat, "sponsor", {"card": cid}, ev)
    if c.get("building"):
        push(state, "place", seat=seat, building=c["building"]["id"], cost=0,
             upgraded=p["upgraded"]["build"])

    for ab in c.get("effects") or ():
        resolve(state, seat, ab["keyword"], ab.get("value"), cid, ev)
