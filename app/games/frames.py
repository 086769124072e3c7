"""Frames of past versions and rebuilt states: socket catch-up, take-backs, ``menagerie replay``.

A :class:`~app.frame.Frame` is one version as every kind of viewer receives it (the
realtime module encodes it once per viewer kind). Frames are rebuilt from this process's cached
state when it is at or just before the wanted versions (the usual case: a version announced by
another process), else from the nearest snapshot and the log.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from cachetools import LRUCache

import engine

from .. import clock as clock_mod, jsonutil, outcome as outcome_mod
from ..frame import Frame
from ..history import NO_MOVE, effective_actions, engine_game, step
from ..refusal import Refusal, not_found, say
from .cache import Cached
from .context import GameContext

log = logging.getLogger("menagerie.games")


class Frames:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        #: game id -> (version, state): the last past state rebuilt (the replay viewer steps
        #: forward one version at a time: the next request applies one action)
        self._past: LRUCache[int, tuple[int, Any]] = LRUCache(maxsize=64)

    async def state_at(self, game_id: int, version: int) -> tuple[Any, dict]:
        """The engine and the state of ``version``: the one way a past state is rebuilt (the
        current one if it is the game's version; else from the last state rebuilt for this
        game or the nearest snapshot, whichever is later, then the logged actions)."""
        c = self.ctx.cache.get(game_id)
        if c is not None and c.state is not None and c.version == version:
            return c.game, c.state
        h = await self.ctx.store.history(game_id, version, version)
        if h is None:
            raise not_found("game")
        if h.snapshot_version < 0:
            raise Refusal("not_started", say("not_started"))
        game = engine_game(h.game)
        start, state = h.snapshot_version, None
        past = self._past.get(game_id)
        if past is not None and h.snapshot_version <= past[0] <= version:
            start, state = past
        if state is None:
            state = game.load(h.snapshot)
        for r in h.records:
            if r.version > start:
                state = step(game, state, r, h.undone)
        self._past[game_id] = (version, state)
        return game, state

    async def load_frames(self, game_id: int, after: int, upto: int) -> list[Frame]:
        """Frames for versions ``after+1 .. upto`` rebuilt from the database.

        From this process's cached state when it is at or before ``after`` (one query for the
        new log rows, one engine step per version, and the cache moves forward); otherwise from
        the game row (the current version) or the nearest snapshot plus the logged actions.
        """
        start = max(after + 1, 0)
        if start > upto:
            return []
        c = self.ctx.cache.get(game_id)
        if c is not None and c.state is not None:
            if start == upto == c.version and c.frame is not None:
                return [c.frame]
            if c.version == start - 1 and upto > c.version:
                got = await self.from_cache(c, start, upto)
                if got is not None:
                    return got
            elif c.version == start and c.frame is not None and upto > c.version:
                got = await self.from_cache(c, start + 1, upto)
                if got is not None:
                    return [c.frame] + got
        row = await self.ctx.store.game_row(game_id, state=True)
        if row is None or row.state is None:
            return []
        upto = min(upto, row.version)
        if start > upto:
            return []
        game = engine_game(row.game)
        clock_now = clock_mod.public(row.time_control, row.clock)
        users = await self.ctx.store.seat_map(game_id)  # (seats never change once started)
        outcome = outcome_mod.recorded(row.status, row.result)
        if start == upto == row.version:
            events = [] if upto == 0 else await self.ctx.store.events_at(game_id, upto)
            return [Frame(game, upto, game.load(row.state), events, clock_now, users=users,
                          outcome=outcome, held=row.held_seat)]
        h = await self.ctx.store.history(game_id, start, upto, events=True)
        if h is None or h.snapshot_version < 0:  # pragma: no cover - every game has snapshot 0
            log.error("game %s has no snapshot at or before %s", game_id, start)
            return []
        state = game.load(h.snapshot)
        events_at = {r.version: r.events for r in h.records}
        frames = []
        if h.snapshot_version >= start:
            frames.append(Frame(game, h.snapshot_version, state,
                                events_at.get(h.snapshot_version, []), users=users))
        for r in h.records:
            if r.version <= h.snapshot_version:
                continue
            state = step(game, state, r, h.undone)
            if r.version >= start:
                last = r.version == row.version
                frames.append(Frame(game, r.version, state, r.events,
                                    clock_now if last else None, users=users,
                                    outcome=outcome if last else None,
                                    held=row.held_seat if last else None))
        return frames

    async def from_cache(self, c: Cached, start: int, upto: int) -> list[Frame] | None:
        """Replay the logged actions after the cached version, up to ``upto`` (None when a
        resignation or an abort is among them: its outcome is in the game row only)."""
        records = await self.ctx.store.log_tail(c.id, c.version, upto)
        # (a confirm too: whether the last version is held is in the game row only)
        if any(r.kind in NO_MOVE for r in records):
            self.ctx.cache.drop(c.id)
            return None
        undone = await self.ctx.store.undone(c.id, records)
        frames: list[Frame] = []
        state, version, frame = c.state, c.version, c.frame
        for r in records:
            if r.version != version + 1:
                break  # pragma: no cover - the log has no holes
            state = step(c.game, state, r, undone)
            version = r.version
            frame = Frame(c.game, version, state, r.events, users=c.users)
            if version >= start:
                frames.append(frame)
        if version > c.version:
            # the cache does not follow: whether the new version is held (who is waited for)
            # is in the game row only (app/games/turns.py); the next read takes it from there
            self.ctx.cache.drop(c.id)
        return frames

    async def replay(self, game_id: int) -> dict:
        """Rebuild a game from its seed and its log; compare with the stored state."""
        row = await self.ctx.store.game_row(game_id, state=True)
        if row is None:
            raise not_found("game")
        # the log as far as the row read: a move committed between the two reads (a bot's, the
        # row then older than the log) is not the stored state's
        records = [r for r in await self.ctx.store.all_actions(game_id) if r.version <= row.version]
        if row.state is None:
            raise Refusal("not_started", say("not_started"))
        game = engine_game(row.game)
        final = engine.replay(row.game, row.seat_count, row.options, row.seed,
                              effective_actions(records))
        replayed = game.state_hash(final)
        stored = game.state_hash(game.load(row.state))
        engine_result = game.result(final)
        resigned = [r.seat for r in records if r.kind == "resign"]
        aborted = [r.seat for r in records if r.kind == "abort"]
        # the result the log gives: the engine's, reordered by the resignations; or the game
        # ended at once by a resignation or an abort (app/outcome.py)
        if aborted:
            expected = outcome_mod.aborted(aborted[0])
        elif engine_result is not None:
            expected = outcome_mod.with_resignations(engine_result, resigned)
        elif resigned and row.status == "finished":
            expected = outcome_mod.ended_by_resignation(row.seat_count, resigned)
        else:
            expected = None
        recorded = row.result if row.status == "finished" else None
        keys = ("scores", "ranking", "details", "resigned", "aborted")
        if recorded is None or expected is None:
            same = recorded is None and expected is None
        else:
            same = all(json.loads(jsonutil.dumps(recorded.get(k)))
                       == json.loads(jsonutil.dumps(expected.get(k))) for k in keys)
        return {"id": game_id, "game": row.game, "version": row.version, "actions": len(records),
                "state_hash": replayed, "stored_hash": stored, "match": replayed == stored,
                "result": recorded, "engine_result": engine_result, "result_match": same}

