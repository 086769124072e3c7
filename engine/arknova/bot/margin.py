"""The analysis' measure of a zoo-builder position: the expected **final margin** in VP.

The bots maximize a utility (``engine/arknova/bot/evaluate.py``: projected margin, +-20 once the
game is over; ``learned.py``: the learned margin plus +-20 and a tempo term scaled by the win
chance). Neither is a margin: a move that ends the game jumped by the +-20 (and the learned
tempo's +-60), and the win-chance terms swing by tens of points for a few VP near the end. The
analysis compared such values of different answers' playouts and charged single moves up to
-94 "VP". It measures its leaves with :func:`margin` instead (the plugin's ``margin`` evaluator
variant, :func:`engine.bots.evaluation.evaluator_for`; ``margin_learned`` and ``margin_mean``
are :func:`learned_margin` and :func:`mean_margin`):

- a finished game: the exact final margin (score minus the best other seat's; solo: the score),
  no bonus;
- otherwise: the hand-weighted projection (``evaluate.value``: projected final points minus
  the best other seat's, no bonus). The learned value's predicted margin
  (``learned.predicted_margin``, fitted to final margins, no bonus, no tempo) was tried here
  first: it is calibrated on whole games but too coarse to tell one move from another (the hand
  is worth 0 early, ...) and missed the planted blunder of ``tests/engine/test_analysis.py``.

:data:`SOURCE` switches a live position's margin to the learned one (for when the learned value
finds the planted blunders: on the learned margin they were charged 0.0 and 0.6 VP).

``extra["sigma"]`` is the learned value's residual spread of the final margin (VP), so
``chance(m, sigma)`` turns an expected margin ``m`` into a win chance.

A solo game's live measures are calibrated by turns left (:mod:`.calibration`): the offset
that makes each an expected final score is added, and ``extra["sigma_of"]`` gives the spread
at that stage (uncalibrated, the hand projection showed a 42 % chance of reaching 0 with 6 to 8
turns left where 0.5 % of the deals did).
"""

from __future__ import annotations

from functools import partial

from ...bots.evaluation import Evaluator
from . import calibration, learned
from .evaluate import EVALUATOR as HAND, clock, pending, zoo_value
from .zooparts import MONEY

#: Money one turn can turn into points at most (an animal, a few buildings): a zoo's money
#: beyond this many per turn left cannot be spent before the end (see :func:`unspendable`).
SPEND_PER_TURN = 30.0

#: Where a live position's margin comes from: ``"hand"`` (the hand-weighted projection) or
#: ``"learned"`` (the learned value's predicted margin; see the module doc).
SOURCE = "hand"


def final_margin(state: dict, seat: int) -> float:
    """Score minus the best other seat's (solo: the score) of a finished game."""
    from ..game import GAME

    res = GAME.result(state)
    if res is None:
        raise ValueError("the game is not over")
    scores = res["scores"]
    best = max((v for s, v in scores.items() if s != seat), default=0)
    return float(scores[seat] - best)


def unspendable(state: dict, seat: int, turns_left: float) -> float:
    """The seat's money beyond what its turns left can spend (:data:`SPEND_PER_TURN` each).

    Both values count money as points (the hand projection at ``0.03 + 0.2 min(1, turns/5)``
    a coin, never below 0.03; the learned one at 0.05-0.1), but the final score counts none.
    A zoo that hoards (greedy ends games with 1,000 coins and more) was projected 30-80 VP that
    no end pays: a compared answer whose playout ended the game (measured exactly) against one
    whose playout did not (projected) was charged the hoard (issue #29: 65.5 VP for one move of
    a random seat whose rival held 1,161 coins)."""
    return max(0.0, state["players"][seat]["money"] - SPEND_PER_TURN * turns_left)


def hand_margin(state: dict, seat: int) -> float:
    """The hand projection of the final margin, without the money no turn left can spend."""
    breaks_left, turns_left = clock(state)
    money_w = 0.03 + MONEY * min(1.0, turns_left / 5.0)  # evaluate._assemble's weight

    def zoo(s: int) -> float:
        return zoo_value(state, s, breaks_left, turns_left) - \
            money_w * unspendable(state, s, turns_left)

    others = [zoo(s) for s in range(state["seats"]) if s != seat]
    return zoo(seat) + pending(state, seat) - max(others, default=0.0)


def learned_projection(state: dict, seat: int) -> float:
    """The learned value's predicted margin, without the money no turn left can spend (the
    money features' weights times the coins beyond; the rival: the one with the most)."""
    m = learned.predicted_margin(state, seat)
    _, turns_left = clock(state)
    model = learned.load()["solo" if state["seats"] == 1 else "duel"]
    names = learned.SOLO if state["seats"] == 1 else learned.DUEL
    w = dict(zip(names, model["weights"]))
    per_coin = w["money"] + w["money*phase"] * min(1.0, turns_left / 8.0)
    mine = unspendable(state, seat, turns_left)
    others = [unspendable(state, s, turns_left) for s in range(state["seats"]) if s != seat]
    return m - per_coin * (mine - (max(others) if others else 0.0))


def solo_calibrated(state: dict, m: float, measure: str) -> float:
    """``m`` plus the solo calibration's offset at the state's turns left (a duel: ``m``)."""
    if state["seats"] != 1:
        return m
    return m + calibration.offset(measure, clock(state)[1])


def margin(state: dict, seat: int) -> float:
    """The expected final margin of ``seat`` in VP (see the module doc)."""
    if state["over"]:
        return final_margin(state, seat)
    if SOURCE == "learned":
        return solo_calibrated(state, learned_projection(state, seat), "learned")
    return solo_calibrated(state, hand_margin(state, seat), "hand")


def sigma(seats: int) -> float:
    """The residual spread of the predicted margin (VP) for a table of ``seats``."""
    return float(learned.load()["solo" if seats == 1 else "duel"]["sigma"])


def learned_margin(state: dict, seat: int) -> float:
    """The learned value's expected final margin (a finished game: the exact one)."""
    if state["over"]:
        return final_margin(state, seat)
    return solo_calibrated(state, learned_projection(state, seat), "learned")


def mean_margin(state: dict, seat: int) -> float:
    """The mean of the hand projection and the learned value's expected final margin (a
    finished game: the exact one): the yardstick of neither level alone."""
    if state["over"]:
        return final_margin(state, seat)
    m = 0.5 * (hand_margin(state, seat) + learned_projection(state, seat))
    return solo_calibrated(state, m, "mean")


def spread_of(measure: str | None, state: dict, seat: int) -> float:
    """The spread of the final margin around ``measure``'s expected one (VP; None: the one
    :data:`SOURCE` names): a solo game's by its turns left (:mod:`.calibration`), a duel's the
    learned value's residual spread."""
    if state["seats"] != 1:
        return sigma(state["seats"])
    if measure is None:
        measure = "learned" if SOURCE == "learned" else "hand"
    return calibration.sigma(measure, clock(state)[1])


def _evaluator(fn, measure: str | None) -> Evaluator:
    return Evaluator(
        value=fn, own_followup=HAND.own_followup, shortlist=HAND.shortlist, clone=HAND.clone,
        session=HAND.session, extra={**HAND.extra, "sigma": sigma(2), "sigma_solo": sigma(1),
                                     "sigma_of": partial(spread_of, measure), "margin": True})


#: the plugin's ``margin``, ``margin_learned`` and ``margin_mean`` variants (``__init__.py``)
EVALUATOR = _evaluator(margin, None)
LEARNED = _evaluator(learned_margin, "learned")
MEAN = _evaluator(mean_margin, "mean")
