"""The per-process service container kept in ``app.state.services``."""

from __future__ import annotations

import gc
import secrets
import logging

from .auth import AuthService
from .chat import ChatService
from .db import Database
from .games import GameService
from .quotas import SocketQuota
from .ratelimit import RateLimits
from .realtime import USER_CHANNEL, Hub, LocalBus, PgBus
from .settings import Settings
from .scheduler import Scheduler
from .signals import Signals
from .userfeed import UserFeed
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
        if self.db.is_postgres:
            self.bus = PgBus(self.db.asyncpg_dsn(), self.hub, on_revoke=self.auth.forget,
                             on_reconnect=self.auth.forget_all)
        else:
            self.bus = LocalBus()
        self.auth.announce_revoke = self.bus.announce_revoke
        self.signals = Signals()
        self.games = GameService(self.db, settings, self.hub, self.bus, self.signals)
        self.limits = RateLimits(settings, self.db)
        self.sockets = SocketQuota(settings)
        self.userfeed = UserFeed()
        self.bus.listen(USER_CHANNEL, self.userfeed.deliver)
        self.scheduler = Scheduler(self.games, self.db, settings.scheduler_interval)
        # asynchronous play (issue #8): ratings, game records and the replay history, rematches
        from .ratings import RatingService
        from .records import RecordService
        from .rematch import RematchService

        self.ratings = RatingService(self.db)
        self.signals.on_finished(self.ratings.on_finished)
        self.records = RecordService(self.db, settings, self.games)
        self.rematch = RematchService(self.db, self.games)
        self.chat = ChatService(self.db, settings, self.hub, self.bus, self.limits)
        self.webhooks = WebhookService(self.db, settings)
        self.signals.on_your_turn(self.webhooks.on_your_turn)

    async def _load_frames(self, game_id: int, after: int, upto: int):
        return await self.games.load_frames(game_id, after, upto)

    async def _current_version(self, game_id: int):
        return await self.games.current_version(game_id)

    async def start(self) -> None:
        from . import metrics

        metrics.attach(self)
        # everything loaded so far (modules, the games' card data) lives as long as the
        # process: keep it out of the collector's full passes, which then stay short
        gc.collect()
        gc.freeze()
        await self.bus.start()
        self.webhooks.start()
        await self.games.bots.resume()
        if self.settings.scheduler:
            await self.scheduler.start()
        log.info("menagerie started", extra={"database": self.db.backend})

    async def stop(self) -> None:
        """Stop every part; each step is bounded, so one stuck part never blocks shutdown."""
        import asyncio

        for name, step in (("scheduler", self.scheduler.stop), ("bots", self.games.bots.close),
                           ("signals", self.signals.drain), ("webhooks", self.webhooks.stop),
                           ("bus", self.bus.stop), ("database", self.db.dispose)):
            try:
                await asyncio.wait_for(step(), 15)
            except asyncio.TimeoutError:
                log.error("shutdown: %s did not stop within 15 s", name)
            except Exception:
                log.exception("shutdown: %s failed to stop", name)
