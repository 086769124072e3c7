"""Storage of games, seats, the action log and snapshots: the one seam to the database.

:class:`GameStore` is the interface the game service uses; nothing else in ``app/games`` writes
SQL or asks which database it runs on. :class:`SqlGameStore` implements it with SQLAlchemy (the
SQLite implementation, and the base of the PostgreSQL one); :class:`~.store_pg.PgGameStore`
replaces the hot paths (a move as one statement, the current row, the log tail) with asyncpg
statements. :func:`~.service.make_store` picks the implementation for a database.

How a move is stored: the game row is written with ``UPDATE games ... WHERE id = G AND
version = V AND seats_rev = R``; a concurrent writer of the same game waits for the row lock,
then finds the condition false, updates nothing and gets ``False`` (409 for the caller). The
action row (``UNIQUE(game_id, version)``) and the snapshot go in the same transaction; the
announcement of the new version and the per-user notice go out with the commit (PostgreSQL:
``pg_notify`` inside the statement; SQLite: right after the commit, in this process).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from sqlalchemy import case, insert, select, update
from sqlalchemy.exc import IntegrityError

from .. import outbox_store
from ..bus import SEATS_CHANNEL, USER_CHANNEL
from ..db import Database, Duplicate
from ..models import ActionRecord, Game, Seat, Snapshot
from ..refusal import not_found
from ..times import utcnow
from .store_exits import ExitRows, ExitTx
from .store_invites import Answered, Choose, InviteRows, Notice
from .store_lookups import LookupRows, Lookups, creator_load
from .store_people import People, PeopleRows
from .store_reads import ReadRows
from .store_records import History, RecordRows, undo_snapshots
from .store_rematch import Invitation, Quota, Rematched, RematchRows, StartCheck


class CurrentRow(NamedTuple):
    """The columns of a game row that the cache keeps (``state`` None when unchanged)."""

    game: str
    seat_count: int
    seed: str
    status: str
    version: int
    waiting_for: Any
    state: Any
    time_control: Any = None
    clock: Any = None
    seats_rev: int = 0
    #: the seat whose turn waits for its confirm (None: none)
    held: Any = None


class LogRow(NamedTuple):
    version: int
    seat: int
    action: Any
    events: Any
    kind: str = "move"


@dataclass
class SeatMaps:
    """A game's seats as the cache keeps them."""

    users: dict[int, int]        #: user id -> seat
    bots: dict[int, str]         #: seat -> bot kind (the real bot seats)
    away: frozenset              #: players' seats handed to the time control's bot

    @classmethod
    def of(cls, rows) -> SeatMaps:
        users = {r["user_id"]: r["seat"] for r in rows if r["user_id"] is not None}
        bots = {r["seat"]: r["bot"] for r in rows if r["bot"] is not None}
        away = frozenset(r["seat"] for r in rows if r["away"] and r["user_id"] is not None)
        return cls(users, bots, away)


@dataclass
class Move:
    """One version to store: the action and everything the game row holds after it."""

    seat: int
    action: Any
    events: list
    version: int
    state: dict
    waiting: list
    status: str
    result: dict | None
    snapshot: bool
    clock: dict | None = None
    deadline: Any = None
    kind: str = "move"            #: "move", "auto" or "undo"
    notice: str | None = None     #: the per-user notice (JSON) published with the commit
    now: Any = None
    #: the game's clock just before this decision (a take-back restores it exactly)
    clock_before: dict | None = None
    #: what the move sets off, stored with it (app/outbox.py): (kind, payload) or None
    outbox: tuple[str, dict] | None = None
    #: the seat whose turn waits for its confirm after this version (None: none)
    held: int | None = None


