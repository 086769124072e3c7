"""The zoo builder's original card set: pydantic models, a validating loader, a catalog.

The cards live in ``engine/arknova/data/cards/*.json`` (one JSON list per file). ``load_content()``
reads and checks them once (cached) and returns a :class:`Content`. Any problem raises
:class:`ContentError` (a ``ValueError``) whose message names the file, the card id and the field,
for example ``animals.json: A012: abilities.0.keyword: unknown ability keyword 'flying'``.

The vocabulary (icons, gain keys, ability keywords and the form of their values, counters,
trigger events) is defined in :mod:`engine.arknova.keywords`.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from . import keywords as K
from .cardfields import (Action, ClassIcon, Continent, Counter, Gains, Icon, IconCounts, Int0,
                         Int1, Name, check_class, check_continent, field_error)

DATA_DIR = Path(__file__).resolve().parent / "data" / "cards"

FILES = {
    "animals": "animals.json",
    "sponsors": "sponsors.json",
    "projects": "projects.json",
    "final_scoring": "final_scoring.json",
    "bonus_tiles": "bonus_tiles.json",
}

ID_PATTERNS = {
    "animal": re.compile(r"A(?!000)\d{3}"),
    "sponsor": re.compile(r"S(?!000)\d{3}"),
    "project": re.compile(r"P(?!000)\d{3}"),
    "base_project": re.compile(r"B(?!00)\d{2}"),
    "final_scoring": re.compile(r"F(?!00)\d{2}"),
    "bonus_tile": re.compile(r"T(?!00)\d{2}"),
}

BUILDING_ID = re.compile(r"[a-z][a-z0-9_]*")
#: Ids of the standard buildings; a sponsor's unique building must not reuse them.
RESERVED_BUILDING_IDS = frozenset(
    {f"enclosure_{n}" for n in range(1, 6)} | set(K.BUILDING_KINDS) | set(K.SPECIAL_ENCLOSURES))


class ContentError(ValueError):
    """A card file is malformed: the message names the file, the card and the field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- shared parts
class Ability(_Model):
    """An ability keyword with its value: ``{"keyword": "sprint", "value": 2}``."""

    keyword: str
    value: Any = Field(default=None, validate_default=True)

    for_sponsor: ClassVar[bool] = False

    @field_validator("keyword")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in K.ABILITY_KEYWORDS:
            raise ValueError(f"unknown ability keyword {v!r}")
        if cls.for_sponsor and v in K.INTERACTIONS:
            raise ValueError(f"interaction keyword {v!r} is for animals only")
        return v

    @field_validator("value")
    @classmethod
    def _form(cls, v: Any, info: ValidationInfo) -> Any:
        kw = info.data.get("keyword")
        if kw is not None:
            try:
                K.ABILITY_KEYWORDS[kw](v)
            except ValueError as exc:
                raise ValueError(f"value for {kw!r} {exc}") from None
        return v

    @property
    def text(self) -> str:
        return K.describe(self.keyword, self.value)


class SoloEffect(_Model):
    """What an animal does in a solo game instead of its interaction: a solo keyword
    (``keywords.SOLO_KEYWORDS``) or any ability keyword but the interactions."""

    keyword: str
    value: Any = None

    @model_validator(mode="after")
    def _known(self) -> "SoloEffect":
        K.check_solo_ability(self.keyword, self.value)  # ValueError: the loader names the card
        return self

    @property
    def text(self) -> str:
        return K.describe(self.keyword, self.value)


class SponsorEffect(Ability):
    """An immediate sponsor effect: any ability keyword except the interactions."""

    for_sponsor: ClassVar[bool] = True


class Requirements(_Model):
    """What an animal needs: enclosure next to water/rock, icons, a partner zoo, science..."""

    water: Int1 | None = None
    rock: Int1 | None = None
    icons: IconCounts | None = None
    partner: Continent | None = None
    science: Int1 | None = None
    reputation: Int1 | None = None


class SponsorRequirements(_Model):
    """What a sponsor needs; ``upgraded`` names an action card that must be on side II."""

    icons: IconCounts | None = None
    partner: Continent | None = None
    science: Int1 | None = None
    reputation: Int1 | None = None
    upgraded: Action | None = None


