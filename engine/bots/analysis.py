"""Post-game analysis: the search bot's value of each decision a seat took.

For every analysed decision (:func:`points`: each action of the log whose seat had more than
one legal answer) :func:`analyse_point` compares the answer the seat chose with the best ones
the bot finds, **from that seat's information only**: every position it looks at is a possible
world drawn with ``game.determinize(state, seat, rng)`` (other hands, the deck order, secret
answers and the generator resampled); the real hidden parts are never read.

Two kinds of decision:

- **the start of a move** (the seat is not inside its own chained move): on the default
  policy (``settings.policy`` ``"plan"``) the fast level's best ``plan_answers`` answers and the
  chosen one are each followed, in the same ``playouts`` sampled worlds (common random
  numbers), by the plan level's line: the answer's chain, on to the seat's next turn, that
  turn's best of ``plan_next`` answers, on to the turn after (:mod:`.analysis_values`). On the
  other policies (``"mix"``: greedy on the hand-weighted value and the fast level on the
  learned one; ``"own"``, ``"learned"``) each level ranks the legal answers and keeps its best
  (its share of ``candidates``; answers more than ``margin`` below its best are dropped), and
  every compared answer is played out (:meth:`engine.bots.mcts.MctsBot.playout_state`: the
  answer, the seat's own follow-ups, then every seat plays on until the seat has started
  ``horizon`` more moves). An answer's value is its mean over the worlds. A long game's move
  starts get fewer playouts (``settings.budget``, :func:`for_game`);
- **a decision inside the seat's own chained move** (a follow-up: which task, which card, where
  to place): analysed cheaply, by each policy level's one-ply look on ``chain_worlds`` sampled
  worlds (each answer applied, the rest of the chain answered by that level, the end measured),
  the chosen answer always among the scored ones.

Where a line stops is measured by ``settings.measure`` (:mod:`.analysis_measure`; default
``"margin_learned"``: the learned value's predicted final margin, without money no turn left
can spend; a finished game: its exact margin), in VP of expected final margin from the
deciding seat's point of view, and as a win chance. ``loss = max(0, value_best -
value_chosen)``, ``win_loss`` the same in win chance.

**Accuracy** per seat (``settings.accuracy`` ``"win"``, the default since 2026-12-06):
``100 * exp(-mean win_loss / WIN_UNIT)`` over the seat's analysed decisions (``WIN_UNIT`` =
0.02: two points of win chance given away per decision on average is 37, one point 61); with
``"margin"``, and in a game of one seat (its score is the result, and its chance of reaching
the bar of 0 sits near 0 or 1 for most of a game): ``100 * exp(-mean_loss / unit)``, ``unit``
being the game's analysis unit
(:func:`unit_of`: the evaluator's ``extra["analysis_unit"]``, else ``ACCURACY_SCALE`` = 2
value units, the zoo builder's 2 VP). A loss above ``settings.mistake`` (default: one unit)
is a mistake. Why the win chance: docs/analysis.md, "The issue's test on fresh games".

Everything is deterministic: an entry depends only on the game's log up to it, the settings
and its index (its generator is seeded from ``f"{settings.seed}:{index}"``), never on the
clock, so a resumed analysis gives the same entries as an uninterrupted one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace

from ..core import rng as _rng
from .analysis_measure import MEASURES
from .analysis_values import POLICIES, answer_values as _values, find_answer
from .evaluation import evaluator_for, step
from .greedy import GreedyBot, candidates as shortlist, own_followup, score_answers
from .labels import describe

#: The evaluator variant that writes an answer's line (``best_line``: greedy's own follow-ups,
#: for the labels) and names the game's analysis unit (None: the game's own). Which answers
#: are compared, who plays them out and what measures them: ``Settings.policy`` and
#: ``Settings.measure`` (:mod:`.analysis_values`).
VALUE: str | None = None

#: The analysis unit of a game whose evaluator names none (value units; the zoo builder's 2 VP):
#: accuracy = 100 * exp(-mean loss / unit), a loss above one unit is a mistake.
ACCURACY_SCALE = 2.0
#: The fewest playouts a long game's move starts are cut to (:func:`for_game`).
MIN_PLAYOUTS = 2
#: How many of the biggest losses the report lists.
TOP_MISTAKES = 10


#: The settings that are words.
TEXT = ("seed", "policy", "measure", "accuracy")
#: What a seat's accuracy may count (``Settings.accuracy``): the margin lost per decision (in
#: the game's unit) or the win chance lost (in :data:`WIN_UNIT`).
ACCURACY_BY = ("margin", "win")
#: The win-chance unit of an accuracy counted by the win chance lost: a mean of 0.02 (two
#: percentage points a decision) is 36.8, as a mean of one margin unit is.
WIN_UNIT = 0.02


@dataclass(frozen=True)
class Settings:
    """How hard the analysis looks. The defaults are the setting measured at <= 2 minutes of
    one core for a 2-player zoo-builder game (docs/analysis.md, "The issue's test on fresh
    games": at most 104 s, median 52 s, in 100 games)."""

    playouts: int = 2         #: sampled worlds each compared answer is played out in
    candidates: int = 2       #: greedy's best answers compared besides the chosen one
    seed: str = "analysis"    #: the analysis' own generator seed
    margin: float = 8.0       #: greedy candidates this far below greedy's best are not played out
    horizon: int = 1          #: own moves a playout plays after the analysed one
    chain_worlds: int = 1     #: sampled worlds for a decision inside the seat's chained move
    mistake: float | None = None  #: a loss above this is a mistake (None: the game's unit)
    budget: int = 1600        #: sampled worlds a whole game's move starts may take (0: any)
    policy: str = "plan"      #: who picks and plays out the compared answers (analysis_values)
    measure: str = "margin_learned"  #: the margin variant that measures where playouts stop
    plan_answers: int = 3     #: policy "plan": fast's best answers compared (the plan level's k)
    plan_next: int = 2        #: policy "plan": the line's answers tried at the seat's next turn
    accuracy: str = "win"     #: what the accuracy counts: "margin" lost or "win" chance lost

    def __post_init__(self) -> None:
        if self.playouts < 1 or self.candidates < 0 or self.chain_worlds < 1 or \
                self.horizon < 0 or self.plan_answers < 1 or self.plan_next < 1:
            raise ValueError("analysis settings out of range (playouts, chain_worlds, "
                             "plan_answers and plan_next at least 1, candidates and horizon at "
                             "least 0)")
        if self.policy not in POLICIES or self.measure not in MEASURES or \
                self.accuracy not in ACCURACY_BY:
            raise ValueError(f"analysis policy must be one of {sorted(POLICIES)}, measure one "
                             f"of {list(MEASURES)}, accuracy one of {list(ACCURACY_BY)}")

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict | None) -> Settings:
        """Settings from a dict (missing keys: the defaults; unknown keys are ignored, so a
        stored older setting still loads)."""
        if not d:
            return cls()
        known = {f.name for f in fields(cls)}
        kw = {}
        for k, v in d.items():
            if k not in known or v is None:
                continue
            kw[k] = str(v) if k in TEXT else (float(v) if k in ("margin", "mistake")
                                              else int(v))
        return cls(**kw)


