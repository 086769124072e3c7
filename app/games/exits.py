"""The ways out of a game: resign, abort, cancel (the creator, before the start), leave (a
joined player, before the start).

- **Resign** (a running game, any time): a log row of kind ``resign`` at a new version (the
  engine state does not change: the engine has no notion of resigning, :mod:`app.outcome`
  keeps the result's override). When at most one seat is left that did not resign (or none
  played by a person) the game ends at once and the seats left win; otherwise the seat is
  handed to the time control's bot for good (``away``, never reclaimable) and finishes last
  when the game ends (:meth:`.moves.Moves.act` reorders the engine's result).
- **Abort** (a running game, by any player, while no seat has made its first decision of
  play after the opening, :func:`app.outcome.play_began`): a log row of kind ``abort``; the
  game is over, nobody won, nothing is rated.
- **Cancel** (the creator, an open game): the game is deleted with its seats.
- **Leave** (a joined player but the creator, an open game): the seat is free again.

Games the server dealt (the daily challenge's) cannot be cancelled or left. Each is one
transaction on the locked game row (:meth:`.store.SqlGameStore.lobby`); a resignation or an
abort bumps the version and the seats' revision, so a move computed before it is refused.
"""

from __future__ import annotations

import logging
from typing import Any

from .. import clock as clock_mod, jsonutil, outcome, times
from ..auth import UserInfo
from ..frame import Frame
from ..history import effective_log, engine_game
from ..models import Game
from ..refusal import Refusal, say
from ..signals import Notify
from .context import GameContext
from .reads import Reads

log = logging.getLogger("menagerie.games")


