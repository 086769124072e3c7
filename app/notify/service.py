"""The notification dispatcher and the user's preferences (issue #21).

The dispatcher listens to the signals (``YourTurn``, a finished game) that the outbox
(``app/outbox.py``) hands over in batches, in the transaction that also deletes the outbox
rows, and decides per recipient and channel: the kind and the channel switched on, not in the
user's quiet hours (their time zone), not while they have a page open if they chose "only
when away", and the per-game throttle. What passes is queued in the database (the channels'
job tables, in that same transaction, with the throttle's record) and sent by the job
workers, never by the move's request. A process that dies between a move and its notices
leaves the outbox row, which any process runs later: no notice is lost or queued twice.

"Only when away" sees the per-user sockets of this process (``is_online``): with several
processes, a page open on another process is not seen, and a mail may go out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

import engine

from .. import prefs_store
from ..auth import UserInfo
from ..credentials import check_email
from ..db import Duplicate
from ..models_delivery import NotificationPrefs
from ..refusal import BadLink, Refusal, say
from ..signals import Notify, YourTurn
from ..tasks import end_task
from ..times import aware, iso, utcnow
from ..vacations_store import on_vacation
from . import daily as daily_notice, digest, prefs as P, store
from .channels import Channel, EmailChannel, Notice, Recipient

log = logging.getLogger("menagerie.notify")

#: the preference switch of each notice kind (a reminder is part of "your turn")
#: notice kinds switched on and off with another kind's switch
SWITCH = {"reminder": "your_turn", "resigned": "game_over", "aborted": "game_over",
          "game_invitation": "invitation", "invitation_declined": "invitation",
          "matched": "invitation"}
#: chat mentions of one game: at most one notice per user in this time
MENTION_GAP = timedelta(minutes=10)



def bad_link() -> BadLink:
    """A verification or unsubscribe link that is forged, altered or expired."""
    return BadLink("bad_token", say("bad_token"))


def unavailable() -> Refusal:
    return Refusal("email_unavailable", say("email_unavailable"))


class NotifyService:
    def __init__(self, db, settings, is_online: Callable[[int], bool] = lambda _uid: False,
                 *, games, daily):
        self.db = db
        #: the game store (app.games.store): the games, their seats and their log as the
        #: notices read them
        self.games = games
        #: the daily challenge's store (app.daily.store): who played it lately
        self.daily = daily
        self.settings = settings
        self.is_online = is_online
        self.email = EmailChannel(db, settings)
        #: every channel a notice may go to (Web Push adds itself here)
        self.channels: list[Channel] = [self.email]
        self._digests: asyncio.Task | None = None

    def add_channel(self, channel: Channel) -> None:
        self.channels.append(channel)

    def start(self) -> None:
        self.email.start()
        if self.sending:  # email or push: reminders, the daily notice (digests: email only)
            self._digests = asyncio.get_running_loop().create_task(
                self._periodic(), name="menagerie-notify-periodic")

    async def stop(self) -> None:
        if self._digests is not None:
            await end_task(self._digests)
            self._digests = None
        await self.email.stop()

    async def _periodic(self) -> None:
        """Reminders every ``reminder_check_seconds``, digests every ``digest_check_seconds``."""
        loop = asyncio.get_running_loop()
        step = min(self.settings.reminder_check_seconds, self.settings.digest_check_seconds)
        next_digest = loop.time() + self.settings.digest_check_seconds
        while True:
            await asyncio.sleep(step)
            try:
                if self.settings.reminder_minutes > 0:
                    await self.run_reminders()
                if loop.time() >= next_digest:
                    next_digest = loop.time() + self.settings.digest_check_seconds
                    await self.run_digests()
                    await self.run_daily_open()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("notify periodic pass: %s", exc)

    async def run_reminders(self, now: datetime | None = None) -> int:
        """Queue a reminder for each human seat that owes a decision whose deadline is within
        ``reminder_minutes`` (once per waiting period: the notice log); returns how many
        players were considered."""
        now = now or utcnow()
        soon = now + timedelta(minutes=self.settings.reminder_minutes)
        async with self.db.read() as s:
            rows = await self.games.reminders_due(now, soon, s)
            # players on vacation get no reminders (app/vacations.py)
            away = await on_vacation(s, sorted({r.user_id for r in rows}), now)
        count = 0
        for r in rows:
            if r.seat in (r.waiting_for or []) and r.user_id not in away:
                await self.dispatch(Notice("reminder", r.id, r.game, engine.title_of(r.game),
                                           r.version, iso(r.turn_deadline)), [r.user_id])
                count += 1
        return count

    # ---------------------------------------------------------------- preferences
    def _view(self, row: NotificationPrefs | None, lang: str) -> dict:
        return {"preferences": P.merged(row.prefs if row else None),
                "lang": row.lang if row else lang,
                "time_zone": row.tz if row else "UTC",
                "email": {"available": self.email.available,
                          "address": row.email if row else None,
                          "verified": bool(row and row.email_verified_at)}}

    async def get(self, user: UserInfo, lang: str) -> dict:
        async with self.db.read() as s:
            return self._view(await prefs_store.prefs(s, user.id), lang)

    async def put(self, user: UserInfo, change: dict, lang: str) -> dict:
        if change.get("lang") is not None and change["lang"] not in P.LANGS:
            raise Refusal("bad_language", say("bad_language"))
        if change.get("time_zone") is not None:
            P.zone(change["time_zone"])
        async with self.db.write() as s:
            row = await prefs_store.ensure(s, user.id, lang, P.defaults())
            row.prefs = P.update(row.prefs, change)
            row.lang = change.get("lang") or row.lang
            row.tz = change.get("time_zone") or row.tz
            row.updated_at = utcnow()
            await s.commit()
            return self._view(row, lang)

    # ---------------------------------------------------------------- the address
    async def set_email(self, user: UserInfo, address, lang: str) -> dict:
        if not self.email.available:
            raise unavailable()
        address = check_email(address)
        links = await self.email.links.ready()
        async with self.db.write() as s:
            row = await prefs_store.ensure(s, user.id, lang, P.defaults())
            row.email, row.email_verified_at, row.updated_at = address, None, utcnow()
            token = links.verify_token(user.id, address)
            self.email.add_job(s, user.id, address, {"kind": "verify", "lang": row.lang,
                                                     "token": token})
            await s.commit()
            view = self._view(row, lang)
        self.email.wake()
        return view

    async def verify(self, token) -> dict:
        links = await self.email.links.ready()
        found = links.check_verify(token) if isinstance(token, str) else None
        if found is None:
            raise bad_link()
        user_id, address = found
        async with self.db.write() as s:
            done = await prefs_store.mark_verified(s, user_id, address, utcnow())
            await s.commit()
        if not done:
            raise bad_link()
        return {"verified": True, "address": address}

    async def unsubscribe(self, token) -> dict:
        """Turn off the kind of mail a one-click link names ("digest": the digest)."""
        links = await self.email.links.ready()
        found = links.check_unsubscribe(token) if isinstance(token, str) else None
        if found is None:
            raise bad_link()
        user_id, kind = found
        kind = SWITCH.get(kind, kind)  # a reminder's link turns off "your turn" notices
        async with self.db.write() as s:
            row = await prefs_store.prefs(s, user_id)
            if row is not None:
                stored = P.merged(row.prefs)
                if kind == "digest":
                    stored["digest"] = False
                elif kind in P.KINDS:
                    stored["kinds"][kind] = False
                else:
                    stored["channels"]["email"] = False
                row.prefs, row.updated_at = stored, utcnow()
                await s.commit()
        return {"unsubscribed": kind}

    # ---------------------------------------------------------------- the dispatcher
    async def on_your_turn(self, s, events: list[YourTurn]):
        """Listener of ``signals.your_turn`` (the outbox's transaction ``s``). Of several
        notices about one game for one user in a batch only the latest counts."""
        latest: dict[tuple[int, int], YourTurn] = {}
        for event in events:
            for user_id in set(event.users):
                key = (user_id, event.game_id)
                if key not in latest or latest[key].version < event.version:
                    latest[key] = event
        batch: dict[YourTurn, list[int]] = {}
        for (user_id, _), event in sorted(latest.items()):
            batch.setdefault(event, []).append(user_id)
        return await self.stage(s, [(Notice("your_turn", e.game_id, e.game, e.title, e.version,
                                            e.deadline), users)
                                     for e, users in batch.items()])

    @property
    def sending(self) -> bool:
        """Whether any channel can send at all (a server without SMTP and push sends nothing,
        and then a move costs the dispatcher no query)."""
        return any(c.available for c in self.channels)

    async def on_finished(self, s, game_ids: list[int]):
        """Listener of ``signals.finished`` (the outbox's transaction ``s``): "game over"."""
        if not self.sending:
            return None
        games, people = await self.games.players_of(game_ids, s)
        return await self.stage(s, [
            (Notice("game_over", g.id, g.game, engine.title_of(g.game), g.version),
             sorted(people[g.id])) for g in games if people.get(g.id)])

    async def on_notice(self, s, items: list[Notify]):
        """Listener of ``signals.notice`` (the outbox's transaction ``s``): chat mentions and
        rematch invitations."""
        return await self.stage(s, [(Notice(n.kind, n.game_id, n.game, n.title, by=n.by,
                                            excerpt=n.excerpt), sorted(set(n.users)))
                                     for n in items])

    async def dispatch(self, notice: Notice, users: list[int]) -> None:
        """Queue ``notice`` for each of ``users`` now, in a transaction of its own (reminders);
        a notice another process queued meanwhile is not queued again."""
        if not users or not self.sending:
            return
        try:
            async with store.writing(self.db) as s:
                wake = await self.stage(s, [(notice, users)])
                await s.commit()
        except Duplicate:  # the same notice queued meanwhile (or the game is gone)
            return
        if wake is not None:
            wake()

    async def stage(self, s, batch: list[tuple[Notice, list[int]]]):
        """Queue each notice of ``batch`` for its users on the channels their choices allow,
        in ``s`` (not committed); the wake-up of the channels used, or None. One query for
        the preferences and one per channel's reach for the whole batch."""
        users = sorted({u for _, us in batch for u in us})
        if not users or not self.sending:
            return None
        now = utcnow()
        live = [c for c in self.channels if c.available]
        rows = await prefs_store.prefs_of(s, users)
        # who each channel can reach at all (a push channel: users with a subscribed
        # browser); nobody reachable: no write for that user
        reach = {c.name: await c.reachable(s, users) for c in live if hasattr(c, "reachable")}
        used: list = []
        for notice, notice_users in batch:
            for user_id in notice_users:
                row = rows.get(user_id)
                recipient = Recipient(user_id, row.lang if row else "en",
                                      P.merged(row.prefs if row else None),
                                      row.email if row and row.email_verified_at else None,
                                      row.tz if row else "UTC")
                channels = [c for c in self.channels_for(notice, recipient, recipient.tz, now)
                            if user_id in reach.get(c.name, (user_id,))]
                if channels and await self._queue(s, notice, recipient, channels, now):
                    used.extend(c for c in channels if c not in used)
        if not used:
            return None
        return lambda: [channel.wake() for channel in used]

    def channels_for(self, notice: Notice, r: Recipient, tz: str, now: datetime) -> list:
        """The channels ``notice`` may go to for ``r`` now: the kind switched on, not while a
        page is open if they chose "only when away", not in quiet hours, the channel on and
        usable for them."""
        prefs = r.prefs
        if not prefs["kinds"].get(SWITCH.get(notice.kind, notice.kind), True):
            return []
        if prefs.get("only_when_away") and self.is_online(r.user_id):
            return []
        if P.in_quiet_hours(prefs, tz, now):
            return []
        return [c for c in self.channels if prefs["channels"].get(c.name, True)
                and c.accepts(r)]

    async def _queue(self, s, notice: Notice, r: Recipient, channels: list, now) -> bool:
        """Queue one notice for one user in ``s`` unless the per-game throttle holds it back;
        whether it was queued."""
        last = await store.last_sent(s, r.user_id, notice.game_id, notice.kind)
        if last is not None:
            last = aware(last)
            moved = await self.games.moved_since(notice.game_id, r.user_id, last, s)
            if notice.kind == "your_turn":
                skip = P.throttled(r.prefs, last, moved, now)
            elif notice.kind == "chat_mention":  # at most one per game per MENTION_GAP
                skip = now - last < max(MENTION_GAP,
                                        timedelta(minutes=r.prefs.get("throttle_minutes") or 0))
            else:  # a reminder: once per waiting period; a game's end, an invitation: once
                skip = notice.kind != "reminder" or not moved
            if skip:
                return False
        await store.log_sent(s, r.user_id, notice.game_id, notice.kind, now,
                             replace=last is not None)
        for channel in channels:  # (a channel's query flushes the record first)
            await channel.enqueue(s, notice, r)
        return True

    async def run_daily_open(self, now: datetime | None = None) -> int:
        """"Today's challenge is open" for the players it is due to (app/notify/daily.py)."""
        return await daily_notice.run_daily_open(self, now)

    # ---------------------------------------------------------------- the daily digest
    async def run_digests(self, now: datetime | None = None) -> int:
        """Today's digest for every user who wants one (app/notify/digest.py)."""
        return await digest.run_digests(self, now)
