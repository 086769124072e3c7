"""How good a zoo builder position is for one seat: the evaluation the searching bots use.

``value(state, seat)`` is the seat's *projected* victory points minus the best other seat's
(in a solo game the projected victory points themselves; its clock is the solo tile's).
A zoo's projection is its victory points now (appeal, conservation, and the conservation its
final-scoring cards and sponsor awards would give now) plus what its resources are likely worth
before the game ends:

- money and the income per break (appeal income, kiosks, sponsor incomes) times the breaks that
  are probably left (from the leader's distance to 0 VP at ``PACE`` points per break), at a
  fifth of a point per money (below the third of a point animals turn money into, so spending
  it pays), falling to nearly nothing as the end comes close;
- a building being placed counts as placed (so choosing which building to build is scored
  before its placement is);
- reputation (display range, bonuses), X tokens, association workers, upgraded action cards,
  partner zoos and universities, conservation projects the zoo could support now;
- free enclosures, more when an animal in hand fits one; the hand: each card's worth (an
  animal's appeal and conservation less its cost) weighted by how playable it is now, cards over
  the hand limit counting little;
- minus venom and constriction tokens.

The weights were set by hand and checked in bot-vs-bot games (``menagerie simulate``); they are
deliberately simple and data-driven (no card is named here). The module registers itself as the
``arknova`` evaluator of :mod:`engine.bots.evaluation`.

Speed (greedy evaluates about forty positions per decision): a zoo's value is memoized on the
exact data it reads (a 16-byte digest of its JSON), and so are its parts that change less often
than the whole zoo: the facts of its buildings (kiosk income, free spaces, which hand animals
have a home), its icons, the project levels it meets, its final-scoring points and its hand's
worth. Every memo is keyed by everything its function reads, so values are the same as without
them (``tests/engine/test_bots.py`` checks this). :func:`clone_state` is the faster state copy
the bots' simulated moves use.
"""

from __future__ import annotations

import marshal
from functools import lru_cache
from hashlib import blake2b

import orjson

from ..bots.evaluation import Evaluator, fast_clone, final_value, register_evaluator
from . import deck, solo
from .breaks import kiosk_income
from .decisions import HANDLERS
from .scoring import count
from .tables import T, appeal_income, conservation_value, per_players
from .zoo import (animal_cost, building_spec, capacity, hand_limit, homes, icons, meets, touching,
                  zoo_map)

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

_ABILITY_WORTH = {
    "sprint": 0.7, "hunter": 1.2, "perception": 1.2, "pack": 2.5, "iconic": 2.0, "money": 0.3,
    "jumping": 0.5, "inventive": 0.8, "hire": 2.0, "upgrade": 3.0, "clever": 1.0, "boost": 2.0,
    "sell": 1.0, "pouch": 2.0, "kiosk": 1.5, "pavilion": 1.5, "flock": 0.5, "digging": 0.5,
    "snapping": 1.0, "scoring": 1.5, "resistance": 1.0, "venom": 2.0, "constriction": 2.0,
    "hypnosis": 2.0, "pilfering": 2.0, "reputation": 0.7, "partner": 1.5, "university": 1.5,
}


def _num(v) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 1.0


@lru_cache(maxsize=None)
def card_worth(cid: str) -> float:
    """Rough points a card is worth once played, before paying for it (static, cached)."""
    c = deck.card(cid)
    kind = c["type"]
    if kind == "animal":
        w = c["appeal"] + 2.5 * c["conservation"] + REP * c["reputation"]
        for ab in c.get("abilities") or ():
            w += _ABILITY_WORTH.get(ab["keyword"], 1.0) * min(3.0, _num(ab.get("value")))
        return w
    if kind == "sponsor":
        w = 1.0 + 0.5 * len(c.get("icons") or ())
        for ab in c.get("effects") or ():
            w += _ABILITY_WORTH.get(ab["keyword"], 1.0) * min(3.0, _num(ab.get("value")))
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


# --------------------------------------------------------------------------- the clock
def clock(state: dict) -> tuple[float, float]:
    """``(breaks_left, turns_left)``: how much of the game probably remains for each seat."""
    seats = state["seats"]
    if state["over"]:
        return 0.0, 0.0
    if solo.is_solo(state):  # a fixed number of turns (the solo tile)
        return solo.breaks_left(state), float(solo.turns_left(state))
    if state["end"] is not None:
        return 0.0, 1.0
    frac = state["break_pos"] / max(1, state["break_len"])
    cap = T.stall_breaks - state["breaks"] - frac
    lead = max(conservation_value(p["conservation"]) + p["appeal"] + T.scoring.base
               for p in state["players"])
    by_pace = max(0.0, -lead) / PACE
    breaks_left = max(0.0, min(cap, by_pace))
    return breaks_left, breaks_left * TURNS_PER_BREAK.get(seats, 3.0) + 1.0


