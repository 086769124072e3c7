"""Configuration from environment variables (pydantic-settings).

Every variable is ``MENAGERIE_<NAME>``, except the database address, which is read from
``DATABASE_URL`` (or ``MENAGERIE_DATABASE_URL``).
"""

from __future__ import annotations

import ipaddress
import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


def _default_static() -> Path:
    """``static/`` beside the app package (a checkout), else in the current directory."""
    beside = REPO_ROOT / "static"
    return beside if beside.is_dir() else Path.cwd() / "static"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MENAGERIE_", extra="ignore",
                                      populate_by_name=True)

    database_url: str = Field(
        "sqlite+aiosqlite:///./menagerie.db",
        validation_alias=AliasChoices("DATABASE_URL", "MENAGERIE_DATABASE_URL"),
        description="SQLAlchemy async URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://...",
    )
    #: store a full state snapshot every N versions (and always at start and at the end)
    snapshot_every: int = Field(50, ge=1)
    #: largest request body accepted (bytes); bigger ones get 413 too_large
    max_body_bytes: int = Field(64 * 1024, ge=1024)
    #: largest game record accepted by POST /api/games/import (a long 4-player game ≈ 50 kB)
    max_import_bytes: int = Field(2 * 1024 * 1024, ge=1024)
    #: a WebSocket client further behind than this many versions gets one full state message
    sync_window: int = Field(200, ge=1)
    #: encoded state messages kept in memory per game for the WebSocket fan-out
    frame_cache: int = Field(32, ge=1)
    #: lifetime of login tokens
    token_ttl_days: int = Field(30, ge=1)
    #: mark the login cookie Secure and send HSTS on every response, whatever the request
    #: came over (both happen anyway for requests that arrived over https, directly or
    #: through a trusted proxy's X-Forwarded-Proto: uvicorn's --forwarded-allow-ips)
    cookie_secure: bool = False
    #: seconds a socket opened with ?auth=message has to send {"type": "auth", "token"}
    ws_auth_timeout: float = Field(10.0, gt=0, le=120)
    #: argon2 cost parameters (lower them only for tests)
    argon2_time_cost: int = Field(3, ge=1)
    argon2_memory_kib: int = Field(64 * 1024, ge=8)
    #: seconds a bot waits before each move (0 = play at once)
    bot_delay: float = Field(0.0, ge=0)
    #: threads the bots think in (their own: a decision never queues behind a hint, an
    #: analysis or a password hash in the default executor)
    bot_threads: int = Field(2, ge=1, le=64)
    #: seconds between two passes of the deadline scheduler (time controls)
    scheduler_interval: float = Field(1.0, gt=0)
    #: run the deadline scheduler in this process (one process leads at a time anyway)
    scheduler: bool = True
    #: safety cap on consecutive bot moves driven by one trigger
    bot_max_moves: int = Field(100_000, ge=1)
    #: SQLite durability: FULL survives power loss, NORMAL survives process crashes only
    sqlite_synchronous: str = "FULL"
    #: connection pool size (PostgreSQL), per process. Requests beyond it wait for a free
    #: connection (up to pool_timeout); overflow connections are opened and closed again per
    #: request, which costs PostgreSQL a new backend process each time: none by default
    pool_size: int = Field(30, ge=1)
    pool_max_overflow: int = Field(0, ge=0)
    #: seconds a request waits for a free pooled connection before 503
    pool_timeout: float = Field(10.0, gt=0)
    #: ping each pooled connection before use (one more round trip per request); off: a dead
    #: connection is noticed on its first statement and the whole pool is refreshed
    pool_pre_ping: bool = False
    #: the garbage collector's thresholds (``gc.set_threshold``) once the server has started.
    #: Python's defaults (700, 10, 10) run a full collection every few seconds under load; one
    #: walks every live object (the cached games, the sockets' coroutines) and stops the
    #: process for 40-80 ms, which is most of a loaded server's p99 (docs/benchmarks.md).
    #: Fewer, later passes: the data the server keeps has no reference cycles, so the
    #: garbage that waits longer is small.
    gc_thresholds: tuple[int, int, int] = (20_000, 20, 20)
    #: games whose current state is kept in memory (per process), so a move or a legal-moves
    #: request reads no state from the database
    game_cache: int = Field(2000, ge=1)
    #: seconds a login token stays cached in memory (logout clears it in every process)
    token_cache_seconds: float = Field(30.0, ge=0)
    #: the browser client served at / (skipped when the folder does not exist)
    static_dir: Path = Field(default_factory=lambda: _default_static())
    #: rate limits (token buckets, per process); tests and load runs raise or lower them
    rate_limits: bool = True
    #: register and login attempts per client address (each its own bucket)
    rate_auth_per_minute: float = Field(10.0, gt=0)
    rate_auth_burst: int = Field(20, ge=1)
    #: actions (HTTP and WebSocket) per user (all their login tokens together)
    rate_actions_per_second: float = Field(5.0, gt=0)
    rate_actions_burst: int = Field(30, ge=1)
    #: actions per client address (all its tokens together)
    rate_address_actions_per_second: float = Field(50.0, gt=0)
    rate_address_actions_burst: int = Field(200, ge=1)
    #: take-backs per user (sustained per minute, and the burst)
    rate_undo_per_minute: float = Field(6.0, gt=0)
    rate_undo_burst: int = Field(5, ge=1)
    #: chat lines per user (HTTP and WebSocket): a burst, then this many per second
    rate_chat_per_second: float = Field(0.5, gt=0)
    rate_chat_burst: int = Field(5, ge=1)
    #: outbound webhooks ("your turn"): at most this many per user
    webhooks_per_user: int = Field(5, ge=0)
    #: seconds one POST to a webhook may take
    webhook_timeout: float = Field(5.0, gt=0)
    #: attempts of one delivery (the first included) before it is marked failed
    webhook_max_attempts: int = Field(6, ge=1)
    #: waits between attempts are this times 1, 6, 24, 120, 720 (5 s, 30 s, 2 min, 10 min, 1 h)
    webhook_backoff_base: float = Field(5.0, gt=0)
    #: how often the delivery worker looks for due deliveries (retries, other processes')
    webhook_poll_seconds: float = Field(2.0, gt=0)
    #: how often every process looks for outbox rows another process left (app/outbox.py);
    #: the process that made a move runs its row at once
    outbox_poll_seconds: float = Field(5.0, gt=0)
    #: allow webhooks to loopback, private and link-local addresses (tests, closed networks);
    #: off, such targets are refused when registered and when delivered
    webhook_allow_private: bool = False
    #: email notices (issue #21, docs/notifications.md). No smtp_host: no email is offered
    smtp_host: str | None = None
    smtp_port: int = Field(587, ge=1, le=65535)
    #: "starttls" (upgrade a plain connection, port 587), "ssl" (TLS from the start, port
    #: 465) or "none" (a local relay only)
    smtp_security: str = "starttls"
    smtp_username: str | None = None
    smtp_password: str | None = None
    #: the From of every mail
    smtp_from: str = "Menagerie <noreply@localhost>"
    #: seconds one SMTP conversation may take
    smtp_timeout: float = Field(20.0, gt=0)
    #: the site's address as players reach it: the links in mails start with it
    public_url: str = "http://127.0.0.1:8000"
    #: signs the links in mails (verification, unsubscribe); unset, the server makes a key once
    #: and keeps it in the database (``server_keys``), shared by every process and restart
    secret_key: str | None = None
    #: hours a verification link stays valid
    email_verify_hours: float = Field(48.0, gt=0)
    #: attempts of one mail (the first included) before it is a dead letter (``failed``)
    email_max_attempts: int = Field(6, ge=1)
    #: waits between attempts of a mail are this times 1, 6, 24, 120, 720
    email_backoff_base: float = Field(30.0, gt=0)
    #: how often the mail worker looks for due mails (retries, other processes')
    email_poll_seconds: float = Field(5.0, gt=0)
    #: the local hour (the user's time zone) from which the daily digest is sent
    digest_hour: int = Field(8, ge=0, le=23)
    #: the local hour from which players of recent daily challenges hear that today's is open
    daily_notice_hour: int = Field(9, ge=0, le=23)
    #: seconds between two looks for digests to send
    digest_check_seconds: float = Field(600.0, gt=0)
    #: a reminder goes out this many minutes before a decision's deadline (0: none)
    reminder_minutes: float = Field(60.0, ge=0)
    #: seconds between two looks for reminders to send
    reminder_check_seconds: float = Field(60.0, gt=0)
    #: Web Push (app/push.py): the contact the push services see in every VAPID token, a
    #: "mailto:" or "https:" URL of whoever runs this server (some services refuse localhost)
    push_subject: str = "mailto:menagerie@localhost"
    #: the VAPID private key (PEM, or the raw key in base64url); unset, the server makes one
    #: once and keeps it in the database (table server_keys), shared by every process
    vapid_private_key: str | None = None
    #: hosts (comma separated; ".example.com" also matches its subdomains) that subscription
    #: endpoints may point at: the browsers' push services. Empty: any public https host
    push_hosts: str = ("fcm.googleapis.com,.push.services.mozilla.com,.push.apple.com,"
                       ".notify.windows.com")
    #: allow http://127.0.0.1 endpoints (tests with a local push endpoint only)
    push_allow_loopback: bool = False
    #: subscriptions (browsers) kept per user; a new one beyond this replaces the oldest
    push_per_user: int = Field(10, ge=1)
    #: seconds one POST to a push service may take
    push_timeout: float = Field(5.0, gt=0)
    #: seconds a push service keeps a message for a device that is offline (TTL header)
    push_ttl: int = Field(24 * 3600, ge=0)
    #: attempts of one push message before it is marked failed; waits between them are
    #: push_backoff_base times 1, 6, 24, 120, 720
    push_max_attempts: int = Field(6, ge=1)
    push_backoff_base: float = Field(5.0, gt=0)
    #: how often the push worker looks for due messages (retries, other processes')
    push_poll_seconds: float = Field(2.0, gt=0)
    #: the daily challenge's secret: each day's deals are HMAC(this, kind|day). Unset, the
    #: server makes one once and keeps it in the database (table server_keys), shared by every
    #: process. Changing it changes today's deals: set it before anyone plays, or never
    daily_secret: str | None = None
    #: a daily attempt is ranked only for an account at least this many days old, with this
    #: many finished games (not daily, not imported) and, when this server sends mail, a
    #: verified address; others play the day's practice deal, unranked (docs/daily.md)
    daily_ranked_min_account_days: float = Field(7.0, ge=0)
    daily_ranked_min_games: int = Field(5, ge=0)
    daily_ranked_need_email: bool = True
    #: when set, GET /metrics needs "Authorization: Bearer <this>"; unset, /metrics answers
    #: only to the peers in metrics_allow
    metrics_token: str | None = None
    #: addresses and networks (comma separated) that may read /metrics without the token
    metrics_allow: str = "127.0.0.1,::1"
    #: proxies (addresses or networks, comma separated) whose X-Forwarded-For is believed; the
    #: client is the rightmost address that is not one of them. Empty: the header is ignored
    trusted_proxies: str = ""
    #: failed logins per account before each further attempt waits (doubling from 1 s)
    login_free_failures: int = Field(5, ge=1)
    #: the longest wait after repeated failed logins to one account (seconds)
    login_max_backoff: float = Field(900.0, gt=0)
    #: password hashes (argon2) computed at once; more logins wait their turn
    hash_concurrency: int = Field(default_factory=lambda: max(1, (os.cpu_count() or 2) // 2),
                                  ge=1)
    #: unfinished games (open or running) one user may have created at once
    max_active_games_per_user: int = Field(10, ge=1)
    #: bot seats over one user's unfinished games, and of those the searching bots' (the kinds the
    #: engine marks heavy: mcts, search, plan; app/quotas.py)
    max_bot_seats_per_user: int = Field(12, ge=0)
    max_mcts_seats_per_user: int = Field(3, ge=0)
    #: invitations (issue #33): players one user may follow, and invitations they may have
    #: waiting for an answer at once (app/invites.py, app/friends.py)
    max_follows_per_user: int = Field(200, ge=0)
    max_pending_invitations_per_user: int = Field(20, ge=0)
    #: invitations sent and follows per user: a burst, then this many per hour
    rate_invites_per_hour: float = Field(30.0, gt=0)
    rate_invites_burst: int = Field(10, ge=1)
    rate_follows_per_hour: float = Field(60.0, gt=0)
    rate_follows_burst: int = Field(20, ge=1)
    #: quick match (app/seeks/): open seeks one user may hold at once (they count as
    #: unfinished games too), and seeks posted per user and per address: a burst, then this
    #: many per minute
    max_open_seeks_per_user: int = Field(3, ge=1)
    rate_seeks_per_minute: float = Field(6.0, gt=0)
    rate_seeks_burst: int = Field(10, ge=1)
    rate_address_seeks_per_minute: float = Field(30.0, gt=0)
    rate_address_seeks_burst: int = Field(60, ge=1)
    #: game records one user may import: a burst, then this many per minute
    rate_imports_per_minute: float = Field(2.0, gt=0)
    rate_imports_burst: int = Field(5, ge=1)
    #: verification mails per user (POST /api/me/email): a burst, then this many per hour
    rate_verify_mails_per_hour: float = Field(4.0, gt=0)
    rate_verify_mails_burst: int = Field(3, ge=1)
    #: verification mails to one address, whichever accounts ask: a burst, then this many per
    #: hour (several fresh accounts cannot flood a stranger's inbox)
    rate_verify_mails_per_recipient_per_hour: float = Field(1.0, gt=0)
    rate_verify_mails_per_recipient_burst: int = Field(3, ge=1)
    #: WebSockets open at once (per process), counted from the moment the handshake reaches
    #: the app, before any wait for a login (issue #31, docs/security.md "Socket caps"):
    #: game sockets per user, ``/api/me/ws`` sockets per user, all sockets per client address
    ws_per_user: int = Field(20, ge=1)
    ws_me_per_user: int = Field(10, ge=1)
    ws_per_address: int = Field(60, ge=1)
    #: all WebSockets of this process: past it every new one is refused (close code 4503);
    #: HTTP keeps ``max_connections`` of its own above it (menagerie serve)
    ws_max_sockets: int = Field(8000, ge=1)
    #: shedding (issue #37): past this many sockets in this process a new *spectator* socket
    #: is refused (4503 ``crowded`` with a retry hint); watchers already in stay, players'
    #: sockets are still admitted up to ``ws_max_sockets``
    ws_spectator_limit: int = Field(6000, ge=0)
    #: shedding also while this process's event loop runs this many seconds late (measured
    #: every 0.1 s, decaying): a machine short of CPU turns new spectators away before the
    #: players' requests wait behind their handshakes; 0: off
    ws_shed_lag: float = Field(0.5, ge=0)
    #: seconds a shed spectator is told to wait (the hint is this plus up to as much again,
    #: at random, so a refused crowd does not come back at once)
    ws_crowded_retry: int = Field(15, ge=1, le=3600)
    #: database reads for spectators' sockets at once (per process): their own small budget,
    #: so a crowd never takes the pool connections the players' moves need
    ws_spectator_db: int = Field(2, ge=1, le=64)
    #: "sync" messages per socket: a burst, then this many per second
    rate_sync_per_second: float = Field(0.5, gt=0)
    rate_sync_burst: int = Field(5, ge=1)
    #: seconds a connection may take to send a request's headers (menagerie serve)
    header_timeout: float = Field(10.0, gt=0)
    #: seconds an idle keep-alive connection stays open (menagerie serve)
    keepalive_timeout: int = Field(5, ge=1)
    #: connections and requests at once before 503 (menagerie serve; 0: no limit)
    max_connections: int = Field(2000, ge=0)
    #: connections the kernel queues before the server accepts them (menagerie serve; the
    #: kernel's net.core.somaxconn caps it): a crowd reconnecting at once overflowed uvicorn's
    #: 2048, and then the players' connections waited in SYN retries with everyone else's
    backlog: int = Field(4096, ge=64)
    #: post-game analysis (issue #19, app/analysis/): worker processes running analysis jobs
    #: at once, per server process (the search never runs on the event loop); 0: this process
    #: only queues them and another process (with the same database) runs them
    analysis_workers: int = Field(1, ge=0, le=16)
    #: playouts per analysed decision and per hint (unset: the engine's default setting;
    #: tests and small machines lower them)
    analysis_playouts: int | None = Field(None, ge=1)
    #: who picks and plays out the compared answers of an analysis (unset: the engine's
    #: default, ``plan``; ``mix`` is the cheap look the tests use, about a third of the CPU)
    analysis_policy: Literal["own", "learned", "mix", "plan"] | None = None
    hint_playouts: int | None = Field(None, ge=1)
    #: seconds a hint may take before the request answers 503 ``hint_timeout``
    hint_timeout: float = Field(20.0, gt=0)
    #: the hint process' niceness (0-19), as ``analysis_nice``
    hint_nice: int = Field(10, ge=0, le=19)
    #: hints per user: a burst, then this many per minute (429 ``rate_limited``)
    rate_hints_per_minute: float = Field(6.0, gt=0)
    rate_hints_burst: int = Field(5, ge=1)
    #: a running job writes its new entries (and renews its lease) this often
    analysis_flush_seconds: float = Field(3.0, gt=0)
    #: how often the analysis worker looks for jobs another process left (a dead one's)
    analysis_poll_seconds: float = Field(10.0, gt=0)
    #: the analysis processes' niceness (0-19): above 0 the server's own processes (moves,
    #: sockets) get the CPU first when the machine is busy
    analysis_nice: int = Field(10, ge=0, le=19)
    #: while live play goes on (a move in this process less than ``analysis_live_window``
    #: seconds ago) an analysis computes only this share of the time and pauses the rest
    #: (1: never pauses). On a 2-core machine the priority alone left the moves 20-60 %
    #: slower at the median; at 0.1 they were within 10 % (docs/benchmarks.md). An idle
    #: server analyses at full speed.
    analysis_live_share: float = Field(0.1, gt=0, le=1)
    analysis_live_window: float = Field(5.0, gt=0)
    #: a running job not renewed for this long is taken again by another worker
    analysis_lease_seconds: float = Field(60.0, gt=0)
    #: games a plugin registered, for the worker processes (comma separated ``module:attr``
    #: naming an engine Game; the built-in games need none)
    analysis_preload: str = ""
    log_level: str = "INFO"
    #: log one JSON line per HTTP request
    access_log: bool = True
    #: worker processes of ``menagerie serve`` (more than 1 needs PostgreSQL)
    workers: int = Field(1, ge=1, le=64)
    #: permessage-deflate on WebSockets: off by default, since a compressed message is
    #: compressed again for every socket, while an uncompressed one is encoded once per version
    ws_compression: bool = False
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)

    @field_validator("sqlite_synchronous")
    @classmethod
    def _sync_mode(cls, value: str) -> str:
        value = value.upper()
        if value not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError("must be OFF, NORMAL, FULL or EXTRA")
        return value

    @field_validator("smtp_security")
    @classmethod
    def _smtp_security(cls, value: str) -> str:
        value = value.lower()
        if value not in {"starttls", "ssl", "none"}:
            raise ValueError("must be starttls, ssl or none")
        return value

    @field_validator("trusted_proxies", "metrics_allow")
    @classmethod
    def _networks(cls, value: str) -> str:
        for item in filter(None, (x.strip() for x in value.split(","))):
            if item == "*":
                raise ValueError("'*' would believe any client; list the proxies' addresses")
            ipaddress.ip_network(item, strict=False)  # raises ValueError on a bad entry
        return value

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")


@lru_cache
def get_settings() -> Settings:
    return Settings()
