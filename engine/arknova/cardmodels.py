"""The zoo builder's card models (pydantic): what an animal or a sponsor card may say (and the
parts every card shares), checked field by field when :mod:`engine.arknova.content` loads the
card files. Conservation projects, final scoring cards and bonus tiles are in
:mod:`engine.arknova.goalmodels`.

The vocabulary (icons, gain keys, ability keywords and the form of their values, counters,
trigger events) is defined in :mod:`engine.arknova.keywords`; the field types in
:mod:`engine.arknova.cardfields`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from . import keywords as K
from .cardfields import (
    Action,
    ClassIcon,
    Continent,
    Counter,
    Gains,
    Icon,
    IconCounts,
    Int0,
    Int1,
    Name,
    field_error,
)

BUILDING_ID = re.compile(r"[a-z][a-z0-9_]*")
#: Ids of the standard buildings; a sponsor's unique building must not reuse them.
RESERVED_BUILDING_IDS = frozenset(
    {f"enclosure_{n}" for n in range(1, 6)} | set(K.BUILDING_KINDS) | set(K.SPECIAL_ENCLOSURES))


class CardModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- shared parts
class Ability(CardModel):
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


class SoloEffect(CardModel):
    """What an animal does in a solo game instead of its interaction: a solo keyword
    (``keywords.SOLO_KEYWORDS``) or any ability keyword but the interactions."""

    keyword: str
    value: Any = None

    @model_validator(mode="after")
    def _known(self) -> SoloEffect:
        K.check_solo_ability(self.keyword, self.value)  # ValueError: the loader names the card
        return self

    @property
    def text(self) -> str:
        return K.describe(self.keyword, self.value)


class SponsorEffect(Ability):
    """An immediate sponsor effect: any ability keyword except the interactions."""

    for_sponsor: ClassVar[bool] = True


class Requirements(CardModel):
    """What an animal needs: enclosure next to water/rock, icons, a partner zoo, science..."""

    water: Int1 | None = None
    rock: Int1 | None = None
    icons: IconCounts | None = None
    partner: Continent | None = None
    science: Int1 | None = None
    reputation: Int1 | None = None


class SponsorRequirements(CardModel):
    """What a sponsor needs; ``upgraded`` names an action card that must be on side II."""

    icons: IconCounts | None = None
    partner: Continent | None = None
    science: Int1 | None = None
    reputation: Int1 | None = None
    upgraded: Action | None = None


# --------------------------------------------------------------------------- animals
class Special(CardModel):
    enclosure: str
    spaces: Annotated[int, Field(strict=True, ge=1, le=3)]
    only: bool = Field(strict=True)

    @field_validator("enclosure")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in K.SPECIAL_ENCLOSURES:
            raise ValueError(f"unknown special enclosure {v!r} (one of {', '.join(K.SPECIAL_ENCLOSURES)})")
        return v


class Animal(CardModel):
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
    def _solo_for_interactions(self) -> Animal:
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
class Trigger(CardModel):
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


class EndAward(CardModel):
    """At game end: 1 conservation point per ``per`` of ``counter``, at most ``max``."""

    counter: Counter
    per: Int1
    max: Int1


def _neighbours(x: int, y: int) -> list[tuple[int, int]]:
    return [(x, y - 2), (x, y + 2), (x - 1, y - 1), (x - 1, y + 1), (x + 1, y - 1), (x + 1, y + 1)]


class SponsorBuilding(CardModel):
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


class Sponsor(CardModel):
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
