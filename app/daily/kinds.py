"""The daily challenge's kinds, as data, and how a finished daily game is scored.

A kind is a game, its seat count, the seats bots play (and which bot), the options and the
time control; the player always sits in seat 0. A kind the engine cannot set up (a seat count
outside the game's range, an unknown game or bot, options it refuses) is left out of the day's
offer (:func:`unusable`), so a kind can be listed before its engine supports it. ``solo`` is
Ark Nova's 1-seat solo mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from engine.bots import bot_kinds

#: every daily game's clock: no limit (nobody's seat goes to a bot while its player sleeps, and
#: an abandoned game costs nothing), it only counts each seat's time (app/clock.py): the
#: player's is the leaderboard's "time used"
DAILY_CLOCK = {"mode": "count"}
#: the seat the player takes
PLAYER_SEAT = 0


@dataclass(frozen=True, eq=False)
class DailyKind:
    name: str
    game: str
    seats: int
    #: seats (1 .. seats-1) played by ``bot``
    bots: tuple[int, ...] = ()
    bot: str = "greedy"
    options: dict[str, Any] = field(default_factory=dict)
    time_control: dict[str, Any] | None = field(default_factory=lambda: dict(DAILY_CLOCK))

    def public(self) -> dict:
        """What the API says of the kind."""
        return {"kind": self.name, "game": self.game, "seats": self.seats,
                "bots": list(self.bots), "bot": self.bot if self.bots else None,
                "options": self.options, "time_control": self.time_control}


KINDS: tuple[DailyKind, ...] = (
    DailyKind("solo", "arknova", 1),
    # plan: the strongest level that is reproducible per seed (mcts searches for a second of
    # wall time, so its answers changed with the server's load and two players making the same
    # moves on the day's deal could meet different replies); plan won 12, lost 7 (1 tie) of 20
    # games against mcts (docs/bots.md, "The plan level")
    DailyKind("duel", "arknova", 2, bots=(1,), bot="plan"),
)


def unusable(kind: DailyKind) -> str | None:
    """Why the engine cannot deal this kind now (None: it can)."""
    try:
        game = engine.get_game(kind.game)
    except KeyError:
        return f"no game {kind.game!r}"
    seats = game.describe().get("seats") or {}
    if not seats.get("min", 1) <= kind.seats <= seats.get("max", kind.seats):
        return f"{kind.game} takes {seats.get('min')} to {seats.get('max')} seats"
    if kind.bots and kind.bot not in bot_kinds():
        return f"no bot {kind.bot!r}"
    if any(not 1 <= s < kind.seats for s in kind.bots) or PLAYER_SEAT in kind.bots:
        return "bots sit in seats 1 and up"
    try:
        game.setup(kind.seats, kind.options, "daily-probe")
    except Exception as exc:  # the engine's refusal, whatever it is
        return f"setup refused: {exc}"
    return None


def outcome(result: dict | None, clock: dict | None, time_control: dict | None,
            seat: int) -> tuple[float | None, float | None]:
    """``(score, time_used)`` of ``seat`` in a finished game: its score in the engine's result,
    and the seconds its clock counted (a counting clock's ``used``, or what a time bank ran
    down; None without either)."""
    scores = (result or {}).get("scores") or {}
    raw = scores.get(str(seat), scores.get(seat)) if isinstance(scores, dict) else (
        scores[seat] if isinstance(scores, list) and seat < len(scores) else None)
    score = float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else None
    used = None
    entry = ((clock or {}).get("seats") or {}).get(str(seat)) or {}
    mode = (time_control or {}).get("mode")
    if mode == "count" and entry.get("used") is not None:
        used = round(float(entry["used"]), 3)
    elif mode == "bank" and entry.get("bank") is not None:
        used = round(max(0.0, float(time_control["seconds"]) - float(entry["bank"])), 3)
    return score, used
