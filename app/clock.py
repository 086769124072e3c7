"""Time controls: a limit per decision or a time bank with an increment, and the game clock.

A game may have a time control (chosen when it is created, shown to everyone):

- ``{"mode": "move", "seconds": N}``: every decision must be made within N seconds of the
  moment it became the seat's to make (minutes for live games, hours or days for async ones);
- ``{"mode": "bank", "seconds": N, "increment": I}``: each seat has a bank of N seconds that
  runs down while it owes a decision; I seconds are added when its turn ends (its last
  decision in a row). A seat whose bank is empty is played by the bot until its turn ends.

and ``abandon_after`` (K timeouts in a row hand the seat to the bot for good, until the player
reclaims it) and ``bot`` (the bot that plays a timed-out decision).

The server also deals games with ``{"mode": "count"}`` (the daily challenge's, app/daily/): no
limit and no deadline, the clock only counts the time each seat spent owing a decision
(``used``, seconds). Players cannot choose it for their own games (:class:`TimeControl`).

The clock (``games.clock``, written with every move in the move's own statement) holds per
seat: ``bank`` (seconds left; bank mode), ``since`` (when its current wait began), ``deadline``,
``timeouts`` (in a row) and ``auto`` (decisions the platform played for it), and ``off``: the
player's vacations (``[[start, end], ...]``, ISO; app/vacations.py writes them into the clocks
of their running games). Time inside a vacation does not count: a deadline moves by the
vacation (:func:`deadline_after`), a bank does not run down (:func:`spent`). The game row's
``turn_deadline`` is the earliest deadline of the waiting seats, indexed, so the scheduler
(:mod:`app.scheduler`) finds expired games with one query after any restart.

Everything here is pure: times come in as arguments.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Literal, overload

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from .times import iso

#: the shortest limit accepted (seconds): long enough to read the board
MIN_SECONDS = 10
MAX_SECONDS = 30 * 24 * 3600


#: The bot of a time control that names none: the learned ``fast`` level, which beats the
#: hand-weighted ``greedy`` (docs/bots.md, the ladder: 27.5 of 40 games, 0.69).
DEFAULT_BOT = "fast"

class TimeControl(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"mode": "move", "seconds": 86400, "abandon_after": 3},
                     {"mode": "bank", "seconds": 600, "increment": 20}]})
    mode: Literal["move", "bank"]
    #: the limit per decision (move) or the starting bank (bank), in seconds
    seconds: StrictInt = Field(ge=MIN_SECONDS, le=MAX_SECONDS)
    #: seconds added to the bank when a seat's turn ends (bank mode only)
    increment: StrictInt = Field(0, ge=0, le=7 * 24 * 3600)
    #: timeouts in a row after which a bot takes the seat for good (until reclaimed)
    abandon_after: StrictInt = Field(3, ge=1, le=1000)
    #: the bot that plays a timed-out decision and an abandoned seat
    bot: StrictStr = Field(DEFAULT_BOT, max_length=32)


@overload
def parse(value: str) -> datetime: ...


@overload
def parse(value: None) -> None: ...


def parse(value: str | None) -> datetime | None:
    if value is None:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _pauses(off) -> list[tuple[datetime, datetime]]:
    return sorted((parse(a), parse(b)) for a, b in (off or []))


def deadline_after(start: datetime, seconds: float,
                   off=None) -> datetime:
    """When ``seconds`` of counted time have passed from ``start``, the time inside the
    vacations ``off`` (``[[start, end], ...]``, ISO) not counted."""
    t, left = start, float(seconds)
    for a, b in _pauses(off):
        if b <= t:
            continue
        if a > t:
            gap = (a - t).total_seconds()
            if left <= gap:
                break
            left -= gap
        t = b
    return t + timedelta(seconds=left)


def spent(since: datetime, now: datetime, off=None) -> float:
    """Seconds from ``since`` to ``now`` outside the vacations ``off``."""
    total = (now - since).total_seconds()
    for a, b in _pauses(off):
        lo, hi = max(a, since), min(b, now)
        if hi > lo:
            total -= (hi - lo).total_seconds()
    return max(0.0, total)


def on_vacation(entry: dict, now: datetime) -> str | None:
    """The end (ISO) of the vacation the seat's player is on at ``now``, if any."""
    for a, b in _pauses(entry.get("off")):
        if a <= now < b:
            return iso(b)
    return None


def _entry(tc: dict) -> dict:
    entry = {"bank": float(tc["seconds"]) if tc["mode"] == "bank" else None, "since": None,
             "deadline": None, "timeouts": 0, "auto": 0}
    if tc["mode"] == "count":
        entry["used"] = 0.0
    return entry


def _limit(tc: dict, entry: dict) -> float:
    return float(tc["seconds"]) if tc["mode"] == "move" else max(entry["bank"] or 0.0, 0.0)


def start(tc: dict, seats: int, waiting: Iterable[int], timed: set[int],
          now: datetime) -> tuple[dict, datetime | None]:
    """The clock of a game that starts now: ``timed`` are the seats played by people."""
    clock = {"seats": {str(s): _entry(tc) for s in range(seats)}}
    return _arm(tc, clock, set(waiting), set(), timed, now, None)


