"""Questions about one player's zoo: icons, enclosures, buildings, where an animal may live."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from . import placement
from .deck import card
from .tables import T
from .zoomap import load_buildings, load_maps

CONTINENTS = ("africa", "americas", "asia", "australia", "europe")


def zoo_map(player: dict):
    return load_maps()[player["map"]]


def building_spec(btype: str):
    """The building type ``btype``: a standard building or a sponsor's unique one."""
    builds = load_buildings()
    if btype in builds:
        return builds[btype]
    return sponsor_building(btype)


_SPONSOR_BUILDINGS: dict = {}


def sponsor_buildings() -> list[str]:
    """The ids of the sponsors' unique buildings."""
    _load_sponsor_buildings()
    return sorted(_SPONSOR_BUILDINGS)


def sponsor_building(btype: str):
    _load_sponsor_buildings()
    return _SPONSOR_BUILDINGS[btype]


def _load_sponsor_buildings() -> None:
    if not _SPONSOR_BUILDINGS:
        from .deck import all_cards
        from .zoomap import Building

        for _cid, c in all_cards().items():
            b = c.get("building") if c["type"] == "sponsor" else None
            if b:
                shape = tuple(tuple(cell) for cell in b["shape"])
                _SPONSOR_BUILDINGS[b["id"]] = Building(
                    id=b["id"], name=b["name"], kind="sponsor", size=len(shape), shape=shape,
                    appeal=b.get("appeal", 0), needs_upgrade=False, unique=True, capacity=None)


# --------------------------------------------------------------------------- read-only memo
_READING = threading.local()


@contextmanager
def reading() -> Iterator[None]:
    """Within this block nobody changes the state being asked about, so :func:`icons`,
    :func:`homes` and the zoo's occupied cells (for :func:`placements`) are computed once per
    player (by identity) and then remembered until the block ends.

    Listing the legal answers and the hints ask the same zoo the same questions many times
    (every building type's placements, every hand card's homes, the icons for each card);
    ``legal_actions`` and ``hints`` run inside this block. It nests (the outermost block owns
    the memo), is per thread, and must never wrap code that changes a state: ``apply``'s
    handlers run outside it. The answers are shared: callers never change them.
    (:func:`start_reading` and :func:`stop_reading` are the same without a generator, for the
    hot paths.)
    """
    opened = start_reading()
    try:
        yield
    finally:
        stop_reading(opened)


def start_reading() -> bool:
    """Open a :func:`reading` block; True when this call opened it (pass it to
    :func:`stop_reading`)."""
    if getattr(_READING, "memo", None) is not None:
        return False
    _READING.memo = {}
    return True


def stop_reading(opened: bool) -> None:
    if opened:
        _READING.memo = None


def _memo() -> dict | None:
    return getattr(_READING, "memo", None)


def in_reading() -> bool:
    """True inside a :func:`reading` block (of this thread)."""
    return _memo() is not None


def icons(player: dict) -> Counter:
    """Every icon the zoo shows: animals, sponsors, partner zoos and universities (science).

    A partner zoo is one icon of its continent for everything that counts icons (animal and
    sponsor requirements, projects, final scoring, abilities), as in the published rulebook's
    association section (issue #32); a card's "partner zoo of continent X" requirement
    (:func:`meets`) and the animal discount (:func:`animal_cost`) also read it, separately.
    A university gives the science icons ``tables.json`` lists for it (the library: none)."""
    memo = _memo()
    if memo is None:
        return _icons(player)
    key = ("icons", id(player))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _icons(player)
        memo[("keep", id(player))] = player  # the id stays this player's while remembered
    return found


def _icons(player: dict) -> Counter:
    out: Counter = Counter()
    for a in player["animals"]:
        c = card(a["card"])
        if c.get("continent"):
            out[c["continent"]] += 1
        for cls in c["classes"]:
            out[cls] += 1
    for sid in player["sponsors"]:
        for icon in card(sid).get("icons") or ():
            out[icon] += 1
    for cont in player["partners"]:
        out[cont] += 1
    unis = T.association.universities
    for u in player["universities"]:
        if unis[u].science:
            out["science"] += unis[u].science
    return out


def occupied_cells(player: dict) -> set:
    return {tuple(c) for b in player["buildings"] for c in b["cells"]}


def kiosk_cells(player: dict) -> set:
    return {tuple(c) for b in player["buildings"] if b["kind"] == "kiosk" for c in b["cells"]}


def has_building(player: dict, btype: str) -> bool:
    return any(b["type"] == btype for b in player["buildings"])


