"""Sponsor triggers: "whenever you play a bird, gain 1 money" and the like."""

from __future__ import annotations

from . import deck
from .gains import gain


def _matches(flt: dict, what: dict) -> bool:
    if not flt:
        return True
    if "building" in flt and flt["building"] is not None:
        return flt["building"] in (what.get("building"), what.get("kind"))
    cid = what.get("card")
    if cid is None:
        return False
    c = deck.card(cid)
    icons = list(c.get("classes") or ()) + ([c["continent"]] if c.get("continent") else []) + list(
        c.get("icons") or ())
    if flt.get("class") and flt["class"] not in icons:
        return False
    if flt.get("continent") and flt["continent"] not in icons:
        return False
    if flt.get("icon") and flt["icon"] not in icons:
        return False
    if flt.get("size_min") and c.get("size", 0) < flt["size_min"]:
        return False
    if flt.get("size_max") and c.get("size", 99) > flt["size_max"]:
        return False
    return True


def trigger(state: dict, seat: int, on: str, what: dict, ev: list) -> None:
    """Pay every matching trigger of the seat's sponsors for event ``on``."""
    p = state["players"][seat]
    for sid in p["sponsors"]:
        if sid == what.get("card"):
            continue
        for t in deck.card(sid).get("triggers") or ():
            flt = {k: v for k, v in (t.get("filter") or {}).items() if v is not None}
            if t["on"] == on and _matches(flt, what):
                gain(state, seat, t["gain"], ev, source=sid)
