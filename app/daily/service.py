"""The daily challenge (issue #18): each UTC day one deal per kind, the same for everyone.

- **The deal.** The seed of a kind's game on a day is ``HMAC(secret, kind|day)``
  (:mod:`.calendar`); the secret is the server's (``MENAGERIE_DAILY_SECRET``, else made once and
  kept in ``server_keys``). A game is dealt only on its own day, so nobody sees a deal early.
- **One attempt.** ``start`` creates the player's game the first time and returns the same game
  after that (resume, never a new deal). The attempt row goes in the game's own transaction
  under the unique constraint ``(user, kind, day)``: two starts at once, in any processes, make
  one game (the other gets the same one).
- **Privacy.** A daily game is sealed until its day is over (``games.sealed_until``,
  :mod:`app.redaction`): only its player sees it, nobody can spectate or fetch its record (the
  seed) during the day; afterwards every game of that day is open, replays included.
- **Scores.** Finished attempts are ranked by the player's score, then by the time their clock
  used (the daily time bank: :data:`.kinds.DAILY_CLOCK`); only games finished before the day
  ended count. The streak counts consecutive UTC days with a finished attempt of any kind.
- **Ranked or practice.** Only an account past a threshold (its age, its finished games, a
  verified address when mail is on: :meth:`DailyService.eligible`) plays the day's deal and is
  ranked; any other account plays the day's *practice* deal (another seed) and is listed as
  unranked, so throwaway accounts learn nothing about the ranked deal (issue #31, finding 3).
- **Ratings.** Daily games (``games.source = "daily"``) are never rated (app/ratings.py).

Time comes from :func:`app.times.utcnow` (tests move it).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import date

import engine

from .. import serverkeys, times
from ..auth import UserInfo
from ..db import Duplicate
from ..refusal import Refusal, say
from ..times import iso
from .calendar import day_end, day_of, seed_of, streaks
from .kinds import KINDS, PLAYER_SEAT, DailyKind, unusable
from .store import Attempt, DailyStore

log = logging.getLogger("menagerie.daily")


def _attempt(a: Attempt, rank: int | None) -> dict:
    """The caller's own attempt as the API shows it (their own game id included)."""
    return {"kind": a.kind, "day": a.day.isoformat(), "game_id": a.game_id,
            "status": a.status, "started_at": iso(a.started_at),
            "finished_at": iso(a.finished_at), "score": a.score, "time_used": a.time_used,
            "in_time": a.in_time, "ranked": a.ranked, "rank": rank}


def _title(game: str) -> str:
    try:
        return engine.get_game(game).title
    except KeyError:
        return game