def advance(tc: dict, clock: dict, actor: int, kind: str, before: Iterable[int],
            after: Iterable[int], timed: set[int], now: datetime) -> tuple[dict, datetime | None]:
    """The clock after ``actor`` decided (``kind``: move, auto or undo) at ``now``.

    ``before``/``after``: the seats owing a decision before and after it; ``timed``: the seats
    played by people now (not bots, not handed to a bot). Returns the new clock (a copy) and
    the game's next deadline.
    """
    clock = {"seats": {k: dict(v) for k, v in clock["seats"].items()}}
    after = set(after)
    e = clock["seats"].get(str(actor))
    if e is not None and kind != "undo":
        since = parse(e["since"])
        if tc["mode"] == "bank" and since is not None:
            e["bank"] = max(0.0, round((e["bank"] or 0.0) - spent(since, now, e.get("off")), 3))
        elif tc["mode"] == "count" and since is not None:
            e["used"] = round((e.get("used") or 0.0) + spent(since, now, e.get("off")), 3)
        if kind == "auto":
            e["timeouts"] += 1
            e["auto"] += 1
        else:
            e["timeouts"] = 0
        if actor not in after and tc["mode"] == "bank":
            e["bank"] = round((e["bank"] or 0.0) + tc["increment"], 3)
        # the actor's next decision (a chained one) is timed afresh
        e["since"] = e["deadline"] = None
    return _arm(tc, clock, after, set(before) - {actor}, timed, now, actor if kind == "undo"
                else None)


def _arm(tc: dict, clock: dict, waiting: set[int], still: set[int], timed: set[int],
         now: datetime, keep: int | None) -> tuple[dict, datetime | None]:
    """Start the wait of the seats that now owe a decision; keep the running waits of those
    that owed it already (``still``, and ``keep``); stop the others."""
    deadline = None
    for key, e in clock["seats"].items():
        seat = int(key)
        if e.get("off"):  # (vacations over before the wait began no longer matter)
            since = parse(e["since"]) if e.get("since") else now
            e["off"] = [[a, b] for a, b in e["off"] if parse(b) > min(since, now)]
            if not e["off"]:
                del e["off"]
        if seat not in waiting or seat not in timed:
            e["since"] = e["deadline"] = None
            continue
        if (seat in still or seat == keep) and e["since"] is not None:
            pass  # the same wait goes on
        else:
            e["since"] = iso(now)
            e["deadline"] = (None if tc["mode"] == "count"
                             else iso(deadline_after(now, _limit(tc, e), e.get("off"))))
        if e["deadline"] is None:  # counted, never limited
            continue
        d = parse(e["deadline"])
        if deadline is None or d < deadline:
            deadline = d
    return clock, deadline


def rearm(tc: dict, clock: dict, waiting: Iterable[int], timed: set[int],
          now: datetime) -> tuple[dict, datetime | None]:
    """The clock after the set of people changed (a seat reclaimed or handed to a bot)."""
    clock = {"seats": {k: dict(v) for k, v in clock["seats"].items()}}
    waiting = set(waiting)
    return _arm(tc, clock, waiting, waiting, timed, now, None)


def with_vacations(tc: dict, clock: dict, seats: Iterable[int], off: list,
                   waiting: Iterable[int], timed: set[int],
                   now: datetime) -> tuple[dict, datetime | None]:
    """The clock after the vacations of the player of ``seats`` became ``off``: a running wait
    keeps its start, its deadline is counted again from it without the vacations."""
    clock = {"seats": {k: dict(v) for k, v in clock["seats"].items()}}
    waiting = set(waiting)
    for seat in seats:
        e = clock["seats"].get(str(seat))
        if e is None:
            continue
        if off:
            e["off"] = [list(x) for x in off]
        else:
            e.pop("off", None)
        if e.get("since") and e.get("deadline") and tc["mode"] != "count":
            e["deadline"] = iso(deadline_after(parse(e["since"]), _limit(tc, e), e.get("off")))
    return _arm(tc, clock, waiting, waiting, timed, now, None)


def expired(clock: dict | None, waiting: Iterable[int], timed: set[int],
            now: datetime) -> list[int]:
    """The waiting, timed seats whose deadline has passed."""
    if not clock:
        return []
    out = []
    for seat in sorted(waiting):
        e = clock["seats"].get(str(seat))
        if seat in timed and e is not None and e["deadline"] is not None and \
                parse(e["deadline"]) <= now:
            out.append(seat)
    return out


def public(tc: dict | None, clock: dict | None) -> dict | None:
    """What everyone sees: the control and each seat's deadline, bank and timeouts."""
    if not tc:
        return None
    seats = {}
    for key, e in (clock or {"seats": {}})["seats"].items():
        seats[key] = {"deadline": e["deadline"], "bank": e["bank"], "since": e["since"],
                      "timeouts": e["timeouts"], "auto": e["auto"]}
        if e.get("off"):  # the player's vacations: "on vacation until ..."
            seats[key]["off"] = e["off"]
        if "used" in e:
            seats[key]["used"] = e["used"]
    return {"control": tc, "seats": seats}
