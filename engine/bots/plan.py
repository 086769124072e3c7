"""The plan level: the fast level's one-ply look, with a look one or two own turns ahead.

The fast level (:class:`~engine.bots.greedy.FastBot`) scores each answer by the learned value
of the position its chain ends in (the seat's own follow-ups answered greedily), so it does not
see that building an enclosure now lets it play an animal next turn. At a decision the plan
level

1. ranks the legal answers as fast does (one sampled world, :func:`~.greedy.ranked`) and keeps
   the best ``k`` of them (at most ``margin`` below the best, when a margin is set);
2. for each of ``samples`` sampled worlds (``sample(rng)``: a determinization from the seat's
   view, the first being the world fast ranked on) and each kept answer, plays the answer and
   the seat's own chain as fast would (:func:`~.greedy.finish_chain`), then on to the start of
   the seat's next turn (other seats, and the seat's own decisions between turns such as a
   break's, answered by a greedy one-ply look on the same value), and scores it by fast's best
   next turn there: the best value :func:`~.greedy.ranked` finds (a finished game: its value);
3. answers the kept answer with the best mean over the worlds (ties: fast's order). A line's
   value adds the evaluator's term of each of its own answers (``Evaluator.answer``, as
   fast's ranking adds it for one: the kept answer's and each later turn's; ``terms`` 0: the
   positions alone).

With ``horizon`` 2 (the default; 1 is the two-turn look above) the next turn is not scored by
fast's best answer alone: its best ``k_next`` (3) answers are each played on to the turn after
it, and the best of them counts (a three-turn look).

The further look is bounded by a ``budget`` of value calls (:data:`BUDGET`; None: no bound):
it goes in rounds, round ``j`` looking further at the ``j``-th best next answer of every kept
answer in every world, and a round starts only while the budget has room for one like the
round before it; a look's value is the best of its rounds (no round: fast's best next turn,
as ``horizon`` 1). Every candidate is looked at alike, and counting calls instead of seconds
keeps the decisions the same whatever the machine's load.

Every world is shared by all kept answers (common random numbers). With ``followups`` 0 it
plans only at the start of a turn and answers the decisions inside its own chain (and between
turns) as fast does; with 1 it plans at those too; ``None`` (the default) is 1 in a game of one
seat and 0 with rivals. Alone it pays: fast's answer inside a turn (play the animal or keep it,
which card to keep) is where the one-ply value hoards, and the look two turns on sees what
keeping costs (solo +7 points a game at about 200 ms of CPU a decision, docs/bots.md, "The
plan level inside its turn"); in a duel it won 26 of 45 games against planning at turn starts
only (not confirmed) at about 4 times the CPU, its slowest decision over 1 s even on a quiet core
(docs/bots.md, "Quiet timing"), so the duel plans at turn starts only.
Alone it answers the first ``solo_opening`` (9) turns as fast does: there the look two turns
on chose worse than fast's one-ply look (docs/bots.md, "The plan level's opening").
Everything random comes from ``rng``, so the level is reproducible per seed; ``k`` 1 plays
exactly as fast. ``last_stats`` keeps the candidates and their means of the last decision.
"""

from __future__ import annotations

from dataclasses import replace

from .base import forced_or_world
from .evaluation import Evaluator, evaluator_for, searching, step
from .greedy import FastBot, candidates, finish_chain, own_followup, ranked

#: Value calls a decision's further look may spend (see :meth:`PlanBot.further`), set so that
#: the slowest turn starts stay near 1 s of one core on the reference machine (docs/bots.md).
BUDGET = 4_000
#: Alone at the table, the turns before this one are answered as fast answers them: on 100
#: fresh solo deals (2026-12-07, docs/bots.md "The plan level's opening") this scored +1.6
#: (se 1.6) over planning from the first turn, at 11 % less CPU.
SOLO_OPENING = 9


class Counted:
    """An evaluator that counts its value calls (the plan level's budget is in calls, not
    seconds, so that its decisions stay the same whatever the machine's load)."""

    def __init__(self, ev: Evaluator) -> None:
        self.calls = 0
        self.evaluator = replace(ev, value=self.value)
        self._value = ev.value

    def value(self, state, seat) -> float:
        self.calls += 1
        return self._value(state, seat)


