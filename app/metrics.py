"""Prometheus metrics (``GET /metrics``), per process.

Counters and histograms are module-level (one registry per process); the gauges that describe
the live state of the process (open sockets, cached games, pool) are read when scraped. With
``menagerie serve --workers N`` a scrape reaches one worker: run N single-worker processes
behind the load balancer and scrape each, if you need every process's figures (docs/operations.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

REGISTRY = CollectorRegistry(auto_describe=True)
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

REQUESTS = Counter("menagerie_http_requests_total", "HTTP requests by route and status.",
                   ["method", "route", "status"], registry=REGISTRY)
REQUEST_SECONDS = Histogram("menagerie_http_request_duration_seconds",
                            "HTTP request duration by route.", ["method", "route"],
                            buckets=_FAST, registry=REGISTRY)
ACTION_SECONDS = Histogram("menagerie_action_duration_seconds",
                           "Accepted actions: from the game lock to the commit (server side).",
                           buckets=_FAST, registry=REGISTRY)
LOCK_WAIT = Histogram("menagerie_game_lock_wait_seconds",
                      "Time a move waited for the in-process lock of its game.",
                      buckets=(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0),
                      registry=REGISTRY)
WRITE_CONFLICTS = Counter("menagerie_write_conflicts_total",
                          "Moves refused because another process stored that version first.",
                          registry=REGISTRY)
RATE_LIMITED = Counter("menagerie_rate_limited_total", "Requests refused with 429, by limit.",
                       ["limit"], registry=REGISTRY)
WS_SENT = Counter("menagerie_ws_messages_sent_total", "WebSocket messages sent.",
                  registry=REGISTRY)
FRAMES_ENCODED = Counter("menagerie_ws_encodings_total",
                         "State messages encoded (once per version and viewer, shared by "
                         "every socket of that viewer).", ["viewer"], registry=REGISTRY)
DB_UNAVAILABLE = Counter("menagerie_database_unavailable_total",
                         "Requests answered 503 because the database could not be reached.",
                         registry=REGISTRY)


@dataclass
class LiveReadings:
    """Where the live gauges read the running process at scrape time (``app/services.py``
    fills it in: this module knows nothing of the services, which import it)."""

    open_sockets: Callable[[], int]
    watched_games: Callable[[], int]
    games_cached: Callable[[], int]
    tokens_cached: Callable[[], int]
    listening: Callable[[], bool]
    pool: Callable[[], dict[str, int]]
    sockets_counted: Callable[[], int] = lambda: 0
    spectators_shed: Callable[[], int] = lambda: 0


class LiveGauges:
    """Gauges read from the running services at scrape time."""

    def __init__(self, readings: LiveReadings) -> None:
        self.readings = readings

    def describe(self):
        return []

    def collect(self):
        r = self.readings
        yield GaugeMetricFamily("menagerie_open_sockets", "Open game WebSockets.",
                                value=r.open_sockets())
        yield GaugeMetricFamily("menagerie_sockets_counted",
                                "WebSockets counted by the socket caps (every kind, from the "
                                "first byte; app/quotas.py).", value=r.sockets_counted())
        yield CounterMetricFamily("menagerie_spectators_shed",
                                  "New spectator sockets refused with 4503 crowded.",
                                  value=r.spectators_shed())
        yield GaugeMetricFamily("menagerie_watched_games",
                                "Games with at least one socket in this process.",
                                value=r.watched_games())
        yield GaugeMetricFamily("menagerie_games_cached", "Games whose state is in memory.",
                                value=r.games_cached())
        yield GaugeMetricFamily("menagerie_tokens_cached", "Login tokens cached in memory.",
                                value=r.tokens_cached())
        yield GaugeMetricFamily("menagerie_listen_connected",
                                "1 when the LISTEN connection (or the in-process bus) is up.",
                                value=1 if r.listening() else 0)
        pool = GaugeMetricFamily("menagerie_db_pool_connections",
                                 "Database pool connections by state.", labels=["state"])
        for state, value in r.pool().items():
            pool.add_metric([state], value)
        yield pool


_live: LiveGauges | None = None


def attach(readings: LiveReadings) -> None:
    """Point the live gauges at this process's services (the last app started wins)."""
    global _live
    if _live is None:
        _live = LiveGauges(readings)
        REGISTRY.register(_live)
    else:
        _live.readings = readings


def render() -> tuple[bytes, str]:
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