class GameStore(Lookups, People, Protocol):
    """Everything the game service stores or reads of games (see the module docstring), and
    the other domains' reads of them (:class:`~.store_lookups.Lookups`,
    :class:`~.store_people.People`)."""

    async def insert_game(self, fields: dict, seats: list[dict],
                          quota: Callable[[int, Counter], None] | None = None,
                          also: Callable[[Any, int], None] | None = None) -> int: ...
    def lobby(self, game_id: int) -> contextlib.AbstractAsyncContextManager[LobbyTx]: ...
    async def write_move(self, game_id: int, version: int, seats_rev: int, move: Move) -> bool: ...
    async def seats_changed(self, game_id: int, session=None) -> None: ...
    async def seat_map(self, game_id: int) -> dict[int, int]: ...
    async def resignations(self, game_id: int) -> list[int]: ...
    async def timed_seats_of(self, user_id: int) -> list[tuple[int, int]]: ...
    async def log_entry(self, game_id: int, version: int): ...
    async def current(self, game_id: int, known: int,
                      need_seats) -> tuple[CurrentRow | None, SeatMaps | None]: ...
    async def log_tail(self, game_id: int, after: int, upto: int) -> list[LogRow]: ...
    async def undone(self, game_id: int, records) -> dict[int, dict]: ...
    async def history(self, game_id: int, snapshot_at: int, upto: int, *,
                      events: bool = False) -> History | None: ...
    async def game_row(self, game_id: int, *, state: bool) -> Game | None: ...
    async def summaries(self, rows: list[Game]) -> tuple[dict, dict]: ...
    async def list_rows(self, status: str | None, user_id: int | None, limit: int,
                        offset: int) -> list[Game]: ...
    async def seat_of(self, game_id: int, user_id: int) -> int | None: ...
    async def confirms_turns(self, user_id: int) -> bool: ...
    async def confirm_count(self, game_id: int) -> int: ...
    async def log_rows(self, game_id: int, after: int,
                       limit: int) -> tuple[int | None, Any, list]: ...
    async def sealed_until(self, game_id: int): ...
    async def version_status(self, game_id: int) -> tuple[int, str] | None: ...
    async def events_at(self, game_id: int, version: int) -> list: ...
    async def all_actions(self, game_id: int) -> list: ...
    async def made(self, game_id: int, version: int): ...
    async def events_between(self, game_id: int, after: int, upto: int) -> list: ...
    async def seat_names(self, game_id: int) -> list: ...
    async def insert_record(self, fields: dict, seats: list[dict], steps: list,
                            snapshots: dict[int, dict]) -> int: ...
    async def games_waiting_for_bots(self) -> list[int]: ...
    async def expired_games(self, now, limit: int) -> list[int]: ...
    # rematches (store_rematch.py)
    async def rematch_of_id(self, game_id: int) -> int | None: ...
    async def create_rematch(self, game_id: int, user_id: int, quota: Quota | None,
                             invitation: Invitation) -> Rematched: ...
    async def start_check(self, game_id: int) -> StartCheck | None: ...
    async def rematch_fields(self, game_id: int) -> tuple[int | None, list[int]]: ...
    async def game_exists(self, game_id: int) -> bool: ...
    async def invitations_of(self, user_id: int, limit: int = 100) -> list[int]: ...
    # invitations (store_invites.py)
    async def users_by_key(self, keys: list[str],
                           session: Any = None) -> dict[str, tuple[int, str]]: ...
    async def invitations_waiting(self, creator_id: int, session: Any = None) -> int: ...
    async def add_invitations(self, game_id: int, user_id: int, choose: Choose,
                              notice: Notice) -> tuple[str, list[int]]: ...
    async def answer_invite(self, game_id: int, user_id: int, accept: bool,
                            declined: Notice | None = None) -> Answered: ...
    async def withdraw_invite(self, game_id: int, user_id: int, name: str) -> Answered: ...
    async def invitation_games(self, user_id: int,
                               limit: int = 100) -> tuple[list[Game], list[Game]]: ...


