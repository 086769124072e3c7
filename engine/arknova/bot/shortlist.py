"""Which answers the searching bots try (the zoo builder's ``shortlist``): a long list of
answers is cut to the most promising before each is simulated (placements scored by their map
bonuses, compactness and the terrain the hand's animals need; kept cards by their worth; per
animal card the two smallest homes; per action card no, one or all X tokens)."""

from __future__ import annotations

from .. import deck
from ..zoo import touching, zoo_map
from .zooparts import card_worth


class _Placements:
    """What scoring the placements of one ``place`` decision reads of the zoo, worked out once
    for all of them (the map, the occupied cells, the hand's terrain needs, the buildings by
    cell)."""

    def __init__(self, state: dict, seat: int, frame: dict) -> None:
        p = self.p = state["players"][seat]
        self.zmap = zoo_map(p)
        self.btype = btype = frame["building"]
        self.occupied = {tuple(c) for b in p["buildings"] for c in b["cells"]}
        self.needs = self.by_cell = None
        if btype.startswith("enclosure") or btype in ("petting_zoo", "reptile_house", "aviary"):
            self.needs = [deck.card(cid).get("requires") or {} for cid in p["hand"]
                          if deck.kind(cid) == "animal"]
        elif btype == "kiosk":
            self.by_cell = {tuple(c): b for b in p["buildings"] for c in b["cells"]}

    def score(self, cells: list) -> float:
        p, zmap, occupied = self.p, self.zmap, self.occupied
        cells_t = [tuple(c) for c in cells]
        score = 0.0
        for c in cells_t:
            g = zmap.bonuses.get(c)
            if g:
                score += 2.0 * sum(g.values())
        own = set(cells_t)
        # compact zoos keep room for big buildings: count neighbours used or off the land
        for c in cells_t:
            for n in zmap.nbrs[c]:
                if n in occupied or n not in zmap.land:
                    score += 0.3
            if c in zmap.edge:
                score += 0.15
        if self.needs is not None:
            b = {"cells": [list(c) for c in cells_t]}
            water, rock = touching(p, b, "water"), touching(p, b, "rock")
            for req in self.needs:
                if (req.get("water") or 0) and water >= req["water"]:
                    score += 1.5
                if (req.get("rock") or 0) and rock >= req["rock"]:
                    score += 1.5
            score += 0.1 * (water + rock)
        elif self.by_cell is not None:
            from ..placement import adjacent_cells

            by_cell = self.by_cell
            near = {by_cell[c]["id"] for c in adjacent_cells(zmap, cells_t) - own
                    if c in by_cell}
            score += 1.5 * len(near)
        return score


def shortlist(state: dict, seat: int, legal: list, k: int) -> list:
    """At most ``k`` of ``legal`` (the same objects, in legal order) worth simulating."""
    frame = state["stack"][-1] if state["stack"] else None
    kind = frame["kind"] if frame else None
    if kind == "place":
        places = [a for a in legal if a["type"] == "place"]
        rest = [a for a in legal if a["type"] not in ("place", "back")]  # never walk back
        score = _Placements(state, seat, frame).score
        scored = sorted(range(len(places)), key=lambda i: (-score(places[i]["cells"]), i))
        keep = {id(places[i]) for i in scored[:max(1, k - len(rest))]}
        return [a for a in legal if a["type"] not in ("place", "back") or id(a) in keep]
    if kind == "turn" and len(legal) > k:
        # each action card with no, one or all X tokens, and the X-token moves
        xmax = state["players"][seat]["x"]
        out = [a for a in legal if a["type"] != "action" or a["x"] in (0, 1, xmax)]
        if len(out) <= k:
            return out
        return [a for a in out if a["type"] != "action" or a["x"] in (0, xmax)][:k]
    if kind == "keep":
        scored = sorted(range(len(legal)),
                        key=lambda i: (-sum(card_worth(c) for c in legal[i]["cards"]), i))
        keep = {id(legal[i]) for i in scored[:k]}
        return [a for a in legal if id(a) in keep]
    if kind == "animals":
        # per card (and folder) the two smallest homes that take it
        p = state["players"][seat]
        size = {b["id"]: len(b["cells"]) for b in p["buildings"]}
        groups: dict = {}
        for a in legal:
            if a["type"] == "animal":
                groups.setdefault((a["card"], a.get("folder", 0)), []).append(a)
        keep = set()
        for opts in groups.values():
            opts.sort(key=lambda a: size.get(a["enclosure"], 0))
            keep.update(id(a) for a in opts[:2])
        out = [a for a in legal if a["type"] != "animal" or id(a) in keep]
        if len(out) <= 2 * k:
            return out
        legal = out
    if len(legal) <= 2 * k:
        return legal
    return legal[:k]
