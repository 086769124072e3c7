"""The game store's rows of the ways out of a game and of vacations (issue #33): a seat
resigned or left, the log row of a resignation or an abort, a cancelled game deleted; which
seats resigned; the running timed games of a player and their vacations (for the clocks).
Mixed into :class:`.store.LobbyTx` (one locked game row's transaction) and
:class:`.store.SqlGameStore`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update

from .. import outbox_store, times
from ..models import ActionRecord, Game, Seat
from ..vacations_store import not_over


class ExitTx:
    """Writes of one locked game row (``self.s``: the session, ``self.row``: the game)."""

    s: Any
    row: Game

    async def resign_seat(self, seat: int, version: int) -> bool:
        """Mark the player's seat resigned at ``version`` and hand it to the bot for good."""
        done = await self.s.execute(
            update(Seat).where(Seat.game_id == self.row.id, Seat.seat == seat,
                               Seat.user_id.is_not(None), Seat.resigned.is_(None))
            .values(resigned=version, away=True))
        return bool(done.rowcount == 1)

    async def leave_seat(self, seat: int, user_id: int) -> bool:
        """Free the user's seat of an open game."""
        done = await self.s.execute(
            update(Seat).where(Seat.game_id == self.row.id, Seat.seat == seat,
                               Seat.user_id == user_id).values(user_id=None, invited=False))
        return bool(done.rowcount == 1)

    def add_log_row(self, version: int, seat: int, action: dict[str, Any], events: list[Any],
                    kind: str, now: datetime, clock_before: dict[str, Any] | None = None) -> None:
        """A row of the log that is no engine move (a resignation), in this transaction."""
        self.s.add(ActionRecord(game_id=self.row.id, version=version, seat=seat, action=action,
                                events=events, created_at=now, kind=kind,
                                clock_before=clock_before))

    async def delete_game(self) -> None:
        """Delete the game row (its seats, log, snapshots and outbox rows go with it)."""
        await outbox_store.drop_game(self.s, self.row.id)
        await self.s.execute(delete(Game).where(Game.id == self.row.id))

    async def vacations(self, user_ids: Iterable[int],
                        now: datetime) -> dict[int, list[list[str]]]:
        """user id -> their vacations not over at ``now`` (``[[start, end], ...]``, ISO)."""
        return {uid: [[times.iso(a) or "", times.iso(b) or ""] for a, b in spans]
                for uid, spans in (await not_over(self.s, user_ids, now)).items()}



class ExitRows:
    """Reads of the store (``self.db``: the database)."""

    db: Any

    async def timed_seats_of(self, user_id: int) -> list[tuple[int, int]]:
        """``(game id, seat)`` of the user's running games with a time control."""
        async with self.db.read() as s:
            return [(r.id, r.seat) for r in (await s.execute(
                select(Game.id, Seat.seat, Game.time_control)
                .join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user_id, Game.status == "running")
                .order_by(Game.id))).all() if r.time_control]

    async def resignations(self, game_id: int) -> list[int]:
        """The seats whose players resigned, in the order they did."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(Seat.seat).where(Seat.game_id == game_id, Seat.resigned.is_not(None))
                .order_by(Seat.resigned))).scalars().all())