class LobbyTx(ExitTx):
    """One write transaction on one game row, locked (``FOR UPDATE``): join, start, away.

    The lobby decides; this only reads and writes. ``announce`` queues a per-user notice that
    goes out with the commit."""

    def __init__(self, store: SqlGameStore, session, row: Game) -> None:
        self.store = store
        self.s = session
        self.row = row
        self._after: list[str] = []
        self._seats = False

    async def seats(self) -> list[Seat]:
        return list((await self.s.execute(select(Seat).where(Seat.game_id == self.row.id)
                                          .order_by(Seat.seat))).scalars().all())

    async def take_seat(self, seat: int, user_id: int) -> bool:
        done = await self.s.execute(
            update(Seat).where(Seat.game_id == self.row.id, Seat.seat == seat,
                               Seat.user_id.is_(None), Seat.bot.is_(None))
            .values(user_id=user_id))
        return done.rowcount == 1

    async def set_away(self, seat: int, away: bool) -> bool:
        done = await self.s.execute(
            update(Seat).where(Seat.game_id == self.row.id, Seat.seat == seat,
                               Seat.user_id.is_not(None), Seat.away.is_(not away),
                               Seat.resigned.is_(None))  # a resigned seat stays the bot's
            .values(away=away))
        return done.rowcount == 1

    async def people(self, *, present: bool = False) -> dict[int, int]:
        """seat -> user id of the seats people sit in (``present``: not handed to the bot)."""
        q = select(Seat.seat, Seat.user_id).where(Seat.game_id == self.row.id,
                                                  Seat.user_id.is_not(None))
        if present:
            q = q.where(Seat.away.is_(False))
        return dict((await self.s.execute(q)).all())

    def add_snapshot(self, version: int, state: dict) -> None:
        self.s.add(Snapshot(game_id=self.row.id, version=version, state=state))

    async def announce(self, version: int, notice: str | None) -> None:
        """The new version (and a per-user notice) go out with the commit."""
        await self.store.bus.before_commit(self.s, self.row.id, version)
        if notice is not None:
            await self.store.publish_with(self, notice)

    async def seats_changed(self) -> None:
        """The seats changed: every process's sockets follow once this commits."""
        await self.store.seats_changed(self.row.id, self.s)
        self._seats = True

    def after_commit(self, notice: str) -> None:
        self._after.append(notice)

    def set_off(self, kind: str, version: int, payload: dict) -> None:
        """An outbox row (app/outbox.py) committed with this transaction."""
        outbox_store.add(self.s, kind=kind, game_id=self.row.id, version=version,
                         payload=payload)

    async def commit(self) -> None:
        """Commit; :class:`~app.db.Duplicate` if a unique constraint refuses it."""
        try:
            await self.s.commit()
        except IntegrityError as exc:
            raise Duplicate(str(exc.orig)) from exc
        for notice in self._after:
            await self.store.bus.publish(USER_CHANNEL, notice)
        self._after.clear()
        if self._seats:
            await self.store.seats_changed(self.row.id)
            self._seats = False


