"""All SQL of the daily challenge: attempts, their results, leaderboards, streaks, past days.

An attempt row is stored in the same transaction as its game (``GameService.create_dealt``
with :meth:`DailyStore.new_attempt` as the ``also`` rows), and the unique constraint
``(user_id, kind, day)`` makes a second start of the same attempt, in any process, fail with
``IntegrityError`` (:class:`~app.db.Duplicate` from the game store) before anything is stored.
Nothing here depends on the database: the same statements run on SQLite and PostgreSQL. The
games' tables are the game store's (``app/games/store_lookups.py``): an attempt's game status,
the finished games' results and the players' finished games are its reads, made in this
store's transaction.

The result columns (``finished_at``, ``score``, ``time_used``, ``in_time``) are copied from the
finished game by :meth:`DailyStore.settle`: when the game ends (the ``finished`` signal) and,
for any attempt that signal missed (a crash right after the move), before every read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, or_, select, update

from .. import auth_store, prefs_store
from ..db import Database
from ..models import DailyAttempt
from ..times import aware
from .calendar import day_end
from .kinds import outcome

#: a time used that sorts after every real one (attempts without a bank)
NO_TIME = 1e12


@dataclass
class Attempt:
    id: int
    user_id: int
    kind: str
    day: date
    game_id: int
    status: str            #: the game's status
    started_at: datetime
    finished_at: datetime | None
    score: float | None
    time_used: float | None
    in_time: bool
    ranked: bool = True    #: the day's deal, ranked (else the practice deal: docs/daily.md)
    username: str | None = None


_COLUMNS = (DailyAttempt.id, DailyAttempt.user_id, DailyAttempt.kind, DailyAttempt.day,
            DailyAttempt.game_id, DailyAttempt.started_at, DailyAttempt.finished_at,
            DailyAttempt.score, DailyAttempt.time_used, DailyAttempt.in_time,
            DailyAttempt.ranked)


def _attempt(row: Any, status: str, username: str | None = None) -> Attempt:
    return Attempt(row.id, row.user_id, row.kind, row.day, row.game_id, status,
                   row.started_at, row.finished_at, row.score, row.time_used, row.in_time,
                   row.ranked, username=username)


#: the attempt's player's name, a column of the attempt's select
_USERNAME = auth_store.username_of(DailyAttempt.user_id).label("username")


def _time():
    return func.coalesce(DailyAttempt.time_used, NO_TIME)


class DailyStore:
    def __init__(self, db: Database, games: Any) -> None:
        self.db = db
        self.games = games  # the game store (app.games.store)

    async def _attempts(self, s: Any, rows: Any, named: bool = False) -> list[Attempt]:
        """The attempts of ``rows`` with their games' status (read in ``s``)."""
        rows = list(rows)
        status = await self.games.statuses([r.game_id for r in rows], s)
        return [_attempt(r, status[r.game_id], r.username if named else None)
                for r in rows if r.game_id in status]

    @staticmethod
    def new_attempt(user_id: int, kind: str, day: date, now: datetime, ranked: bool = True):
        """What writes the attempt's row with a new daily game (``also(session, game_id)`` of
        the game's transaction)."""
        return lambda s, game_id: s.add(DailyAttempt(user_id=user_id, kind=kind, day=day,
                                                     game_id=game_id, started_at=now,
                                                     in_time=False, ranked=ranked))

    async def standing(self, user_id: int) -> tuple[datetime | None, int, bool]:
        """What the ranking threshold looks at: when the account was made, how many games it
        played to the end (not daily, not imported: ``source = 'play'``), and whether it has
        a verified email address."""
        async with self.db.read() as s:
            made = await auth_store.created_at(s, user_id)
            games = await self.games.finished_play_count(user_id, s)
            verified = await prefs_store.has_verified_address(s, user_id)
        return (aware(made) if made is not None else None), int(games or 0), verified

    # ------------------------------------------------------------------ attempts
    async def attempt(self, user_id: int, kind: str, day: date) -> Attempt | None:
        async with self.db.read() as s:
            rows = (await s.execute(select(*_COLUMNS).where(DailyAttempt.user_id == user_id,
                                                            DailyAttempt.kind == kind,
                                                            DailyAttempt.day == day))).all()
            found = await self._attempts(s, rows)
        return found[0] if found else None

    async def attempts_of(self, user_id: int, day: date) -> dict[str, Attempt]:
        """The user's attempts of a day, by kind."""
        async with self.db.read() as s:
            rows = (await s.execute(select(*_COLUMNS).where(DailyAttempt.user_id == user_id,
                                                            DailyAttempt.day == day))).all()
            found = await self._attempts(s, rows)
        return {a.kind: a for a in found}

    async def settle(self, *, game_id: int | None = None, user_id: int | None = None,
                     days: list[date] | None = None, kind: str | None = None) -> int:
        """Copy the results of finished games to their attempts not settled yet (those of one
        game, one user, or some days); returns how many were settled."""
        conds: list[ColumnElement[bool]] = [DailyAttempt.finished_at.is_(None)]
        if game_id is not None:
            conds.append(DailyAttempt.game_id == game_id)
        if user_id is not None:
            conds.append(DailyAttempt.user_id == user_id)
        if days is not None:
            conds.append(DailyAttempt.day.in_(days))
        if kind is not None:
            conds.append(DailyAttempt.kind == kind)
        async with self.db.read() as s:  # most calls find nothing: no write transaction then
            open_games = (await s.execute(select(DailyAttempt.game_id).where(*conds))
                          ).scalars().all()
            due = open_games and "finished" in (
                await self.games.statuses(open_games, s)).values()
        if not due:
            return 0
        async with self.db.write() as s:
            done = await self.settle_in(s, conds)
            await s.commit()
        return done

    async def settle_in(self, s, conds: list) -> int:
        """:meth:`settle` in the session ``s`` (not committed): ``conds`` (on the attempts)
        as built there; the attempts of finished games are settled."""
        rows = (await s.execute(
            select(DailyAttempt.id, DailyAttempt.day, DailyAttempt.game_id,
                   DailyAttempt.user_id).where(*conds))).all()
        games = await self.games.finished_among([r.game_id for r in rows], s)
        done = 0
        for r in rows:
            game = games.get(r.game_id)
            if game is None:
                continue  # still running
            score, used = outcome(game.result, game.clock, game.time_control,
                                  game.seats.get(r.user_id, 0))
            finished = aware(game.updated_at)
            await s.execute(update(DailyAttempt).where(
                DailyAttempt.id == r.id, DailyAttempt.finished_at.is_(None)).values(
                finished_at=finished, score=score, time_used=used,
                in_time=score is not None and finished < day_end(r.day)))
            done += 1
        return done

    async def settle_games(self, s, game_ids: list[int]) -> int:
        """Settle the attempts of these just finished games in ``s`` (the outbox's
        transaction)."""
        return await self.settle_in(s, [DailyAttempt.finished_at.is_(None),
                                        DailyAttempt.game_id.in_(game_ids)])

    # ------------------------------------------------------------------ leaderboards
    @staticmethod
    def _ranked(day: date, kind: str, ranked: bool = True):
        return (DailyAttempt.day == day, DailyAttempt.kind == kind,
                DailyAttempt.in_time.is_(True), DailyAttempt.ranked.is_(ranked))

    async def unranked(self, day: date, kind: str, limit: int) -> list[Attempt]:
        """The day's unranked attempts finished in time (the practice deal), best first."""
        async with self.db.read() as s:
            rows = (await s.execute(
                select(*_COLUMNS, _USERNAME).where(*self._ranked(day, kind, False))
                .order_by(DailyAttempt.score.desc(), _time(), DailyAttempt.finished_at,
                          DailyAttempt.user_id)
                .limit(limit))).all()
            return await self._attempts(s, rows, named=True)

    async def leaderboard(self, day: date, kind: str, limit: int,
                          offset: int) -> tuple[int, int, list[tuple[Attempt, int]]]:
        """``(players, total, [(attempt, rank)])``: how many started, how many finished in
        time, and a page of those, best first (score, then time used; equal both: equal rank).
        """
        async with self.db.read() as s:
            players = await s.scalar(select(func.count()).select_from(DailyAttempt).where(
                DailyAttempt.day == day, DailyAttempt.kind == kind))
            total = await s.scalar(select(func.count()).select_from(DailyAttempt)
                                   .where(*self._ranked(day, kind)))
            rows = (await s.execute(
                select(*_COLUMNS, _USERNAME).where(*self._ranked(day, kind))
                .order_by(DailyAttempt.score.desc(), _time(), DailyAttempt.finished_at,
                          DailyAttempt.user_id)
                .limit(limit).offset(offset))).all()
            out: list[tuple[Attempt, int]] = []
            previous: tuple[Any, Any] | None = None
            rank = 0
            for i, a in enumerate(await self._attempts(s, rows, named=True)):
                key = (a.score, a.time_used)
                if key != previous:
                    rank = (offset + i + 1 if i else
                            1 + await self._better(s, day, kind, a.score, a.time_used))
                previous = key
                out.append((a, rank))
        return players or 0, total or 0, out

    async def rank(self, attempt: Attempt) -> int | None:
        """The attempt's place on its day's leaderboard (None: not on it)."""
        if not attempt.in_time or not attempt.ranked:
            return None
        async with self.db.read() as s:
            return 1 + await self._better(s, attempt.day, attempt.kind, attempt.score,
                                          attempt.time_used)

    async def _better(self, s, day: date, kind: str, score, used) -> int:
        used = NO_TIME if used is None else used
        return await s.scalar(select(func.count()).select_from(DailyAttempt).where(
            *self._ranked(day, kind),
            or_(DailyAttempt.score > score,
                and_(DailyAttempt.score == score, _time() < used)))) or 0

    @staticmethod
    async def players_around(s: Any, today: date, days: int) -> tuple[set[int], set[int]]:
        """Who took a challenge in the ``days`` days before ``today``, and who started one
        ``today`` (the "challenge open" notice's, app/notify/daily.py, in its session ``s``)."""
        recent = set((await s.execute(select(DailyAttempt.user_id).where(
            DailyAttempt.day >= today - timedelta(days=days),
            DailyAttempt.day < today))).scalars().all())
        if not recent:
            return set(), set()
        started = set((await s.execute(select(DailyAttempt.user_id).where(
            DailyAttempt.day == today))).scalars().all())
        return recent, started

    # ------------------------------------------------------------------ streaks, past days
    async def days_played(self, user_id: int) -> list[date]:
        """The days the user finished an attempt (of any kind) in time."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(DailyAttempt.day).where(DailyAttempt.user_id == user_id,
                                               DailyAttempt.in_time.is_(True))
                .distinct())).scalars().all())

    async def past_days(self, before: date, limit: int) -> list[date]:
        """The days before ``before`` that anyone played, newest first."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(DailyAttempt.day).where(DailyAttempt.day < before).distinct()
                .order_by(DailyAttempt.day.desc()).limit(limit))).scalars().all())

    async def day_summaries(self, days: list[date]) -> tuple[dict, dict]:
        """For each (day, kind) of ``days``: ``(players, finished)`` counts, and the winner
        (the best attempt, with its username)."""
        if not days:
            return {}, {}
        async with self.db.read() as s:
            counts = {(r.day, r.kind): (r.players, r.finished or 0) for r in (await s.execute(
                select(DailyAttempt.day, DailyAttempt.kind,
                       func.count().label("players"),
                       func.sum(case((DailyAttempt.in_time.is_(True), 1), else_=0))
                       .label("finished"))
                .where(DailyAttempt.day.in_(days))
                .group_by(DailyAttempt.day, DailyAttempt.kind))).all()}
            place = func.row_number().over(
                partition_by=(DailyAttempt.day, DailyAttempt.kind),
                order_by=(DailyAttempt.score.desc(), _time(), DailyAttempt.finished_at,
                          DailyAttempt.user_id)).label("place")
            ranked = (select(*_COLUMNS, place)
                      .where(DailyAttempt.day.in_(days), DailyAttempt.in_time.is_(True),
                             DailyAttempt.ranked.is_(True))
                      .subquery())
            best = {(a.day, a.kind): a for a in await self._attempts(s, (await s.execute(
                select(ranked, auth_store.username_of(ranked.c.user_id).label("username"))
                .where(ranked.c.place == 1))).all(), named=True)}
        return counts, best

    async def mine_on(self, user_id: int, days: list[date]) -> dict[tuple[date, str], Attempt]:
        if not days:
            return {}
        async with self.db.read() as s:
            rows = (await s.execute(select(*_COLUMNS).where(DailyAttempt.user_id == user_id,
                                                            DailyAttempt.day.in_(days)))).all()
            found = await self._attempts(s, rows)
        return {(a.day, a.kind): a for a in found}