# --------------------------------------------------------------------------- animals
class Special(_Model):
    enclosure: str
    spaces: Annotated[int, Field(strict=True, ge=1, le=3)]
    only: bool = Field(strict=True)

    @field_validator("enclosure")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in K.SPECIAL_ENCLOSURES:
            raise ValueError(f"unknown special enclosure {v!r} (one of {', '.join(K.SPECIAL_ENCLOSURES)})")
        return v


class Animal(_Model):
    id: str
    name: Name
    size: Annotated[int, Field(strict=True, ge=1, le=5)]
    cost: Int0
    continent: Continent | None
    classes: Annotated[list[ClassIcon], Field(min_length=1, max_length=2)]
    requires: Requirements = Requirements()
    special: Special | None = None
    appeal: Int0
    conservation: Int0
    reputation: Int0
    abilities: Annotated[list[Ability], Field(max_length=2)] = []
    #: the solo effects that replace the card's interaction in a 1-seat game: required exactly
    #: when the card has an interaction ability
    solo: Annotated[list[SoloEffect], Field(max_length=2)] = []

    @model_validator(mode="after")
    def _solo_for_interactions(self) -> "Animal":
        interacts = any(a.keyword in K.INTERACTIONS for a in self.abilities)
        if interacts and not self.solo:
            raise field_error("solo", "an animal with an interaction needs its solo effects")
        if self.solo and not interacts:
            raise field_error("solo", "only an animal with an interaction has solo effects")
        return self

    @field_validator("classes")
    @classmethod
    def _distinct(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"repeats a class: {v}")
        return v

    @property
    def icons(self) -> list[str]:
        """The icons this animal adds to a zoo (its continent, then its classes)."""
        return ([self.continent] if self.continent else []) + list(self.classes)

    def has(self, keyword: str) -> bool:
        return any(a.keyword == keyword for a in self.abilities)


# --------------------------------------------------------------------------- sponsors
class Trigger(_Model):
    """An ongoing sponsor effect: on ``on`` events matching ``filter``, gain ``gain``."""

    on: str
    filter: dict[str, Any] = {}
    gain: Gains

    @field_validator("on")
    @classmethod
    def _event(cls, v: str) -> str:
        if v not in K.TRIGGER_EVENTS:
            raise ValueError(f"unknown trigger event {v!r} (one of {', '.join(K.TRIGGER_EVENTS)})")
        return v

    @field_validator("filter")
    @classmethod
    def _filter(cls, v: dict, info: ValidationInfo) -> dict:
        on = info.data.get("on")
        if on is None:
            return v
        if len(v) > 1:
            raise ValueError(f"has more than one key: {sorted(v)}")
        for key, val in v.items():
            if key not in K.TRIGGER_EVENTS[on]:
                raise ValueError(f"key {key!r} is not allowed on {on!r} events "
                                 f"(allowed: {', '.join(K.TRIGGER_EVENTS[on])})")
            if key == "class" and val not in K.CLASSES:
                raise ValueError(f"unknown class icon {val!r}")
            if key == "continent" and val not in K.CONTINENTS:
                raise ValueError(f"unknown continent {val!r}")
            if key == "icon" and val not in K.ICONS:
                raise ValueError(f"unknown icon {val!r}")
            if key in ("size_min", "size_max"):
                K.int_in(1, 5)(val)
            if key == "building" and not (isinstance(val, str) and BUILDING_ID.fullmatch(val)):
                raise ValueError(f"building must be a building kind or a sponsor building id, got {val!r}")
        return v


class EndAward(_Model):
    """At game end: 1 conservation point per ``per`` of ``counter``, at most ``max``."""

    counter: Counter
    per: Int1
    max: Int1


def _neighbours(x: int, y: int) -> list[tuple[int, int]]:
    return [(x, y - 2), (x, y + 2), (x - 1, y - 1), (x - 1, y + 1), (x + 1, y - 1), (x + 1, y + 1)]


