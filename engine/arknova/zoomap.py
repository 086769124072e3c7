"""Zoo maps and building types, loaded from the game's data files and validated on load.

``data/maps/*.json`` holds the maps, ``data/buildings.json`` the buildings a zoo can build.
Both are read once, when this module is imported (the engine does no other I/O), and validated
with pydantic models; anything wrong raises ``ValueError`` naming the file and the field, e.g.
``.../maps/riverside.json: bonuses[2].gain: a gain has exactly one of ...``.

:func:`load_maps` and :func:`load_buildings` return the packaged data (cached); pass a
directory / file to read other data (tests, tools) — that is not cached.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from . import hexes
from .hexes import Cell

DATA_DIR = Path(__file__).resolve().parent / "data"
MAPS_DIR = DATA_DIR / "maps"
BUILDINGS_FILE = DATA_DIR / "buildings.json"

#: A map must leave at least this many land cells (water and rock excluded) to build on.
MIN_BUILDABLE = 38
#: The keys a placement-bonus gain may have (exactly one per gain).
GAIN_KEYS = ("money", "cards", "x", "reputation", "upgrade", "worker", "appeal")
BUILDING_KINDS = ("enclosure", "kiosk", "pavilion", "special")
TERRAINS = ("water", "rock")


# --------------------------------------------------------------------------- pydantic models
def _grid_cell(cell: tuple[int, int]) -> tuple[int, int]:
    x, y = cell
    if not hexes.has_parity(cell):
        raise ValueError(f"cell {[x, y]} has x + y even; map cells have x + y odd")
    if not hexes.on_grid(cell):
        raise ValueError(f"cell {[x, y]} is off the grid (x 0..{hexes.COLUMNS - 1}, "
                         f"y 0..{hexes.ROWS - 1})")
    return (x, y)


def _shape_cell(cell: tuple[int, int]) -> tuple[int, int]:
    x, y = cell
    if not hexes.has_parity(cell):
        raise ValueError(f"cell {[x, y]} has x + y even; shape cells have x + y odd")
    return (x, y)


GridCell = Annotated[tuple[int, int], AfterValidator(_grid_cell)]
ShapeCell = Annotated[tuple[int, int], AfterValidator(_shape_cell)]
Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
Positive = Annotated[int, Field(ge=1)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class GainModel(_Model):
    money: Positive | None = None
    cards: Positive | None = None
    x: Positive | None = None
    reputation: Positive | None = None
    upgrade: Literal[1] | None = None
    worker: Literal[1] | None = None
    appeal: Positive | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> GainModel:
        if len(self.as_dict()) != 1:
            raise ValueError(f"a gain has exactly one of the keys {', '.join(GAIN_KEYS)}")
        return self

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class BonusModel(_Model):
    cell: GridCell
    gain: GainModel


class AbilityModel(_Model):
    keyword: Ident
    value: Any = None


class MapModel(_Model):
    id: Ident
    name: Annotated[str, Field(min_length=1)]
    description: str
    water: list[GridCell]
    rock: list[GridCell]
    upgrade_only: list[GridCell]
    bonuses: list[BonusModel]
    ability: AbilityModel | None = None

    @model_validator(mode="after")
    def _consistent(self) -> MapModel:
        groups = {
            "water": list(self.water),
            "rock": list(self.rock),
            "upgrade_only": list(self.upgrade_only),
            "bonuses": [b.cell for b in self.bonuses],
        }
        owner: dict[Cell, str] = {}
        for name, cells in groups.items():
            for i, cell in enumerate(cells):
                where = f"{name}[{i}]" + (".cell" if name == "bonuses" else "")
                if cell in owner:
                    other = owner[cell]
                    what = "listed twice" if other == name else f"also in {other}"
                    raise ValueError(f"{where}: cell {list(cell)} is {what}")
                owner[cell] = name
        blocked = set(self.water) | set(self.rock)
        land = hexes.GRID_SET - blocked
        if len(land) < MIN_BUILDABLE:
            raise ValueError(f"water, rock: only {len(land)} buildable cells are left; a map "
                             f"needs at least {MIN_BUILDABLE}")
        unreachable = land - _reachable_from_edge(hexes.GRID_SET, land)
        if unreachable:
            cells = [list(c) for c in sorted(unreachable)]
            raise ValueError(f"water, rock: land cells {cells} cannot be reached from the map "
                             f"edge through land")
        return self


class BuildingModel(_Model):
    id: Ident
    name: Annotated[str, Field(min_length=1)]
    kind: Literal["enclosure", "kiosk", "pavilion", "special"]
    size: Positive
    shape: list[ShapeCell]
    appeal: Annotated[int, Field(ge=0)]
    needs_upgrade: bool
    unique: bool
    capacity: Positive | None

    @model_validator(mode="after")
    def _consistent(self) -> BuildingModel:
        if len(set(self.shape)) != len(self.shape):
            raise ValueError(f"shape: building {self.id!r} lists a cell twice")
        if len(self.shape) != self.size:
            raise ValueError(f"shape: building {self.id!r} has {len(self.shape)} cells but "
                             f"size {self.size}")
        if not hexes.is_connected(self.shape):
            raise ValueError(f"shape: building {self.id!r} is not one connected polyhex")
        if self.kind == "special" and self.capacity is None:
            raise ValueError(f"capacity: special enclosure {self.id!r} needs a capacity")
        if self.kind != "special" and self.capacity is not None:
            raise ValueError(f"capacity: only special enclosures have a capacity "
                             f"({self.id!r} is of kind {self.kind!r})")
        return self


_BUILDINGS_ADAPTER = TypeAdapter(list[BuildingModel])


# --------------------------------------------------------------------------- runtime objects
@dataclass(frozen=True)
class Building:
    """A building type: one orientation of its shape; see :attr:`orientations` for all."""

    id: str
    name: str
    kind: str
    size: int
    shape: tuple[Cell, ...]
    appeal: int
    needs_upgrade: bool
    unique: bool
    capacity: int | None

    @property
    def orientations(self) -> list[tuple[Cell, ...]]:
        return hexes.orientations(self.shape)

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": self.kind, "size": self.size,
                "shape": [list(c) for c in self.shape], "appeal": self.appeal,
                "needs_upgrade": self.needs_upgrade, "unique": self.unique,
                "capacity": self.capacity}


@dataclass(frozen=True)
class ZooMap:
    """One zoo map. ``edge``: cells with fewer than 6 neighbours on the map; ``nbrs``: each
    cell's on-map neighbours; ``land``: cells that are neither water nor rock; ``cell_index``:
    a bit number per cell (for fast set arithmetic in :mod:`.placement`)."""

    id: str
    name: str
    description: str
    cells: frozenset[Cell]
    water: frozenset[Cell]
    rock: frozenset[Cell]
    upgrade_only: frozenset[Cell]
    bonuses: dict[Cell, dict[str, int]]
    ability: dict | None
    edge: frozenset[Cell] = field(init=False)
    nbrs: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False)
    land: frozenset[Cell] = field(init=False, repr=False)
    cell_index: dict[Cell, int] = field(init=False, repr=False, compare=False)
    #: footprints per building, filled by :func:`.placement.footprints`
    _footprints: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        nbrs = {c: tuple(n for n in hexes.neighbours(c) if n in self.cells)
                for c in sorted(self.cells)}
        setattr_ = object.__setattr__
        setattr_(self, "nbrs", nbrs)
        setattr_(self, "edge", frozenset(c for c, ns in nbrs.items() if len(ns) < 6))
        setattr_(self, "land", frozenset(self.cells - self.water - self.rock))
        setattr_(self, "cell_index", {c: i for i, c in enumerate(sorted(self.cells))})

    def __hash__(self) -> int:
        return hash((self.id, self.water, self.rock, self.upgrade_only))

    def terrain(self, cell: Cell) -> str:
        """``"water"``, ``"rock"`` or ``"land"``."""
        cell = (cell[0], cell[1])
        if cell in self.water:
            return "water"
        if cell in self.rock:
            return "rock"
        if cell in self.cells:
            return "land"
        raise ValueError(f"cell {list(cell)} is not on map {self.id!r}")

    def as_dict(self) -> dict:
        """The map as JSON data (the file format, plus ``cells`` and ``edge``)."""
        def cells(group: Iterable[Cell]) -> list[list[int]]:
            return [list(c) for c in sorted(group)]
        return {"id": self.id, "name": self.name, "description": self.description,
                "cells": cells(self.cells), "edge": cells(self.edge),
                "water": cells(self.water), "rock": cells(self.rock),
                "upgrade_only": cells(self.upgrade_only),
                "bonuses": [{"cell": list(c), "gain": dict(g)}
                            for c, g in sorted(self.bonuses.items())],
                "ability": None if self.ability is None else dict(self.ability)}


# --------------------------------------------------------------------------- loading
def _reachable_from_edge(cells: frozenset[Cell], land: set[Cell] | frozenset[Cell]) -> set[Cell]:
    """Land cells connected through land to a land cell on the edge of ``cells``."""
    edge = [c for c in land if sum(n in cells for n in hexes.neighbours(c)) < 6]
    seen = set(edge)
    stack = list(edge)
    while stack:
        for n in hexes.neighbours(stack.pop()):
            if n in land and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _errors(path: Path, exc: ValidationError, prefix: str = "") -> ValueError:
    lines = []
    for err in exc.errors(include_url=False):
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        where = _loc(err["loc"])
        if prefix:
            where = prefix + (where if where.startswith("[") or not where else "." + where)
        # errors from a whole-model check already start with the field they concern
        lines.append(f"{path}: {where + ': ' if where else ''}{msg}")
    return ValueError("\n".join(lines))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror})") from None


def load_map(path: str | Path) -> ZooMap:
    """Read and validate one map file (not cached)."""
    path = Path(path)
    try:
        model = MapModel.model_validate_json(_read(path))
    except ValidationError as exc:
        raise _errors(path, exc) from None
    if model.id != path.stem:
        raise ValueError(f"{path}: id: {model.id!r} does not match the file name {path.name!r}")
    return ZooMap(
        id=model.id,
        name=model.name,
        description=model.description,
        cells=hexes.GRID_SET,
        water=frozenset(model.water),
        rock=frozenset(model.rock),
        upgrade_only=frozenset(model.upgrade_only),
        bonuses={b.cell: b.gain.as_dict() for b in sorted(model.bonuses, key=lambda b: b.cell)},
        ability=None if model.ability is None else model.ability.model_dump(),
    )


def _read_maps(directory: Path) -> dict[str, ZooMap]:
    files = sorted(directory.glob("*.json"))
    if not files:
        raise ValueError(f"{directory}: no map files (*.json)")
    return {m.id: m for m in map(load_map, files)}


def _read_buildings(path: Path) -> dict[str, Building]:
    try:
        models = _BUILDINGS_ADAPTER.validate_json(_read(path), strict=True)
    except ValidationError as exc:
        raise _errors(path, exc, prefix="buildings") from None
    out: dict[str, Building] = {}
    for i, m in enumerate(models):
        if m.id in out:
            raise ValueError(f"{path}: buildings[{i}].id: {m.id!r} is used twice")
        out[m.id] = Building(id=m.id, name=m.name, kind=m.kind, size=m.size,
                             shape=hexes.normalize(m.shape), appeal=m.appeal,
                             needs_upgrade=m.needs_upgrade, unique=m.unique,
                             capacity=m.capacity)
    if not out:
        raise ValueError(f"{path}: buildings: the list is empty")
    return out


def load_maps(directory: str | Path | None = None) -> dict[str, ZooMap]:
    """Every map by id (sorted). Without ``directory``: the packaged maps, read at import."""
    if directory is None:
        return dict(_MAPS)
    return _read_maps(Path(directory))


def load_buildings(path: str | Path | None = None) -> dict[str, Building]:
    """Every building type by id, in file order. Without ``path``: the packaged buildings."""
    if path is None:
        return dict(_BUILDINGS)
    return _read_buildings(Path(path))


def get_map(map_id: str) -> ZooMap:
    """A packaged map by id; ``KeyError`` if there is none."""
    return _MAPS[map_id]


def get_building(building_id: str) -> Building:
    """A packaged building type by id; ``KeyError`` if there is none."""
    return _BUILDINGS[building_id]


# Read the packaged data once, at import: the only I/O the engine does.
_MAPS: dict[str, ZooMap] = _read_maps(MAPS_DIR)
_BUILDINGS: dict[str, Building] = _read_buildings(BUILDINGS_FILE)
