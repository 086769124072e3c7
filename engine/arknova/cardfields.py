"""The field types of the card files: each checks its value against the game's vocabulary
(:mod:`engine.arknova.keywords`) when a card is loaded (:mod:`engine.arknova.content`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from pydantic.functional_validators import AfterValidator

from . import keywords as K


def field_error(fieldname: str, msg: str) -> ValueError:
    """An error raised by a model-level check that belongs to one field (see ``content._format``)."""
    return ValueError(f"@{fieldname}: {msg}")


def check_icon(v: str) -> str:
    if v not in K.ICONS:
        raise ValueError(f"unknown icon {v!r}")
    return v


def check_continent(v: str) -> str:
    if v not in K.CONTINENTS:
        raise ValueError(f"unknown continent {v!r}")
    return v


def check_class(v: str) -> str:
    if v not in K.CLASSES:
        raise ValueError(f"unknown class icon {v!r}")
    return v


def check_action(v: str) -> str:
    if v not in K.ACTIONS:
        raise ValueError(f"unknown action {v!r} (one of {', '.join(K.ACTIONS)})")
    return v


def check_gains(v: dict) -> dict:
    K.check_gains(v)
    return v


def check_icon_counts(v: dict) -> dict:
    if not v:
        raise ValueError("must name at least one icon")
    for icon, n in v.items():
        if icon not in K.ICONS:
            raise ValueError(f"unknown icon {icon!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"count for {icon!r} must be an integer >= 1, got {n!r}")
    return v


def check_counter(v: str) -> str:
    K.parse_counter(v)
    return v


Icon = Annotated[str, AfterValidator(check_icon)]
Continent = Annotated[str, AfterValidator(check_continent)]
ClassIcon = Annotated[str, AfterValidator(check_class)]
Action = Annotated[str, AfterValidator(check_action)]
Gains = Annotated[dict[str, Any], AfterValidator(check_gains)]
IconCounts = Annotated[dict[str, Any], AfterValidator(check_icon_counts)]
Counter = Annotated[str, AfterValidator(check_counter)]
Int0 = Annotated[int, Field(strict=True, ge=0)]
Int1 = Annotated[int, Field(strict=True, ge=1)]
Name = Annotated[str, Field(strict=True, min_length=1, max_length=60)]
