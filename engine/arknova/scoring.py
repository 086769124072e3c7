"""Victory points, counters for final-scoring cards and sponsor awards, the final score."""

from __future__ import annotations

from ..core import event
from . import deck, solo
from .decisions import Decision, decision, push
from .tables import victory_points
from .zoo import icons, zoo_map

_COUNTERS = {}


def counter(name: str):
    def deco(fn):
        _COUNTERS[name] = fn
        return fn
    return deco


def count(player: dict, spec: str) -> int:
    """Evaluate a counter such as ``icon:bird`` or ``animals_min_size:4`` for a zoo."""
    name, _, arg = spec.partition(":")
    return _COUNTERS[name](player, arg)


@counter("icon")
def _icon(p, arg):
    return icons(p)[arg]


@counter("animals_min_size")
def _min_size(p, arg):
    return sum(1 for a in p["animals"] if deck.card(a["card"])["size"] >= int(arg))


@counter("animals_max_size")
def _max_size(p, arg):
    return sum(1 for a in p["animals"] if deck.card(a["card"])["size"] <= int(arg))


@counter("continents")
def _continents(p, arg):
    ic = icons(p)
    return sum(1 for c in ("africa", "americas", "asia", "australia", "europe") if ic[c])


@counter("classes")
def _classes(p, arg):
    ic = icons(p)
    return sum(1 for c in ("predator", "herbivore", "primate", "reptile", "bird", "bear", "pet",
                           "sea") if ic[c])


@counter("buildings")
def _buildings(p, arg):
    return sum(1 for b in p["buildings"] if b["kind"] == arg)


@counter("edge_covered")
def _edge(p, arg):
    edge = zoo_map(p).edge
    return sum(1 for b in p["buildings"] for c in b["cells"] if tuple(c) in edge)


@counter("projects")
def _projects(p, arg):
    return len(p["supported"])


@counter("partners")
def _partners(p, arg):
    return len(p["partners"])


@counter("universities")
def _universities(p, arg):
    return len(p["universities"])


@counter("sponsors")
def _sponsors(p, arg):
    return len(p["sponsors"])


@counter("reputation")
def _reputation(p, arg):
    return p["reputation"]


@counter("money")
def _money(p, arg):
    return p["money"]


@counter("water_enclosures")
def _water(p, arg):
    from .zoo import touching

    return sum(1 for b in p["buildings"] if b["kind"] == "enclosure" and touching(p, b, "water"))


@counter("full_enclosures")
def _full(p, arg):
    return sum(1 for b in p["buildings"] if b["kind"] == "enclosure" and b["animals"])


def counter_names() -> set[str]:
    return set(_COUNTERS)


def vp(player: dict) -> int:
    return victory_points(player["appeal"], player["conservation"])


def end_triggered_by(state: dict) -> bool:
    return any(vp(p) >= 0 for p in state["players"])


def final_card_points(player: dict) -> int:
    total = 0
    for fid in player["final"]:
        c = deck.card(fid)
        value = count(player, c["counter"])
        total += sum(1 for step in c["steps"] if value >= step)
    return total


def sponsor_award_points(player: dict) -> int:
    total = 0
    for sid in player["sponsors"]:
        end = deck.card(sid).get("end")
        if end:
            total += min(end["max"], count(player, end["counter"]) // end["per"])
    return total


@decision
class Final(Decision):
    """Final scoring: discard down to one final-scoring card if needed, then score."""

    kind = "final"
    auto = True

    def run(self, state, frame, ev):
        push(state, "score")
        seats = [s for s, p in enumerate(state["players"]) if len(p["final"]) > 1]
        if seats and not state["cp10"]:
            push(state, "final_discard", pending=seats)


@decision
class Score(Decision):
    kind = "score"
    auto = True

    def run(self, state, frame, ev):
        details = []
        for _s, p in enumerate(state["players"]):
            fcp = final_card_points(p)
            scp = sponsor_award_points(p)
            p["conservation"] += fcp + scp
            details.append({"appeal": p["appeal"], "conservation": p["conservation"],
                            "final_cards": fcp, "sponsor_awards": scp,
                            "projects": len(p["supported"]), "money": p["money"],
                            "vp": vp(p), "final": list(p["final"])})
        state["over"] = True
        state["final_details"] = details
        ev.append(event("game_over", scores=[d["vp"] for d in details]))


def result(state: dict) -> dict | None:
    if not state.get("over"):
        return None
    details = state["final_details"]
    # ties: more supported conservation projects; still tied, the place is shared
    key = {s: (d["vp"], d["projects"]) for s, d in enumerate(details)}
    ranking = sorted(key, key=lambda s: (-key[s][0], -key[s][1], s))
    places, place = {}, 0
    for i, s in enumerate(ranking):
        if i == 0 or key[s] != key[ranking[i - 1]]:
            place = i + 1
        places[s] = place
    out = {"scores": {s: d["vp"] for s, d in enumerate(details)}, "ranking": ranking,
           "details": {"places": places, "zoos": {s: d for s, d in enumerate(details)}}}
    if solo.is_solo(state):
        out["details"]["solo"] = solo.details(state, details[0]["vp"])
    return out
