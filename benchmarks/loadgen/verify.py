"""The throwaway database, and the checks after a run (every ack stored, every game replays)."""

from __future__ import annotations

import collections
import os
import secrets

import orjson

from .client import Recorder
from .measure import asyncpg_dsn


async def verify_ours(db_url: str, rec: Recorder) -> dict:
    """Every acknowledged action is stored as acknowledged; every game replays to its state."""
    import asyncpg

    import engine
    from engine.core.state import canonical_json

    conn = await asyncpg.connect(asyncpg_dsn(db_url))
    try:
        rows = await conn.fetch("SELECT game_id, version, seat, action::text AS action "
                                "FROM actions")
        games = await conn.fetch("SELECT id, game, seat_count, options::text AS options, seed, "
                                 "version, status, state::text AS state, "
                                 "waiting_for::text AS waiting FROM games WHERE state IS NOT NULL")
    finally:
        await conn.close()
    stored = {(r["game_id"], r["version"]): (r["seat"], orjson.loads(r["action"])) for r in rows}
    missing = mismatched = 0
    for key, (_t, seat, action, _m) in rec.acks.items():
        got = stored.get(key)
        if got is None:
            missing += 1
        elif got[0] != seat or canonical_json(got[1]) != canonical_json(action):
            mismatched += 1
    logs: dict[int, list] = collections.defaultdict(list)
    for (gid, version), (seat, action) in sorted(stored.items()):
        logs[gid].append((version, seat, action))
    bad_replay, stuck, holes = [], [], []
    for g in games:
        log = logs.get(g["id"], [])
        if [v for v, _s, _a in log] != list(range(1, g["version"] + 1)):
            holes.append(g["id"])
            continue
        game = engine.get_game(g["game"])
        final = engine.replay(g["game"], g["seat_count"], orjson.loads(g["options"]), g["seed"],
                              [(s, a) for _v, s, a in log])
        state = game.load(orjson.loads(g["state"]))
        if game.state_hash(final) != game.state_hash(state):
            bad_replay.append(g["id"])
        if g["status"] == "running" and not orjson.loads(g["waiting"]):
            stuck.append(g["id"])
    return {"acked": len(rec.acks), "found": len(rec.acks) - missing, "missing": missing,
            "mismatched": mismatched, "unacked_but_stored": len(stored) - (len(rec.acks) - missing),
            "games": len(games), "replay_mismatch": bad_replay, "stuck": stuck,
            "log_holes": holes}


async def verify_baseline(db_url: str, rec: Recorder) -> dict:
    import asyncpg

    conn = await asyncpg.connect(asyncpg_dsn(db_url))
    try:
        rows = await conn.fetch("SELECT game_id, version FROM baseline_actions")
    finally:
        await conn.close()
    stored = {(r["game_id"], r["version"]) for r in rows}
    missing = sum(1 for key in rec.acks if key not in stored)
    return {"acked": len(rec.acks), "found": len(rec.acks) - missing, "missing": missing}


# ---------------------------------------------------------------------------- main


async def create_database(admin_url: str) -> str:
    import asyncpg
    from sqlalchemy.engine import make_url

    name = f"menagerie_load_{os.getpid()}_{secrets.token_hex(3)}"
    conn = await asyncpg.connect(asyncpg_dsn(admin_url))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


async def drop_database(admin_url: str, url: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    conn = await asyncpg.connect(asyncpg_dsn(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()
