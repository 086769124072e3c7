"""The PostgreSQL :class:`~.store.GameStore`: the hot paths as single asyncpg statements.

A move is one statement in autocommit mode (the game row's conditional ``UPDATE``, the action
row, the snapshot, the outbox row and both ``pg_notify`` calls): one round trip, all or nothing, durable when it
returns; ``NOTIFY`` is delivered on commit, so every process hears of a move exactly when it is
stored. The current row and the log tail skip SQLAlchemy's execution layer (it costs more than
the query). Everything else is the shared SQLAlchemy code of :class:`~.store.SqlGameStore`.
"""

from __future__ import annotations

from .. import jsonutil
from ..bus import CHANNEL, SEATS_CHANNEL, USER_CHANNEL, move_payload
from ..times import utcnow
from .store import CurrentRow, LobbyTx, LogRow, Move, SeatMaps, SqlGameStore

# the move as one statement: nothing is written unless the version still matches
MOVE = f"""
WITH upd AS (
    UPDATE games SET version = $3, state = $4::json, waiting_for = $5::json,
           status = $6::varchar, result = $7::json, updated_at = $8::timestamptz,
           clock = $14::json, turn_deadline = $15::timestamptz,
           held_seat = $22::integer
    WHERE id = $1 AND version = $2 AND seats_rev = $18
    RETURNING id, state
), ins AS (
    INSERT INTO actions (game_id, version, seat, action, events, created_at, kind, clock_before)
    SELECT id, $3, $9::integer, $10::json, $11::json, $8::timestamptz, $16::varchar,
           $19::json FROM upd
), snap AS (
    INSERT INTO snapshots (game_id, version, state, created_at)
    SELECT id, $3, state, $8::timestamptz FROM upd WHERE $12::boolean
), out AS (
    INSERT INTO outbox (kind, game_id, version, payload, status, attempts, next_attempt_at,
                        created_at)
    SELECT $20::varchar, id, $3, $21::json, 'pending', 0, $8::timestamptz, $8::timestamptz
    FROM upd WHERE $20::varchar IS NOT NULL
)
SELECT pg_notify('{CHANNEL}', $13::text),
       CASE WHEN $17::text IS NOT NULL THEN pg_notify('{USER_CHANNEL}', $17::text) END
FROM upd
"""
CURRENT = """
SELECT game, seat_count, seed, status, version, waiting_for,
       CASE WHEN version = $2 THEN NULL ELSE state END AS state, time_control, clock,
       seats_rev, held_seat
FROM games WHERE id = $1
"""
SEATS = "SELECT seat, user_id, bot, away FROM seats WHERE game_id = $1"
LOG_TAIL = """
SELECT version, seat, action, events, kind FROM actions
WHERE game_id = $1 AND version > $2 AND version <= $3 ORDER BY version
"""


class PgGameStore(SqlGameStore):
    async def publish_with(self, tx: LobbyTx, notice: str) -> None:
        """NOTIFY in the lobby's transaction: delivered on commit, to every process."""
        await self.bus.publish(USER_CHANNEL, notice, tx.s)

    async def seats_changed(self, game_id: int, session=None) -> None:
        """NOTIFY in the session's transaction: delivered on commit, to every process."""
        if session is not None:
            await self.bus.publish(SEATS_CHANNEL, str(game_id), session)

    async def write_move(self, game_id: int, version: int, seats_rev: int, m: Move) -> bool:
        import asyncpg

        dumps = jsonutil.dumps_str
        action_json = dumps(m.action)
        # an undo is announced without the action (other processes reload it: it is not an
        # engine move); a move with it, so processes watching the game replay it themselves
        # (and so are a held move and a confirm: the held seat is not the engine's to say)
        payload = (f"{game_id}:{m.version}" if m.kind in ("undo", "confirm") or m.held is not None
                   else move_payload(game_id, m.version, m.seat, action_json))
        try:
            async with self.db.driver() as conn:
                rows = await conn.fetch(
                    MOVE, game_id, version, m.version, dumps(m.state), dumps(m.waiting),
                    m.status, None if m.result is None else dumps(m.result), m.now or utcnow(),
                    m.seat, action_json, dumps(m.events), m.snapshot, payload,
                    None if m.clock is None else dumps(m.clock), m.deadline, m.kind, m.notice,
                    seats_rev, None if m.clock_before is None else dumps(m.clock_before),
                    None if m.outbox is None else m.outbox[0],
                    None if m.outbox is None else dumps(m.outbox[1]), m.held)
        except asyncpg.UniqueViolationError:
            return False  # the log already has this version
        return len(rows) == 1

    async def current(self, game_id: int, known: int, need_seats):
        async with self.db.driver() as conn:
            row = await conn.fetchrow(CURRENT, game_id, known)
            if row is None:
                return None, None
            row = CurrentRow(row["game"], row["seat_count"], row["seed"], row["status"],
                             row["version"], row["waiting_for"], row["state"],
                             row["time_control"], row["clock"], row["seats_rev"],
                             row["held_seat"])
            seats = None
            if need_seats(row):
                seats = SeatMaps.of(await conn.fetch(SEATS, game_id))
        return row, seats

    async def log_tail(self, game_id: int, after: int, upto: int) -> list[LogRow]:
        async with self.db.driver() as conn:
            return [LogRow(r["version"], r["seat"], r["action"], r["events"], r["kind"])
                    for r in await conn.fetch(LOG_TAIL, game_id, after, upto)]