#: Memo of :func:`placements` (a pure function of map, building, Build II and the zoo's cells).
_PLACEMENTS: dict = {}
_PLACEMENTS_MAX = 50_000


def placements(player: dict, btype: str, build_upgraded: bool) -> list:
    """Every legal position of ``btype`` in the zoo (sorted cell tuples; do not mutate)."""
    occupied, kiosks = _cells_of(player["buildings"])
    key = (player["map"], btype, bool(build_upgraded), occupied, kiosks)
    found = _PLACEMENTS.get(key)
    if found is None:
        if len(_PLACEMENTS) >= _PLACEMENTS_MAX:
            _PLACEMENTS.clear()
        found = _PLACEMENTS[key] = placement.legal_placements(
            zoo_map(player), building_spec(btype), occupied, kiosks, build_upgraded)
    return found


def _cells_of(buildings: list) -> tuple[frozenset, frozenset]:
    """The zoo's occupied cells and its kiosks' cells (remembered inside :func:`reading`)."""
    memo = _memo()
    if memo is not None:
        found = memo.get(("cells", id(buildings)))
        if found is not None:
            return found[0], found[1]
    occupied = frozenset(tuple(c) for b in buildings for c in b["cells"])
    kiosks = frozenset(tuple(c) for b in buildings if b["kind"] == "kiosk" for c in b["cells"])
    if memo is not None:
        memo[("cells", id(buildings))] = (occupied, kiosks, buildings)
    return occupied, kiosks


def touching(player: dict, building: dict, terrain: str) -> int:
    cells = [tuple(c) for c in building["cells"]]
    return placement.touching(zoo_map(player), cells, terrain)


def building_by_id(player: dict, bid: int) -> dict:
    for b in player["buildings"]:
        if b["id"] == bid:
            return b
    raise KeyError(bid)


def capacity(building: dict) -> int:
    return building_spec(building["type"]).capacity or 0


def homes(player: dict, c: dict) -> list:
    """Where animal card ``c`` could live now: building ids, or None for a flock animal (do
    not change the list)."""
    memo = _memo()
    if memo is None:
        return _homes(player, c)
    key = ("homes", id(player), id(c))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _homes(player, c)
        memo[("keep", id(player))] = player
        memo[("keep", id(c))] = c
    return found


def _homes(player: dict, c: dict) -> list:
    req = c.get("requires") or {}
    water, rock = req.get("water") or 0, req.get("rock") or 0
    special = c.get("special")
    out = []
    for b in player["buildings"]:
        if b["kind"] == "enclosure":
            if special and special.get("only"):
                continue
            if b["animals"] or len(b["cells"]) < c["size"]:
                continue
        elif b["kind"] == "special":
            if not special or special["enclosure"] != b["type"]:
                continue
            if capacity(b) - b["used"] < special["spaces"]:
                continue
        else:
            continue
        if water and touching(player, b, "water") < water:
            continue
        if rock and touching(player, b, "rock") < rock:
            continue
        out.append(b["id"])
    if any(a.get("keyword") == "flock" for a in c.get("abilities") or ()) and flock_host(player):
        out.append(None)
    return out


def flock_host(player: dict) -> bool:
    """A standard enclosure of size 4+ that holds a herbivore."""
    for b in player["buildings"]:
        if b["kind"] == "enclosure" and len(b["cells"]) >= 4 and b["animals"]:
            if any("herbivore" in card(a)["classes"] for a in b["animals"]):
                return True
    return False


def meets(player: dict, req: dict, zoo_icons: Counter | None = None) -> bool:
    """Non-enclosure requirements of a card: icons, partner zoo, science, reputation, upgrade."""
    if not req:
        return True
    if zoo_icons is None:
        zoo_icons = icons(player)
    for icon, n in (req.get("icons") or {}).items():
        if zoo_icons[icon] < n:
            return False
    if req.get("partner") and req["partner"] not in player["partners"]:
        return False
    if (req.get("science") or 0) > zoo_icons["science"]:
        return False
    if (req.get("reputation") or 0) > player["reputation"]:
        return False
    if req.get("upgraded") and not player["upgraded"][req["upgraded"]]:
        return False
    return True


def animal_cost(player: dict, c: dict) -> int:
    cost = c["cost"]
    if c.get("continent") in player["partners"]:
        cost -= T.association.partner_discount
    return max(0, cost)


def hand_limit(player: dict) -> int:
    unis = T.association.universities
    return max([T.hand_limit] + [unis[u].hand_limit for u in player["universities"]])


def active_workers(player: dict) -> int:
    return player["workers"] - player["placed"]
