"""Conservation projects: which levels a zoo meets, supporting one, the project row, release."""

from __future__ import annotations

from ...core import event
from .. import deck
from ..gains import add_conservation, gain
from ..sponsors_fx import trigger
from ..tables import T, per_players
from ..zoo import icons


def _matches(c: dict, flt: dict) -> bool:
    if not flt:
        return True
    if flt.get("class") and flt["class"] not in c["classes"]:
        return False
    if flt.get("continent") and flt["continent"] != c.get("continent"):
        return False
    return True


def releasable(player: dict, project: dict, need: int) -> list[str]:
    """Animals of the zoo that this release level accepts (size at least ``need``)."""
    out = []
    for a in player["animals"]:
        c = deck.card(a["card"])
        if c["size"] >= need and _matches(c, project.get("filter") or {}):
            out.append(a["card"])
    return sorted(set(out))


def level_met(player: dict, project: dict, need: int, zoo_icons) -> bool:
    kind = project["kind"]
    if kind == "icon":
        return zoo_icons[project["icon"]] >= need
    if kind == "distinct":
        names = (("africa", "americas", "asia", "australia", "europe")
                 if project["of"] == "continents" else
                 ("predator", "herbivore", "primate", "reptile", "bird", "bear", "pet", "sea"))
        return sum(1 for n in names if zoo_icons[n]) >= need
    if kind == "breeding":
        animals = sum(1 for a in player["animals"]
                      if project["icon"] in _icons_of(deck.card(a["card"])))
        return animals // 2 >= need
    if kind == "release":
        return bool(releasable(player, project, need))
    raise ValueError(kind)


def _icons_of(c: dict) -> list[str]:
    return list(c["classes"]) + ([c["continent"]] if c.get("continent") else [])


def open_levels(state: dict, seat: int, pid: str) -> list[int]:
    """Level indices of project ``pid`` that ``seat`` could take now."""
    p = state["players"][seat]
    if pid in p["supported"]:
        return []
    cubes = state["cubes"].get(pid, [])
    if len(cubes) >= per_players(T.levels_per_project, state["seats"]):
        return []
    if p["cubes_used"] >= len(T.association.cube_slots):
        return []
    taken = {c["level"] for c in cubes} | set(state["blocked"].get(pid, ()))
    project = deck.card(pid)
    zoo_icons = icons(p)
    return [i for i, lvl in enumerate(project["levels"])
            if i not in taken and level_met(p, project, lvl["need"], zoo_icons)]


def support_options(state: dict, seat: int, side: int) -> list[dict]:
    p = state["players"][seat]
    sources = [(pid, None) for pid in state["base_projects"] + state["project_row"]]
    sources += [(cid, "hand") for cid in sorted(set(p["hand"])) if deck.kind(cid) == "project"]
    if side == 2:
        sources += [(state["display"][f - 1], f) for f in range(1, T.display_size + 1)
                    if f in _reach(p) and state["display"][f - 1]
                    and deck.kind(state["display"][f - 1]) == "project"]
    out = []
    for pid, src in sources:
        if isinstance(src, int) and p["money"] < src:
            continue
        project = deck.card(pid)
        for lvl in open_levels(state, seat, pid):
            base = {"type": "support", "project": pid, "level": lvl}
            if src is not None:
                base["from"] = src
            if project["kind"] == "release":
                for cid in releasable(p, project, project["levels"][lvl]["need"]):
                    out.append({**base, "release": cid})
            else:
                out.append(base)
    return out


def _reach(p):
    return deck.reachable_folders(p)


def support_project(state: dict, seat: int, action: dict, ev: list) -> None:
    p = state["players"][seat]
    pid, lvl = action["project"], action["level"]
    project = deck.card(pid)
    src = action.get("from")
    if src == "hand":
        p["hand"].remove(pid)
        play_into_row(state, pid, ev)
    elif isinstance(src, int):
        p["money"] -= src
        deck.take_from_display(state, src)
        play_into_row(state, pid, ev)
    if project["kind"] == "release":
        release_animal(state, seat, action["release"], ev)
    state["cubes"].setdefault(pid, []).append({"seat": seat, "level": lvl})
    p["supported"].append(pid)
    p["cubes_used"] += 1
    level = project["levels"][lvl]
    ev.append(event("supported", seat=seat, project=pid, level=lvl, cp=level["cp"]))
    gain(state, seat, T.association.cube_slots[p["cubes_used"] - 1], ev, source="cube slot")
    add_conservation(state, seat, level["cp"], ev)

    trigger(state, seat, "project", {"project": pid}, ev)


def play_into_row(state: dict, pid: str, ev: list) -> None:
    row = state["project_row"]
    row.insert(0, pid)
    ev.append(event("project_played", project=pid))
    while len(row) > per_players(T.project_row, state["seats"]):
        discard_from_row(state, row[-1], ev)


def discard_from_row(state: dict, pid: str, ev: list) -> None:
    state["project_row"].remove(pid)
    state["discard"].append(pid)
    state["cubes"].pop(pid, None)
    ev.append(event("project_discarded", project=pid))


def release_animal(state: dict, seat: int, cid: str, ev: list) -> None:
    """Return an animal to the wild: its appeal is lost and its enclosure is empty again."""
    p = state["players"][seat]
    c = deck.card(cid)
    for i, a in enumerate(p["animals"]):
        if a["card"] == cid:
            del p["animals"][i]
            home = a["building"]
            break
    if home is not None:
        for b in p["buildings"]:
            if b["id"] == home:
                b["animals"].remove(cid)
                if b["kind"] == "special":
                    b["used"] -= c["special"]["spaces"]
    p["appeal"] = max(0, p["appeal"] - c["appeal"])
    state["discard"].append(cid)
    ev.append(event("released", seat=seat, card=cid, appeal=c["appeal"]))
