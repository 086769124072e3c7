"""The search bot: determinized Monte-Carlo search with greedy rollouts.

At a decision that starts a move (a decision inside the seat's own chained move is answered by
the greedy policy, which the search already assumed for it), the bot

1. ranks the legal answers with the greedy evaluation on one sampled world and keeps the best
   ``candidates`` of them (answers more than ``margin`` below the best are dropped);
2. plays rounds of playouts until ``playouts`` are done or the time ``budget`` would be passed.
   A round samples one world (``sample(rng)``: a determinization, with other hands, the deck and
   the generator resampled) and plays every live candidate out in that same world, so that
   candidates are compared on equal luck (common random numbers). A playout plays the candidate
   and the seat's own follow-ups greedily, then every seat plays on with a fast greedy policy
   until the seat has started ``horizon`` more moves (or the game ends), and the position is
   scored with the game's evaluation. After ``rounds_first`` rounds, each round drops the
   candidate with the worst mean (successive rejection), so the time goes to the close calls;
3. answers the live candidate with the best mean over the rounds all of them completed
   (ties: greedy order). Without any completed comparison it answers greedy's choice.

Options measured in docs/bots.md ("Search experiments"), all off by default: ``widen`` adds the
next answer of greedy's order every ``widen`` rounds (progressive widening; the successive
rejection then keeps the best incumbents against each newcomer, and a decision with a single
answer within ``margin`` is searched too); ``solo_horizon`` is the horizon alone at the table;
``own_top`` plays the seat's own moves inside a playout with a wider greedy look (over that many
answers) than the other seats' rollout moves.

This is flat Monte-Carlo search over determinizations (a depth-one tree per sampled world),
the usual remedy for hidden information ("determinized MCTS"). Everything random comes from
``rng``; the clock (``time.perf_counter``) only bounds the search, so with ``budget=None`` the
bot is reproducible bit for bit, and with a budget as long as the same number of playouts fit.
``last_stats`` keeps the playouts, visits and means of the last search.
"""

from __future__ import annotations

import math
import time

from .base import Bot, RandomBot
from .evaluation import evaluator_for, searching, step
from .greedy import GreedyBot, candidates as _shortlist, finish_chain, own_followup, ranked


