"""The zoo builder's models (pydantic) of what a zoo aims at: conservation projects (with
their levels), final scoring cards and bonus tiles, checked field by field when
:mod:`engine.arknova.content` loads the card files. Animals and sponsors, and the parts every
card shares, are in :mod:`engine.arknova.cardmodels`.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from . import keywords as K
from .cardfields import Counter, Gains, Icon, Int1, Name, check_class, check_continent, field_error
from .cardmodels import CardModel


# --------------------------------------------------------------------------- projects
class Level(CardModel):
    need: Int1
    cp: Int1


class Project(CardModel):
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
    def _consistent(self) -> Project:
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
class FinalScoring(CardModel):
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


class BonusTile(CardModel):
    id: str
    name: Name
    gain: Gains
