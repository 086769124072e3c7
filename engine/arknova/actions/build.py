"""The Build action (spec §4.1) and placing any building on a zoo map."""

from __future__ import annotations

from ...core import event
from .. import placement
from ..decisions import Decision, decision, finish, push
from ..gains import gain
from ..sponsors_fx import trigger
from ..tables import T
from ..zoo import building_spec, has_building, occupied_cells, placements, zoo_map
from ..zoomap import load_buildings
from . import action
from .animals import relocatable


@action("build")
def start(state, seat, strength, side, ev):
    if strength > 0:
        push(state, "build", seat=seat, side=side, left=strength, built=[])


def buildable(state: dict, seat: int, frame: dict) -> list[str]:
    return [bid for bid in load_buildings() if can_build(state, seat, frame, bid)]


def can_build(state: dict, seat: int, frame: dict, bid: str) -> bool:
    """May the Build frame ``frame`` choose building type ``bid`` (a known id) now?"""
    p = state["players"][seat]
    spec = load_buildings()[bid]
    upgraded = frame["side"] == 2
    if spec.size > frame["left"] or (spec.needs_upgrade and not upgraded):
        return False
    if spec.unique and has_building(p, bid):
        return False
    if bid in frame["built"]:
        return False
    if T.build.cost_per_space * spec.size > p["money"]:
        return False
    return bool(placements(p, bid, upgraded))


@decision
class Build(Decision):
    kind = "build"

    def legal(self, state, frame, seat):
        out = []
        if frame["side"] == 2 or not frame["built"]:
            out = [{"type": "building", "building": b} for b in buildable(state, seat, frame)]
        return out + [{"type": "done"}]

    def skip(self, state, frame):
        return frame["left"] <= 0

    def apply(self, state, frame, seat, action, ev):
        if action["type"] == "done":
            finish(state, frame)
            return
        spec = building_spec(action["building"])
        frame["built"].append(action["building"])
        frame["left_before"] = frame["left"]
        frame["left"] = 0 if frame["side"] == 1 else frame["left"] - spec.size
        push(state, "place", seat=seat, building=action["building"],
             cost=T.build.cost_per_space * spec.size, upgraded=frame["side"] == 2, back=True)


@decision
class Place(Decision):
    """Place one building: every legal cell set (all rotations and mirrors) is an answer."""

    kind = "place"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = [{"type": "place", "cells": [list(c) for c in cells]}
               for cells in placements(p, frame["building"], frame["upgraded"])]
        out.append({"type": "back"} if frame.get("back") else {"type": "skip"})
        return out

    def skip(self, state, frame):
        return not placements(state["players"][frame["seat"]], frame["building"],
                              frame["upgraded"])

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] in ("back", "skip"):
            if action["type"] == "back":  # undo the choice of building in the Build frame below
                parent = state["stack"][-1]
                parent["built"].pop()
                parent["left"] = parent.pop("left_before")
            return
        place_building(state, seat, frame["building"], [tuple(c) for c in action["cells"]],
                       frame["cost"], ev)


def map_full(player: dict) -> bool:
    """Every buildable space (land: not water, not rock) of the zoo map is covered."""
    return zoo_map(player).land <= occupied_cells(player)


def place_building(state, seat, btype, cells, cost, ev) -> dict:
    p = state["players"][seat]
    spec = building_spec(btype)
    p["money"] -= cost
    b = {"id": p["next_id"], "type": btype, "kind": spec.kind, "cells": [list(c) for c in cells],
         "animals": [], "used": 0}
    p["next_id"] += 1
    p["buildings"].append(b)
    ev.append(event("built", seat=seat, building=btype, cells=b["cells"], cost=cost))
    if spec.appeal:
        gain(state, seat, {"appeal": spec.appeal}, ev, source=btype)
    for g in placement.bonuses_covered(zoo_map(p), cells):
        gain(state, seat, g, ev, source="map")
    if map_full(p):
        # every buildable space is covered now (this happens once: nothing can be built after)
        gain(state, seat, {"appeal": T.build.full_map_appeal}, ev, source="map_full")

    trigger(state, seat, "build", {"building": btype, "kind": spec.kind}, ev)
    if spec.kind == "special":
        if relocatable(p, b):
            push(state, "relocate", seat=seat, building=b["id"])
    return b
