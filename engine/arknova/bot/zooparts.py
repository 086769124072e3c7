"""What a zoo is worth, part by part: the weights of the evaluation (``evaluate.py``) and the
parts of a zoo's value that do not depend on the clock, each memoized on exactly what it reads.

- :func:`card_worth`: a card's rough worth once played (static).
- :func:`final_points`: the conservation its final-scoring cards and sponsor awards would give
  now, memoized by :func:`final_memo` on what their counters read (:data:`COUNTER_READS`).
- :func:`layout_of`: the facts of its buildings (kiosk income, free spaces, which hand animals
  have a home); :func:`icons_of`: its icons; :func:`hand_parts`: each hand card's cost, worth
  and playability; :func:`project_levels_memo`: the project levels it could support now;
  :func:`income`: its money and appeal per break.

Every memo key (:mod:`.evalmemo`) holds everything its function reads, so a memoized part is
the part that would have been computed (``tests/engine/test_bots.py`` checks this).
"""

from __future__ import annotations

from functools import cache, lru_cache

from .. import deck
from ..breaks import kiosk_income
from ..scoring import count
from ..tables import T, appeal_income, per_players
from ..zoo import animal_cost, capacity, hand_limit, homes, icons, meets
from .evalmemo import MEMO, encode, remember

#: Victory points the leading zoo gains per break (sets how many breaks are probably left).
PACE = 14.0
#: Turns a seat takes per break, by seat count (2p: about 3.5).
TURNS_PER_BREAK = {2: 3.5, 3: 3.0, 4: 2.7}
MONEY = 0.2           #: points per money while the game is far from its end
REP = 0.7             #: points per reputation step (up to the range cap)
X_TOKEN = 0.8
WORKER = 2.0
UPGRADE = 3.0
PARTNER = 1.5
UNIVERSITY = 1.5
ICON = 0.3
PROJECT_SHARE = 0.35  #: share of a supportable project level's conservation counted now
HAND_SHARE = {"home": 0.55, "req": 0.3, "none": 0.12}
VENOM = 3.0
CONSTRICTION = 2.0

ABILITY_WORTH = {
    "sprint": 0.7, "hunter": 1.2, "perception": 1.2, "pack": 2.5, "iconic": 2.0, "money": 0.3,
    "jumping": 0.5, "inventive": 0.8, "hire": 2.0, "upgrade": 3.0, "clever": 1.0, "boost": 2.0,
    "sell": 1.0, "pouch": 2.0, "kiosk": 1.5, "pavilion": 1.5, "flock": 0.5, "digging": 0.5,
    "snapping": 1.0, "scoring": 1.5, "resistance": 1.0, "venom": 2.0, "constriction": 2.0,
    "hypnosis": 2.0, "pilfering": 2.0, "reputation": 0.7, "partner": 1.5, "university": 1.5,
}


def num(v) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 1.0


@cache
def card_worth(cid: str) -> float:
    """Rough points a card is worth once played, before paying for it (static, cached)."""
    c = deck.card(cid)
    kind = c["type"]
    if kind == "animal":
        w = c["appeal"] + 2.5 * c["conservation"] + REP * c["reputation"]
        for ab in c.get("abilities") or ():
            w += ABILITY_WORTH.get(ab["keyword"], 1.0) * min(3.0, num(ab.get("value")))
        return w
    if kind == "sponsor":
        w = 1.0 + 0.5 * len(c.get("icons") or ())
        for ab in c.get("effects") or ():
            w += ABILITY_WORTH.get(ab["keyword"], 1.0) * min(3.0, num(ab.get("value")))
        inc = c.get("income") or {}
        w += 2.0 * (MONEY * inc.get("money", 0) + inc.get("appeal", 0) + inc.get("cards", 0)
                    + inc.get("x", 0))
        w += 1.5 * len(c.get("triggers") or ())
        if c.get("end"):
            w += 2.0
        if c.get("building"):
            w += 1.0 + c["building"].get("appeal", 0)
        return w
    if kind == "project":
        return 2.0 * max(lvl["cp"] for lvl in c["levels"])
    return 0.0


ICON_COUNTERS = {
    "continents": ("africa", "americas", "asia", "australia", "europe"),
    "classes": ("predator", "herbivore", "primate", "reptile", "bird", "bear", "pet", "sea"),
}


def count_of(p: dict, spec: str, zoo_icons) -> int:
    """:func:`scoring.count`, reusing the zoo's icons when the counter is about icons."""
    if zoo_icons is not None:
        if spec.startswith("icon:"):
            return zoo_icons[spec[5:]]
        group = ICON_COUNTERS.get(spec)
        if group is not None:
            return sum(1 for i in group if zoo_icons[i])
    return count(p, spec)


