"""Quick match (issue #33, item 5): a player posts a *seek* (game, seats, options, time
control, rated or casual, the opponents' rating range, how long it waits); the server pairs
compatible seeks, oldest first then closest rating (:mod:`.match`), into a started game and
tells each player: in the page at once (``{"type": "seek", "status": "paired", "game"}`` on
``WS /api/me/ws``) and through their notice channels (a ``matched`` notice: email, push,
webhooks, queued through the outbox in the pairing's own transaction). A seek expires after
the minutes its player chose (1 to a week: the scheduler's sweep closes it), its player can
cancel it, and the lobby lists the open ones; another player's two-seat seek can be accepted
directly (a game at once).

Race-free across processes (:mod:`.store`): each seek is claimed once by a conditional
``UPDATE``; pairing a pool is serialized per pool (PostgreSQL advisory lock; SQLite's single
writer). Abuse: at most ``max_open_seeks_per_user`` open seeks, the unfinished-games quota
counts them, and posting is rate-limited per user and per address. A rated seek needs what
every rated game needs (app/ratings.py): human accounts only, no bots, no hints; a game of
casual seeks is ``casual`` and never rated.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import engine
from engine.bots import bot_kinds
from engine.core import IllegalAction

from .. import jsonutil
from ..auth import UserInfo
from ..bus import USER_CHANNEL
from ..db import Database
from ..models import Seek
from ..refusal import Refusal, say
from ..times import aware, iso, utcnow
from . import match, store

log = logging.getLogger("menagerie.seeks")

#: how long a seek may wait, in minutes (a week)
MAX_MINUTES = 7 * 24 * 60
#: a game a pairing stored is started by the sweep when still open after this
START_GRACE = timedelta(seconds=10)
#: how often the sweep pairs the pools again (a pairing normally happens at once, on a post)
REPAIR_EVERY = timedelta(seconds=30)
#: the caller's closed seeks the lobby still shows
RECENT = timedelta(hours=1)


def public(x: Seek, username: str | None = None, rating: float | None = None) -> dict:
    return {"id": x.id, "user": {"id": x.user_id, "username": username}, "game": x.game,
            "title": engine.title_of(x.game), "seats": x.seats, "options": x.options,
            "time_control": x.time_control, "rated": bool(x.rated),
            "rating_min": x.rating_min, "rating_max": x.rating_max,
            "rating": round(rating) if rating is not None else None, "status": x.status,
            "created_at": iso(x.created_at), "expires_at": iso(x.expires_at),
            "game_id": x.game_id}


class SeekService:
    def __init__(self, db: Database, settings, games, bus, signals, limits=None) -> None:
        self.db = db
        self.settings = settings
        self.games = games  # app.games.GameService: starts the games the pairings store
        self.bus = bus
        self.signals = signals
        self.limits = limits  # app.ratelimit.RateLimits (None: no rate limit, for tools)
        self._repaired: datetime | None = None

    # ------------------------------------------------------------------ checks
    def _settings_of(self, name: str, seats: int, options: dict,
                     time_control: dict | None) -> dict:
        try:
            game = engine.get_game(name)
        except KeyError:
            raise Refusal("unknown_game", say("unknown_game", name=repr(name))) from None
        lo, hi = max(2, game.min_seats), game.max_seats
        if not lo <= seats <= hi:
            raise Refusal("bad_seats", say("bad_seats.seek", game=game.title, min=lo, max=hi),
                          min=lo, max=hi)
        try:
            normalized = game.normalize_options(options)
        except IllegalAction as exc:
            raise Refusal("bad_options", exc.message) from None
        if time_control is not None and time_control.get("bot", "greedy") not in bot_kinds():
            raise Refusal("unknown_bot", say("unknown_bot", name=repr(time_control.get("bot")),
                                             choices=bot_kinds()))
        return normalized

    async def _admit(self, s, user: UserInfo, address: str | None, *,
                     opening: bool = True) -> None:
        """The quotas of a new seek (``opening``) or an accept (a game, no open seek), in ``s``
        with the user's row locked."""
        if self.limits is not None:
            await self.limits.check(self.limits.seeks_user, user.id)
            await self.limits.check(self.limits.seeks_address, address)
        active, _ = await self.games.store.creator_load(user.id, s)  # locks the user's row
        mine = await store.open_count(s, user.id)
        cap = self.settings.max_open_seeks_per_user
        if opening and mine >= cap:
            raise Refusal("seek_quota", say("seek_quota", limit=cap),
                          limit=cap)
        limit = self.settings.max_active_games_per_user
        if active + mine >= limit:
            raise Refusal("game_quota",
                          say("game_quota", limit=limit),
                          limit=limit)

    # ------------------------------------------------------------------ the calls
    async def post(self, user: UserInfo, name: str, seats: int, options: dict,
                   time_control: dict | None, rated: bool, rating_min: int | None,
                   rating_max: int | None, minutes: int, address: str | None = None,
                   now: datetime | None = None) -> dict:
        """Post a seek and pair it at once if it can be: ``{"seek", "game"}`` (the game's
        summary, or None while it waits)."""
        now = now or utcnow()
        if not 1 <= minutes <= MAX_MINUTES:
            raise Refusal("bad_seek", say("bad_seek", n=MAX_MINUTES))
        if rating_min is not None and rating_max is not None and rating_min > rating_max:
            raise Refusal("bad_rating_range", say("bad_rating_range"))
        options = self._settings_of(name, seats, options, time_control)
        pool = match.pool_of(name, seats, options, time_control, rated)
        async with self.db.write() as s:
            await self._admit(s, user, address)
            row = Seek(user_id=user.id, game=name, seats=seats, options=options,
                       time_control=time_control, rated=bool(rated), rating_min=rating_min,
                       rating_max=rating_max, pool=pool, status="open", created_at=now,
                       expires_at=now + timedelta(minutes=minutes))
            s.add(row)
            await s.commit()
            seek_id = row.id
        log.info("user %s: seek %s (%s, %s seats)", user.id, seek_id, name, seats)
        made = await self.pair(pool, now)
        return await self._answer(user, seek_id, made)

    async def accept(self, user: UserInfo, seek_id: int, address: str | None = None,
                     now: datetime | None = None) -> dict:
        """Take another player's open two-seat seek: a game at once (``{"seek", "game"}``)."""
        now = now or utcnow()
        async with self.db.write() as s:
            pool = await store.pool_of(s, seek_id)
            if pool is None:
                raise Refusal("not_found", say("not_found.seek"))
            await store.lock_pool(s, pool, self.db.is_postgres)
            target = await store.seek(s, seek_id, lock=True)
            assert target is not None  # its pool was found above, in this transaction
            if target.status != "open" or aware(target.expires_at) <= now:
                raise Refusal("seek_closed", say("seek_closed"))
            if target.user_id == user.id:
                raise Refusal("own_seek", say("own_seek"))
            if target.seats != 2:
                raise Refusal("seek_not_direct", say("seek_not_direct"))
            mine = (await store.ratings(s, target.game, [user.id]))[user.id]
            if not match.Candidate(target.id, target.user_id, 0, target.rating_min,
                                   target.rating_max, now).holds(mine):
                raise Refusal("seek_out_of_range",
                              say("seek_out_of_range"),
                              rating=round(mine))
            await self._admit(s, user, address, opening=False)
            answer = Seek(user_id=user.id, game=target.game, seats=2, options=target.options,
                          time_control=target.time_control, rated=target.rated, pool=pool,
                          status="paired", created_at=now, expires_at=now, closed_at=now)
            s.add(answer)
            await s.flush()
            game_id = await store.make_game(s, self.games.store, [target, answer],
                                            engine.title_of(target.game), now)
            await s.commit()
            answer_id = answer.id
        log.info("user %s accepted seek %s: game %s", user.id, seek_id, game_id)
        await self._started([game_id])
        return await self._answer(user, answer_id, [game_id])

    async def cancel(self, user: UserInfo, seek_id: int, now: datetime | None = None) -> None:
        now = now or utcnow()
        async with self.db.write() as s:
            owner = await store.owner_of(s, seek_id)
            if owner != user.id:
                raise Refusal("not_found", say("not_found.seek"))
            if not await store.cancel(s, seek_id, user.id, now):
                raise Refusal("seek_closed", say("seek_closed"))
            await s.commit()

    async def listing(self, user: UserInfo | None, now: datetime | None = None) -> dict:
        """The open seeks (oldest first, with each player's rating now) and the caller's own
        seeks of the last hour."""
        now = now or utcnow()
        async with self.db.read() as s:
            rows = await store.listed(s, now)
            mine = await store.recent_of(s, user.id, now - RECENT) if user else []
            by_game: dict[str, set[int]] = {}
            for x, _ in rows:
                by_game.setdefault(x.game, set()).add(x.user_id)
            for x in mine:
                by_game.setdefault(x.game, set()).add(x.user_id)
            if user is not None:
                for name in engine.game_names():
                    by_game.setdefault(name, set()).add(user.id)
            rated = {g: await store.ratings(s, g, users) for g, users in by_game.items()}
        out = []
        for x, name in rows:
            item = public(x, name, rated[x.game][x.user_id])
            item["mine"] = user is not None and x.user_id == user.id
            item["can_accept"] = bool(
                user is not None and not item["mine"] and x.seats == 2
                and match.Candidate(x.id, x.user_id, 0, x.rating_min, x.rating_max,
                                    x.created_at).holds(rated[x.game][user.id]))
            out.append(item)
        return {"seeks": out,
                "mine": [public(x, user.username if user else None,
                                rated[x.game][x.user_id]) for x in mine],
                "ratings": {g: round(r[user.id]) for g, r in rated.items()
                            if user is not None and user.id in r},
                "max_minutes": MAX_MINUTES,
                "max_open": self.settings.max_open_seeks_per_user}

    # ------------------------------------------------------------------ pairing
    async def pair(self, pool: str, now: datetime | None = None) -> list[int]:
        """Pair the pool's open seeks into games (stored and started): the games' ids.

        One process pairs a pool at a time; another that finds it busy leaves at once (its
        seek was committed before, so the busy one sees it: after each pass it reads the
        pool again and passes again while a seek came that its pass did not see)."""
        now = now or utcnow()
        made: list[int] = []
        for _ in range(10):  # bounded: what is left, the sweep pairs
            try:
                passed = await self._pair_once(pool, now)
            except store.Lost:  # a seek closed under our feet: the pass again, without it
                continue
            if passed is None:  # another process is pairing this pool
                break
            seen, games = passed
            made += games
            await self._started(games)
            async with self.db.read() as s:
                if not await store.open_ids(s, pool, now) - seen:
                    break
        return made

    async def _pair_once(self, pool: str, now: datetime) -> tuple[set[int], list[int]] | None:
        """One pass (one transaction): the seeks it saw and the games it made; None when
        another process holds the pool."""
        made: list[int] = []
        async with self.db.write() as s:
            if not await store.lock_pool(s, pool, self.db.is_postgres, wait=False):
                return None
            rows = await store.open_in_pool(s, pool, now)
            seen = {x.id for x in rows}
            if len(rows) < 2 or len(rows) < rows[0].seats:
                return seen, made
            rating = await store.ratings(s, rows[0].game, [x.user_id for x in rows])
            by_id = {x.id: x for x in rows}
            tables = match.groups([match.Candidate(x.id, x.user_id, rating[x.user_id],
                                                   x.rating_min, x.rating_max, x.created_at)
                                   for x in rows], rows[0].seats)
            title = engine.title_of(rows[0].game)
            for table in tables:
                made.append(await store.make_game(s, self.games.store,
                                                  [by_id[c.id] for c in table], title, now))
            if made:
                await s.commit()
        return seen, made

    async def _started(self, game_ids: list[int]) -> None:
        """Start each stored game and tell its players' pages (the notices are queued)."""
        if not game_ids:
            return
        self.signals.wake_outbox()  # the "matched" notices
        for game_id in game_ids:
            async with self.db.read() as s:  # the anchor's player (seat 0) created it
                creator = await self.games.store.creator_of(game_id, s)
                names = await store.names(s, [creator] if creator else [])
            if creator is None:
                continue
            try:
                await self.games.start(UserInfo(creator, names.get(creator, "")), game_id)
            except Refusal as exc:
                if exc.code != "not_open":  # started meanwhile by the sweep of another process
                    log.exception("game %s of a quick match did not start", game_id)
                    continue
            await self._tell(game_id)

    async def _tell(self, game_id: int) -> None:
        async with self.db.read() as s:
            seeks = await store.seeks_of_game(s, game_id)
            name = await store.game_name_of(s, game_id)
        for seek_id, user_id in seeks:
            await self.bus.publish(USER_CHANNEL, jsonutil.dumps_str({
                "t": "seek", "users": [user_id], "seek": seek_id, "status": "paired",
                "game": game_id, "name": name, "title": engine.title_of(name or "")}))

    async def sweep(self, now: datetime | None = None) -> dict[str, int]:
        """The scheduler's chore: close the expired seeks (their pages are told), start the
        games a crash left unstarted, and now and then pair the pools again."""
        now = now or utcnow()
        async with self.db.write() as s:
            gone = await store.expire(s, now)
            await s.commit()
        for seek_id, user_id in gone:
            await self.bus.publish(USER_CHANNEL, jsonutil.dumps_str({
                "t": "seek", "users": [user_id], "seek": seek_id, "status": "expired"}))
        async with self.db.read() as s:
            stuck = await store.unstarted(s, self.games.store, now - START_GRACE)
        await self._started([game_id for game_id, _ in stuck])
        paired = 0
        if self._repaired is None or now - self._repaired >= REPAIR_EVERY:
            self._repaired = now
            async with self.db.read() as s:
                pools = await store.busy_pools(s, now)
            for pool in pools:
                paired += len(await self.pair(pool, now))
        return {"expired": len(gone), "started": len(stuck), "paired": paired}

    async def _answer(self, user: UserInfo, seek_id: int, made: list[int]) -> dict[str, Any]:
        async with self.db.read() as s:
            row = await store.seek(s, seek_id)
            assert row is not None  # the caller's own seek, just written
            rating = (await store.ratings(s, row.game, [user.id]))[user.id]
        game = await self.games.summary(row.game_id, user) if row.game_id else None
        return {"seek": public(row, user.username, rating), "game": game}
