"""The per-process service container kept in ``app.state.services``."""

from __future__ import annotations

import gc
import logging
import secrets

import engine

from .auth import AuthService
from .chat import ChatService
from .db import Database
from .games import GameService
from .quotas import SocketQuota
from .ratelimit import RateLimits
from .bus import SEATS_CHANNEL, USER_CHANNEL, LocalBus, PgBus
from .realtime import Hub
from .settings import Settings
from .scheduler import Scheduler
from .sessions import Sessions
from .outbox import Outbox
from .signals import Signals
from .userfeed import UserFeed
from .push import PushChannel, PushService
from .webhooks import WebhookService

log = logging.getLogger("menagerie.app")


class Services:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: a random id of this process for /healthz (tells workers apart; not the pid)
        self.instance = secrets.token_hex(6)
        self.db = Database(settings)
        self.auth = AuthService(self.db, settings)
        self.hub = Hub(self._load_frames, self._current_version,
                       sync_window=settings.sync_window, frame_cache=settings.frame_cache)
        self.sessions = Sessions()
        self._tasks: set = set()
        if self.db.is_postgres:
            self.bus = PgBus(self.db.asyncpg_dsn(), self.hub, on_revoke=self._revoked,
                             on_reconnect=self._listening_again)
        else:
            self.bus = LocalBus()
        self.auth.announce_revoke = self.bus.announce_revoke
        self.auth.on_revoked = self._revoked  # this process at once; the others by NOTIFY
        self.signals = Signals(db=self.db)
        # what committed moves set off, run exactly once (app/outbox.py)
        self.outbox = Outbox(self.db, self.signals, poll=settings.outbox_poll_seconds)
        self.signals.outbox = self.outbox
        self.games = GameService(self.db, settings, self.hub, self.bus, self.signals)
        self.limits = RateLimits(settings, self.db)
        self.sockets = SocketQuota(settings)
        self.hub.seats = self.games.seat_map
        self.bus.listen(SEATS_CHANNEL, self._seats_changed)
        self.userfeed = UserFeed()
        self.bus.listen(USER_CHANNEL, self.userfeed.deliver)
        self.scheduler = Scheduler(self.games, self.db, settings.scheduler_interval)
        # asynchronous play (issue #8): ratings, game records and the replay history, rematches
        from .ratings import RatingService
        from .records import RecordService
        from .rematch import RematchService

        self.ratings = RatingService(self.db)
        self.signals.on_finished(self.ratings.on_finished)
        self.records = RecordService(settings, self.games)
        self.rematch = RematchService(self.db, self.games, self.signals)
        from .vacations import VacationService

        self.vacations = VacationService(self.db, self.games)  # issue #33
        self.chat = ChatService(self.db, settings, self.hub, self.bus, self.limits,
                                self.signals)
        self.webhooks = WebhookService(self.db, settings)
        self.signals.on_your_turn(self.webhooks.on_your_turn)
        self.signals.on_notice(self.webhooks.on_notice)  # resigned, aborted (issue #33)
        # notices for players who are away (issue #21): email now, Web Push plugs in
        from .notify import NotifyService

        self.notify = NotifyService(self.db, settings, is_online=self.userfeed.online)
        self.signals.on_your_turn(self.notify.on_your_turn)
        self.signals.on_finished(self.notify.on_finished)
        self.signals.on_notice(self.notify.on_notice)
        # Web Push is a channel of the dispatcher: the same choices apply to it as to email
        self.push = PushService(self.db, settings)
        self.notify.add_channel(PushChannel(self.push))
        # the daily challenge (issue #18): its attempts are settled when their game ends
        from .daily import DailyService

        self.daily = DailyService(self.db, settings, self.games)
        self.signals.on_finished(self.daily.on_finished)
        # post-game analysis and hints (issue #19): after the ratings, it sees which games
        # were rated just now
        from .analysis.service import AnalysisService

        self.analysis = AnalysisService(self.db, settings, self.games, self.instance)
        self.signals.on_finished(self.analysis.on_finished)
        self.signals.on_your_turn(self.analysis.on_live_move)

    def _revoked(self, payload: str) -> None:
        """A login was revoked (see app/sessions.py): forget it, close its sockets."""
        self.auth.forget_announced(payload)
        self.sessions.announced(payload)

    def _listening_again(self) -> None:
        """LISTEN (re)started: revocations may have been missed meanwhile. Forget every cached
        token, and close the sockets whose login is gone."""
        import asyncio

        self.auth.forget_all()

        async def recheck():
            try:
                await self.sessions.recheck(self.auth.live_digests)
            except Exception:
                log.warning("could not re-check the sockets' logins", exc_info=True)

        task = asyncio.get_running_loop().create_task(recheck())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _seats_changed(self, payload: str) -> None:
        try:
            game_id = int(payload)
        except ValueError:
            log.warning("ignored seats notice %r", payload[:100])
            return
        self.games.cache.drop(game_id)
        self.hub.seats_changed(game_id)

    async def _load_frames(self, game_id: int, after: int, upto: int):
        return await self.games.load_frames(game_id, after, upto)

    async def _current_version(self, game_id: int):
        return await self.games.current_version(game_id)

    async def start(self) -> None:
        from . import metrics

        metrics.attach(self)
        for name in engine.game_names():  # the games' lasting caches, before the first move
            engine.get_game(name).prepare()
        # everything loaded so far (modules, the games' card data) lives as long as the
        # process: keep it out of the collector's full passes, which then stay short
        gc.collect()
        gc.freeze()
        gc.set_threshold(*self.settings.gc_thresholds)
        await self.bus.start()
        self.webhooks.start()
        self.notify.start()
        self.push.start()
        self.outbox.start()
        self.analysis.start()
        await self.games.bots.resume()
        if self.settings.scheduler:
            await self.scheduler.start()
        log.info("menagerie started", extra={"database": self.db.backend})

    async def stop(self) -> None:
        """Stop every part; each step is bounded, so one stuck part never blocks shutdown."""
        import asyncio

        for name, step in (("scheduler", self.scheduler.stop), ("bots", self.games.bots.close),
                           ("signals", self.signals.drain), ("outbox", self.outbox.stop),
                           ("webhooks", self.webhooks.stop),
                           ("notify", self.notify.stop),
                           ("push", self.push.stop),
                           ("analysis", self.analysis.stop),
                           ("bus", self.bus.stop), ("database", self.db.dispose)):
            try:
                await asyncio.wait_for(step(), 15)
            except asyncio.TimeoutError:
                log.error("shutdown: %s did not stop within 15 s", name)
            except Exception:
                log.exception("shutdown: %s failed to stop", name)
