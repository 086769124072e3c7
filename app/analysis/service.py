"""Post-game analysis (issue #19): requests, the report, cancelling, and hints.

- ``POST /api/games/{id}/analysis``: a finished game's analysis is queued (one row per game in
  ``analyses``; a second request reuses it, a cancelled or failed one is queued again and
  resumes from its stored entries); the worker (:mod:`.worker`) runs it in a process of its
  own. Only the game's players and its creator (the importer, for an imported game) may ask
  (403 ``not_a_player``), and a user has at most one analysis of their asking queued or
  running at a time (429 ``analysis_pending``); the worker takes the queue in turns across
  the users who asked (issue #31, finding 4). Rated games are queued automatically when they end (:meth:`AnalysisService.on_finished`,
  a listener of ``signals.finished`` after the ratings).
- ``GET``: status, progress and the report, for whoever may read the game's record: anybody
  for a finished game, nobody while a sealed game (a daily challenge's) is sealed
  (``app/redaction.py``). A finished game hides nothing any more; a running game has no
  analysis.
- ``DELETE``: cancel (the game's players and its creator only).
- ``GET /api/games/{id}/hint``: :mod:`.hints`.
"""

from __future__ import annotations

import logging

from .. import redaction
from ..auth import UserInfo
from ..db import Duplicate
from ..history import effective_log
from ..models import Analysis, Game
from ..refusal import Refusal, not_found, say
from ..times import iso, utcnow
from .hints import HintPool
from .store import ACTIVE, AnalysisStore, AnalysisTx
from .worker import AnalysisWorker

log = logging.getLogger("menagerie.analysis")

def engine_settings(settings) -> dict:
    """The engine's analysis settings of this server (its defaults, the playouts and the
    policy overridden when set)."""
    from engine.bots import analysis as an

    over: dict = {}
    if settings.analysis_playouts:
        over["playouts"] = settings.analysis_playouts
    if settings.analysis_policy:
        over["policy"] = settings.analysis_policy
    return an.Settings.from_dict(over).as_dict()


def view(row: Analysis | None, *, can_request: bool, can_cancel: bool) -> dict:
    """What ``GET`` answers (``status: none`` without a row)."""
    if row is None:
        return {"status": "none", "done": 0, "total": None, "report": None,
                "can_request": can_request, "can_cancel": False}
    report = row.report if row.status in ("done", "cancelled") else None
    return {"status": row.status, "done": row.done, "total": row.total,
            "settings": row.settings, "error": row.error if row.status == "failed" else None,
            "requested_at": iso(row.created_at), "updated_at": iso(row.updated_at),
            "finished_at": iso(row.finished_at), "report": report,
            "can_request": can_request and row.status in ("failed", "cancelled"),
            "can_cancel": can_cancel and row.status in ACTIVE}


