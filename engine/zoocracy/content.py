"""Enclosures, event cards and action cards: pydantic models, a validating loader, a catalog.

The data lives in ``engine/zoocracy/data/`` (``enclosures.json``, ``events.json``,
``cards.json``; one JSON list per file). ``load_content()`` reads and checks it once (cached).
Any problem raises :class:`~engine.zoocracy.tables.DataError` (a ``ValueError``) whose message
names the file, the item and the field, e.g.
``cards.json: A04: field effect.keyword: unknown effect 'teleport'``.

The vocabulary: the seven phases an action card can belong to (:data:`PHASES`), the effect
keywords with the phases they may be used in and the parameters they take (:data:`EFFECTS`),
and the roles an event can pay or deal cards to (:data:`ROLES`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .tables import DATA, DataError, T, format_error

#: The phases of a round in which action cards can be played.
PHASES = ("president", "campaign", "parliament", "government", "event", "no_confidence",
          "progress")

#: effect keyword -> (phases it may be printed on, required integer parameters)
EFFECTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "bid_bonus": (("president",), ("amount",)),
    "bid_malus": (("president",), ("amount",)),
    "extra_marker": (("campaign",), ("count",)),
    "move_marker": (("campaign",), ()),
    "limit_bonus": (("campaign",), ("amount",)),
    "fact_check": (("campaign",), ()),
    "lift_blockade": (("campaign",), ()),
    "remove_marker": (("campaign",), ()),
    "steal_seat": (("parliament",), ("amount",)),
    "gain_food": (("parliament", "event", "progress"), ("amount",)),
    "double_vote": (("government",), ()),
    "cancel_event": (("event",), ()),
    "draw_cards": (("parliament", "event", "progress"), ("amount",)),
    "defection": (("no_confidence",), ("amount",)),
    "block_goal": (("progress",), ()),
    "buy_goal": (("progress",), ("cost",)),
}

#: Who an event's food or cards go to.
ROLES = ("head", "finance", "defence", "president", "opposition_leader", "government",
         "opposition", "all")

Int0 = Annotated[int, Field(strict=True, ge=0)]
Int1 = Annotated[int, Field(strict=True, ge=1)]
Name = Annotated[str, Field(strict=True, min_length=1, max_length=60)]
Text = Annotated[str, Field(strict=True, min_length=1, max_length=300)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Enclosure(_Model):
    id: Annotated[str, Field(strict=True, pattern=r"^[a-z][a-z0-9_]*$")]
    name: Name
    first: Int1
    second: Int1 | None = None

    @model_validator(mode="after")
    def _second_below_first(self):
        if self.second is not None and self.second >= self.first:
            raise ValueError(f"@second: must be lower than first ({self.first})")
        return self


class Effect(_Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    keyword: str

    @field_validator("keyword")
    @classmethod
    def _known(cls, v):
        if v not in EFFECTS:
            raise ValueError(f"unknown effect {v!r} (one of {', '.join(sorted(EFFECTS))})")
        return v

    @model_validator(mode="after")
    def _params(self):
        _, need = EFFECTS[self.keyword]
        extra = dict(self.model_extra or {})
        for p in need:
            v = extra.pop(p, None)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"@{p}: effect {self.keyword!r} needs an integer {p} >= 1")
        if extra:
            raise ValueError(f"@{sorted(extra)[0]}: not a parameter of effect {self.keyword!r}")
        return self

    def param(self, name: str) -> int:
        return (self.model_extra or {})[name]


class Card(_Model):
    id: Annotated[str, Field(strict=True, pattern=r"^A[0-9]{2}$")]
    name: Name
    phase: str
    copies: Int1
    effect: Effect
    text: Text

    @field_validator("phase")
    @classmethod
    def _phase(cls, v):
        if v not in PHASES:
            raise ValueError(f"unknown phase {v!r} (one of {', '.join(PHASES)})")
        return v

    @model_validator(mode="after")
    def _phase_fits_effect(self):
        allowed, _ = EFFECTS[self.effect.keyword]
        if self.phase not in allowed:
            raise ValueError(f"@phase: effect {self.effect.keyword!r} cannot be used in phase "
                             f"{self.phase!r} (only {', '.join(allowed)})")
        return self


class GoalMod(_Model):
    blocked: bool = False
    cost: Int0 = 0


def _check_roles(v: dict[str, int]) -> dict[str, int]:
    for role, n in v.items():
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r} (one of {', '.join(ROLES)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"amount for {role!r} must be an integer >= 1")
    return v


class Event(_Model):
    id: Annotated[str, Field(strict=True, pattern=r"^E[0-9]{1,2}$")]
    name: Name
    text: Text
    food: dict[str, int] = {}
    draw: dict[str, int] = {}
    campaign_limit: int = 0
    goal: GoalMod | None = None

    @field_validator("food", "draw")
    @classmethod
    def _roles(cls, v):
        return _check_roles(v)

    @model_validator(mode="after")
    def _does_something(self):
        if not (self.food or self.draw or self.campaign_limit or self.goal):
            raise ValueError("@food: an event must do something (food, draw, campaign_limit "
                             "or goal)")
        return self


@dataclass(frozen=True)
class Content:
    enclosures: tuple[Enclosure, ...]
    events: dict[str, Event]
    cards: dict[str, Card]

    @property
    def enclosure_ids(self) -> list[str]:
        return [e.id for e in self.enclosures]

    def enclosure(self, eid: str) -> Enclosure:
        return self._enc[eid]

    @property
    def _enc(self) -> dict[str, Enclosure]:
        return {e.id: e for e in self.enclosures}

    def deck_ids(self) -> list[str]:
        """Every action card once per copy, sorted (shuffle it for a deck)."""
        return sorted(c.id for c in self.cards.values() for _ in range(c.copies))

    def as_catalog(self) -> dict:
        return {
            "enclosures": [e.model_dump() for e in self.enclosures],
            "events": [e.model_dump() for e in self.events.values()],
            "cards": [c.model_dump() for c in self.cards.values()],
        }


def _load_list(file: Path) -> list:
    try:
        raw = json.loads(file.read_text())
    except FileNotFoundError:
        raise DataError(f"{file.name}: file is missing") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{file.name}: not valid JSON: {exc}") from None
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{file.name}: must be a non-empty JSON list")
    return raw


def _parse(file: Path, model: type[_Model]) -> list:
    out, seen = [], set()
    for i, item in enumerate(_load_list(file)):
        label = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) \
            else f"item {i}"
        try:
            obj = model.model_validate(item)
        except ValidationError as exc:
            raise DataError(format_error(file.name, exc, label)) from None
        if obj.id in seen:
            raise DataError(f"{file.name}: {obj.id}: field id: duplicate id")
        seen.add(obj.id)
        out.append(obj)
    return out


def load_content(data_dir: str | Path | None = None, *, min_cards: int = 20) -> Content:
    """Read and validate the three data files (``data_dir`` defaults to the game's data)."""
    d = Path(data_dir) if data_dir else DATA
    if data_dir is None:
        return _default()
    return _build(d, min_cards)


@cache
def _default() -> Content:
    return _build(DATA, 20)


def _build(d: Path, min_cards: int) -> Content:
    enclosures = _parse(d / "enclosures.json", Enclosure)
    events = _parse(d / "events.json", Event)
    cards = _parse(d / "cards.json", Card)
    if len(events) < T.rounds:
        raise DataError(f"events.json: needs at least {T.rounds} events (one per round), "
                        f"has {len(events)}")
    if len(cards) < min_cards:
        raise DataError(f"cards.json: needs at least {min_cards} different action cards, "
                        f"has {len(cards)}")
    if len(enclosures) < 2:
        raise DataError("enclosures.json: needs at least 2 enclosures")
    return Content(tuple(enclosures), {e.id: e for e in events}, {c.id: c for c in cards})


def card_effect(card_id: str) -> Effect:
    return load_content().cards[card_id].effect


def card_phase(card_id: str) -> str:
    return load_content().cards[card_id].phase

