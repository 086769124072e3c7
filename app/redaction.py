"""Who sees what: the one place that turns a game's state, events and answers into what one
viewer receives.

Every way a game leaves the server goes through here: the live ``state`` messages and the
answer to a move (:class:`app.frame.Frame`), the game's detail (``GET /api/games/{id}``),
the log (``/log``), the replay viewer's history (``/history``) and the record export. No other
app module calls the engine's ``private_view``/``events_for`` (``tests/test_architecture.py``
checks it).

The rules, in one list:

- **State.** Everybody sees the engine's public view. A seat also sees its own private part
  (its hand, its own pending decision; the engine declares what a decision hides on the
  decision itself, e.g. the opening's offers or a secret bid). A spectator sees no private
  part. The engine's views are the source of truth; this module only chooses which to send.
- **Events.** An event marked ``only`` (a card drawn, a secret bid) goes to the seats it names,
  marked ``private``; everybody else never learns it happened.
- **Answers.** While a game runs a seat sees its own answers only: another seat's answer may
  be secret (a kept card, a vote), so the log gives others the events, not the answer.
- **Finished games.** Once a game is over nothing is hidden any more: every seat's private
  part, every event and every answer are open to everybody (history and records).
- **Sealed games.** A game with ``sealed_until`` in the future (a daily challenge's game until
  its UTC day is over: everyone plays the same deal that day) is seen only by its seated
  players: its detail, log, history, chat and socket answer anyone else 403 ``game_sealed``,
  and the public lists leave it out. Its record (which holds the seed) is refused to everybody,
  its players included, until then (:func:`check_sealed`). After that it is an ordinary game.
- **Lists of other players' games.** A friends' games list or a profile shows a game to a
  viewer only when it is neither sealed nor unlisted (a game made for invited players,
  app/invites.py), or the viewer has a seat in it (an invited one counts)
  (the SQL condition: ``app/games/store_people.py`` ``listed_for``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from engine.core import Game, events_for

from . import times
from .refusal import Refusal, say
from .times import aware, iso

Viewer = int | None  # a seat, or None for a spectator


def public(game: Game, state: Any) -> dict:
    """What everybody may see of ``state``."""
    return game.public_view(state)


def private(game: Game, state: Any, seat: Viewer) -> dict | None:
    """What only ``seat`` may see of ``state`` (None for a spectator or a seat not in it)."""
    if seat is None or not 0 <= seat < game.seat_count(state):
        return None
    return game.private_view(state, seat)


def view(game: Game, state: Any, seat: Viewer) -> dict:
    """``{"public": ..., "private": ...}`` for one viewer."""
    return {"public": public(game, state), "private": private(game, state, seat)}


def every_private(game: Game, state: Any) -> dict[str, dict]:
    """Every seat's private part, by seat (only for a finished game: see :func:`history`)."""
    return {str(seat): game.private_view(state, seat) for seat in range(game.seat_count(state))}


def events(evs: Iterable[dict], seat: Viewer, *, finished: bool = False) -> list[dict]:
    """The events ``seat`` may see; a finished game's events are open to everybody."""
    return list(evs) if finished else events_for(evs, seat)


def answer(action: Any, made_by: int | None, seat: Viewer, *, finished: bool = False) -> Any:
    """The answer ``made_by`` gave, if ``seat`` may see it (None otherwise)."""
    if finished or (seat is not None and made_by == seat):
        return action
    return None


def log_entry(version: int, made_by: int | None, action: Any, evs: Iterable[dict],
              seat: Viewer, at: str) -> dict:
    """One entry of a running or finished game's log, as ``seat`` may read it (the log never
    opens other seats' answers, even after the end: the records and history do that)."""
    entry = {"version": version, "seat": made_by, "events": events_for(evs, seat), "at": at}
    shown = answer(action, made_by, seat)
    if shown is not None:
        entry["action"] = shown
    return entry


def history(game: Game, state: Any, evs: list[dict], action: Any, *,
            finished: bool) -> dict:
    """The replay viewer's picture of one version, for anybody: while the game runs only the
    public view and the public events; after the end every seat's private part, every event
    and the answer that made this version."""
    out: dict = {"view": {"public": public(game, state), "private": None},
                 "events": events(evs, None, finished=finished)}
    if finished:
        out["privates"] = every_private(game, state)
        if action is not None:
            out["action"] = action
    return out


def public_events(evs: Iterable[dict]) -> list[dict]:
    """The events everybody may see (for public summaries such as "jump to break")."""
    return events_for(evs, None)


def sealed(until: datetime | None, now: datetime | None = None) -> bool:
    """Whether a game is still private to its seated players (see the module docstring)."""
    return until is not None and aware(until) > (now or times.utcnow())


def check_sealed(until: datetime | None, seated: bool) -> None:
    """Refuse a viewer without a seat in a sealed game (403 ``game_sealed``); ``seated``
    False also for what nobody may have yet (the record with its seed)."""
    if not seated and sealed(until):
        raise Refusal("game_sealed",
                      say("game_sealed"),
                      until=iso(until))