# --------------------------------------------------------------------------- one zoo
_ICON_COUNTERS = {
    "continents": ("africa", "americas", "asia", "australia", "europe"),
    "classes": ("predator", "herbivore", "primate", "reptile", "bird", "bear", "pet", "sea"),
}


def _count(p: dict, spec: str, zoo_icons) -> int:
    """:func:`scoring.count`, reusing the zoo's icons when the counter is about icons."""
    if zoo_icons is not None:
        if spec.startswith("icon:"):
            return zoo_icons[spec[5:]]
        group = _ICON_COUNTERS.get(spec)
        if group is not None:
            return sum(1 for i in group if zoo_icons[i])
    return count(p, spec)


def final_points(state: dict, p: dict, zoo_icons=None) -> int:
    """Conservation the zoo's final-scoring cards and sponsor awards would give now."""
    pts = []
    for fid in p["final"]:
        c = deck.card(fid)
        value = _count(p, c["counter"], zoo_icons)
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
            awards += min(end["max"], _count(p, end["counter"], zoo_icons) // end["per"])
    return best + awards


def _income(p: dict, layout: dict | None = None) -> tuple[float, float]:
    """Money and appeal the zoo gets at each break."""
    money = appeal_income(p["appeal"]) + (layout or _layout(p))["kiosk"]
    appeal = 0.0
    for sid in p["sponsors"]:
        inc = deck.card(sid).get("income") or {}
        money += inc.get("money", 0)
        appeal += inc.get("appeal", 0) + 0.8 * inc.get("cards", 0) + X_TOKEN * inc.get("x", 0)
    return money, appeal


def _hand_value(state: dict, p: dict, money_w: float, phase: float, zoo_icons,
                layout: dict | None = None, parts: tuple | None = None) -> float:
    """The hand's worth: each card's worth (an animal's net of its cost) times how playable it
    is now, the best ``hand_limit + 2`` cards in full and the rest at a fifth. ``parts`` is
    :func:`_hand_parts` when the caller has it."""
    if parts is None:
        parts = _hand_parts(p, zoo_icons, layout or _layout(p))
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


def _hand_parts(p: dict, zoo_icons, layout: dict) -> tuple:
    """What :func:`_hand_value` needs of each hand card, apart from the clock: ``(cost or
    None, worth, share)``, and how many cards count in full."""
    has_home = layout["homes"]
    cards = []
    for cid in p["hand"]:
        c = deck.card(cid)
        kind = c["type"]
        worth = card_worth(cid)
        if kind == "animal":
            if not meets(p, c.get("requires") or {}, zoo_icons):
                share = HAND_SHARE["none"]
            elif _has_home(has_home, p, cid, c):
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


def _free_spaces(p: dict) -> list[int]:
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


def _enclosure_value(p: dict, money_w: float, layout: dict | None = None) -> float:
    free = (layout or _layout(p))["free"]
    if not free:
        return 0.0
    sizes = _hand_sizes(p)
    return sum(_space_value(size, sizes, money_w) for size in free)


def _hand_sizes(p: dict) -> list[int]:
    return [deck.card(cid)["size"] for cid in p["hand"] if deck.kind(cid) == "animal"]


def _space_value(size: int, hand_sizes: list[int], money_w: float) -> float:
    """A free enclosure of ``size`` spaces: worth its price, more if an animal in hand fits."""
    fits = any(s <= size for s in hand_sizes)
    return money_w * 2 * size * (1.1 if fits else 0.7)


@lru_cache(maxsize=None)
def _levels_best_first(pid: str) -> tuple[int, ...]:
    levels = deck.card(pid)["levels"]
    return tuple(sorted(range(len(levels)), key=lambda i: (-levels[i]["cp"], i)))


def _projects_value(state: dict, seat: int, p: dict, zoo_icons, phase: float,
                    cp_w: float) -> float:
    """Conservation the zoo could get from the projects on offer now, in points (a share)."""
    if p["cubes_used"] >= len(T.association.cube_slots):
        return 0.0
    return PROJECT_SHARE * cp_w * phase * min(_projects_total(state, p, zoo_icons), 12)


def _projects_total_memo(state: dict, p: dict, zoo_icons, icons_key: bytes) -> float | None:
    """:func:`_projects_total` memoized (None when the zoo has no association cube left)."""
    if p["cubes_used"] >= len(T.association.cube_slots):
        return None
    projects = state["base_projects"] + state["project_row"]
    key = b"P" + icons_key + _key((p["supported"], projects,
                                   [state["cubes"].get(x) for x in projects], state["seats"],
                                   state["blocked"]))
    total = _MEMO.get(key)
    if total is None:
        total = _remember(key, _projects_total(state, p, zoo_icons))
    return total


def _projects_total(state: dict, p: dict, zoo_icons) -> float:
    """Conservation of the best open level the zoo meets, summed over the projects on offer
    (it depends on the zoo's icons and animals only, and on the cubes already placed)."""
    from .actions.projects import level_met

    limit = per_players(T.levels_per_project, state["seats"])
    total = 0.0
    for pid in state["base_projects"] + state["project_row"]:
        if pid in p["supported"]:
            continue
        cubes = state["cubes"].get(pid, ())
        if len(cubes) >= limit:
            continue
        taken = {c["level"] for c in cubes} | set(state["blocked"].get(pid, ()))
        project = deck.card(pid)
        for i in _levels_best_first(pid):
            lvl = project["levels"][i]
            if i not in taken and level_met(p, project, lvl["need"], zoo_icons):
                total += lvl["cp"]
                break
    return total


#: Memo of what a zoo's parts imply (layout facts, icons, project levels met), keyed by the
#: exact data they are computed from (at most ``_MEMO_MAX`` entries, then cleared).
_MEMO: dict[bytes, object] = {}
_MEMO_MAX = 20_000


def _remember(key: bytes, value):
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[key] = value
    return value


def _layout(p: dict) -> dict:
    """Facts of the zoo's buildings (a pure function of the map and ``p["buildings"]``):
    kiosk income, the free spaces, and (filled lazily) whether an animal card has a home."""
    key = b"L" + _key((p["map"], p["buildings"]))
    lay = _MEMO.get(key)
    if lay is None:
        kiosk = kiosk_income(p) if any(b["kind"] == "kiosk" for b in p["buildings"]) else 0
        lay = _remember(key, {"kiosk": kiosk, "free": _free_spaces(p), "homes": {}, "key": key})
    return lay


def _has_home(memo: dict, p: dict, cid: str, c: dict) -> bool:
    """``bool(homes(p, c))``, memoized per layout (homes reads the map and buildings only)."""
    found = memo.get(cid)
    if found is None:
        found = memo[cid] = bool(homes(p, c))
    return found


def _icons(p: dict) -> tuple[bytes, object]:
    """``(key, icons(p))``: the zoo's icons, memoized on the data they come from (read only)."""
    key = b"I" + _key((p["animals"], p["sponsors"], p["partners"], p["universities"]))
    found = _MEMO.get(key)
    if found is None:
        found = _remember(key, icons(p))
    return key, found


#: Memo of :func:`_zoo_parts` and of the last value assembled from them: ``[parts,
#: breaks_left, turns_left, value]`` (at most ``_CACHE_MAX`` entries, then cleared).
_CACHE: dict[bytes, list] = {}
_CACHE_MAX = 20_000


def _key(data) -> bytes:
    """16 bytes that identify JSON data: a BLAKE2b digest of its ``orjson`` encoding (several
    times faster than ``marshal``; the digest keeps the memos small in memory)."""
    try:
        raw = orjson.dumps(data)
    except TypeError:
        raw = b"m" + marshal.dumps(data)
    return blake2b(raw, digest_size=16).digest()


def zoo_value(state: dict, seat: int, breaks_left: float, turns_left: float) -> float:
    """One zoo's projected points. What does not depend on the clock is memoized (opponents'
    zoos rarely change during a search, and the clock moves with every point scored)."""
    p = state["players"][seat]
    projects = state["base_projects"] + state["project_row"]
    key = _key((p, projects, [state["cubes"].get(x) for x in projects], state["cp10"],
                state["seats"], state["blocked"]))
    entry = _CACHE.get(key)
    if entry is None:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        entry = _CACHE[key] = [_zoo_parts(state, seat), None, None, 0.0]
    elif entry[1] == breaks_left and entry[2] == turns_left:
        return entry[3]  # the same clock as last time
    v = entry[3] = _assemble(entry[0], breaks_left, turns_left)
    entry[1], entry[2] = breaks_left, turns_left
    return v


def _zoo_value(state: dict, seat: int, breaks_left: float, turns_left: float) -> float:
    """:func:`zoo_value` without the memo."""
    return _assemble(_zoo_parts(state, seat), breaks_left, turns_left)


def _zoo_parts(state: dict, seat: int) -> tuple:
    """Everything of a zoo's value that does not depend on the clock (see :func:`_assemble`)."""
    p = state["players"][seat]
    cp = p["conservation"]
    icons_key, zoo_icons = _icons(p)
    layout = _layout(p)
    fkey = b"F" + icons_key + layout["key"] + _key(
        (p["final"], p["supported"], p["reputation"], p["money"], state["cp10"]))
    fin = _MEMO.get(fkey)
    if fin is None:  # final_points reads these only (every counter of scoring.count)
        fin = _remember(fkey, final_points(state, p, zoo_icons))
    cp_total = cp + fin
    base = p["appeal"] + conservation_value(cp_total) + T.scoring.base
    cp_w = 2.0 if cp_total < 10 else 3.0
    money_in, appeal_in = _income(p, layout)
    rep_cap = T.reputation.max if p["upgraded"]["cards"] else T.reputation.cap_without_cards_upgrade
    assets = (REP * min(p["reputation"], rep_cap, 12)
              + X_TOKEN * p["x"]
              + WORKER * (p["workers"] - 1)
              + UPGRADE * sum(1 for up in p["upgraded"].values() if up)
              + PARTNER * len(p["partners"])
              + UNIVERSITY * len(p["universities"])
              + ICON * sum(zoo_icons.values()))
    sizes = _hand_sizes(p)
    spaces = tuple((size, 1.1 if any(s <= size for s in sizes) else 0.7)
                   for size in layout["free"])
    hkey = b"H" + icons_key + layout["key"] + _key((p["hand"], p["reputation"], p["upgraded"]))
    hand = _MEMO.get(hkey)
    if hand is None:  # _hand_parts reads these only
        hand = _remember(hkey, _hand_parts(p, zoo_icons, layout))
    projects = _projects_total_memo(state, p, zoo_icons, icons_key)
    malus = VENOM * len(p["venom"]) + CONSTRICTION * len(p["constriction"])
    return (base, p["money"], money_in, appeal_in, assets, spaces, hand, projects, cp_w, malus)


def _assemble(parts: tuple, breaks_left: float, turns_left: float) -> float:
    """A zoo's value from its :func:`_zoo_parts` and the clock."""
    base, money, money_in, appeal_in, assets, spaces, hand, projects, cp_w, malus = parts
    phase = min(1.0, turns_left / 8.0)
    money_w = 0.03 + MONEY * min(1.0, turns_left / 5.0)
    v = base
    v += money_w * (money + money_in * breaks_left) + appeal_in * breaks_left
    if phase <= 0:
        return v
    v += phase * assets
    # free enclosures: each worth its price, more if an animal in hand fits (_space_value)
    enclosures = sum(money_w * 2 * size * fit for size, fit in spaces) if spaces else 0.0
    v += enclosures * min(1.0, turns_left / 4.0)
    v += _hand_value(None, None, money_w, phase, None, None, hand)
    v += 0.0 if projects is None else PROJECT_SHARE * cp_w * phase * min(projects, 12)
    v -= malus
    return v


def _pending(state: dict, seat: int, turns_left: float) -> float:
    """What the seat's pending building placements will probably be worth (so that choosing
    a building is scored before its placement is)."""
    total = 0.0
    money_w = None
    for frame in state["stack"]:
        if frame["kind"] != "place" or frame["seat"] != seat:
            continue
        if money_w is None:
            money_w = 0.03 + MONEY * min(1.0, turns_left / 5.0)
        spec = building_spec(frame["building"])
        total -= money_w * frame["cost"]
        if spec.kind in ("enclosure", "special"):
            total += _space_value(spec.size, _hand_sizes(state["players"][seat]),
                                  money_w) * min(1.0, turns_left / 4.0)
        total += spec.appeal
        if spec.kind == "kiosk":
            total += 0.5
    return total


# --------------------------------------------------------------------------- the evaluator
def value(state: dict, seat: int) -> float:
    """The seat's projected victory points minus the best other seat's (see module doc)."""
    if state["over"]:
        from . import GAME

        return final_value(GAME, state, seat) or 0.0
    breaks_left, turns_left = clock(state)
    mine = zoo_value(state, seat, breaks_left, turns_left) + _pending(state, seat, turns_left)
    others = [zoo_value(state, s, breaks_left, turns_left)
              for s in range(state["seats"]) if s != seat]
    return mine - max(others, default=0.0)  # solo: the projected score itself (the goal: >= 0)


def own_followup(state: dict, seat: int) -> bool:
    """True while ``seat`` is inside its own chained move (not at the start of a new turn)."""
    stack = state["stack"]
    if not stack:
        return False
    frame = stack[-1]
    if frame["kind"] == "turn":
        return False
    return list(HANDLERS[frame["kind"]].seats(state, frame)) == [seat]


# --------------------------------------------------------------------------- shortlists
def _placement_score(state: dict, seat: int, frame: dict, cells: list) -> float:
    p = state["players"][seat]
    zmap = zoo_map(p)
    cells_t = [tuple(c) for c in cells]
    score = 0.0
    for c in cells_t:
        g = zmap.bonuses.get(c)
        if g:
            score += 2.0 * sum(g.values())
    occupied = {tuple(c) for b in p["buildings"] for c in b["cells"]}
    own = set(cells_t)
    # compact zoos keep room for big buildings: count neighbours already used or off the land
    for c in cells_t:
        for n in zmap.nbrs[c]:
            if n in occupied or n not in zmap.land:
                score += 0.3
        if c in zmap.edge:
            score += 0.15
    btype = frame["building"]
    if btype.startswith("enclosure") or btype in ("petting_zoo", "reptile_house", "aviary"):
        b = {"cells": [list(c) for c in cells_t]}
        water, rock = touching(p, b, "water"), touching(p, b, "rock")
        needs = [deck.card(cid).get("requires") or {} for cid in p["hand"]
                 if deck.kind(cid) == "animal"]
        for req in needs:
            if (req.get("water") or 0) and water >= req["water"]:
                score += 1.5
            if (req.get("rock") or 0) and rock >= req["rock"]:
                score += 1.5
        score += 0.1 * (water + rock)
    elif btype == "kiosk":
        from .placement import adjacent_cells

        by_cell = {tuple(c): b for b in p["buildings"] for c in b["cells"]}
        near = {by_cell[c]["id"] for c in adjacent_cells(zmap, cells_t) - own if c in by_cell}
        score += 1.5 * len(near)
    del own
    return score


def shortlist(state: dict, seat: int, legal: list, k: int) -> list:
    """At most ``k`` of ``legal`` (the same objects, in legal order) worth simulating."""
    frame = state["stack"][-1] if state["stack"] else None
    kind = frame["kind"] if frame else None
    if kind == "place":
        places = [a for a in legal if a["type"] == "place"]
        rest = [a for a in legal if a["type"] not in ("place", "back")]  # never walk back
        scored = sorted(range(len(places)),
                        key=lambda i: (-_placement_score(state, seat, frame, places[i]["cells"]), i))
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


# --------------------------------------------------------------------------- copying states
#: The keys of a building in a zoo (``actions/build.py``); only its ``animals`` list and
#: ``used`` count ever change after it is placed, its ``cells`` never do.
_BUILDING_KEYS = frozenset(("id", "type", "kind", "cells", "animals", "used"))


def clone_state(state: dict) -> dict:
    """A copy of a state for the bots' simulated moves, faster than a JSON round trip of the
    whole state: the buildings (half of a state) are copied by hand, sharing their ``cells``,
    which the engine never changes in place; everything else goes through ``orjson``.
    Equal to ``clone(state)``, and nothing the engine mutates is shared."""
    players = state["players"]
    out = fast_clone({**state, "players": [{**p, "buildings": None} for p in players]})
    for p, q in zip(players, out["players"]):
        copies = []
        for b in p["buildings"]:
            if len(b) == len(_BUILDING_KEYS):  # the known keys (tests/engine/test_bots.py)
                b = b.copy()
                b["animals"] = b["animals"][:]
            else:  # a building this copy does not know: copy it all
                b = fast_clone(b)
            copies.append(b)
        q["buildings"] = copies
    return out


EVALUATOR = register_evaluator("arknova", Evaluator(value=value, own_followup=own_followup,
                                                    shortlist=shortlist, clone=clone_state))