class SponsorBuilding(_Model):
    """A unique building that a sponsor places (shape in doubled-height hex coordinates)."""

    id: str
    name: Name
    shape: list[tuple[int, int]]
    appeal: Int0 = 0

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not BUILDING_ID.fullmatch(v):
            raise ValueError(f"must be lowercase letters, digits and '_', got {v!r}")
        if v in RESERVED_BUILDING_IDS:
            raise ValueError(f"{v!r} is the id of a standard building")
        return v

    @field_validator("shape", mode="before")
    @classmethod
    def _cells(cls, v: Any) -> Any:
        if not isinstance(v, list) or not 1 <= len(v) <= 3:
            raise ValueError(f"must be a list of 1 to 3 cells, got {v!r}")
        for cell in v:
            if (not isinstance(cell, (list, tuple)) or len(cell) != 2
                    or not all(isinstance(c, int) and not isinstance(c, bool) for c in cell)):
                raise ValueError(f"cell {cell!r} is not a pair of integers [x, y]")
        return v

    @field_validator("shape")
    @classmethod
    def _connected(cls, v: list[tuple[int, int]]) -> list[tuple[int, int]]:
        cells = set(v)
        if len(cells) != len(v):
            raise ValueError(f"repeats a cell: {v}")
        for x, y in v:
            if (x + y) % 2 != 1:
                raise ValueError(f"cell [{x}, {y}] is not a hex (x + y must be odd)")
        seen, todo = {v[0]}, [v[0]]
        while todo:
            for n in _neighbours(*todo.pop()):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        if seen != cells:
            raise ValueError(f"cells are not connected: {[list(c) for c in v]}")
        return v


class Sponsor(_Model):
    id: str
    name: Name
    level: Annotated[int, Field(strict=True, ge=1, le=8)]
    requires: SponsorRequirements = SponsorRequirements()
    icons: Annotated[list[Icon], Field(max_length=3)] = []
    effects: Annotated[list[SponsorEffect], Field(max_length=3)] = []
    income: Gains | None = None
    triggers: Annotated[list[Trigger], Field(max_length=2)] = []
    end: EndAward | None = None
    building: SponsorBuilding | None = None


# --------------------------------------------------------------------------- projects
class Level(_Model):
    need: Int1
    cp: Int1


class Project(_Model):
    """A conservation project: from the zoo deck (``P…``) or a base project (``B…``)."""

    id: str
    name: Name
    base: bool = Field(strict=True)
    kind: str
    icon: Icon | None = None
    of: str | None = None
    filter: dict[str, Any] | None = None
    levels: list[Level]
    icons: Annotated[list[Icon], Field(max_length=2)] = []

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        if v not in K.PROJECT_KINDS:
            raise ValueError(f"unknown project kind {v!r} (one of {', '.join(K.PROJECT_KINDS)})")
        return v

    @field_validator("of")
    @classmethod
    def _of(cls, v: str | None) -> str | None:
        if v is not None and v not in K.DISTINCT_GROUPS:
            raise ValueError(f"must be one of {', '.join(K.DISTINCT_GROUPS)}, got {v!r}")
        return v

    @field_validator("filter")
    @classmethod
    def _filter(cls, v: dict | None) -> dict | None:
        if v is None:
            return v
        if len(v) > 1:
            raise ValueError(f"has more than one key: {sorted(v)}")
        for key, val in v.items():
            if key == "class":
                check_class(val)
            elif key == "continent":
                check_continent(val)
            else:
                raise ValueError(f"unknown key {key!r} (allowed: class, continent)")
        return v

    @field_validator("levels")
    @classmethod
    def _levels(cls, v: list[Level]) -> list[Level]:
        if len(v) != 3:
            raise ValueError(f"must have exactly 3 levels, got {len(v)}")
        needs = [lvl.need for lvl in v]
        if not needs[0] > needs[1] > needs[2]:
            raise ValueError(f"must be sorted by need, descending and distinct, got needs {needs}")
        cps = [lvl.cp for lvl in v]
        if not cps[0] >= cps[1] >= cps[2]:
            raise ValueError(f"conservation points must not rise as the need falls, got {cps}")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Project":
        kind = self.kind
        if kind in ("icon", "breeding") and self.icon is None:
            raise field_error("icon", f"is required for kind {kind!r}")
        if kind not in ("icon", "breeding") and self.icon is not None:
            raise field_error("icon", f"is not used by kind {kind!r}")
        if kind == "distinct" and self.of is None:
            raise field_error("of", "is required for kind 'distinct'")
        if kind != "distinct" and self.of is not None:
            raise field_error("of", f"is not used by kind {kind!r}")
        if kind == "release" and self.filter is None:
            raise field_error("filter", "is required for kind 'release' ({} for any animal)")
        if kind != "release" and self.filter is not None:
            raise field_error("filter", f"is not used by kind {kind!r}")
        if self.base and kind != "icon":
            raise field_error("kind", f"a base project must be of kind 'icon', got {kind!r}")
        top = self.levels[0].need
        if kind == "release" and top > 5:
            raise field_error("levels", f"a release level needs an animal size 1..5, got {top}")
        if kind == "distinct" and top > len(K.DISTINCT_GROUPS[self.of or "classes"]):
            raise field_error("levels", f"needs {top} distinct {self.of}, more than exist")
        return self


