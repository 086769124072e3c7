"""Which yardstick believes the stronger level? Every measure of one policy in one pass.

    nice -n 19 .venv/bin/python benchmarks/analysis_measures.py --policy mix \\
        --pairs fast:greedy-ref --games 6 --logs /tmp/an3/logs [--json FILE]

The analysis' policy (``--policy``: ``own``, ``learned``, ``mix``) picks the compared answers
and plays them out; the measure only values where the playouts stop. So one pass of a policy
over a game gives the entries of every measure (:data:`engine.bots.analysis_measure.MEASURES`)
at once: each playout's end is measured by all of them (the losses are then those
:func:`engine.bots.analysis.analyse_point` gives with that measure; its best line and
labels, which change no loss, are left out; ``--json`` keeps them as ``[seat, [loss per
measure], chained, compared, index in the log]``). Games come from ``benchmarks/analysis_ladder.py``
(the same seeds, ``--logs`` shares their logs). Prints per measure the share of decided games
whose winner's accuracy is at least the loser's (95 % Wilson), and the CPU of the pass.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from benchmarks.analysis_ladder import played  # noqa: E402
from benchmarks.ladder import wilson  # noqa: E402
from engine.bots import analysis, analysis_values  # noqa: E402
from engine.bots.analysis_measure import MEASURES, Measure  # noqa: E402
from engine.core import rng as _rng  # noqa: E402


class Vec(tuple):
    """A margin per measure, summed and divided as the analysis sums one margin."""

    def __add__(self, other):
        return Vec(a + b for a, b in zip(self, other))

    def __radd__(self, other):
        return Vec(a + other for a in self) if isinstance(other, (int, float)) else \
            self.__add__(other)

    def __truediv__(self, n):
        return Vec(a / n for a in self)


class Every:
    """A measure that measures by all :data:`MEASURES` (the win chance: the first's)."""

    def __init__(self, game, unit, variant=None) -> None:
        self.all = [Measure(game, unit, v) for v in MEASURES]
        self.ev = self.all[0].ev

    def __call__(self, state, seat):
        got = [m(state, seat) for m in self.all]
        CALLS.append([round(m, 2) for m, _ in got])
        return Vec(m for m, _ in got), got[0][1]


#: every measured playout end of the current decision, in the order answer_values measures
#: them (world by world, each compared answer within a world)
CALLS: list = []


def entries(game, seed, log, settings) -> list[dict]:
    """``{"seat", "loss": [per measure]}`` per analysed decision."""
    analysis_values.Measure = Every  # the pass measures by every measure at once
    out = []
    pts = analysis.points(game, 2, {}, seed, log)
    settings = analysis.for_game(settings, pts)  # a long game's cut, as analyse() makes it
    wanted = {p["index"] for p in pts}
    state = game.setup(2, {}, seed)
    for i, item in enumerate(log):
        seat, action = item["seat"], item["action"]
        if i not in wanted:
            state, _ = game.apply(state, seat, action)
            continue
        rng = {"rng": _rng.seed_to_int(f"{settings.seed}:{i}")}  # as analysis.analyse_point
        CALLS.clear()
        legal, idx, vals, _, chained = analysis.answer_values(game, state, seat, action, settings, rng)
        n = len(CALLS) // len(idx)  # worlds: CALLS is world-major, idx-minor
        assert n * len(idx) == len(CALLS), (len(CALLS), idx)
        worlds = [[CALLS[r * len(idx) + k] for r in range(n)] for k in range(len(idx))]
        c = idx.index(analysis.find_answer(legal, action))
        losses = []
        for j in range(len(MEASURES)):
            v = [x[j] if isinstance(x, tuple) else x for x in vals]
            b = max(range(len(idx)), key=lambda k: (v[k], -k))
            losses.append(round(max(0.0, round(v[b], 3) - round(v[c], 3)), 3))
        out.append({"seat": seat, "loss": losses, "chained": chained, "compared": len(idx),
                    "index": i, "chosen": c, "worlds": worlds})
        state, _ = game.apply(state, seat, action)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", default="own")
    ap.add_argument("--pairs", default="fast:greedy-ref")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", default="analysis-ladder")
    ap.add_argument("--playouts", type=int, default=analysis.Settings.playouts)
    ap.add_argument("--budget", type=int, default=analysis.Settings.budget)
    ap.add_argument("--horizon", type=int, default=analysis.Settings.horizon,
                    help="own moves a playout plays after the analysed one")
    ap.add_argument("--logs")
    ap.add_argument("--json")
    ap.add_argument("--worlds", action="store_true",
                    help="--json keeps each entry's chosen position among the compared answers "
                         "and every answer's measured playout ends ([per measure] per world)")
    args = ap.parse_args()
    game = engine.get_game("arknova")
    settings = analysis.Settings(policy=args.policy, playouts=args.playouts, budget=args.budget,
                                 horizon=args.horizon)
    unit = analysis.unit_of(game)
    games = []
    for pair in [p for p in args.pairs.split(",") if p]:
        a, b = pair.split(":", 1)
        for i in range(args.first, args.first + args.games):
            levels = [a, b] if i % 2 == 0 else [b, a]
            seed = f"{args.seed}:{a}:{b}:{i}"
            log, res = played(levels, seed, args.logs)
            started = time.process_time()
            es = entries(game, seed, log, settings)
            cpu = time.process_time() - started
            scores = [res["scores"][k] for k in ("0", "1")] if res and "0" in res["scores"] \
                else [res["scores"][k] for k in (0, 1)] if res else None
            acc = {}
            for j, name in enumerate(MEASURES):
                acc[name] = []
                for s in range(2):
                    mine = [e["loss"][j] for e in es if e["seat"] == s]
                    acc[name].append(analysis.accuracy(sum(mine) / max(1, len(mine)), unit))
            g = {"pair": pair, "levels": levels, "seed": seed, "scores": scores,
                 "actions": len(log), "points": len(es), "cpu_s": round(cpu, 1),
                 "accuracy": acc, "max_loss": {n: max(e["loss"][j] for e in es)
                                               for j, n in enumerate(MEASURES)},
                 "entries": [[e["seat"], e["loss"], e["chained"], e["compared"], e["index"]]
                             + ([e["chosen"], e["worlds"]] if args.worlds else [])
                             for e in es]}
            games.append(g)
            print(json.dumps({k: v for k, v in g.items() if k != "entries"}), file=sys.stderr,
                  flush=True)
    print(f"policy {args.policy}, playouts {args.playouts}, horizon {args.horizon}")
    print("| pair | measure | decided | winner's accuracy >= loser's (95 % CI) | biggest loss |")
    print("|---|---|---:|---|---:|")
    for pair in dict.fromkeys(g["pair"] for g in games):
        mine = [g for g in games if g["pair"] == pair and g["scores"]]
        decided = [g for g in mine if g["scores"][0] != g["scores"][1]]
        for name in MEASURES:
            ok = 0
            for g in decided:
                w = 0 if g["scores"][0] > g["scores"][1] else 1
                ok += g["accuracy"][name][w] >= g["accuracy"][name][1 - w]
            lo, hi = wilson(ok, len(decided))
            print(f"| {pair} | {name} | {len(decided)} | {ok} ({ok / max(1, len(decided)):.2f}, "
                  f"{lo:.2f}–{hi:.2f}) | {max(g['max_loss'][name] for g in mine)} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"settings": settings.as_dict(), "games": games},
                                              indent=1))


if __name__ == "__main__":
    main()