class DailyService:
    def __init__(self, db, settings, games, kinds: tuple[DailyKind, ...] = KINDS) -> None:
        self.db = db
        self.settings = settings
        self.games = games  # app.games.GameService
        self.store = DailyStore(db, games.store)  # the game store reads the games
        #: the kinds defined (tests replace them); those the engine cannot deal are not offered
        self.kinds = kinds
        self._why: dict[str, str | None] = {}
        self._secret: str | None = None
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ kinds, seeds
    def offered(self) -> list[DailyKind]:
        """The kinds the engine can deal now, in their order."""
        out = []
        for kind in self.kinds:
            key = repr(kind)
            if key not in self._why:
                self._why[key] = unusable(kind)
                if self._why[key]:
                    log.warning("daily kind %s is not offered: %s", kind.name, self._why[key])
            if self._why[key] is None:
                out.append(kind)
        return out

    def kind(self, name: str, *, offered: bool = True) -> DailyKind:
        for kind in (self.offered() if offered else self.kinds):
            if kind.name == name:
                return kind
        raise Refusal("unknown_challenge", say("unknown_challenge"))

    async def secret(self) -> str:
        if self.settings.daily_secret:
            return self.settings.daily_secret
        if self._secret is None:
            async with self._lock:
                if self._secret is None:
                    self._secret = await serverkeys.load_or_make(
                        self.db, "daily", lambda: secrets.token_hex(32))
        return self._secret

    async def seed(self, kind: str, day: date, ranked: bool = True) -> str:
        """The seed of a kind's deal on a day (server side only: never sent to anybody); the
        practice deal of unranked attempts is another one."""
        return seed_of(await self.secret(), kind if ranked else f"practice|{kind}", day)

    async def eligible(self, user_id: int) -> bool:
        """Whether a new attempt of this user is ranked (docs/daily.md, "Who is ranked")."""
        s = self.settings
        made, games, verified = await self.store.standing(user_id)
        old = made is not None and \
            (times.utcnow() - made).total_seconds() >= s.daily_ranked_min_account_days * 86400
        mail = not (s.daily_ranked_need_email and s.smtp_host) or verified
        return old and games >= s.daily_ranked_min_games and mail

    async def streak_of(self, user_id: int) -> dict:
        """A player's streak of days with a finished attempt (a profile shows it)."""
        await self.store.settle(user_id=user_id)
        return streaks(await self.store.days_played(user_id), day_of(times.utcnow()))

    # ------------------------------------------------------------------ today
    async def overview(self, user: UserInfo | None) -> dict:
        """Today's kinds with the caller's attempt at each, the streak, the time left."""
        now = times.utcnow()
        day = day_of(now)
        end = day_end(day)
        mine: dict[str, Attempt] = {}
        streak = None
        if user is not None:
            await self.store.settle(user_id=user.id)
            mine = await self.store.attempts_of(user.id, day)
            streak = streaks(await self.store.days_played(user.id), day)
        kinds = []
        for kind in self.offered():
            a = mine.get(kind.name)
            kinds.append({**kind.public(), "title": _title(kind.game),
                          "attempt": _attempt(a, await self.store.rank(a))
                          if a is not None else None})
        return {"day": day.isoformat(), "now": iso(now), "ends_at": iso(end),
                "seconds_left": max(0, int((end - now).total_seconds())), "kinds": kinds,
                "streak": streak,
                "ranked": await self.eligible(user.id) if user is not None else None}

    async def start(self, user: UserInfo, name: str) -> tuple[dict, bool]:
        """The caller's game of today's ``name`` challenge: created and dealt the first time
        (True), the same game after that (False)."""
        kind = self.kind(name)
        now = times.utcnow()
        day = day_of(now)
        created = False
        found = await self.store.attempt(user.id, kind.name, day)
        if found is None:
            ranked = await self.eligible(user.id)
            try:
                made = await self.games.create_dealt(
                    user, kind.game, kind.seats, kind.options, list(kind.bots), kind.bot,
                    kind.time_control, seed=await self.seed(kind.name, day, ranked),
                    source="daily", sealed_until=day_end(day),
                    also=self.store.new_attempt(user.id, kind.name, day, now, ranked))
                game_id, created = made["id"], True
                log.info("daily %s %s: game %s for %s", kind.name, day, game_id, user.username)
            except Duplicate:  # the same attempt started a moment earlier
                found = await self.store.attempt(user.id, kind.name, day)
                if found is None:  # pragma: no cover - the constraint says otherwise
                    raise
        if found is not None:
            game_id = found.game_id
        summary = await self.games.summary(game_id, user)
        if summary["status"] == "open":
            # dealt now (or at last, after a crash between storing and dealing)
            try:
                summary = await self.games.start(user, game_id)
            except Refusal as exc:
                if exc.code != "not_open":  # a concurrent start dealt it
                    raise
                summary = await self.games.summary(game_id, user)
        return {"kind": kind.name, "day": day.isoformat(), "seat": PLAYER_SEAT,
                "created": created, "game": summary}, created

    # ------------------------------------------------------------------ any day
    async def leaderboard(self, day: date, name: str, user: UserInfo | None, limit: int,
                          offset: int) -> dict:
        """A day's finished attempts at a kind, best first, and the caller's own. While the
        day runs the games stay hidden (ids only of the caller's own)."""
        kind = self.kind(name, offered=False)
        now = times.utcnow()
        if day > day_of(now):
            raise Refusal("day_not_started", say("day_not_started"))
        over = now >= day_end(day)
        await self.store.settle(days=[day], kind=kind.name)
        players, total, rows = await self.store.leaderboard(day, kind.name, limit, offset)
        def entry(a: Attempt, rank: int | None) -> dict:
            return {"rank": rank, "user": {"id": a.user_id, "username": a.username},
                    "score": a.score, "time_used": a.time_used,
                    "finished_at": iso(a.finished_at),
                    "game_id": a.game_id if over or (user is not None and a.user_id == user.id)
                    else None}

        entries = [entry(a, rank) for a, rank in rows]
        # practice deals of accounts below the threshold: shown, never ranked
        unranked = [{**entry(a, None), "ranked": False}
                    for a in (await self.store.unranked(day, kind.name, limit)
                              if offset == 0 else [])]
        you = None
        if user is not None:
            a = await self.store.attempt(user.id, kind.name, day)
            if a is not None:
                you = _attempt(a, await self.store.rank(a))
        return {"day": day.isoformat(), "kind": kind.name, "over": over,
                "ends_at": iso(day_end(day)), "players": players, "total": total,
                "offset": offset, "entries": entries, "unranked": unranked, "you": you}

    async def history(self, user: UserInfo | None, before: date | None, limit: int) -> dict:
        """The past days (before today, or before ``before``), newest first: per kind how many
        played and finished, the winner, and the caller's own attempt; plus the streak."""
        today = day_of(times.utcnow())
        upto = min(before, today) if before is not None else today
        days = await self.store.past_days(upto, limit)
        await self.store.settle(days=days)
        counts, best = await self.store.day_summaries(days)
        mine = await self.store.mine_on(user.id, days) if user is not None else {}
        order = {k.name: i for i, k in enumerate(self.kinds)}
        out = []
        for day in days:
            kinds = []
            for name in sorted({k for d, k in counts if d == day},
                               key=lambda k: (order.get(k, len(order)), k)):
                players, finished = counts[(day, name)]
                won = best.get((day, name))
                own = mine.get((day, name))
                kinds.append({
                    "kind": name, "players": players, "finished": finished,
                    "winner": {"user": {"id": won.user_id, "username": won.username},
                               "score": won.score, "time_used": won.time_used,
                               "game_id": won.game_id} if won is not None else None,
                    "you": _attempt(own, await self.store.rank(own))
                    if own is not None else None})
            out.append({"day": day.isoformat(), "kinds": kinds})
        streak = (streaks(await self.store.days_played(user.id), today)
                  if user is not None else None)
        return {"days": out, "streak": streak,
                "next_before": days[-1].isoformat() if len(days) == limit else None}

    # ------------------------------------------------------------------ signals
    async def on_finished(self, s, game_ids: list[int]) -> None:
        """Listener of ``signals.finished`` (the outbox's transaction ``s``): a daily game's
        result goes to its attempt."""
        await self.store.settle_games(s, game_ids)
        return None