# ---------------------------------------------------------------------------- the decisions
def _walk(game, seats, options, seed, actions):
    """Yield ``(index, state before actions[index], seat, action)`` along the log (items
    ``{"seat", "action"}``, or ``[seat, action]`` as in a record)."""
    state = game.setup(seats, options, seed)
    for i, item in enumerate(actions):
        seat, action = (item["seat"], item["action"]) if isinstance(item, dict) else item
        yield i, state, seat, action
        state, _ = game.apply(state, seat, action)


def points(game, seats, options, seed, actions) -> list[dict]:
    """The decisions worth analysing, in order: ``{"index", "version", "seat", "action",
    "chained"}`` per action of the log whose seat had more than one legal answer (``version`` =
    ``index``: the state the decision was taken at is the one before ``actions[index]``;
    ``chained``: inside the seat's own chained move, analysed by the one-ply look)."""
    out = []
    ev = evaluator_for(game)
    for i, state, seat, action in _walk(game, seats, options, seed, actions):
        if len(game.legal_actions(state, seat)) > 1:
            out.append({"index": i, "version": i, "seat": seat, "action": action,
                        "chained": own_followup(game, ev, state, seat)})
    return out


def for_game(settings: Settings, pts: list[dict]) -> Settings:
    """The settings a whole game is analysed with: ``settings``, with fewer playouts per move
    start when its move starts (``pts``: :func:`points`) would play more than
    ``settings.budget`` sampled worlds (a long game: a random seat's 1,000-action game took
    three minutes). The cut is the same for every move start (at least :data:`MIN_PLAYOUTS`)
    and depends only on the log, so a resumed job cuts the same."""
    starts = sum(1 for p in pts if not p.get("chained"))
    if settings.budget <= 0 or starts * settings.playouts <= settings.budget:
        return settings
    return replace(settings, playouts=max(min(settings.playouts, MIN_PLAYOUTS),
                                          settings.budget // starts))


# ---------------------------------------------------------------------------- one decision
def _rng_for(settings: Settings, index) -> dict:
    return {"rng": _rng.seed_to_int(f"{settings.seed}:{index}")}


def own_line(game, ev, state, seat, action, limit: int = 12) -> list:
    """The seat's own greedy follow-ups after ``action`` on one world, up to the first one that
    draws or reveals something hidden (what greedy means by the answer: where it builds, ...)."""
    out: list = []
    g = GreedyBot()
    marks = game.information_marks(state)
    state = step(game, state, seat, action)
    while len(out) < limit and game.information_marks(state) == marks and \
            own_followup(game, ev, state, seat):
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        if len(legal) == 1:
            a = legal[0]
        else:
            tried = shortlist(ev, state, seat, legal, g.width)
            vals = score_answers(game, ev, state, seat, tried, depth=g.depth, width=g.width)
            a = tried[max(range(len(tried)), key=lambda j: (vals[j], -j))]
        out.append(a)
        marks = game.information_marks(state)
        state = step(game, state, seat, a)
    return out


def answer_values(game, state, seat, chosen, settings: Settings, rng) -> tuple[list, list, list,
                                                                         list, bool]:
    """``(legal, compared indexes, margins, win chances, chained)`` for ``seat``'s decision in
    ``state`` (``chosen``: an answer that must be among the compared ones, or None): the
    answers chosen and played on by ``settings.policy``, measured by ``settings.measure`` in
    expected final margin (VP) and win chance (:mod:`.analysis_values`)."""
    return _values(game, state, seat, chosen, settings, rng, unit=unit_of(game))


def _pick(idx: list, vals: list) -> int:
    """Position (in ``idx``) of the best value; ties: the earlier one (greedy's order)."""
    return max(range(len(idx)), key=lambda k: (vals[k], -k))


def analyse_point(game, state, seat, chosen, settings, index) -> dict:
    """The entry of one decision: ``{"index", "version", "seat", "chosen", "best",
    "value_chosen", "value_best", "loss", "legal", "chained", "compared", "playouts",
    "best_line"}``.

    ``value_*`` are in the game's evaluation units from ``seat``'s point of view, ``loss`` is
    ``max(0, value_best - value_chosen)``, ``legal`` the number of legal answers, ``chained``
    whether the decision was inside the seat's own chained move (analysed by greedy's one-ply
    look), ``compared`` the number of answers valued, ``playouts`` the sampled worlds each was
    played out in (0: greedy's look only), ``best_line`` greedy's own follow-ups after the best
    answer on one sampled world, up to the first hidden draw (empty when the best answer is
    the chosen one, which it is on a tie). Uses only
    ``seat``'s information (every world from ``game.determinize``); deterministic in
    ``(settings.seed, index)``."""
    settings = settings or Settings()
    rng = _rng_for(settings, index)
    legal, idx, vals, wins, chained = answer_values(game, state, seat, chosen, settings, rng)
    b = _pick(idx, vals)
    c = idx.index(find_answer(legal, chosen))
    if vals[c] >= vals[b]:
        b = c
    wb, wc = round(wins[b], 3), round(wins[c], 3)
    best = legal[idx[b]]
    line: list = []
    if b != c and not chained:
        ev = evaluator_for(game, VALUE)
        line = own_line(game, ev, game.determinize(state, seat, rng), seat, best)
    vb, vc = round(vals[b], 3), round(vals[c], 3)
    return {"index": index, "version": index, "seat": seat, "chosen": chosen, "best": best,
            "value_chosen": vc, "value_best": vb, "loss": round(max(0.0, vb - vc), 3),
            "win_chosen": wc, "win_best": wb, "win_loss": round(max(0.0, wb - wc), 3),
            "legal": len(legal), "chained": chained, "compared": len(idx),
            "playouts": settings.playouts if len(idx) > 1 and not chained else 0,
            "best_line": line}


# ---------------------------------------------------------------------------- the whole game
def analyse(game, seats, options, seed, actions, settings=None, *, done=None,
            progress: Callable[[int, int], None] | None = None,
            should_stop: Callable[[], bool] | None = None) -> dict:
    """The whole report (:func:`summarize` of every entry). ``done``: entries already computed
    (a resumed job passes them; they are kept, not recomputed). ``progress(done_count, total)``
    after each entry; ``should_stop()`` -> True stops early with ``complete`` False."""
    have = {e["index"]: e for e in (done or [])}
    pts = points(game, seats, options, seed, actions)
    settings = for_game(settings or Settings(), pts)
    wanted = [p["index"] for p in pts]
    total = len(wanted)
    entries = [have[i] for i in wanted if i in have]
    count = len(entries)
    if progress:
        progress(count, total)
    left = set(wanted) - set(have)
    if left:
        for i, state, seat, action in _walk(game, seats, options, seed,
                                            actions[:max(left) + 1]):
            if i not in left:
                continue
            if should_stop and should_stop():
                break
            entries.append(analyse_point(game, state, seat, action, settings, i))
            count += 1
            if progress:
                progress(count, total)
    entries.sort(key=lambda e: e["index"])
    return summarize(game, seats, entries, total, settings=settings, actions=actions,
                     options=options, seed=seed)


def unit_of(game) -> float:
    """The game's analysis unit: a loss worth calling a mistake, in its evaluation's units
    (the evaluator's ``extra["analysis_unit"]``, else :data:`ACCURACY_SCALE`)."""
    return float(evaluator_for(game, VALUE).extra.get("analysis_unit", ACCURACY_SCALE))


def accuracy(mean_loss: float, unit: float = ACCURACY_SCALE) -> float:
    """``100 * exp(-mean_loss / unit)``, rounded to 0.1."""
    return round(100.0 * math.exp(-max(0.0, mean_loss) / unit), 1)


def summarize(game, seats, entries, total, *, settings=None, actions=None, options=None,
              seed=None) -> dict:
    """The report: ``{"complete", "total", "unit", "entries", "seats", "series", "mistakes"}``
    (``unit``: the game's analysis unit, :func:`unit_of`).

    ``seats``: per seat ``{"seat", "accuracy" (0..100, see the module doc), "accuracy_by"
    (``"win"`` or ``"margin"``: what it counts), "mean_loss",
    "mean_win_loss" (the win chance lost per decision),
    "mistakes" (losses above ``settings.mistake``, default one unit), "decisions"}``;
    ``series``: per seat the ``{"version", "value"}`` of its chosen answers; ``mistakes``: the :data:`TOP_MISTAKES`
    biggest losses above the threshold, each an entry plus ``"chosen_line"`` (the seat's own
    follow-ups that came next in the log, up to a hidden draw) and ``"text": {"chosen": label,
    "best": label}`` (labels ``{"key", "params", "text"}`` from :mod:`engine.bots.labels`,
    each with its line: "Build action (Build enclosure (2))"). With the log (``actions``,
    ``options``, ``seed``) the labels see the position of the decision (card names on the
    display, ...) and the chosen line is known; without it they describe the answers alone."""
    settings = settings or Settings()
    unit = unit_of(game)
    bar = unit if settings.mistake is None else settings.mistake
    entries = sorted(entries, key=lambda e: e["index"])
    per = []
    series = []
    for s in range(seats):
        mine = [e for e in entries if e["seat"] == s]
        mean = sum(e["loss"] for e in mine) / len(mine) if mine else 0.0
        win = sum(e.get("win_loss", 0.0) for e in mine) / len(mine) if mine else 0.0
        # alone at the table the score is the result (0 a bar): a solo game's win chance sits
        # near 0 or 1 for most of it, so its accuracy counts the points given away
        by = "win" if settings.accuracy == "win" and seats > 1 else "margin"
        acc = accuracy(win, WIN_UNIT) if by == "win" else accuracy(mean, unit)
        per.append({"seat": s, "accuracy": acc if mine else None, "accuracy_by": by,
                    "mean_loss": round(mean, 3), "mean_win_loss": round(win, 4),
                    "decisions": len(mine),
                    "mistakes": sum(1 for e in mine if e["loss"] > bar)})
        series.append([{"version": e["version"], "value": e["value_chosen"],
                        "win": e.get("win_chosen")} for e in mine])
    worst = sorted((e for e in entries if e["loss"] > bar),
                   key=lambda e: (-e["loss"], e["index"]))[:TOP_MISTAKES]
    at = _positions(game, seats, options, seed, actions, {e["index"] for e in worst})
    mistakes = []
    for e in worst:
        st, line = at.get(e["index"], (None, []))
        st = seat_world(game, st, e["seat"]) if st is not None else None
        mistakes.append({**e, "chosen_line": line, "text": {
            "chosen": describe(game, st, e["seat"], e["chosen"], line=line),
            "best": describe(game, st, e["seat"], e["best"], line=e.get("best_line"))}})
    return {"complete": len(entries) >= total, "total": total, "unit": unit, "entries": entries,
            "seats": per, "series": series, "mistakes": mistakes}


def _positions(game, seats, options, seed, actions, wanted: set) -> dict:
    """``{index: (state before actions[index], the seat's own follow-ups that came next)}``
    for the ``wanted`` indexes; follow-ups stop where :func:`own_line` stops (a hidden draw)."""
    if actions is None or seed is None or not wanted:
        return {}
    ev = evaluator_for(game, VALUE)
    out: dict = {}
    lines: dict = {}
    prev = None
    last = max(wanted)
    for i, state, seat, action in _walk(game, seats, options, seed, actions):
        for k, (who, line) in list(lines.items()):
            if who == seat and len(line) < 12 and own_followup(game, ev, state, who) and \
                    game.information_marks(state) == game.information_marks(prev):
                line.append(action)
            else:
                del lines[k]
        if i in wanted:
            out[i] = (state, [])
            lines[i] = (seat, out[i][1])
        if i > last and not lines:
            break
        prev = state
    return out


def seat_world(game, state, seat):
    """The position the labels read: a determinization (what ``seat`` may know of ``state``),
    so a label never shows a hidden card."""
    try:
        return game.determinize(state, seat, {"rng": 1})
    except NotImplementedError:
        return None


__all__ = ["ACCURACY_BY", "ACCURACY_SCALE", "MIN_PLAYOUTS", "WIN_UNIT", "Settings", "accuracy",
           "analyse", "analyse_point", "answer_values", "for_game", "own_line", "points",
           "seat_world", "summarize", "unit_of"]