class MctsBot(Bot):
    kind = "mcts"
    strength = 4
    heavy = True  # up to its budget (1 s) at every move start

    #: The defaults are the setting measured against greedy: 66.5 % of 200 games at <= 1 s
    #: per decision (docs/benchmarks.md, "Search bot against greedy").
    def __init__(self, budget: float | None = 1.0, playouts: int = 24, candidates: int = 3,
                 horizon: int = 1, margin: float = 6.0, rounds_first: int = 2,
                 rollout_depth: int = 6, rollout_width: int = 4, rollout_top: int = 12,
                 max_rollout_steps: int = 200, evaluation: str | None = None,
                 widen: int = 0, solo_horizon: int = -1, own_top: int = 0) -> None:
        self.widen = widen                    #: add the next answer every this many rounds (0: never)
        self.solo_horizon = solo_horizon      #: the horizon alone at the table (-1: ``horizon``)
        #: the seat's own moves in a playout: greedy over this many answers (0: the rollout's)
        self.own = GreedyBot(depth=8, width=6, top_width=own_top) if own_top else None
        self.budget = budget                  #: seconds per decision (None: playouts only)
        self.playouts = playouts              #: most playouts per decision
        self.candidates = candidates          #: answers searched (best by greedy value)
        self.horizon = horizon                #: own turns simulated after this one
        self.margin = margin                  #: drop answers this far below greedy's best
        self.rounds_first = rounds_first      #: rounds before the worst candidate is dropped
        self.greedy = GreedyBot()
        self.rollout = GreedyBot(depth=rollout_depth, width=rollout_width, top_width=rollout_top)
        self.max_rollout_steps = max_rollout_steps
        self.last_stats: dict | None = None   #: playouts and values of the last search
        self.evaluation = evaluation          #: the game's evaluator variant (None: its own)

    # ------------------------------------------------------------------ the decision
    def choose(self, game, view, legal, rng, sample=None):
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if sample is None:
            return RandomBot().choose(game, view, legal, rng)
        start = time.perf_counter()
        seat = sample.seat
        ev = evaluator_for(game, self.evaluation)
        with searching(ev):  # no state is changed in place while it searches
            return self._search(game, view, legal, rng, sample, seat, ev, start)

    def _search(self, game, view, legal, rng, sample, seat, ev, start):
        try:
            world = sample(rng)
        except NotImplementedError:  # the game cannot sample possible worlds
            return RandomBot().choose(game, view, legal, rng)
        order = ranked(game, ev, world, seat, legal, depth=self.greedy.depth,
                       width=self.greedy.width, top_width=self.greedy.top_width)
        if own_followup(game, ev, world, seat):
            self.last_stats = None
            return legal[order[0][1]]
        best_v = order[0][0]
        cands = [i for v, i in order[:self.candidates] if v >= best_v - self.margin]
        spare = [i for v, i in order if i not in cands]  # progressive widening, best first
        if len(cands) == 1 and not (self.widen and spare):
            self.last_stats = None
            return legal[cands[0]]
        horizon = self.horizon
        if self.solo_horizon >= 0 and len(world["players"]) == 1:
            horizon = self.solo_horizon
        vals: list[dict[int, float]] = [{} for _ in cands]  # round -> value, per candidate
        alive = list(range(len(cands)))
        done = 0
        spent = 0.0
        out_of_time = False
        r = 0
        while done < self.playouts and not out_of_time:
            if self.widen and r and r % self.widen == 0 and spare:
                cands.append(spare.pop(0))
                vals.append({})
                alive.append(len(cands) - 1)
            # one round: every live candidate is played out in the same sampled world, so
            # candidates are compared on equal luck (common random numbers)
            world = sample(rng)
            for k in alive:
                if done >= self.playouts or self._over_budget(start, done, spent):
                    out_of_time = True
                    break
                t0 = time.perf_counter()
                vals[k][r] = self.playout(game, ev, world, seat, legal[cands[k]], rng, horizon)
                spent += time.perf_counter() - t0
                done += 1
            r += 1
            ripe = [j for j in alive if len(vals[j]) >= self.rounds_first]
            if not out_of_time and len(alive) > 2 and len(ripe) > 1:
                # successive rejection: drop the (ripe) candidate with the worst mean so far
                worst = min(ripe, key=lambda j: (_mean(vals[j].values()), -j))
                alive.remove(worst)
        if self.widen:  # a newcomer is compared once it has played rounds_first rounds
            most = max(len(vals[j]) for j in alive)
            compared = [j for j in alive
                        if vals[j] and len(vals[j]) >= min(self.rounds_first, most)]
        else:  # the rule before widening: every candidate still in with a visit
            compared = [j for j in alive if vals[j]]
        common = sorted(set.intersection(*(set(vals[j]) for j in compared))) if compared else []
        means = [_mean(vals[j][t] for t in common) if j in compared and common else -math.inf
                 for j in range(len(cands))]
        if len(compared) < 2 or not common:  # out of time before any comparison: greedy's
            pick = compared[0] if compared else 0
        else:
            pick = max(compared, key=lambda j: (means[j], -j))
        self.last_stats = {"playouts": done, "candidates": [legal[i] for i in cands],
                           "visits": [len(v) for v in vals], "means": means,
                           "seconds": time.perf_counter() - start}
        return legal[cands[pick]]

    def _over_budget(self, start: float, done: int, spent: float) -> bool:
        """True when another playout (of the mean length so far) would pass the budget."""
        if self.budget is None:
            return False
        mean = spent / done if done else 0.0
        return time.perf_counter() - start + mean > self.budget

    # ------------------------------------------------------------------ one playout
    def playout(self, game, ev, world, seat, action, rng, horizon: int | None = None) -> float:
        """The value (``ev``) of :meth:`playout_state`'s end for ``seat``."""
        return ev.value(self.playout_state(game, ev, world, seat, action, rng, horizon), seat)

    def playout_state(self, game, ev, world, seat, action, rng, horizon: int | None = None):
        """Where a playout of ``action`` in ``world`` stops: the seat's own follow-ups and then
        every seat answered greedily (on ``ev``) until the seat has started ``horizon`` more
        moves, or the game ends."""
        # every step copies only what it touches (copy-on-access); applying forced answers in
        # place on a private copy of the world was measured and gained nothing: they are
        # about 1 % of a playout's steps, the rest are candidates tried from a state that is
        # still being searched (docs/benchmarks.md, 2026-12-02)
        state = step(game, world, seat, action)
        g = self.greedy
        state = finish_chain(game, ev, state, seat, g.depth, g.width)[0]
        horizon = self.horizon if horizon is None else horizon
        moves = 0
        steps = 0
        while steps < self.max_rollout_steps:
            waiting = sorted(game.waiting_for(state))
            if not waiting:
                break
            who = waiting[0]
            if who == seat and not own_followup(game, ev, state, seat):
                if moves >= horizon:
                    break
                moves += 1
            legal = game.legal_actions(state, who)
            if len(legal) == 1:
                state = step(game, state, who, legal[0])
            else:
                own = self.own if who == seat and self.own is not None else self.rollout
                state = self._rollout_move(game, ev, state, who, legal, own)
            steps += 1
        return state

    def _rollout_move(self, game, ev, state, who, legal, r):
        tried = _shortlist(ev, state, who, legal, r.top_width)
        best, best_v = None, None
        for a in tried:
            # each candidate from the same state: its chain may not change that state
            nxt, v = finish_chain(game, ev, step(game, state, who, a), who, r.depth, r.width)
            if v is None:
                v = ev.value(nxt, who)
            if best_v is None or v > best_v:
                best, best_v = nxt, v
        return best


def _mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs)


class SearchBot(MctsBot):
    """The search level: :class:`MctsBot` on the learned value (leaves and rollouts), one
    second per decision by default, with mcts's rollouts and 24 playouts. Cheaper rollouts with
    40 playouts (other seats over 8 answers, follow-ups over 3) did no better on the paired
    confirmation (15 of 23 games against fast each, docs/bots.md "Search experiments")."""

    kind = "search"
    strength = 3

    def __init__(self, budget: float | None = 1.0, playouts: int = 24, candidates: int = 3,
                 horizon: int = 1, margin: float = 6.0, rounds_first: int = 2,
                 rollout_depth: int = 6, rollout_width: int = 4, rollout_top: int = 12,
                 max_rollout_steps: int = 200, evaluation: str | None = "learned",
                 widen: int = 0, solo_horizon: int = -1, own_top: int = 0) -> None:
        super().__init__(budget, playouts, candidates, horizon, margin, rounds_first,
                         rollout_depth, rollout_width, rollout_top, max_rollout_steps,
                         evaluation, widen, solo_horizon, own_top)
