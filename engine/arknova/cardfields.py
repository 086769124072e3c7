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


def one_of(values, what: str, *, list_them: bool = False):
    """A check that a value is one of ``values`` ("unknown {what} 'x'", with the choices when
    ``list_them``)."""
    def check(v: str) -> str:
        if v not in values:
            choices = f" (one of {', '.join(values)})" if list_them else ""
            raise ValueError(f"unknown {what} {v!r}{choices}")
        return v
    return check


check_icon = one_of(K.ICONS, "icon")
check_continent = one_of(K.CONTINENTS, "continent")
check_class = one_of(K.CLASSES, "class icon")
check_action = one_of(K.ACTIONS, "action", list_them=True)


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