# --------------------------------------------------------------------------- final scoring, tiles
class FinalScoring(_Model):
    id: str
    name: Name
    text: Annotated[str, Field(strict=True, min_length=1)]
    counter: Counter
    steps: list[Annotated[int, Field(strict=True, ge=1)]]

    @field_validator("steps")
    @classmethod
    def _steps(cls, v: list[int]) -> list[int]:
        if len(v) != 4:
            raise ValueError(f"must have exactly 4 steps, got {len(v)}")
        if not v[0] < v[1] < v[2] < v[3]:
            raise ValueError(f"must be strictly ascending, got {v}")
        return v


class BonusTile(_Model):
    id: str
    name: Name
    gain: Gains


Card = Union[Animal, Sponsor, Project]


# --------------------------------------------------------------------------- the content
@dataclass(frozen=True)
class Content:
    animals: dict[str, Animal]
    sponsors: dict[str, Sponsor]
    projects: dict[str, Project]  # zoo-deck projects P…
    base_projects: dict[str, Project]  # B…
    final_scoring: dict[str, FinalScoring]
    bonus_tiles: dict[str, BonusTile]
    _deck: tuple[str, ...] = field(default=(), repr=False)

    def card(self, cid: str) -> Card:
        """Any card by id: animal, sponsor, zoo-deck or base project. ``KeyError`` if unknown."""
        for group in (self.animals, self.sponsors, self.projects, self.base_projects):
            if cid in group:
                return group[cid]
        raise KeyError(cid)

    def deck_ids(self) -> list[str]:
        """Sorted ids of every card of the main deck: animals, sponsors, zoo-deck projects."""
        return list(self._deck)

    @property
    def buildings(self) -> dict[str, SponsorBuilding]:
        """The sponsors' unique buildings by building id."""
        return {s.building.id: s.building for s in self.sponsors.values() if s.building}

    def as_catalog(self) -> dict:
        """Plain JSON for the browser's card gallery (texts for every ability included)."""

        def dump(model: BaseModel, **extra: Any) -> dict:
            data = model.model_dump(mode="json")
            for key in ("requires",):
                if isinstance(data.get(key), dict):
                    data[key] = {k: v for k, v in data[key].items() if v is not None}
            data = {k: v for k, v in data.items() if v is not None}
            data.update(extra)
            return data

        return {
            "animals": [dump(a, type="animal", icons=a.icons, texts=[x.text for x in a.abilities],
                             **({"solo_texts": [x.text for x in a.solo]} if a.solo else {}))
                        for a in self.animals.values()],
            "sponsors": [dump(s, type="sponsor", texts=[x.text for x in s.effects])
                         for s in self.sponsors.values()],
            "projects": [dump(p, type="project") for p in self.projects.values()],
            "base_projects": [dump(p, type="project") for p in self.base_projects.values()],
            "final_scoring": [dump(f, type="final") for f in self.final_scoring.values()],
            "bonus_tiles": [dump(t, type="tile") for t in self.bonus_tiles.values()],
            "keywords": {k: {"form": K.value_form(k), "interaction": k in K.INTERACTIONS}
                         for k in K.ABILITY_KEYWORDS},
            "solo_keywords": {k: {"form": K.value_form(k)} for k in K.SOLO_KEYWORDS},
        }


