"""The per-process service container kept in ``app.state.services``."""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from typing import Any

import engine

from . import metrics, tasks
from .analysis.service import AnalysisService
from .auth import AuthService
from .bus import SEATS_CHANNEL, USER_CHANNEL, LocalBus, PgBus
from .chat import ChatService
from .daily import DailyService
from .db import Database
from .games import GameService
from .notify import NotifyService
from .outbox import Outbox
from .push import PushChannel, PushService
from .quotas import SocketQuota
from .ratelimit import RateLimits
from .ratings import RatingService
from .realtime import Hub
from .records import RecordService
from .rematch import RematchService
from .scheduler import Scheduler
from .sessions import Sessions
from .settings import Settings
from .signals import Signals
from .spectators import SpectatorDesk
from .userfeed import UserFeed
from .webhooks import WebhookService

log = logging.getLogger("menagerie.app")


class Services:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: a random id of this process for /healthz (tells workers apart; not the pid)
        self.instance = secrets.token_hex(6)
        self.db = Database(settings)
        # the hub and the game service need each other: the hub calls the service through
        # the methods below, which are bound before the service exists
        self.hub = Hub(self._load_frames, self._current_version,
                       sync_window=settings.sync_window, frame_cache=settings.frame_cache,
                       seats=self._seat_map, on_remote_move=self._remote_move)
        self.sessions = Sessions()
        self.bus: LocalBus | PgBus
        if self.db.is_postgres:
            self.bus = PgBus(self.db.asyncpg_dsn(), self.hub, on_revoke=self._revoked,
                             on_reconnect=self._listening_again)
        else:
            self.bus = LocalBus()
        # a revocation: this process at once, the others by NOTIFY
        self.auth = AuthService(self.db, settings, announce_revoke=self.bus.announce_revoke,
                                on_revoked=self._revoked)
        self.signals = Signals(db=self.db)
        # what committed moves set off, run exactly once (app/outbox.py)
        self.outbox = Outbox(self.db, self.signals, poll=settings.outbox_poll_seconds)
        self.signals.use_outbox(self.outbox)
        self.games = GameService(self.db, settings, self.hub, self.bus, self.signals)
        self.limits = RateLimits(settings, self.db)
        self.sockets = SocketQuota(settings)
        self.spectators = SpectatorDesk(self.hub, self.games.watch_info,
                                        settings.ws_spectator_db)
        self.bus.listen(SEATS_CHANNEL, self._seats_changed)
        self.userfeed = UserFeed()
        self.bus.listen(USER_CHANNEL, self.userfeed.deliver)
        self.scheduler = Scheduler(self.games, self.db, settings.scheduler_interval)
        # asynchronous play (issue #8): ratings, game records and the replay history, rematches
        self.ratings = RatingService(self.db, self.games.store)
        self.signals.on_finished(self.ratings.on_finished)
        self.records = RecordService(settings, self.games)
        self.rematch = RematchService(self.db, self.games, self.signals, settings)
        from .vacations import VacationService

        self.vacations = VacationService(self.db, self.games)  # issue #33
        from .friends import FriendService
        from .invites import InviteService
        from .people_store import PeopleStore
        from .profile import ProfileService

        # invitations, friends and profiles (issue #33, items 4 and 7)
        self.invites = InviteService(self.db, self.games, self.signals, settings)
        people = PeopleStore(self.db, self.games.store)  # the games' reads: the game store's
        self.friends = FriendService(people, self.games, settings)
        self.profiles = ProfileService(people, self.games)
        from .seeks import SeekService

        # quick match (issue #33): the scheduler's sweep expires seeks and starts what a
        # crash left unstarted
        self.seeks = SeekService(self.db, settings, self.games, self.bus, self.signals,
                                 self.limits)
        self.scheduler.add_chore(self.seeks.sweep)
        # a game waiting for a bot that no bot plays is driven again (app/games/bots.py)
        self.scheduler.add_chore(self.games.bots.sweep)
        self.chat = ChatService(self.db, settings, self.hub, self.bus, self.limits,
                                self.signals, games=self.games.store)
        self.webhooks = WebhookService(self.db, settings)
        self.signals.on_your_turn(self.webhooks.on_your_turn)
        self.signals.on_notice(self.webhooks.on_notice)  # resigned, aborted (issue #33)
        # notices for players who are away (issue #21): email now, Web Push plugs in
        # the daily challenge (issue #18): its attempts are settled when their game ends
        self.daily = DailyService(self.db, settings, self.games)
        self.notify = NotifyService(self.db, settings, is_online=self.userfeed.online,
                                    games=self.games.store, daily=self.daily.store)
        self.signals.on_your_turn(self.notify.on_your_turn)
        self.signals.on_finished(self.notify.on_finished)
        self.signals.on_notice(self.notify.on_notice)
        # Web Push is a channel of the dispatcher: the same choices apply to it as to email
        self.push = PushService(self.db, settings)
        self.notify.add_channel(PushChannel(self.push))
        self.signals.on_finished(self.daily.on_finished)  # after the notices, as before
        # post-game analysis and hints (issue #19): after the ratings, it sees which games
        # were rated just now
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
        self.auth.forget_all()

        async def recheck():
            try:
                await self.sessions.recheck(self.auth.live_digests)
            except Exception:
                log.warning("could not re-check the sockets' logins", exc_info=True)

        tasks.spawn(recheck())

    def _seats_changed(self, payload: str) -> None:
        try:
            game_id = int(payload)
        except ValueError:
            log.warning("ignored seats notice %r", payload[:100])
            return
        self.games.cache.drop(game_id)
        self.hub.seats_changed(game_id)

    async def _seat_map(self, game_id: int) -> dict:
        return await self.games.seat_map(game_id)

    def _remote_move(self, game_id: int, version: int, seat: int, action: Any) -> bool:
        return self.games.moves.remote_move(game_id, version, seat, action)

    async def _load_frames(self, game_id: int, after: int, upto: int):
        return await self.games.load_frames(game_id, after, upto)

    async def _current_version(self, game_id: int):
        return await self.games.current_version(game_id)

    async def start(self) -> None:
        metrics.attach(metrics.LiveReadings(
            open_sockets=self.hub.connection_count, watched_games=self.hub.channel_count,
            games_cached=lambda: len(self.games.cache), tokens_cached=self.auth.cached_tokens,
            listening=lambda: bool(getattr(self.bus, "listening", True)),
            pool=self.db.pool_status, sockets_counted=lambda: self.sockets.total,
            spectators_shed=lambda: self.sockets.shed))
        for name in engine.game_names():  # the games' lasting caches, before the first move
            engine.get_game(name).prepare()
        # everything loaded so far (modules, the games' card data) lives as long as the
        # process: keep it out of the collector's full passes, which then stay short
        gc.collect()
        gc.freeze()
        gc.set_threshold(*self.settings.gc_thresholds)
        await self.bus.start()
        self._lag = asyncio.get_running_loop().create_task(self.sockets.watch_lag(),
                                                           name="loop-lag")
        self.webhooks.start()
        if self.notify.email.available:
            # the mail links' key, before any notice is queued inside a transaction
            await self.notify.email.links.ready()
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
        lag = getattr(self, "_lag", None)
        if lag is not None:
            lag.cancel()
        for name, step in (("scheduler", self.scheduler.stop), ("bots", self.games.bots.close),
                           ("signals", self.signals.drain), ("outbox", self.outbox.stop),
                           ("webhooks", self.webhooks.stop),
                           ("notify", self.notify.stop),
                           ("push", self.push.stop),
                           ("analysis", self.analysis.stop),
                           ("bus", self.bus.stop), ("database", self.db.dispose)):
            try:
                await asyncio.wait_for(step(), 15)
            except TimeoutError:
                log.error("shutdown: %s did not stop within 15 s", name)
            except Exception:
                log.exception("shutdown: %s failed to stop", name)
