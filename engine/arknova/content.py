"""The zoo builder's original card set: a validating loader and a catalog (the models of the
cards are in :mod:`engine.arknova.cardmodels`).

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
from typing import Any

from pydantic import BaseModel, ValidationError

from . import keywords as K
from .cardmodels import Animal, CardModel, Sponsor, SponsorBuilding
from .goalmodels import BonusTile, FinalScoring, Project

#: a card of the zoo deck
Card = Animal | Sponsor | Project

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


class ContentError(ValueError):
    """A card file is malformed: the message names the file, the card and the field."""


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


def _build(fname: str, records: list, model: type[CardModel], kind_of, seen: dict[str, str]) -> dict:
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
