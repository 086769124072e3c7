"""Vacations in the clocks (issue #33): the vacations of a player are written into the clock of
each of their running timed games (``clock.seats[seat].off``, app/clock.py), so a running wait's
deadline moves by them and a bank does not run down during them; a game that starts copies them
in (:meth:`.lobby.Lobby.start`). Rewriting a clock bumps the seats' revision, so every process
reads the game again and a move computed with the old clock is refused."""

from __future__ import annotations

import logging

from .. import clock as clock_mod, times
from .context import GameContext

log = logging.getLogger("menagerie.games")


class Pauses:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    async def apply(self, user_id: int, off: list[list[str]]) -> int:
        """Put the player's vacations ``off`` into the clocks of their running timed games;
        how many games changed."""
        changed = 0
        for game_id, seat in await self.ctx.store.timed_seats_of(user_id):
            async with self.ctx.locks.hold(game_id):
                async with self.ctx.store.lobby(game_id) as tx:
                    row = tx.row
                    if row.status != "running" or not row.time_control or not row.clock:
                        continue
                    people = set(await tx.people(present=True))
                    row.clock, row.turn_deadline = clock_mod.with_vacations(
                        row.time_control, row.clock, [seat], off, row.waiting_for or [],
                        people, times.utcnow())
                    row.seats_rev = (row.seats_rev or 0) + 1  # every process reads it again
                    self.ctx.cache.drop(game_id)
                    await tx.commit()
            changed += 1
        log.info("user %s: vacations in the clocks of %s games", user_id, changed)
        return changed
