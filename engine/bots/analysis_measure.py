"""The analysis' measure: a position's **expected final margin** (VP) and **win chance**.

The bots' values are utilities, not margins: a finished game gets +-20 on top of its margin, the
learned value adds a win-chance lean (+-20) and a tempo term (up to +-60 at the end). Comparing
such values of two answers whose playouts end differently (one ends the game, the other does
not; one tips the lean) charged single moves tens of "VP" that no move can lose (issue #29: up
to -94). The analysis therefore lets the bots' own evaluator choose the moves of its playouts
(the policy) but measures where a playout stops with :func:`measure`:

- a finished game: the exact final margin (score minus the best other seat's; alone at the
  table: the score, whose goal is 0), and a win chance of 1, 1/2 or 0;
- otherwise: the game's margin evaluator (``evaluator_for(game, "margin")``, or the variant
  the settings name, as the game's plugin names them; for the zoo builder: the hand
  projection, the learned value's predicted margin, or their mean) and the
  win chance ``chance(m, sigma)`` with its residual spread ``sigma`` (``extra["sigma_of"](state,
  seat)`` where the spread depends on the position, e.g. a solo game's stage; else
  ``extra["sigma"]``; a game without one: :data:`SIGMA_UNITS` analysis units).

Every compared answer is measured at the same kind of point (the seat's next move start, the
end of its own chain, or the end of the game), from the same sampled worlds.
"""

from __future__ import annotations

import math

from .evaluation import evaluator_for

#: The variant of a game's evaluator that estimates the final margin (see the module doc).
MEASURE = "margin"
#: The measures the analysis' settings may name (a game without the variant: its own margin
#: evaluator, else its own evaluation).
MEASURES = (MEASURE, "margin_learned", "margin_mean")
#: A game without a fitted spread: sigma = this many analysis units (value units).
SIGMA_UNITS = 8.0


def chance(margin: float, sigma: float) -> float:
    """Logistic chance that a final margin expected at ``margin`` (spread ``sigma``) is > 0."""
    z = max(-40.0, min(40.0, 1.702 * margin / sigma))
    return 1.0 / (1.0 + math.exp(-z))


class Measure:
    """:func:`measure` bound to one game (its margin evaluator and spread)."""

    def __init__(self, game, unit: float, variant: str = MEASURE) -> None:
        self.game = game
        if variant not in MEASURES:
            raise ValueError(f"unknown analysis measure {variant!r} (one of {MEASURES})")
        self.ev = evaluator_for(game, variant)
        self.unit = unit

    def sigma(self, seats: int) -> float:
        extra = self.ev.extra
        if seats == 1 and "sigma_solo" in extra:
            return float(extra["sigma_solo"])
        return float(extra.get("sigma", SIGMA_UNITS * self.unit))

    def __call__(self, state, seat: int) -> tuple[float, float]:
        """``(expected final margin, win chance)`` of ``seat`` in ``state``."""
        res = self.game.result(state)
        if res is not None:
            scores = res["scores"]
            others = [v for s, v in scores.items() if s != seat]
            m = float(scores[seat] - max(others, default=0))
            if not others:  # solo: the goal is a score of 0 or more
                return m, 1.0 if m >= 0 else 0.0
            return m, 1.0 if m > 0 else 0.5 if m == 0 else 0.0
        m = float(self.ev.value(state, seat))
        spread = self.ev.extra.get("sigma_of")  # a spread that depends on the position
        sig = float(spread(state, seat)) if spread is not None else self.sigma(_seats(state))
        return m, chance(m, sig)


def _seats(state) -> int:
    """The number of seats of a state (``state["seats"]`` where the game keeps it, else 2)."""
    if isinstance(state, dict):
        n = state.get("seats")
        if isinstance(n, int):
            return n
        if isinstance(n, list):
            return len(n)
    return 2


def measure(game, state, seat: int, unit: float) -> tuple[float, float]:
    """``(expected final margin, win chance)`` of ``seat`` in ``state`` (see the module doc)."""
    return Measure(game, unit)(state, seat)
