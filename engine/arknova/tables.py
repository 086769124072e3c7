"""The game's number tables (``data/tables.json``): income, reputation, strength, scoring.

Every number of the rules that is not on a card lives in that file; this module validates it on
load and offers the lookups the rules need.
"""

from __future__ import annotations

import bisect
import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

DATA = Path(__file__).parent / "data"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Start(_Strict):
    money: int
    appeal_by_seat: list[int]
    reputation: int
    conservation: int
    x: int
    workers: int
    max_workers: int
    draw: int
    keep: int
    final_cards: int


class AppealIncome(_Strict):
    steps: list[tuple[int, int]]
    then_every: int
    then_from: int


class Reputation(_Strict):
    max: int
    cap_without_cards_upgrade: int
    bonuses: dict[str, dict[str, int]]
    range: list[tuple[int, int]]


class Conservation(_Strict):
    max: int
    choice_at: int
    tiles_at: list[int]
    tile_money: dict[str, int]
    final_discard_at: int
    tiles_per_space: dict[str, int]


class CardsRow(_Strict):
    draw: int
    discard: int


class Strength(_Strict):
    animals: dict[str, list[int]]
    animals_rep_bonus_side2_at: int
    cards: dict[str, list[CardsRow]]
    cards_snap_from: dict[str, int]
    cards_break_advance: int


class Build(_Strict):
    cost_per_space: int
    #: appeal gained once, at once, when every buildable space of the map is covered
    full_map_appeal: int


class University(_Strict):
    science: int
    gain: dict[str, int]
    hand_limit: int


class Supply(_Strict):
    partners_per_continent: int
    universities_each: int


class Association(_Strict):
    tasks: dict[str, int]
    reputation_task_gain: int
    max_partners: int
    partners_side1: int
    universities: dict[str, University]
    partner_slot_bonuses: list[dict[str, int]]
    university_slot_bonuses: list[dict[str, int]]
    donations: list[int]
    donation_after: int
    partner_discount: int
    cube_slots: list[dict[str, int]]
    #: the shared supply on the association board, refilled at every break
    supply: Supply
    #: donation spaces covered at setup, by player count (the first N of ``donations``)
    donations_covered: dict[str, int]


class Sponsors(_Strict):
    side2_bonus_strength: int
    break_money_factor: dict[str, int]


class Interactions(_Strict):
    min_target_appeal: int
    venom_cost: int
    constriction_penalty: int
    pilfer_money: int


class Scoring(_Strict):
    low_cp_max: int
    low_factor: int
    low_offset: int
    high_factor: int
    high_offset: int
    base: int


class Solo(_Strict):
    """The 1-seat game (docs/rules/arknova.md, "Solo"): the starting appeal (a game option with
    these choices) and the shortest row of the solo tile (the game ends after its break).
    The solo tile's first row holds ``break_track["1"]`` tokens."""

    appeal: int
    appeal_choices: list[int]
    last_row: int


class Tables(_Strict):
    start: Start
    #: by player count; for 1 player: the tokens in the solo tile's first row
    break_track: dict[str, int]
    #: the stall guard: after this break the game finishes as if the end had been triggered
    #: (no real game gets near it; the end normally comes only from the markers meeting)
    stall_breaks: int
    solo: Solo
    display_size: int
    max_x: int
    base_projects: dict[str, int]
    project_row: dict[str, int]
    levels_per_project: dict[str, int]
    #: by player count: the level index blocked on each base project, in board order
    blocked_base_levels: dict[str, list[int]]
    appeal_income: AppealIncome
    reputation: Reputation
    conservation: Conservation
    strength: Strength
    build: Build
    association: Association
    sponsors: Sponsors
    hand_limit: int
    interactions: Interactions
    scoring: Scoring

    @model_validator(mode="after")
    def _consistent(self):
        for n, blocked in self.blocked_base_levels.items():
            if blocked and len(blocked) != self.base_projects[n]:
                raise ValueError(f"blocked_base_levels[{n}] needs one level per base project")
            if any(not 0 <= i < 3 for i in blocked):
                raise ValueError(f"blocked_base_levels[{n}]: a level index is 0, 1 or 2")
        if self.solo.appeal not in self.solo.appeal_choices:
            raise ValueError("solo.appeal must be one of solo.appeal_choices")
        if not 1 <= self.solo.last_row <= self.break_track["1"]:
            raise ValueError("solo.last_row must be 1 .. break_track[1] (the solo tile's rows)")
        for n, k in self.association.donations_covered.items():
            if not 0 <= k <= len(self.association.donations):
                raise ValueError(f"donations_covered[{n}] is more than the donation spaces")
        return self


@cache
def tables(path: str | None = None) -> Tables:
    file = Path(path) if path else DATA / "tables.json"
    try:
        return Tables.model_validate(json.loads(file.read_text()))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"{file.name}: field {where}: {first['msg']}") from None


T = tables()
_INCOME_AT = [a for a, _ in T.appeal_income.steps]
_INCOME = [m for _, m in T.appeal_income.steps]
_RANGE_AT = [r for r, _ in T.reputation.range]


def appeal_income(appeal: int) -> int:
    """Money the appeal track pays at a break (spec §7 step 5)."""
    ai = T.appeal_income
    if appeal >= ai.then_from:
        return _INCOME[-1] + 1 + (appeal - ai.then_from) // ai.then_every
    return _INCOME[bisect.bisect_right(_INCOME_AT, max(0, appeal)) - 1]


def conservation_value(cp: int) -> int:
    """What conservation points are worth in victory points."""
    s = T.scoring
    if cp <= s.low_cp_max:
        return s.low_factor * cp + s.low_offset
    return s.high_factor * cp + s.high_offset


def victory_points(appeal: int, cp: int) -> int:
    return appeal + conservation_value(cp) + T.scoring.base


def reputation_range(reputation: int) -> int:
    """How many display folders (from folder 1) a reputation reaches."""
    return T.reputation.range[bisect.bisect_right(_RANGE_AT, max(0, reputation)) - 1][1]


def animals_allowed(side: int, strength: int) -> int:
    if strength <= 0:
        return 0
    row = T.strength.animals[str(side)]
    return row[min(strength, len(row)) - 1]


def cards_row(side: int, strength: int) -> CardsRow | None:
    if strength <= 0:
        return None
    row = T.strength.cards[str(side)]
    return row[min(strength, len(row)) - 1]


@cache
def strength_cap(card: str) -> int | None:
    """The strength at which an action card already does its most: Animals and Cards work above
    it as at it (their tables end there); None for the cards that use the full number."""
    tables: dict[str, dict[str, list]] = {"animals": T.strength.animals,
                                          "cards": T.strength.cards}
    rows = tables.get(card)
    return None if rows is None else min(len(r) for r in rows.values())


def per_players(table: dict[str, int], players: int) -> int:
    return table[str(players)]
