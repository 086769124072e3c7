"""Player ratings: Glicko-2, one rating per user and game.

The mathematics follows Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1-8;
:func:`glicko2_update` is a direct transcription, checked in the tests against the worked
example of the paper (1500/200/0.06 against three opponents -> 1464.06 / 151.52 / 0.05999).
Why our own code: the Python packages on PyPI are either unmaintained for years or a single
author's fresh upload, and the whole algorithm is fifty lines of arithmetic that we want to
read and test ourselves.

How Menagerie uses it:

* a **rating period is one game**: everybody's new rating is computed from everybody's
  rating *before* the game, then all are stored at once;
* a game of more than two players counts as **pairwise results** from the final standing:
  against each other rated player, finishing ahead scores 1, behind 0, level 0.5. The places
  come from the result's ``details.places`` when the game gives them (Ark Nova: victory
  points, then projects, then money), else from ``details.winners`` (shared winners are level;
  Zoocracy), else from equal scores in the ranking;
* a player who **resigned** finishes last (``app/outcome.py`` rewrites the result's places):
  resigning counts as a loss against everyone who did not resign, even when a bot played the
  seat on afterwards (a resigned seat does not make ``bot_played``);
* players who did not play are not touched (no RD growth for idle periods: ratings here are a
  leaderboard, not a matchmaking prior);
* games with **hints** allowed (``games.hints``: the bot may propose answers) are casual and
  never rated;
* **daily challenge** games (``games.source = "daily"``) are never rated: they have their own
  per-day leaderboard (docs/daily.md);
* **aborted** games (before any seat's first decision of play) are never rated;
* only games between at least two **human accounts**, played here, with no bot seat and no
  decision the platform took for someone (``result["bot_played"]``) are rated; each game once
  (``games.rated``, set in the same transaction as the new ratings).

:class:`RatingService` listens to the game service's ``finished`` signal (see
:mod:`app.signals`) and serves the leaderboards.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass

import engine

from .db import Database
from .models import Game, Seat
from .outcome import places_of
from .ratings_store import RatingStore, RatingTx
from .refusal import not_found
from .times import iso, utcnow

log = logging.getLogger("menagerie.ratings")

#: Glicko scale <-> Glicko-2 scale (the paper's 173.7178)
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: the system constant: how much the volatility may change per period (the paper: 0.3-1.2)
TAU = 0.5
#: convergence tolerance of the volatility iteration (the paper's epsilon)
EPSILON = 0.000001
#: the RD never drops below this (keeps a long-standing rating able to move)
MIN_RD = 30.0


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: rating, rating deviation, volatility."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(player: Glicko, results: Iterable[tuple[Glicko, float]],
                   tau: float = TAU) -> Glicko:
    """The player's rating after one period with ``results``: ``(opponent, score)`` pairs,
    score 1 for a win, 0.5 for a draw, 0 for a loss (the opponents' ratings as they were at
    the start of the period). Without results only the RD grows (step 6)."""
    results = list(results)
    # step 2: to the Glicko-2 scale
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        return Glicko(player.rating, min(DEFAULT_RD, math.sqrt(phi * phi + sigma * sigma) * SCALE),
                      sigma)
    # steps 3 and 4: the estimated variance v and the estimated improvement delta
    inv_v = 0.0
    total = 0.0
    for opp, score in results:
        mu_j = (opp.rating - DEFAULT_RATING) / SCALE
        phi_j = opp.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    # step 5: the new volatility (Illinois variant of regula falsi, as in the paper)
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful of steps; bounded for safety
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # steps 6 and 7: the new RD and rating
    phi_star = math.sqrt(phi2 + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    # step 8: back to the Glicko scale
    return Glicko(DEFAULT_RATING + SCALE * new_mu, max(MIN_RD, SCALE * new_phi), new_sigma)


def pairwise(places: dict[int, int], seats: Iterable[int]) -> dict[int, list[tuple[int, float]]]:
    """For each of ``seats``: ``(other seat, score)`` against every other of ``seats``."""
    seats = list(seats)
    out: dict[int, list[tuple[int, float]]] = {s: [] for s in seats}
    for s in seats:
        for o in seats:
            if o == s:
                continue
            ps, po = places.get(s), places.get(o)
            if ps is None or po is None:
                continue
            out[s].append((o, 1.0 if ps < po else 0.0 if ps > po else 0.5))
    return out


def rate_game(before: dict[int, Glicko], places: dict[int, int]) -> dict[int, Glicko]:
    """New ratings of the players of one game (keys: seats), all from the ratings before."""
    results = pairwise(places, before)
    return {s: glicko2_update(before[s], [(before[o], score) for o, score in results[s]])
            for s in before}


def why_unrated(game: Game, seats: list[Seat]) -> str | None:
    """Why a finished game is not rated (None: it is)."""
    if game.status != "finished" or not game.result:
        return "not finished"
    if game.source == "import":
        return "imported"
    if game.source == "daily":
        return "daily challenge"  # its own leaderboard (app/daily/), see docs/daily.md
    if game.source != "play":
        return f"source {game.source}"
    if (game.result or {}).get("aborted") is not None:
        return "aborted"  # before its play began (app/games/exits.py)
    if game.casual:
        return "casual"  # a quick match of casual seeks (app/seeks/)
    if game.hints:
        return "hints allowed"  # a casual game: the bot proposed answers (app/analysis/)
    if any(s.bot is not None for s in seats):
        return "bot seat"
    if (game.result or {}).get("bot_played"):
        return "platform played a seat"
    humans = {s.user_id for s in seats if s.user_id is not None}
    if len(humans) < 2 or len(humans) != len(seats):
        return "fewer than two human players"
    return None


class RatingService:
    def __init__(self, db: Database, games) -> None:
        self.db = db
        self.store = RatingStore(db)  # the ratings' SQL
        #: the game store (app.games.store): the game's row and seats, locked, and its
        #: ``rated`` flag, in the ratings' transaction
        self.games = games

    async def on_finished(self, s, game_ids: list[int]) -> None:
        """Listener of ``signals.finished`` (the outbox's transaction ``s``): rate each game
        once. Two games of one new player finishing at once in two processes may collide on
        the new rating row: that batch rolls back and the outbox runs it again."""
        for game_id in sorted(set(game_ids)):
            await self.rate_in(s, game_id)
        return None

    async def rate(self, game_id: int) -> bool:
        """Rate a finished game in a transaction of its own; False when it is not rated (or
        was already)."""
        async with self.store.writing() as tx:
            done = await self.rate_in(tx.session, game_id)
            await tx.commit()
        return done

    async def rate_in(self, s, game_id: int) -> bool:
        """Update the ratings from a finished game in ``s`` (not committed); False when it is
        not rated (or was)."""
        row, seats = await self.games.for_rating(game_id, s)
        if row is None or row.rated:
            return False
        reason = why_unrated(row, seats)
        if reason is not None:
            log.info("game %s is not rated: %s", game_id, reason)
            return False
        by_seat = {x.seat: x.user_id for x in seats}
        users = sorted({u for u in by_seat.values() if u is not None})
        tx: RatingTx = self.store.tx(s)
        stored = await tx.locked(row.game, users)
        before = {seat: (Glicko(stored[u].rating, stored[u].rd, stored[u].volatility)
                         if u in stored else Glicko())
                  for seat, u in by_seat.items()}
        after = rate_game(before, places_of(row.result))
        now = utcnow()
        for seat, new in after.items():
            uid = by_seat[seat]
            assert uid is not None  # why_unrated: every seat is a person's
            tx.put(stored, uid, row.game, game_id, new.rating, new.rd, new.volatility, now)
        await self.games.mark_rated(game_id, s)
        await tx.flush()
        log.info("game %s rated", game_id)
        return True

    async def leaderboard(self, game: str, limit: int, offset: int) -> dict:
        if game not in engine.game_names():
            raise not_found("game")
        total, rows = await self.store.leaderboard(game, limit, offset)
        entries = [{"rank": offset + i + 1, "user": {"id": r.user_id, "username": name},
                    "rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": r.games}
                   for i, (r, name) in enumerate(rows)]
        return {"game": game, "total": total, "offset": offset, "entries": entries}

    async def of_user(self, username: str) -> dict:
        found = await self.store.of_user(username)
        if found is None:
            raise not_found("user")
        user, rows = found
        out = [{"game": r.game, "rating": round(r.rating, 1), "rd": round(r.rd, 1),
                "volatility": round(r.volatility, 6), "games": r.games, "rank": better + 1}
               for r, better in rows]
        return {"user": {"id": user.id, "username": user.username}, "ratings": out}


    async def history_of(self, user_id: int, per_game: int = 200) -> dict[str, list[dict]]:
        """A player's rating after each rated game (the newest ``per_game`` of each game),
        oldest first: ``{game: [{at, rating, rd, game_id}]}`` (the profile's chart)."""
        rows = await self.store.history_of(user_id)
        out: dict[str, list[dict]] = {}
        for r in rows:
            points = out.setdefault(r.game, [])
            if len(points) < per_game:
                points.append({"at": iso(r.created_at), "rating": round(r.rating, 1),
                               "rd": round(r.rd, 1), "game_id": r.game_id})
        return {game: points[::-1] for game, points in out.items()}
