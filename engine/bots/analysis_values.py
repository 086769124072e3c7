"""The analysis' comparison of a decision's answers (:func:`answer_values`).

Which answers are compared and how they are played out is the **policy**
(``settings.policy``); where a playout stops is measured by the **measure**
(``settings.measure``, :mod:`.analysis_measure`):

- ``policy``: ``"own"`` (the game's own, hand-weighted evaluation: greedy), ``"learned"`` (the
  learned value: the fast level) or ``"mix"`` (both: each ranks the legal answers and its best
  ones are compared, and the sampled worlds are played out alternately by one and the other,
  so no level's way of playing is the yardstick), or ``"plan"`` (the plan level's look at a
  move start: fast's best ``k`` answers and the chosen one, each followed in every sampled
  world by the plan level's line, the answer's chain, the seat's next turn at its best of
  ``k_next`` by the learned value, on to the start of the turn after; inside a chain as
  ``"learned"``; ``k`` and ``k_next`` are ``settings.plan_answers`` and
  ``settings.plan_next``). A game without a learned value plays its own in every case.
- ``measure``: the game's margin evaluator variant (``"margin"``: the hand projection of the
  final margin; ``"margin_learned"``: the learned value's predicted margin; ``"margin_mean"``:
  their mean); a game without one measures with its own evaluation.
"""

from __future__ import annotations

from ..core.state import canonical_json
from .analysis_measure import Measure
from .evaluation import evaluator_for, searching, step
from .greedy import GreedyBot, candidates, finish_chain, own_followup, ranked
from .mcts import MctsBot
from .plan import PlanBot

#: The evaluator variants of each policy (None: the game's own evaluation).
POLICIES: dict[str, tuple[str | None, ...]] = {"own": (None,), "learned": ("learned",),
                                                "mix": (None, "learned"), "plan": ("learned",)}


def policy_evaluators(game, policy: str) -> list:
    """The evaluators of ``policy`` (:data:`POLICIES`), the game's own first."""
    if policy not in POLICIES:
        raise ValueError(f"unknown analysis policy {policy!r} (one of {sorted(POLICIES)})")
    out: list = []
    for v in POLICIES[policy]:
        ev = evaluator_for(game, v)
        if all(ev is not e for e in out):  # a game without the variant: its own, once
            out.append(ev)
    return out


def find_answer(legal: list, action) -> int | None:
    """Index of ``action`` in ``legal``: equal, or equal as JSON (a stored log's tuples are
    lists, its dict keys strings)."""
    for i, a in enumerate(legal):
        if a == action:
            return i
    key = canonical_json(action)
    return next((i for i, a in enumerate(legal) if canonical_json(a) == key), None)


def answer_values(game, state, seat, chosen, settings, rng, *, unit: float) -> tuple[
        list, list, list, list, bool]:
    """``(legal, compared indexes, margins, win chances, chained)`` for ``seat``'s decision in
    ``state`` (``chosen``: an answer that must be among the compared ones, or None), from the
    seat's information only (every world from ``game.determinize``)."""
    evs = policy_evaluators(game, settings.policy)
    meas = Measure(game, unit, settings.measure)
    with searching(evs[0]), searching(meas.ev):  # no state is changed in place in here
        return _compare(game, evs, meas, state, seat, chosen, settings, rng)


def _chain_end(game, ev, world, seat, answer):
    g = GreedyBot()
    return finish_chain(game, ev, step(game, world, seat, answer), seat, g.depth, g.width)[0]


def _look(game, ev, world, seat, legal, must, wanted=None) -> dict:
    """Greedy's one-ply look (:func:`engine.bots.greedy.ranked`) keeping the states it reached:
    ``{index: (value, end of the chain)}`` of the answers greedy tries (the game's shortlist),
    best first (ties: ``legal`` order), plus ``must`` (or exactly ``wanted``)."""
    g = GreedyBot()
    if wanted is None:
        keep = {id(a) for a in candidates(ev, world, seat, legal, g.top_width)}
        wanted = [i for i, a in enumerate(legal) if id(a) in keep]
        if must is not None and must not in wanted:
            wanted.append(must)
    got = []
    for i in wanted:
        end, v = finish_chain(game, ev, step(game, world, seat, legal[i]), seat, g.depth, g.width)
        got.append((ev.value(end, seat) if v is None else v, i, end))
    got.sort(key=lambda t: (-t[0], t[1]))
    return {i: (v, end) for v, i, end in got}


