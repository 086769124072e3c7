"""The greedy bot: try every answer on a sampled world, keep the one that evaluates best.

For each legal answer the bot applies it to one determinization of the state (``sample(rng)``)
and follows the seat's own follow-up decisions greedily (each follow-up answered by the best
one-step evaluation, long lists shortlisted by the game's evaluator), at most ``depth`` steps,
then scores the state with the game's :class:`~engine.bots.evaluation.Evaluator`. Ties keep the
first answer in ``legal`` order, so the choice is reproducible for the same ``rng``.
"""

from __future__ import annotations

from .base import Bot, forced_or_world
from .evaluation import Evaluator, evaluator_for, searching, step


def own_followup(game, ev: Evaluator, state, seat) -> bool:
    if ev.own_followup is not None:
        return ev.own_followup(state, seat)
    return game.waiting_for(state) == {seat}


def candidates(ev: Evaluator, state, seat, legal: list, width: int) -> list:
    if ev.shortlist is not None:
        return ev.shortlist(state, seat, legal, width)
    return legal if len(legal) <= width else legal[:width]


def finish_chain(game, ev: Evaluator, state, seat, depth: int, width: int):
    """Answer ``seat``'s own follow-up decisions greedily (one-step look), at most ``depth``;
    returns the state it ends in and its value when already known (the last step was a
    choice whose value was computed), else None. ``state`` is never changed. The evaluator
    may follow more (:attr:`Evaluator.chain_depth`)."""
    known = None
    if ev.chain_depth is not None:
        depth = ev.chain_depth(state, seat, depth)
    for _ in range(depth):
        if not own_followup(game, ev, state, seat):
            break
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        if len(legal) == 1:
            state = step(game, state, seat, legal[0])
            known = None
            continue
        best, best_v = None, None
        for a in candidates(ev, state, seat, legal, width):
            nxt = step(game, state, seat, a)
            v = ev.value(nxt, seat)
            if best_v is None or v > best_v:
                best, best_v = nxt, v
        state, known = best, best_v
    return state, known


def score_answers(game, ev: Evaluator, state, seat, legal: list, *, depth: int,
                  width: int) -> list[float]:
    """The value of each answer after the seat's greedy follow-ups (same order as ``legal``),
    plus the evaluator's term of the answer itself (:attr:`Evaluator.answer`), if any."""
    out = []
    term = ev.answer
    for a in legal:
        nxt, v = finish_chain(game, ev, step(game, state, seat, a), seat, depth, width)
        v = ev.value(nxt, seat) if v is None else v
        out.append(v if term is None else v + term(state, seat, a, nxt))
    return out


class GreedyBot(Bot):
    """One-ply greedy play with a bounded look through the seat's own chained decisions."""

    kind = "greedy"
    strength = 1  # below fast: the ladder (docs/bots.md) has fast winning 0.69 of 40 games

    def __init__(self, depth: int = 8, width: int = 8, top_width: int = 40,
                 evaluation: str | None = None) -> None:
        self.depth = depth            #: follow-up decisions simulated after each answer
        self.width = width            #: answers tried per follow-up decision
        self.top_width = top_width    #: answers tried for the decision itself
        self.evaluation = evaluation  #: the game's evaluator variant (None: its own)

    def choose(self, game, view, legal, rng, sample=None):
        answer, state = forced_or_world(game, view, legal, rng, sample)
        if state is None:
            return answer
        seat = sample.seat
        ev = evaluator_for(game, self.evaluation)
        order = ranked(game, ev, state, seat, legal, depth=self.depth, width=self.width,
                       top_width=self.top_width)
        return legal[order[0][1]]


class FastBot(GreedyBot):
    """The fast level: greedy's one-ply look on the learned value (``evaluation="learned"``;
    a game without a learned value uses its own evaluator)."""

    kind = "fast"
    strength = 2

    def __init__(self, depth: int = 8, width: int = 6, top_width: int = 24,
                 evaluation: str | None = "learned") -> None:
        super().__init__(depth, width, top_width, evaluation)


def ranked(game, ev: Evaluator, state, seat, legal: list, *, depth: int = 8, width: int = 8,
           top_width: int = 40) -> list[tuple[float, int]]:
    """``(value, index in legal)`` of the answers greedy tries (the game's shortlist of at most
    ``top_width``), best first; ties keep ``legal`` order."""
    keep = {id(a) for a in candidates(ev, state, seat, legal, top_width)}
    tried_idx = [i for i, a in enumerate(legal) if id(a) in keep]
    with searching(ev):
        values = score_answers(game, ev, state, seat, [legal[i] for i in tried_idx],
                               depth=depth, width=width)
    return sorted(zip(values, tried_idx), key=lambda t: (-t[0], t[1]))


__all__ = ["FastBot", "GreedyBot", "candidates", "finish_chain", "own_followup", "ranked", "score_answers"]
