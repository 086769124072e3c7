"""Placement rules of the zoo map (spec §4.1 and §6), as pure functions.

The game keeps each zoo's buildings as JSON ``{"kind", "id", "cells": [[x, y], ...], ...}``;
:func:`zoo_cells` turns such a list into the ``occupied`` and ``kiosk_cells`` sets the rules take.
Cells may be given as tuples or as ``[x, y]`` lists; results are always tuples.

Every position of every orientation of a building that lies on the map's land is computed once
per (map, building) (:func:`footprints`); :func:`legal_placements` then only filters those with
bit-mask set arithmetic.

What these functions do NOT check (the caller's job): the action's strength, the money, Build II
for ``needs_upgrade`` buildings, and "at most one per zoo" for ``unique`` ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .hexes import Cell
from .zoomap import TERRAINS, Building, ZooMap, get_building

#: Two kiosks must be at least this many hex steps apart (two free spaces between them).
KIOSK_DISTANCE = 3

#: The reasons :func:`placement_problem` gives, with a sentence for each.
PROBLEMS = {
    "off_map": "That space is not on the map.",
    "not_land": "Buildings go on land only, never on water or rock.",
    "wrong_shape": "Those spaces do not form this building's shape.",
    "occupied": "A building already stands there.",
    "upgrade_only": "Building on an upgrade-only space needs the upgraded Build action.",
    "not_at_edge": "The first building of a zoo must touch the edge of the map.",
    "not_adjacent": "A new building must be adjacent to a building already in the zoo.",
    "kiosk_too_close": "Kiosks need two free spaces between them.",
}


@dataclass(frozen=True, slots=True)
class Footprint:
    """One position of one orientation of a building on a map (all cells on land)."""

    cells: tuple[Cell, ...]          #: sorted
    touches_edge: bool               #: some cell lies on the map edge
    uses_upgrade_only: bool          #: some cell is an upgrade-only space
    adjacent: frozenset[Cell]        #: on-map cells sharing an edge with it (not its own)
    mask: int                        #: bit mask of ``cells`` (see ``ZooMap.cell_index``)
    adjacent_mask: int               #: bit mask of ``adjacent``
    near_mask: int                   #: cells closer than KIOSK_DISTANCE to it (own included)

    @property
    def cellset(self) -> frozenset[Cell]:
        return frozenset(self.cells)


# --------------------------------------------------------------------------- helpers
def _cell(c: Sequence[int]) -> Cell:
    return (c[0], c[1])


def _cells(cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
    return tuple(sorted({(c[0], c[1]) for c in cells}))


def _building(building: Building | str) -> Building:
    return get_building(building) if isinstance(building, str) else building


def _mask(zmap: ZooMap, cells: Iterable[Sequence[int]]) -> int:
    index = zmap.cell_index
    m = 0
    try:
        for c in cells:
            m |= 1 << index[(c[0], c[1])]
    except KeyError as exc:
        raise ValueError(f"cell {list(exc.args[0])} is not on map {zmap.id!r}") from None
    return m


def zoo_cells(buildings: Iterable[dict]) -> tuple[set[Cell], set[Cell]]:
    """``(occupied, kiosk_cells)`` of a zoo kept as JSON buildings ``{"kind", "cells", ...}``."""
    occupied: set[Cell] = set()
    kiosks: set[Cell] = set()
    for b in buildings:
        cells = {_cell(c) for c in b["cells"]}
        occupied |= cells
        if b.get("kind") == "kiosk":
            kiosks |= cells
    return occupied, kiosks


# --------------------------------------------------------------------------- footprints
def _near_masks(zmap: ZooMap) -> dict[Cell, int]:
    """Per cell, the mask of the map cells at distance < KIOSK_DISTANCE (cached on the map)."""
    near = zmap._footprints.get("near")
    if near is None:
        near = {}
        for c in zmap.cells:
            ring = {c}
            for _ in range(KIOSK_DISTANCE - 1):
                ring |= {n for d in ring for n in zmap.nbrs[d]}
            near[c] = _mask(zmap, ring)
        zmap._footprints["near"] = near
    return near


def _compute(zmap: ZooMap, building: Building) -> tuple[Footprint, ...]:
    land, index = zmap.land, zmap.cell_index
    near = _near_masks(zmap)
    out = []
    for shape in building.orientations:
        ax, ay = shape[0]
        for tx, ty in zmap.cells:           # put the shape's first cell on every map cell
            dx, dy = tx - ax, ty - ay      # dx + dy is even: both cells have x + y odd
            cells = tuple((x + dx, y + dy) for x, y in shape)
            if not all(c in land for c in cells):
                continue
            own = set(cells)
            adjacent = frozenset(n for c in cells for n in zmap.nbrs[c] if n not in own)
            nm = 0
            for c in cells:
                nm |= near[c]
            out.append(Footprint(
                cells=tuple(sorted(cells)),
                touches_edge=any(c in zmap.edge for c in cells),
                uses_upgrade_only=any(c in zmap.upgrade_only for c in cells),
                adjacent=adjacent,
                mask=sum(1 << index[c] for c in cells),
                adjacent_mask=sum(1 << index[c] for c in adjacent),
                near_mask=nm,
            ))
    out.sort(key=lambda fp: fp.cells)
    return tuple(out)


def footprints(zmap: ZooMap, building: Building | str) -> tuple[Footprint, ...]:
    """Every position of every orientation of ``building`` fully on ``zmap``'s land, sorted by
    cells. Computed once per (map, building) and cached on the map."""
    building = _building(building)
    cache = zmap._footprints
    entry = cache.get(building)
    if entry is None:
        fps = _compute(zmap, building)
        entry = cache[building] = (fps, {fp.cells: fp for fp in fps})
    return entry[0]


def _by_cells(zmap: ZooMap, building: Building) -> dict[tuple[Cell, ...], Footprint]:
    footprints(zmap, building)
    return zmap._footprints[building][1]


# --------------------------------------------------------------------------- the rules
def legal_placements(zmap: ZooMap, building: Building | str,
                     occupied: Iterable[Sequence[int]], kiosk_cells: Iterable[Sequence[int]],
                     build_upgraded: bool) -> list[tuple[Cell, ...]]:
    """Every legal position of ``building`` (each a sorted tuple of cells), sorted.

    Rules: free land cells only; the first building of a zoo (``occupied`` empty) touches the
    map edge, every later one is adjacent to an occupied cell; upgrade-only cells only with
    ``build_upgraded``; a kiosk keeps hex distance >= 3 from every cell in ``kiosk_cells``.
    """
    building = _building(building)
    fps = footprints(zmap, building)
    occ = _mask(zmap, occupied)
    need_edge = occ == 0
    kiosks = _mask(zmap, kiosk_cells) if building.kind == "kiosk" else 0
    return [
        fp.cells for fp in fps
        if not fp.mask & occ
        and (fp.touches_edge if need_edge else fp.adjacent_mask & occ)
        and (build_upgraded or not fp.uses_upgrade_only)
        and not fp.near_mask & kiosks
    ]


def placement_problem(zmap: ZooMap, building: Building | str, cells: Iterable[Sequence[int]],
                      occupied: Iterable[Sequence[int]], kiosk_cells: Iterable[Sequence[int]],
                      build_upgraded: bool) -> str | None:
    """Why ``building`` may not go on ``cells`` (a key of :data:`PROBLEMS`), or None if legal.

    Agrees with :func:`legal_placements`: None exactly for the positions it lists.
    """
    building = _building(building)
    cells = _cells(cells)
    if not all(c in zmap.cells for c in cells):
        return "off_map"
    if any(c not in zmap.land for c in cells):
        return "not_land"
    fp = _by_cells(zmap, building).get(cells)
    if fp is None:
        return "wrong_shape"
    occ = _mask(zmap, occupied)
    if fp.mask & occ:
        return "occupied"
    if fp.uses_upgrade_only and not build_upgraded:
        return "upgrade_only"
    if occ == 0 and not fp.touches_edge:
        return "not_at_edge"
    if occ and not fp.adjacent_mask & occ:
        return "not_adjacent"
    if building.kind == "kiosk" and fp.near_mask & _mask(zmap, kiosk_cells):
        return "kiosk_too_close"
    return None


def is_legal_placement(zmap: ZooMap, building: Building | str, cells: Iterable[Sequence[int]],
                       occupied: Iterable[Sequence[int]], kiosk_cells: Iterable[Sequence[int]],
                       build_upgraded: bool) -> bool:
    return placement_problem(zmap, building, cells, occupied, kiosk_cells, build_upgraded) is None


# --------------------------------------------------------------------------- neighbourhood
def adjacent_cells(zmap: ZooMap, cells: Iterable[Sequence[int]]) -> frozenset[Cell]:
    """On-map cells sharing an edge with ``cells``, not counting ``cells`` themselves."""
    own = {_cell(c) for c in cells}
    nbrs = zmap.nbrs
    return frozenset(n for c in own for n in nbrs.get(c, ()) if n not in own)


def touching(zmap: ZooMap, cells: Iterable[Sequence[int]], terrain: str) -> int:
    """How many distinct ``terrain`` ("water" or "rock") cells are adjacent to ``cells``."""
    if terrain not in TERRAINS:
        raise ValueError(f"terrain must be one of {TERRAINS}, not {terrain!r}")
    group = zmap.water if terrain == "water" else zmap.rock
    return len(adjacent_cells(zmap, cells) & group)


def bonuses_covered(zmap: ZooMap, cells: Iterable[Sequence[int]]) -> list[dict[str, int]]:
    """The gains of the placement-bonus cells among ``cells`` (in cell order; copies)."""
    return [dict(zmap.bonuses[c]) for c in _cells(cells) if c in zmap.bonuses]