class AnalysisService:
    def __init__(self, db, settings, games, owner: str) -> None:
        self.db = db
        self.store = AnalysisStore(db)  # the analyses' SQL
        self.settings = settings
        self.games = games  # app.games.GameService
        self.worker = AnalysisWorker(db, settings, owner, self._payload)
        self.hints = HintPool(settings, self.worker.settings_preload())

    def start(self) -> None:
        self.worker.start()

    async def stop(self) -> None:
        await self.worker.stop()
        await self.hints.close()

    # ------------------------------------------------------------------ reading
    async def _game(self, game_id: int) -> Game:
        row = await self.games.store.game_row(game_id, state=False)
        if row is None:
            raise not_found("game")
        # the record's rule: a sealed game's analysis is nobody's until its day is over
        redaction.check_sealed(row.sealed_until, False)
        return row

    async def _player(self, game: Game, user: UserInfo | None) -> bool:
        if user is None:
            return False
        if game.created_by == user.id:
            return True
        return await self.games.store.seat_of(game.id, user.id) is not None

    async def get(self, game_id: int, user: UserInfo | None) -> dict:
        game = await self._game(game_id)
        async with self.store.reading() as tx:
            row = await tx.row(game_id)
        return view(row, can_request=user is not None and game.status == "finished",
                    can_cancel=await self._player(game, user))

    # ------------------------------------------------------------------ requests
    async def request(self, game_id: int, user: UserInfo) -> tuple[int, dict]:
        """Queue the analysis (or reuse the game's row): (HTTP status, view)."""
        game = await self._game(game_id)
        if game.status != "finished":
            raise Refusal("game_not_finished",
                          say("game_not_finished"))
        if not await self._player(game, user):
            raise Refusal("not_a_player",
                          say("not_a_player.analysis"))
        config = engine_settings(self.settings)
        now = utcnow()
        async with self.store.writing() as tx:
            row = await tx.row(game_id, lock=True)
            if row is None or row.status in ("failed", "cancelled"):
                await self._one_at_a_time(tx, user, game_id)
            if row is None:
                tx.add(game_id=game_id, status="pending", settings=config, entries=[],
                       requested_by=user.id, created_at=now, updated_at=now)
            elif row.status in ("failed", "cancelled"):
                tx.again(row, user.id, now)  # it resumes from the entries it stored
            try:
                await tx.commit()
            except Duplicate:  # the same game requested at once elsewhere: that row
                pass
            row = await tx.row(game_id)
        assert row is not None  # stored just now, here or elsewhere
        if row.status in ACTIVE:
            self.worker.wake()
        out = view(row, can_request=True, can_cancel=await self._player(game, user))
        return (200 if row.status == "done" else 202), out

    @staticmethod
    async def _one_at_a_time(tx: AnalysisTx, user: UserInfo, game_id: int) -> None:
        """429 ``analysis_pending`` while another analysis the user asked for is queued or
        running (counted with the user's row locked: two requests at once queue)."""
        other = await tx.other_active(user.id, game_id)
        if other is not None:
            raise Refusal("analysis_pending",
                          say("analysis_pending"),
                          game_id=other, retry_after=30)

    async def cancel(self, game_id: int, user: UserInfo) -> dict:
        game = await self._game(game_id)
        if not await self._player(game, user):
            raise Refusal("not_a_player",
                          say("not_a_player.cancel"))
        async with self.store.writing() as tx:
            row = await tx.row(game_id, lock=True)
            if row is None:
                raise not_found("analysis")
            if row.status not in ACTIVE:
                raise Refusal("analysis_not_running",
                              say("analysis_not_running"), state=row.status)
            tx.cancelled(row, utcnow())
            await tx.commit()
            self.worker.cancel(row.id)
            out = view(row, can_request=True, can_cancel=True)
        return out

    async def on_live_move(self, s, turns: list) -> None:
        """Listener of ``signals.your_turn``: games are being played here now, so a running
        analysis makes way for them (``compute.make_way``). Reads and writes nothing."""
        self.worker.live()
        return None

    async def on_finished(self, s, game_ids: list[int]):
        """Listener of ``signals.finished``, after the ratings (same transaction ``s``): a
        game rated just now is analysed automatically."""
        rated = await self.games.store.rated_among(game_ids, s)
        if not rated:
            return None
        await self.store.tx(s).queue(rated, engine_settings(self.settings), utcnow())
        return self.worker.wake

    async def _payload(self, s, row: Analysis) -> dict:
        """The job's data (``compute.run_job``): the game and its effective log."""
        game, records = await self.games.store.for_analysis(row.game_id, s)
        if game is None:
            raise ValueError(f"game {row.game_id} is gone")
        steps = effective_log(records)
        return {"game": game.game, "seats": game.seat_count, "options": game.options,
                "seed": game.seed, "settings": row.settings,
                "actions": [{"seat": seat, "action": action} for _, seat, action in steps],
                "versions": [version - 1 for version, _, _ in steps]}

    # ------------------------------------------------------------------ hints
    async def hint(self, game_id: int, user: UserInfo) -> dict:
        row = await self.games.store.game_row(game_id, state=False)
        if row is None:
            raise not_found("game")
        if not row.hints:
            raise Refusal("hints_off", say("hints_off"))
        c = await self.games.current(game_id)
        seat = c.seat_of(user.id)
        if seat is None:
            raise Refusal("not_a_player", say("not_a_player.hint"))
        if c.status != "running" or c.state is None or seat not in c.waiting:
            raise Refusal("no_decision", say("no_decision"))
        answer = await self.hints.hint((game_id, c.version, seat), c.name,
                                       c.game.dump(c.state), seat, user.id)
        return {"version": c.version, "seat": seat, **answer}