def _compare(game, evs, meas, state, seat, chosen, settings, rng):
    g = GreedyBot()
    world = game.determinize(state, seat, rng)
    legal = game.legal_actions(world, seat)
    if not legal:
        raise ValueError(f"seat {seat} owes no decision here")
    must = None
    if chosen is not None:
        must = find_answer(legal, chosen)
        if must is None:
            raise ValueError("the chosen answer is not a legal answer of this decision")
    if len(legal) == 1:
        m, w = meas(world, seat)
        return legal, [0], [m], [w], False
    chained = own_followup(game, evs[0], world, seat)
    if chained:
        # each policy's one-ply look on chain_worlds worlds: each answer, the rest of the chain
        # answered greedily, the end of the chain measured (the ends greedy's look reached)
        looks = [_look(game, ev, world, seat, legal, must) for ev in evs]
        idx = list(dict.fromkeys(i for look in looks for i in look))
        sums = [[0.0, 0.0] for _ in idx]
        for w in range(settings.chain_worlds):
            if w:
                world = game.determinize(state, seat, rng)
                looks = [_look(game, ev, world, seat, legal, must, idx) for ev in evs]
            for ev, look in zip(evs, looks):
                for k, i in enumerate(idx):
                    end = look[i][1] if i in look else _chain_end(game, ev, world, seat, legal[i])
                    m, p = meas(end, seat)
                    sums[k][0] += m
                    sums[k][1] += p
        n = settings.chain_worlds * len(evs)
        return legal, idx, [a / n for a, _ in sums], [b / n for _, b in sums], True
    if settings.policy == "plan":
        return _plan_compare(game, evs[0], meas, state, seat, world, legal, must, settings, rng)
    orders = [ranked(game, ev, world, seat, legal, depth=g.depth, width=g.width,
                     top_width=g.top_width) for ev in evs]
    # each policy keeps its best answers (its share of ``candidates``, at least one), the ones
    # more than ``margin`` below its best are not worth playing out
    share = max(1, -(-settings.candidates // len(evs)))
    idx = []
    for order in orders:
        best_v = order[0][0]
        idx += [i for v, i in order[:share] if v >= best_v - settings.margin and i not in idx]
    if must is not None and must not in idx:
        idx.append(must)
    if len(idx) == 1:  # nothing to compare: the answer's own chain, measured (the chart)
        vals = [meas(_chain_end(game, ev, world, seat, legal[idx[0]]), seat) for ev in evs]
        return (legal, idx, [sum(m for m, _ in vals) / len(vals)],
                [sum(p for _, p in vals) / len(vals)], False)
    bot = MctsBot(budget=None, horizon=settings.horizon)
    sums = [[0.0, 0.0] for _ in idx]
    rounds = settings.playouts
    for r in range(rounds):
        # one sampled world per round, played out by one policy (in turn); every compared
        # answer is played out in it
        world = game.determinize(state, seat, rng)
        ev = evs[r % len(evs)]
        for k, i in enumerate(idx):
            m, p = meas(bot.playout_state(game, ev, world, seat, legal[i], rng), seat)
            sums[k][0] += m
            sums[k][1] += p
    return legal, idx, [a / rounds for a, _ in sums], [b / rounds for _, b in sums], False


def _plan_end(game, bot: PlanBot, ev, world, seat, answer):
    """Where the plan level's line after ``answer`` ends in ``world``: the answer and its chain,
    on to the seat's next turn, that turn's best of ``k_next`` answers (fast's order) by the
    plan level's look, on to the start of the turn after (or the game's end)."""
    return bot.line(game, ev, seat, bot.look(game, ev, world, seat, answer), bot.horizon)[1]


def _plan_compare(game, ev, meas, state, seat, world, legal, must, settings, rng):
    """A move start on the ``"plan"`` policy: fast's best ``k`` answers (the plan level's
    candidates) and the chosen one, each followed by :func:`_plan_end` in ``settings.playouts``
    sampled worlds (the first the one fast ranked on; every answer in every world), measured
    where the line ends."""
    bot = PlanBot(k=settings.plan_answers, k_next=settings.plan_next)
    order = ranked(game, ev, world, seat, legal, depth=bot.depth, width=bot.width,
                   top_width=bot.top_width)
    idx = [i for _, i in order[:bot.k]]
    if must is not None and must not in idx:
        idx.append(must)
    sums = [[0.0, 0.0] for _ in idx]
    for r in range(settings.playouts):
        if r:
            world = game.determinize(state, seat, rng)
        for k, i in enumerate(idx):
            m, p = meas(_plan_end(game, bot, ev, world, seat, legal[i]), seat)
            sums[k][0] += m
            sums[k][1] += p
    n = settings.playouts
    return legal, idx, [a / n for a, _ in sums], [b / n for _, b in sums], False


__all__ = ["POLICIES", "answer_values", "find_answer", "policy_evaluators"]
