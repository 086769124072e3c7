"""The game's numbers (``data/tables.json``): food, campaign limits, hand limit, goal track.

Every number of the rules that is not printed on an enclosure, event or action card lives in that
file; this module validates it on load (errors name the file and the field) and offers lookups.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

DATA = Path(__file__).parent / "data"
SEAT_COUNTS = ("2", "3", "4", "5")

Int0 = Annotated[int, Field(strict=True, ge=0)]
Int1 = Annotated[int, Field(strict=True, ge=1)]


class DataError(ValueError):
    """A data file is malformed: the message names the file, the item and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class President(_Strict):
    goal_steps: Int0
    draw: Int0


class ProgressDraw(_Strict):
    government: Int0
    opposition: Int0


def _per_seat_count(value: dict[str, int], name: str) -> None:
    missing = [n for n in SEAT_COUNTS if n not in value]
    extra = [n for n in value if n not in SEAT_COUNTS]
    if missing or extra:
        raise ValueError(f"@{name}: needs exactly the keys {', '.join(SEAT_COUNTS)} "
                         f"(missing {missing or 'none'}, unknown {extra or 'none'})")


class Tables(_Strict):
    rounds: Int1
    election_every: Int1
    start_food: dict[str, Int0]
    campaign_limit: dict[str, Int0]
    start_hand: Int0
    hand_limit: Int0
    goal_track: Int1
    per_enclosure: Int1
    president: President
    head_extra_food: Int0
    manipulation_seats: Int0
    progress_draw: ProgressDraw
    vote_weight: Literal["parties", "seats"]
    end_flag_positions: list[Int1]

    @model_validator(mode="after")
    def _check(self):
        _per_seat_count(self.start_food, "start_food")
        _per_seat_count(self.campaign_limit, "campaign_limit")
        pos = self.end_flag_positions
        if not pos:
            raise ValueError("@end_flag_positions: must name at least one position")
        if len(set(pos)) != len(pos) or sorted(pos) != pos:
            raise ValueError("@end_flag_positions: positions must be distinct and ascending")
        if pos[-1] > self.rounds:
            raise ValueError(f"@end_flag_positions: position {pos[-1]} is after the last round "
                             f"({self.rounds})")
        return self


def format_error(file: str, exc: ValidationError, item: str | None = None) -> str:
    """``file: item: field: message`` for the first problem of a pydantic error."""
    first = exc.errors()[0]
    loc = [str(p) for p in first["loc"]]
    msg = first["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if msg.startswith("@"):  # a model-level check that names its field
        field, _, msg = msg[1:].partition(": ")
        loc = loc + [field]
    where = ".".join(loc) or "(top level)"
    head = f"{file}: {item}: " if item else f"{file}: "
    return f"{head}field {where}: {msg}"


def load_tables(path: str | Path | None = None) -> Tables:
    file = Path(path) if path else DATA / "tables.json"
    try:
        raw = json.loads(file.read_text())
    except json.JSONDecodeError as exc:
        raise DataError(f"{file.name}: not valid JSON: {exc}") from None
    try:
        return Tables.model_validate(raw)
    except ValidationError as exc:
        raise DataError(format_error(file.name, exc)) from None


@cache
def tables() -> Tables:
    return load_tables()


T = tables()


def per_players(table: dict[str, int], seats: int) -> int:
    return table[str(seats)]