class SqlGameStore(ReadRows, RecordRows, ExitRows, RematchRows, InviteRows, LookupRows,
                   PeopleRows):
    """:class:`GameStore` over SQLAlchemy: SQLite, and the base of the PostgreSQL store.
    ``cache`` (the game service's, or None): what the store drops when it changes a game
    outside the service's own paths (a rematch's seats)."""

    def __init__(self, db: Database, bus, cache=None) -> None:
        self.db = db
        self.bus = bus
        self.cache = cache

    # ----------------------------------------------------------------- lobby
    async def insert_game(self, fields: dict, seats: list[dict],
                          quota: Callable[[int, Counter], None] | None = None,
                          also: Callable[[Any, int], None] | None = None) -> int:
        """Store a new open game and its seats. ``quota(active, bot_seats)`` is called first
        with the creator's unfinished games and their bot seats by kind (games dealt by the
        server, such as the daily challenge's, do not count), counted in the same
        transaction with the creator's row locked (two creations by one user queue; SQLite
        has one writer at a time anyway); it raises to refuse. ``also(session, game_id)``
        writes more rows (the other tables' owners: a daily attempt, an invitation's notice)
        in the same transaction (a unique constraint on them stores nothing and raises
        :class:`~app.db.Duplicate`)."""
        async with self.db.write() as s:
            if quota is not None:
                quota(*await creator_load(s, fields["created_by"]))
            row = Game(**fields)
            s.add(row)
            await s.flush()
            for seat in seats:
                s.add(Seat(game_id=row.id, **seat))
            if also is not None:
                also(s, row.id)
            try:
                await s.commit()
            except IntegrityError as exc:
                raise Duplicate(str(exc.orig)) from exc
            return row.id

    @contextlib.asynccontextmanager
    async def lobby(self, game_id: int) -> AsyncIterator[LobbyTx]:
        async with self.db.write() as s:
            row = (await s.execute(select(Game).where(Game.id == game_id).with_for_update())
                   ).scalar_one_or_none()
            if row is None:
                raise not_found("game")
            yield LobbyTx(self, s, row)

    async def publish_with(self, tx: LobbyTx, notice: str) -> None:
        """SQLite: announcements stay in this process, after the commit."""
        tx.after_commit(notice)

    async def seats_changed(self, game_id: int, session=None) -> None:
        """Tell every process that who sits where in the game changed (its sockets follow:
        :meth:`app.realtime.Hub.seats_changed`). Called twice around a commit: with the
        session, then without it once committed. SQLite: this process only, after the commit.
        """
        if session is None:
            await self.bus.publish(SEATS_CHANNEL, str(game_id))

    async def seat_map(self, game_id: int) -> dict[int, int]:
        """Who sits where in the game now: user id -> seat."""
        async with self.db.read() as s:
            return dict((await s.execute(select(Seat.user_id, Seat.seat).where(
                Seat.game_id == game_id, Seat.user_id.is_not(None)))).all())

    async def log_entry(self, game_id: int, version: int):
        """``kind, action, clock_before, seat`` of one log row (None if there is none)."""
        async with self.db.read() as s:
            return (await s.execute(
                select(ActionRecord.kind, ActionRecord.action, ActionRecord.clock_before,
                       ActionRecord.seat)
                .where(ActionRecord.game_id == game_id, ActionRecord.version == version))
            ).first()

    # ----------------------------------------------------------------- moves
    async def write_move(self, game_id: int, version: int, seats_rev: int, m: Move) -> bool:
        now = m.now or utcnow()
        async with self.db.write() as s:
            done = await s.execute(
                update(Game).where(Game.id == game_id, Game.version == version,
                                   Game.seats_rev == seats_rev)
                .values(version=m.version, state=m.state, waiting_for=m.waiting,
                        status=m.status, result=m.result, updated_at=now, clock=m.clock,
                        turn_deadline=m.deadline, held_seat=m.held))
            if done.rowcount != 1:
                return False
            await s.execute(insert(ActionRecord).values(
                game_id=game_id, version=m.version, seat=m.seat, action=m.action,
                events=m.events, created_at=now, kind=m.kind, clock_before=m.clock_before))
            if m.snapshot:
                await s.execute(insert(Snapshot).values(game_id=game_id, version=m.version,
                                                        state=m.state, created_at=now))
            if m.outbox is not None:
                outbox_store.add(s, kind=m.outbox[0], game_id=game_id, version=m.version,
                                 payload=m.outbox[1], now=now)
            try:
                await s.commit()
            except IntegrityError:
                return False
        if m.notice is not None:
            await self.bus.publish(USER_CHANNEL, m.notice)
        return True

    async def current(self, game_id: int, known: int, need_seats):
        """The game row (its state only when the version is not ``known``), and its seats
        when ``need_seats(row)`` says the cached ones are out of date."""
        async with self.db.read_conn() as s:
            row = (await s.execute(
                select(Game.game, Game.seat_count, Game.seed, Game.status, Game.version,
                       Game.waiting_for,
                       case((Game.version == known, None), else_=Game.state).label("state"),
                       Game.time_control, Game.clock, Game.seats_rev, Game.held_seat)
                .where(Game.id == game_id))).first()
            if row is None:
                return None, None
            row = CurrentRow(*row)
            seats = None
            if need_seats(row):
                seat_rows = (await s.execute(
                    select(Seat.seat, Seat.user_id, Seat.bot, Seat.away)
                    .where(Seat.game_id == game_id))).all()
                seats = SeatMaps.of([r._mapping for r in seat_rows])
        return row, seats

    async def log_tail(self, game_id: int, after: int, upto: int) -> list[LogRow]:
        async with self.db.read_conn() as s:
            rows = (await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.events, ActionRecord.kind)
                .where(ActionRecord.game_id == game_id, ActionRecord.version > after,
                       ActionRecord.version <= upto)
                .order_by(ActionRecord.version))).all()
        return [LogRow(*r) for r in rows]

    async def undone(self, game_id: int, records) -> dict[int, dict]:
        if not any(r.kind == "undo" for r in records):
            return {}
        async with self.db.read() as s:
            return await undo_snapshots(s, game_id, records)