# --------------------------------------------------------------------------- loading
def load_content(directory: str | Path | None = None) -> Content:
    """Load and validate the card files (default: the shipped ones, cached).

    ``directory`` loads another set of the same five files (tests); it is not cached.
    """
    if directory is None:
        return _load_default()
    return _load(Path(directory))


@functools.lru_cache(maxsize=1)
def _load_default() -> Content:
    return _load(DATA_DIR)


def _format(err: dict) -> tuple[str, str]:
    loc = ".".join(str(p) for p in err["loc"])
    msg = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if msg.startswith("@"):
        name, _, msg = msg[1:].partition(": ")
        loc = f"{loc}.{name}" if loc else name
    return loc or "(card)", msg


def _read(directory: Path, fname: str) -> list[dict]:
    path = directory / fname
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise ContentError(f"{fname}: file is missing from {directory}") from None
    except json.JSONDecodeError as exc:
        raise ContentError(f"{fname}: not valid JSON: {exc}") from None
    if not isinstance(data, list):
        raise ContentError(f"{fname}: must hold a JSON list of cards")
    return data


def _build(fname: str, records: list, model: type[_Model], kind_of, seen: dict[str, str]) -> dict:
    out: dict[str, Any] = {}
    for n, rec in enumerate(records):
        if not isinstance(rec, dict):
            raise ContentError(f"{fname}: entry #{n + 1}: must be a JSON object")
        cid = rec.get("id")
        if not isinstance(cid, str):
            raise ContentError(f"{fname}: entry #{n + 1}: id: missing or not a string")
        kind = kind_of(rec)
        if not ID_PATTERNS[kind].fullmatch(cid):
            raise ContentError(f"{fname}: {cid}: id: does not match the {kind} id pattern "
                               f"{ID_PATTERNS[kind].pattern!r}")
        if cid in seen:
            raise ContentError(f"{fname}: {cid}: id: duplicate id (already used in {seen[cid]})")
        seen[cid] = fname
        try:
            out[cid] = model.model_validate(rec)
        except ValidationError as exc:
            loc, msg = _format(exc.errors(include_url=False)[0])
            raise ContentError(f"{fname}: {cid}: {loc}: {msg}") from None
    return out


def _project_kind(rec: dict) -> str:
    return "base_project" if rec.get("base") is True else "project"


def _load(directory: Path) -> Content:
    seen: dict[str, str] = {}
    f = FILES
    animals = _build(f["animals"], _read(directory, f["animals"]), Animal, lambda r: "animal", seen)
    sponsors = _build(f["sponsors"], _read(directory, f["sponsors"]), Sponsor, lambda r: "sponsor", seen)
    all_projects = _build(f["projects"], _read(directory, f["projects"]), Project, _project_kind, seen)
    finals = _build(f["final_scoring"], _read(directory, f["final_scoring"]), FinalScoring,
                    lambda r: "final_scoring", seen)
    tiles = _build(f["bonus_tiles"], _read(directory, f["bonus_tiles"]), BonusTile,
                   lambda r: "bonus_tile", seen)

    # Sponsor buildings: unique ids; build triggers name a building kind or one of them.
    buildings: dict[str, str] = {}
    for sid, s in sponsors.items():
        if s.building:
            if s.building.id in buildings:
                raise ContentError(f"{f['sponsors']}: {sid}: building.id: duplicate building id "
                                   f"{s.building.id!r} (also on {buildings[s.building.id]})")
            buildings[s.building.id] = sid
    for sid, s in sponsors.items():
        for i, t in enumerate(s.triggers):
            b = t.filter.get("building")
            if b is not None and b not in K.BUILDING_KINDS and b not in buildings:
                raise ContentError(f"{f['sponsors']}: {sid}: triggers.{i}.filter.building: "
                                   f"{b!r} is neither a building kind ({', '.join(K.BUILDING_KINDS)}) "
                                   f"nor a sponsor building id")

    projects = {k: v for k, v in all_projects.items() if not v.base}
    base = {k: v for k, v in all_projects.items() if v.base}
    deck = tuple(sorted([*animals, *sponsors, *projects]))
    return Content(animals=animals, sponsors=sponsors, projects=projects, base_projects=base,
                   final_scoring=finals, bonus_tiles=tiles, _deck=deck)