class PlanBot(FastBot):
    """Fast's one-ply look, with the top ``k`` answers compared ``horizon`` own turns further."""

    kind = "plan"
    strength = 3  # above fast in solo, docs/bots.md ("The plan level")
    heavy = True  # 0.2-0.5 s of CPU a planned decision (median), about 1 s at the slowest

    def __init__(self, k: int = 4, samples: int = 2, followups: int | None = None,
                 margin: float | None = None, horizon: int = 2, k_next: int = 3,
                 depth: int = 8, width: int = 6,
                 top_width: int = 24, reply_depth: int = 6, reply_width: int = 4,
                 reply_top: int = 12, max_steps: int = 200, budget: int | None = BUDGET,
                 terms: int = 1, evaluation: str | None = "learned",
                 solo_opening: int | None = SOLO_OPENING) -> None:
        super().__init__(depth, width, top_width, evaluation)
        self.k = k                      #: answers compared two turns deep (1: fast itself)
        self.samples = samples          #: sampled worlds each answer is played out in
        self.followups = followups      #: 1: plan inside the own chain too; 0: turn starts
        #: only; None: 1 alone (a solo game), 0 with rivals (:meth:`plans_followups`)
        self.margin = margin            #: drop answers this far below fast's best (None: keep)
        self.horizon = horizon          #: own turns looked at after this one
        self.k_next = k_next            #: answers looked further at each later turn (horizon > 1)
        self.reply_depth = reply_depth  #: the other seats' greedy replies: chain steps,
        self.reply_width = reply_width  #: answers per follow-up,
        self.reply_top = reply_top      #: answers per decision
        self.max_steps = max_steps      #: most decisions played to reach the next own turn
        self.budget = budget            #: value calls a decision may spend (None: no bound)
        self.terms = terms              #: 1: a line counts its own answers' terms (0: not)
        #: alone at the table, the turns before this one are answered as fast answers them
        #: (the evaluator's ``turn``; None: every turn planned; :data:`SOLO_OPENING`)
        self.solo_opening = solo_opening
        self.last_stats: dict | None = None

    def choose(self, game, view, legal, rng, sample=None):
        answer, world = forced_or_world(game, view, legal, rng, sample)
        if world is None:
            return answer
        ev = evaluator_for(game, self.evaluation)
        with searching(ev):  # no state is changed in place while it looks
            return self._plan(game, ev, world, sample.seat, legal, rng, sample)

    def _plan(self, game, ev: Evaluator, world, seat, legal, rng, sample):
        order = ranked(game, ev, world, seat, legal, depth=self.depth, width=self.width,
                       top_width=self.top_width)
        self.last_stats = None
        if self.k <= 1 or self.in_opening(game, ev, world) or (
                not self.plans_followups(game, world) and own_followup(game, ev, world, seat)):
            return legal[order[0][1]]
        best_v = order[0][0]
        cands = [i for v, i in order[:self.k]
                 if self.margin is None or v >= best_v - self.margin]
        if len(cands) == 1:
            return legal[cands[0]]
        worlds = [world] + [sample(rng) for _ in range(1, max(1, self.samples))]
        counted = Counted(ev)
        looks = [[self.look(game, counted.evaluator, w, seat, legal[i]) for i in cands]
                 for w in worlds]
        values, rounds = self.further(game, counted, seat, looks)
        terms = [self.term(ev, world, seat, legal[i], one[4])  # the seat's view alike
                 for i, one in zip(cands, looks[0])]
        totals = [sum(v[j] + terms[j] for v in values) for j in range(len(cands))]
        pick = max(range(len(cands)), key=lambda j: (totals[j], -j))
        self.last_stats = {"candidates": [legal[i] for i in cands],
                           "one_ply": [v for v, _ in order[:len(cands)]],
                           "means": [t / max(1, self.samples) for t in totals],
                           "rounds": rounds, "calls": counted.calls,
                           # where each candidate's chain ends in the first world (the one
                           # fast ranked on) and its answer term: a teacher's per-answer rows
                           "ends": [one[4] for one in looks[0]], "terms": terms}
        return legal[cands[pick]]

    def in_opening(self, game, ev: Evaluator, state) -> bool:
        """Whether ``state`` is in a solo game's first :attr:`solo_opening` turns (answered as
        fast answers them)."""
        return (self.solo_opening is not None and ev.turn is not None
                and game.seat_count(state) == 1 and ev.turn(state) < self.solo_opening)

    def plans_followups(self, game, state) -> bool:
        """Whether it plans inside its own chain too (:attr:`followups`; None: alone)."""
        if self.followups is None:
            return game.seat_count(state) == 1
        return bool(self.followups)

    def further(self, game, counted: Counted, seat, looks: list) -> tuple[list, int]:
        """The value of each :meth:`look` (per world, per candidate) :attr:`horizon` turns deep,
        and how many of the next turn's answers it took (``rounds``). Round ``j`` looks
        further at every look's ``j``-th best next answer (by fast's ranking), so after any
        round every candidate has been looked at alike; a look's value is the best of its
        rounds (none: fast's best next turn). A round starts only while the :attr:`budget` of
        value calls has room for another like the one before it (the first like the looks
        themselves), so the slowest turn starts stay near the budget's time."""
        ev = counted.evaluator
        values = [[one[0] for one in w_looks] for w_looks in looks]
        if self.horizon <= 1:
            return values, 0
        deep: list[list] = [[None] * len(w_looks) for w_looks in looks]
        last, rounds = counted.calls, 0
        for j in range(max(1, self.k_next)):
            spent = counted.calls
            if self.budget is not None and spent + last > self.budget:
                break
            for w, w_looks in enumerate(looks):
                for c, (_, state, legal, order, _end) in enumerate(w_looks):
                    if j < len(order):
                        a = legal[order[j][1]]
                        one = self.look(game, ev, state, seat, a)
                        v = (self.deepen(game, ev, seat, one, self.horizon - 1)
                             + self.term(ev, state, seat, a, one[4]))
                        deep[w][c] = v if deep[w][c] is None else max(deep[w][c], v)
            last, rounds = counted.calls - spent, j + 1
        return [[v if d is None else d for v, d in zip(vs, ds)]
                for vs, ds in zip(values, deep)], rounds

    # ------------------------------------------------------------------ one look
    def look(self, game, ev: Evaluator, world, seat, action) -> tuple:
        """``action`` played in ``world`` with its chain as fast plays it, on to the seat's
        next turn: ``(value, state, legal, order, end)``, ``value`` being fast's best next turn
        there (a finished game, or a turn with one answer: the value at its end; then
        ``legal`` and ``order`` are empty), ``order`` the next turn's answers ranked as fast,
        ``end`` where the action's chain ended (for its :meth:`term`)."""
        state = step(game, world, seat, action)
        end = state = finish_chain(game, ev, state, seat, self.depth, self.width)[0]
        state = self.next_turn(game, ev, state, seat)
        legal = game.legal_actions(state, seat) if seat in game.waiting_for(state) else []
        if len(legal) < 2:
            if legal:  # one answer: its chain decides the value
                state = finish_chain(game, ev, step(game, state, seat, legal[0]), seat,
                                     self.depth, self.width)[0]
            return ev.value(state, seat), state, [], [], end
        order = ranked(game, ev, state, seat, legal, depth=self.depth, width=self.width,
                       top_width=self.top_width)
        return order[0][0], state, legal, order, end

    def deepen(self, game, ev: Evaluator, seat, one: tuple, ahead: int) -> float:
        """The value of a :meth:`look` ``ahead`` own turns deep: with ``ahead`` above 1 the
        next turn's best ``k_next`` answers by fast's ranking are each looked at the same way,
        ``ahead - 1`` turns further, and the best of them counts."""
        return self.line(game, ev, seat, one, ahead)[0]

    def line(self, game, ev: Evaluator, seat, one: tuple, ahead: int) -> tuple:
        """``(value, end)``: :meth:`deepen`'s value and the state where its best line ends
        (the first best on ties; the post-game analysis measures there)."""
        value, state, legal, order, _ = one
        if ahead <= 1 or not order:
            return value, state
        best: tuple | None = None
        for _, i in order[:max(1, self.k_next)]:
            nxt = self.look(game, ev, state, seat, legal[i])
            v, end = self.line(game, ev, seat, nxt, ahead - 1)
            v += self.term(ev, state, seat, legal[i], nxt[4])
            if best is None or v > best[0]:
                best = (v, end)
        assert best is not None
        return best

    def term(self, ev: Evaluator, state, seat, action, end=None) -> float:
        """The evaluator's term of an own answer (:attr:`Evaluator.answer`; ``end``: where its
        chain ended), which a line adds for each of its answers as fast's ranking adds it for
        one (with :attr:`terms`)."""
        if not self.terms or ev.answer is None:
            return 0.0
        return ev.answer(state, seat, action, end)

    def two_turns(self, game, ev: Evaluator, world, seat, action, ahead: int | None = None) -> float:
        """The value of ``action`` in ``world`` for ``seat``: its chain as fast plays it, then
        fast's best next own turn (the game's end: the value there), plus the action's term
        (:meth:`term`). With ``ahead`` (default
        :attr:`horizon`) above 1, the next turn's best ``k_next`` answers by fast's ranking are
        looked at the same way, ``ahead - 1`` turns further, and the best of them counts."""
        ahead = self.horizon if ahead is None else ahead
        one = self.look(game, ev, world, seat, action)
        return self.deepen(game, ev, seat, one, ahead) + self.term(ev, world, seat, action, one[4])

    def next_turn(self, game, ev: Evaluator, state, seat):
        """``state`` played on to the start of ``seat``'s next turn (or the game's end, or
        :attr:`max_steps` decisions): every decision on the way, the seat's own between turns
        too, answered by a greedy one-ply look on ``ev`` (the other seats on their value)."""
        for _ in range(self.max_steps):
            waiting = sorted(game.waiting_for(state))
            if not waiting:
                break
            who = waiting[0]
            if who == seat and not own_followup(game, ev, state, seat):
                break
            legal = game.legal_actions(state, who)
            if len(legal) == 1:
                state = step(game, state, who, legal[0])
            elif who == seat:
                state = self._greedy(game, ev, state, who, legal, self.top_width, self.depth,
                                     self.width)
            else:
                state = self._greedy(game, ev, state, who, legal, self.reply_top,
                                     self.reply_depth, self.reply_width)
        return state

    @staticmethod
    def _greedy(game, ev: Evaluator, state, who, legal, top: int, depth: int, width: int):
        """The state after ``who``'s best answer (its own chain followed greedily)."""
        best, best_v = None, None
        for a in candidates(ev, state, who, legal, top):
            nxt, v = finish_chain(game, ev, step(game, state, who, a), who, depth, width)
            if v is None:
                v = ev.value(nxt, who)
            if best_v is None or v > best_v:
                best, best_v = nxt, v
        return best


__all__ = ["PlanBot"]
