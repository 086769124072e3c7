"""The game log read as a whole (states at past versions, the replay viewer's history, game
records): part of :class:`~.store.SqlGameStore`, the one seam to the database for games,
actions and snapshots."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from .. import auth_store
from ..db import Database
from ..models import ActionRecord, Game, Seat, Snapshot


async def undo_snapshots(s: Any, game_id: int,
                         records: Iterable[Any]) -> dict[int, dict[str, Any]]:
    """The stored states of the undo rows among ``records`` (each undo version has one), read
    in the session ``s``."""
    versions = [r.version for r in records if r.kind == "undo"]
    if not versions:
        return {}
    rows = (await s.execute(select(Snapshot.version, Snapshot.state).where(
        Snapshot.game_id == game_id, Snapshot.version.in_(versions)))).all()
    return {r.version: r.state for r in rows}


@dataclass
class History:
    """What rebuilds a state: the nearest snapshot and the log rows after it."""

    game: str
    snapshot_version: int
    snapshot: dict
    records: list
    undone: dict[int, dict]


class RecordRows:
    """Reads of the whole log and the import of a finished game (``self.db``: the database)."""

    db: Database  # set by SqlGameStore

    async def history(self, game_id: int, snapshot_at: int, upto: int, *,
                      events: bool = False) -> History | None:
        """The nearest snapshot at or before ``snapshot_at`` and the log rows after it up to
        ``upto``; with ``events`` the rows carry their events and start at the snapshot's own
        version (its events). None: no such game; ``snapshot_version`` -1: not started."""
        async with self.db.read() as s:
            name = await s.scalar(select(Game.game).where(Game.id == game_id))
            if name is None:
                return None
            snap = (await s.execute(
                select(Snapshot.version, Snapshot.state)
                .where(Snapshot.game_id == game_id, Snapshot.version <= snapshot_at)
                .order_by(Snapshot.version.desc()).limit(1))).first()
            if snap is None:
                return History(name, -1, {}, [], {})
            cols = [ActionRecord.version, ActionRecord.seat, ActionRecord.action]
            if events:
                cols.append(ActionRecord.events)
            cols.append(ActionRecord.kind)
            low = max(snap.version, 1) if events else snap.version + 1
            records = (await s.execute(
                select(*cols).where(ActionRecord.game_id == game_id,
                                    ActionRecord.version >= low, ActionRecord.version <= upto)
                .order_by(ActionRecord.version))).all()
            undone = await undo_snapshots(s, game_id, [r for r in records
                                                        if r.version > snap.version])
        return History(name, snap.version, snap.state, list(records), undone)

    async def events_at(self, game_id: int, version: int) -> list:
        async with self.db.read() as s:
            return (await s.scalar(select(ActionRecord.events).where(
                ActionRecord.game_id == game_id, ActionRecord.version == version))) or []

    async def all_actions(self, game_id: int) -> list:
        async with self.db.read() as s:
            return list((await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.kind).where(ActionRecord.game_id == game_id)
                .order_by(ActionRecord.version))).all())

    async def made(self, game_id: int, version: int):
        """``seat, action, kind, events, created_at`` of the log row that made ``version``
        (None if there is none)."""
        async with self.db.read() as s:
            return (await s.execute(
                select(ActionRecord.seat, ActionRecord.action, ActionRecord.kind,
                       ActionRecord.events, ActionRecord.created_at)
                .where(ActionRecord.game_id == game_id, ActionRecord.version == version))
            ).first()

    async def events_between(self, game_id: int, after: int, upto: int) -> list:
        """``version, events`` of the log rows after ``after`` up to ``upto``, in order."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(ActionRecord.version, ActionRecord.events)
                .where(ActionRecord.game_id == game_id, ActionRecord.version > after,
                       ActionRecord.version <= upto)
                .order_by(ActionRecord.version))).all())

    async def seat_names(self, game_id: int) -> list:
        """``seat, bot, username`` of every seat, in seat order."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(Seat.seat, Seat.bot, auth_store.username_of(Seat.user_id).label("username"))
                .where(Seat.game_id == game_id).order_by(Seat.seat))).all())

    async def insert_record(self, fields: dict, seats: list[dict], steps: list,
                            snapshots: dict[int, dict]) -> int:
        """Store a finished game at once (an imported record): the row, its seats, every
        action (``seat, action, events``; versions 1, 2, ...) and the snapshots by version."""
        async with self.db.write() as s:
            row = Game(**fields)
            s.add(row)
            await s.flush()
            gid = row.id
            now = fields["created_at"]
            await s.execute(insert(Seat), [{"game_id": gid, **x} for x in seats])
            if steps:
                await s.execute(insert(ActionRecord), [
                    {"game_id": gid, "version": i + 1, "seat": seat, "action": action,
                     "events": events, "created_at": now, "kind": "move"}
                    for i, (seat, action, events) in enumerate(steps)])
            await s.execute(insert(Snapshot), [
                {"game_id": gid, "version": v, "state": dumped, "created_at": now}
                for v, dumped in sorted(snapshots.items())])
            await s.commit()
            return gid
