"""Fit the solo weights of the learned value to the plan level's choices (the fast level learns
to rank its answers as the deeper look would).

    .venv/bin/python benchmarks/imitate_plan.py play --deals 200 --seed IM50 --workers 2 \\
        --data /tmp/im.jsonl
    .venv/bin/python benchmarks/imitate_plan.py fit --data /tmp/im.jsonl --temp 1 --l2 0.01 \\
        --out /tmp/im.json

A refit on the final score fits where games end, not which answer is better: refitted on the
plan level's own solo games, the fast level played much worse (docs/bots.md, "The plan level
measured quietly"). This script asks the plan level's question instead. ``play`` lets the plan
level play ``--deals`` solo deals (seeds ``"{seed}:solo:{i}"``, as the ladder's) and, at every
turn start where it compared answers, records the features (:func:`learned.features`) of the
position after each compared answer and its chain as fast plays it (on the true position, not
the world the level sampled), and which one it chose. ``fit`` then moves the solo weights of
``--value`` (default: the shipped ones) so that the chosen answer's linear value exceeds each
other compared answer's: a pairwise logistic loss on the value difference over ``--temp`` points,
plus ``--l2`` times the squared distance from the starting weights (features scaled to unit
spread), by gradient steps, each weight kept within ``train_value.py``'s bounds. ``bias``
moves no ranking and is kept; the rest of a duel value (win chance, tempo: ``extra``, recorded
on the starting weights) enters as a constant. ``--every`` records every answer of a turn start,
not only the compared ones; ``--seats 2`` records plan : plan games (the fit then moves the
duel weights); ``--held`` leaves every fifth deal out of the fit and reports it. Measure the
result by play on other deals before shipping it (``benchmarks/ladder.py --pairs "" --games 0
--solo 200 --solo-levels fast --seed S200 --value OUT``). Measured 2026-12-06 (docs/bots.md,
"The plan level's choices as a teacher"): +0.82 points (se 1.06) on 200 fresh deals, not
shipped.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from train_value import BOUNDS  # noqa: E402

import engine  # noqa: E402
from engine.arknova.bot import learned  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.evaluation import evaluator_for, searching, step  # noqa: E402
from engine.bots.greedy import finish_chain  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

VALUE_FILE = ROOT / "engine" / "arknova" / "data" / "value.json"
MAX_DECISIONS = 5_000


def play_deal(task: tuple) -> dict:
    """One deal of ``seats`` seats, every seat played by the plan level: at every turn start
    where a seat compared answers, the features of each compared answer (with its chain as fast
    plays it) from that seat, the rest of its value (``extra``: the value less the linear
    part, on the starting weights), the chosen one's index; and the final scores."""
    seed, seats, every = task
    game = engine.get_game("arknova")
    bot = make_bot("plan")
    ev = evaluator_for(game, "learned")
    state = game.setup(seats, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    rows = []
    for _ in range(MAX_DECISIONS):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        bot.last_stats = None
        action = decide(bot, game, state, seat, rng)
        stats = bot.last_stats
        if stats and len(stats["candidates"]) > 1:
            feats, extra = [], []
            # every answer, not only the compared ones: weights fitted on those alone let
            # answers no candidate set held rise to the top (-51.8 against -36.2 in solo)
            answers = game.legal_actions(state, seat) if every else stats["candidates"]
            with searching(ev):
                for cand in answers:
                    after = finish_chain(game, ev, step(game, state, seat, cand), seat,
                                         bot.depth, bot.width)[0]
                    feats.append([round(x, 5) for x in learned.features(after, seat)])
                    extra.append(round(ev.value(after, seat)
                                       - learned.predicted_margin(after, seat), 5))
            rows.append({"chosen": answers.index(action), "feats": feats, "extra": extra,
                         "seat": seat, "turn": state["turn"],
                         "compared": [answers.index(a) for a in stats["candidates"]]})
        state, _ = game.apply(state, seat, action)
    res = game.result(state)
    return {"seed": seed, "seats": seats, "scores": res["scores"] if res else None,
            "rows": rows}


def pairs(records: list[dict]) -> list[list[float]]:
    """The feature differences chosen minus each other compared answer, each followed by the
    difference of their ``extra`` (a constant of the fit)."""
    out = []
    for rec in records:
        for row in rec["rows"]:
            c = row["chosen"]
            best, extra = row["feats"][c], row.get("extra") or [0.0] * len(row["feats"])
            for j, other in enumerate(row["feats"]):
                if j != c:
                    out.append([a - b for a, b in zip(best, other)] + [extra[c] - extra[j]])
    return out


def fit(diffs: list[list[float]], w0: list[float], names: list[str], bounds: tuple,
        temp: float, l2: float, steps: int, rate: float) -> tuple[list[float], dict]:
    """Weights near ``w0`` that rank the chosen answers first (see the module doc)."""
    n, k = len(diffs), len(w0)
    scale = [math.sqrt(sum(d[j] ** 2 for d in diffs) / n) or 1.0 for j in range(k)]
    free = [j for j, name in enumerate(names) if name != "bias"]
    lo = [bounds[0].get(name, -math.inf) for name in names]
    hi = [bounds[1].get(name, math.inf) for name in names]

    def stats(w: list[float]) -> dict:
        return agreement(diffs, w, temp)

    w = list(w0)
    start = stats(w)
    for _ in range(steps):
        grad = [0.0] * k
        for d in diffs:
            m = sum(wj * dj for wj, dj in zip(w, d)) + d[k]
            g = -sigmoid(-m / temp) / temp  # d softplus(-m/T) / dm
            for j in free:
                grad[j] += g * d[j]
        for j in free:
            # a step in the scaled coordinates (a weight's unit is a spread of its feature),
            # times temp squared (the loss's curvature goes with 1 / temp squared)
            gj = grad[j] / n + 2.0 * l2 * (w[j] - w0[j]) * scale[j] ** 2
            w[j] = min(hi[j], max(lo[j], w[j] - rate * temp ** 2 * gj / scale[j] ** 2))
    return w, {"start": start, "end": stats(w)}


def agreement(diffs: list[list[float]], w: list[float], temp: float) -> dict:
    """The mean pairwise loss of ``w`` on ``diffs`` and how often it ranks the chosen answer
    above the other (ties apart)."""
    margins = [sum(wj * dj for wj, dj in zip(w, d)) + d[len(w)] for d in diffs]
    n = max(1, len(margins))
    loss = sum(softplus(-m / temp) for m in margins) / n
    return {"loss": round(loss, 5), "agree": round(sum(m > 0 for m in margins) / n, 4),
            "ties": round(sum(m == 0 for m in margins) / n, 4)}


def softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="record the plan level's choices on solo deals")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", default="IM1")
    p.add_argument("--seats", type=int, default=1, help="1: solo deals; 2+: games, plan in "
                   "every seat (the fit then moves the duel weights)")
    p.add_argument("--every", action="store_true", help="record every answer of a turn start, "
                   "not only the compared ones (the fit then ranks the choice above all)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--data", required=True, help="append the records here (JSON lines)")
    f = sub.add_parser("fit", help="fit the solo weights to the recorded choices")
    f.add_argument("--data", required=True, action="append")
    f.add_argument("--value", default=str(VALUE_FILE))
    f.add_argument("--temp", type=float, default=1.0, help="points of value difference")
    f.add_argument("--l2", type=float, default=0.01)
    f.add_argument("--steps", type=int, default=200)
    f.add_argument("--rate", type=float, default=0.5)
    f.add_argument("--held", action="store_true", help="leave every fifth deal out, report it")
    f.add_argument("--out", required=True)
    args = ap.parse_args()
    started = time.time()
    if args.cmd == "play":
        kind = "solo" if args.seats == 1 else f"plan{args.seats}"
        seeds = [(f"{args.seed}:{kind}:{i}", args.seats, args.every)
                 for i in range(args.first, args.first + args.deals)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool, \
                open(args.data, "a") as fh:
            for i, rec in enumerate(pool.map(play_deal, seeds), start=1):
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                print(f"{i}/{len(seeds)} {rec['seed']} scores {rec['scores']} turn starts "
                      f"{len(rec['rows'])} [{time.time() - started:.0f} s]", flush=True)
        return
    records = [json.loads(line) for path in args.data for line in open(path)]
    base = learned.validate(json.loads(Path(args.value).read_text()))
    part = "solo" if records[0].get("seats", 1) == 1 else "duel"
    if any((rec.get("seats", 1) == 1) != (part == "solo") for rec in records):
        raise SystemExit("the records mix solo deals and games of several seats")
    names = list(base[part]["features"])
    held = [rec for i, rec in enumerate(records) if i % 5 == 4] if args.held else []
    diffs = pairs([rec for i, rec in enumerate(records) if not (args.held and i % 5 == 4)])
    w, how = fit(diffs, list(base[part]["weights"]), names, BOUNDS[part], args.temp, args.l2,
                 args.steps, args.rate)
    if held:  # every fifth deal left out of the fit: the same figures on its choices
        rest = pairs(held)
        how["held_out"] = {"start": agreement(rest, base[part]["weights"], args.temp),
                           "end": agreement(rest, w, args.temp)}
    out = json.loads(json.dumps(base))
    out[part]["weights"] = [round(x, 5) for x in w]
    out["about"] = (f"{base.get('about', '')}; {part} weights fitted to the plan level's choices "
                    f"by benchmarks/imitate_plan.py (temp {args.temp}, l2 {args.l2}, "
                    f"{len(diffs)} pairs of {len(records)} deals)")
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(records)} deals, {len(diffs)} pairs: {how}")
    print({n: (round(a, 3), round(b, 3)) for n, a, b in zip(names, base[part]["weights"], w)
           if abs(a - b) > 1e-4})
    print(f"done in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