def final_points(state: dict, p: dict, zoo_icons=None) -> int:
    """Conservation the zoo's final-scoring cards and sponsor awards would give now."""
    pts = []
    for fid in p["final"]:
        c = deck.card(fid)
        value = count_of(p, c["counter"], zoo_icons)
        pts.append(sum(1 for step in c["steps"] if value >= step))
    if not pts:
        best = 0
    elif len(pts) > 1 and not state["cp10"]:
        best = max(pts)
    else:
        best = sum(pts)
    awards = 0
    for sid in p["sponsors"]:
        end = deck.card(sid).get("end")
        if end:
            awards += min(end["max"], count_of(p, end["counter"], zoo_icons) // end["per"])
    return best + awards


#: What each counter of :func:`scoring.count` reads beyond what the zoo's icons key encodes
#: (its animals, sponsors, partners and universities): the layout (map and buildings), the
#: supported projects, reputation or money. A counter not named here makes the final points'
#: memo key on the whole zoo (tests/engine/test_bots.py checks that every counter is named).
COUNTER_READS = {
    "icon": (), "continents": (), "classes": (), "animals_min_size": (),
    "animals_max_size": (), "partners": (), "universities": (), "sponsors": (),
    "buildings": ("layout",), "edge_covered": ("layout",), "water_enclosures": ("layout",),
    "full_enclosures": ("layout",), "projects": ("supported",), "reputation": ("reputation",),
    "money": ("money",),
}


@lru_cache(maxsize=4096)
def final_reads(final: tuple, sponsors: tuple) -> frozenset | None:
    """What :func:`final_points` reads of a zoo with these final-scoring cards and sponsors,
    beyond its icons key (None: a counter :data:`COUNTER_READS` does not name)."""
    specs = [deck.card(f)["counter"] for f in final]
    specs += [deck.card(s)["end"]["counter"] for s in sponsors if deck.card(s).get("end")]
    reads: set = set()
    for spec in specs:
        found = COUNTER_READS.get(spec.partition(":")[0])
        if found is None:
            return None
        reads.update(found)
    return frozenset(reads)


def final_memo(state: dict, p: dict, zoo_icons, icons_key: tuple, layout_key: tuple) -> int:
    """:func:`final_points` memoized on exactly what its counters read (money, say, only when
    a final-scoring card counts money)."""
    reads = final_reads(tuple(p["final"]), tuple(p["sponsors"]))
    if reads is None:
        key: tuple = ("F*", encode(p), state["cp10"])
    else:
        key = ("F", icons_key, layout_key if "layout" in reads else None, encode((
            p["final"], state["cp10"], p["supported"] if "supported" in reads else None,
            p["reputation"] if "reputation" in reads else None,
            p["money"] if "money" in reads else None)))
    fin = MEMO.get(key)
    if fin is None:
        fin = remember(key, final_points(state, p, zoo_icons))
    return fin


def income(p: dict, layout: dict | None = None) -> tuple[float, float]:
    """Money and appeal the zoo gets at each break."""
    money = appeal_income(p["appeal"]) + (layout or layout_of(p))["kiosk"]
    appeal = 0.0
    for sid in p["sponsors"]:
        inc = deck.card(sid).get("income") or {}
        money += inc.get("money", 0)
        appeal += inc.get("appeal", 0) + 0.8 * inc.get("cards", 0) + X_TOKEN * inc.get("x", 0)
    return money, appeal


def hand_value(state: dict, p: dict, money_w: float, phase: float, zoo_icons,
                layout: dict | None = None, parts: tuple | None = None) -> float:
    """The hand's worth: each card's worth (an animal's net of its cost) times how playable it
    is now, the best ``hand_limit + 2`` cards in full and the rest at a fifth. ``parts`` is
    :func:`hand_parts` when the caller has it."""
    if parts is None:
        parts = hand_parts(p, zoo_icons, layout or layout_of(p))
    cards, keep = parts
    vals = []
    for cost, worth, share in cards:
        if cost is not None:  # an animal
            net = worth - money_w * cost
            vals.append(0.0 if net <= 0 else share * net)
        else:
            vals.append(share * worth)
    if not vals:
        return 0.0
    vals.sort(reverse=True)
    return phase * (sum(vals[:keep]) + 0.2 * sum(vals[keep:]))


def hand_parts(p: dict, zoo_icons, layout: dict) -> tuple:
    """What :func:`hand_value` needs of each hand card, apart from the clock: ``(cost or
    None, worth, share)``, and how many cards count in full."""
    home_memo = layout["homes"]
    cards = []
    for cid in p["hand"]:
        c = deck.card(cid)
        kind = c["type"]
        worth = card_worth(cid)
        if kind == "animal":
            if not meets(p, c.get("requires") or {}, zoo_icons):
                share = HAND_SHARE["none"]
            elif has_home(home_memo, p, cid, c):
                share = HAND_SHARE["home"]
            else:
                share = HAND_SHARE["req"]
            cards.append((animal_cost(p, c), worth, share))
        elif kind == "sponsor":
            ok = meets(p, c.get("requires") or {}, zoo_icons)
            cards.append((None, worth, 0.35 if ok else 0.1))
        else:
            cards.append((None, worth, 0.2))
    return cards, hand_limit(p) + 2


def free_spaces(p: dict) -> list[int]:
    free = []
    for b in p["buildings"]:
        kind = b["kind"]
        if kind == "enclosure" and not b["animals"]:
            free.append(len(b["cells"]))
        elif kind == "special":
            room = capacity(b) - b["used"]
            if room > 0:
                free.append(min(room, len(b["cells"])))
    return free


def hand_sizes(p: dict) -> list[int]:
    return [deck.card(cid)["size"] for cid in p["hand"] if deck.kind(cid) == "animal"]


def space_value(size: int, sizes: list[int], money_w: float) -> float:
    """A free enclosure of ``size`` spaces: worth its price, more if an animal in hand fits."""
    fits = any(s <= size for s in sizes)
    return money_w * 2 * size * (1.1 if fits else 0.7)


@cache
def levels_best_first(pid: str) -> tuple[int, ...]:
    levels = deck.card(pid)["levels"]
    return tuple(sorted(range(len(levels)), key=lambda i: (-levels[i]["cp"], i)))


def projects_total_memo(state: dict, p: dict, zoo_icons, icons_key: tuple) -> float | None:
    """The conservation of :func:`project_levels` summed (None when the zoo has no association
    cube left)."""
    levels = project_levels_memo(state, p, zoo_icons, icons_key)
    return None if levels is None else float(sum(levels))


def project_levels_memo(state: dict, p: dict, zoo_icons, icons_key: tuple) -> tuple | None:
    """:func:`project_levels` memoized (None when the zoo has no association cube left)."""
    if p["cubes_used"] >= len(T.association.cube_slots):
        return None
    projects = state["base_projects"] + state["project_row"]
    key = ("P", icons_key, encode((p["supported"], projects,
                                  [state["cubes"].get(x) for x in projects], state["seats"],
                                  state["blocked"])))
    levels = MEMO.get(key)
    if levels is None:
        levels = remember(key, project_levels(state, p, zoo_icons))
    return levels


def project_levels(state: dict, p: dict, zoo_icons) -> tuple[int, ...]:
    """The conservation of the best open level the zoo meets, per project on offer that it
    meets one of (it depends on the zoo's icons and animals only, and on the cubes placed)."""
    from ..actions.projects import level_met

    limit = per_players(T.levels_per_project, state["seats"])
    out = []
    for pid in state["base_projects"] + state["project_row"]:
        if pid in p["supported"]:
            continue
        cubes = state["cubes"].get(pid, ())
        if len(cubes) >= limit:
            continue
        taken = {c["level"] for c in cubes} | set(state["blocked"].get(pid, ()))
        project = deck.card(pid)
        for i in levels_best_first(pid):
            lvl = project["levels"][i]
            if i not in taken and level_met(p, project, lvl["need"], zoo_icons):
                out.append(lvl["cp"])
                break
    return tuple(out)


def layout_of(p: dict) -> dict:
    """Facts of the zoo's buildings (a pure function of the map and ``p["buildings"]``):
    kiosk income, the free spaces, and (filled lazily) whether an animal card has a home."""
    key = ("L", encode((p["map"], p["buildings"])))
    lay = MEMO.get(key)
    if lay is None:
        kiosk = kiosk_income(p) if any(b["kind"] == "kiosk" for b in p["buildings"]) else 0
        lay = remember(key, {"kiosk": kiosk, "free": free_spaces(p), "homes": {}, "key": key})
    return lay


def has_home(memo: dict, p: dict, cid: str, c: dict) -> bool:
    """``bool(homes(p, c))``, memoized per layout (homes reads the map and buildings only)."""
    found = memo.get(cid)
    if found is None:
        found = memo[cid] = bool(homes(p, c))
    return found


def icons_of(p: dict) -> tuple[tuple, object]:
    """``(key, icons(p))``: the zoo's icons, memoized on the data they come from (read only)."""
    key = ("I", encode((p["animals"], p["sponsors"], p["partners"], p["universities"])))
    found = MEMO.get(key)
    if found is None:
        found = remember(key, icons(p))
    return key, found