class Exits:
    def __init__(self, ctx: GameContext, reads: Reads) -> None:
        self.ctx = ctx
        self.reads = reads

    async def resign(self, game_id: int, user: UserInfo) -> dict[str, Any]:
        """The caller resigns (see the module docstring); the game's summary."""
        return await self._end(game_id, user, "resign")

    async def abort(self, game_id: int, user: UserInfo) -> dict[str, Any]:
        """The caller aborts the game before its play began; the game's summary."""
        return await self._end(game_id, user, "abort")

    async def _end(self, game_id: int, user: UserInfo, kind: str) -> dict[str, Any]:
        async with self.ctx.locks.hold(game_id):
            async with self.ctx.store.lobby(game_id) as tx:
                row = tx.row
                seats = await tx.seats()
                mine = next((x for x in seats if x.user_id == user.id), None)
                if mine is None:
                    raise Refusal("no_seat", say("no_seat"))
                if row.status == "open" or row.state is None:
                    raise Refusal("not_started", say("not_started"))
                if row.status != "running":
                    raise Refusal("game_over", say("game_over"))
                if mine.resigned is not None:
                    raise Refusal("already_resigned",
                                  say("already_resigned"))
                game = engine_game(row.game)
                state = game.load(row.state)
                version = row.version + 1
                now = times.utcnow()
                clock_before = row.clock
                if kind == "abort":
                    await self._check_abort(game_id, row, game)
                    ends, result = True, outcome.aborted(mine.seat)
                    events = [{"kind": "abort", "data": {"seat": mine.seat}}]
                else:
                    order = [x.seat for x in sorted((x for x in seats if x.resigned is not None),
                                                    key=lambda x: x.resigned or 0)] + [mine.seat]
                    ends = outcome.ends_now([(x.seat, x.user_id is not None) for x in seats],
                                            order)
                    result = None
                    if ends:
                        played = {x.seat for x in seats if x.bot is not None}
                        for key, entry in ((row.clock or {}).get("seats") or {}).items():
                            if entry.get("auto"):
                                played.add(int(key))
                        result = {**outcome.ended_by_resignation(row.seat_count, order),
                                  "bot_played": sorted(played - set(order))}
                    events = [{"kind": "resign", "data": {"seat": mine.seat, "ends": ends}}]
                    await tx.resign_seat(mine.seat, version)
                    row.seats_rev = (row.seats_rev or 0) + 1  # moves computed before: refused
                if ends:
                    row.status, row.result, row.waiting_for = "finished", result, []
                    if row.time_control and row.clock:
                        row.clock, _ = clock_mod.rearm(row.time_control, row.clock, [], set(),
                                                       now)
                    row.turn_deadline = None
                    tx.add_snapshot(version, row.state)
                elif row.time_control and row.clock:
                    people = set(await tx.people(present=True))
                    row.clock, row.turn_deadline = clock_mod.rearm(
                        row.time_control, row.clock, row.waiting_for or [], people, now)
                row.version, row.updated_at = version, now
                tx.add_log_row(version, mine.seat, {kind: mine.seat}, events, kind, now,
                               clock_before)
                users = {x.user_id: x.seat for x in seats if x.user_id is not None}
                await tx.announce(version, jsonutil.dumps_str({
                    "g": game_id, "v": version, "name": row.game, "title": game.title,
                    "turn": [], "users": sorted(users), "status": row.status,
                    "deadline": clock_mod.iso(row.turn_deadline)}))
                others = tuple(sorted(u for u in users if u != user.id))
                if others:
                    tx.set_off("notice", version, Notify(
                        "resigned" if kind == "resign" else "aborted", game_id, row.game,
                        game.title, others, user.username).payload())
                if ends and kind == "resign":
                    tx.set_off("finished", version, {})  # ratings, "game over" notices
                await tx.seats_changed()
                tc, clock_now, status = row.time_control, row.clock, row.status
                self.ctx.cache.drop(game_id)
                await tx.commit()
        self.ctx.hub.publish_local(
            Frame(game, version, state, events, clock_mod.public(tc, clock_now), users=users,
                  outcome=result if ends else None), game_id)
        self.ctx.signals.wake_outbox()
        if status == "running":
            self.ctx.signals.emit_bot_turn(game_id)  # the bot plays the resigned seat
        log.info("game %s: seat %s %s", game_id, mine.seat,
                 "resigned" if kind == "resign" else "aborted the game")
        return await self.reads.summary(game_id, user)

    async def _check_abort(self, game_id: int, row: Game, game: Any) -> None:
        if row.source != "play":
            raise Refusal("not_cancellable",
                          say("not_cancellable"))
        rows = await self.ctx.store.all_actions(game_id)
        if any(r.kind == "resign" for r in rows):
            raise Refusal("abort_too_late",
                          say("abort_too_late"))
        initial = game.waiting_for(game.setup(row.seat_count, row.options, row.seed))
        if outcome.play_began(initial, [seat for _, seat, _ in effective_log(rows)]):
            raise Refusal("abort_too_late",
                          say("abort_too_late"))

    async def cancel(self, game_id: int, user: UserInfo) -> None:
        """The creator deletes a game that has not started."""
        async with self.ctx.store.lobby(game_id) as tx:
            row = tx.row
            if row.created_by != user.id:
                raise Refusal("not_creator",
                              say("not_creator.cancel"))
            self._check_open(row)
            await tx.delete_game()
            await tx.seats_changed()
            self.ctx.cache.drop(game_id)
            await tx.commit()
        log.info("game %s cancelled by its creator", game_id)

    async def leave(self, game_id: int, user: UserInfo) -> dict[str, Any]:
        """A joined player frees their seat of a game that has not started."""
        async with self.ctx.store.lobby(game_id) as tx:
            row = tx.row
            seat = next((x.seat for x in await tx.seats() if x.user_id == user.id), None)
            if seat is None:
                raise Refusal("no_seat", say("no_seat"))
            if row.created_by == user.id:
                raise Refusal("creator_cannot_leave",
                              say("creator_cannot_leave"))
            self._check_open(row)
            await tx.leave_seat(seat, user.id)
            row.updated_at = times.utcnow()
            await tx.seats_changed()
            self.ctx.cache.drop(game_id)
            await tx.commit()
        log.info("game %s: seat %s left before the start", game_id, seat)
        return await self.reads.summary(game_id, user)

    @staticmethod
    def _check_open(row: Game) -> None:
        if row.status != "open":
            raise Refusal("not_open", say("not_open"))
        if row.source != "play":
            raise Refusal("not_cancellable",
                          say("not_cancellable"))
