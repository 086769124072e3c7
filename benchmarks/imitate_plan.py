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
spread), by gradient steps, each weight kept within ``train_value.py``'s solo bounds. ``bias``
moves no ranking and is kept. Measure the result by play on other deals before shipping it
(``benchmarks/ladder.py --pairs "" --games 0 --solo 200 --solo-levels fast --seed S200
--value OUT``).
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

from train_value import SOLO_LOWER, SOLO_UPPER  # noqa: E402

import engine  # noqa: E402
from engine.arknova.bot import learned  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.evaluation import evaluator_for, searching, step  # noqa: E402
from engine.bots.greedy import finish_chain  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

VALUE_FILE = ROOT / "engine" / "arknova" / "data" / "value.json"
MAX_DECISIONS = 5_000


def play_deal(seed: str) -> dict:
    """One solo deal played by the plan level: its compared answers' features at every turn
    start where it compared some, the chosen one's index, and the final score."""
    game = engine.get_game("arknova")
    bot = make_bot("plan")
    ev = evaluator_for(game, "learned")
    state = game.setup(1, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    rows = []
    for _ in range(MAX_DECISIONS):
        if not game.waiting_for(state):
            break
        bot.last_stats = None
        action = decide(bot, game, state, 0, rng)
        stats = bot.last_stats
        if stats and len(stats["candidates"]) > 1:
            feats = []
            with searching(ev):
                for cand in stats["candidates"]:
                    after = finish_chain(game, ev, step(game, state, 0, cand), 0, bot.depth,
                                         bot.width)[0]
                    feats.append([round(x, 5) for x in learned.features(after, 0)])
            rows.append({"chosen": stats["candidates"].index(action), "feats": feats,
                         "turn": state["turn"]})
        state, _ = game.apply(state, 0, action)
    res = game.result(state)
    return {"seed": seed, "score": res["scores"][0] if res else None, "rows": rows}


def pairs(records: list[dict]) -> list[list[float]]:
    """The feature differences chosen minus each other compared answer."""
    out = []
    for rec in records:
        for row in rec["rows"]:
            best = row["feats"][row["chosen"]]
            for j, other in enumerate(row["feats"]):
                if j != row["chosen"]:
                    out.append([a - b for a, b in zip(best, other)])
    return out


def fit(diffs: list[list[float]], w0: list[float], names: list[str], temp: float, l2: float,
        steps: int, rate: float) -> tuple[list[float], dict]:
    """Weights near ``w0`` that rank the chosen answers first (see the module doc)."""
    n, k = len(diffs), len(w0)
    scale = [math.sqrt(sum(d[j] ** 2 for d in diffs) / n) or 1.0 for j in range(k)]
    free = [j for j, name in enumerate(names) if name != "bias"]
    lo = [SOLO_LOWER.get(name, -math.inf) for name in names]
    hi = [SOLO_UPPER.get(name, math.inf) for name in names]

    def stats(w: list[float]) -> dict:
        margins = [sum(wj * dj for wj, dj in zip(w, d)) for d in diffs]
        loss = sum(softplus(-m / temp) for m in margins) / n
        return {"loss": round(loss, 5), "agree": round(sum(m > 0 for m in margins) / n, 4),
                "ties": round(sum(m == 0 for m in margins) / n, 4)}

    w = list(w0)
    start = stats(w)
    for _ in range(steps):
        grad = [0.0] * k
        for d in diffs:
            m = sum(wj * dj for wj, dj in zip(w, d))
            g = -sigmoid(-m / temp) / temp  # d softplus(-m/T) / dm
            for j in free:
                grad[j] += g * d[j]
        for j in free:
            # a step in the scaled coordinates (a weight's unit is a spread of its feature)
            gj = grad[j] / n + 2.0 * l2 * (w[j] - w0[j]) * scale[j] ** 2
            w[j] = min(hi[j], max(lo[j], w[j] - rate * gj / scale[j] ** 2))
    return w, {"start": start, "end": stats(w)}


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
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--data", required=True, help="append the records here (JSON lines)")
    f = sub.add_parser("fit", help="fit the solo weights to the recorded choices")
    f.add_argument("--data", required=True, action="append")
    f.add_argument("--value", default=str(VALUE_FILE))
    f.add_argument("--temp", type=float, default=1.0, help="points of value difference")
    f.add_argument("--l2", type=float, default=0.01)
    f.add_argument("--steps", type=int, default=200)
    f.add_argument("--rate", type=float, default=0.5)
    f.add_argument("--out", required=True)
    args = ap.parse_args()
    started = time.time()
    if args.cmd == "play":
        seeds = [f"{args.seed}:solo:{i}" for i in range(args.first, args.first + args.deals)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool, \
                open(args.data, "a") as fh:
            for i, rec in enumerate(pool.map(play_deal, seeds), start=1):
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                print(f"{i}/{len(seeds)} {rec['seed']} score {rec['score']} turn starts "
                      f"{len(rec['rows'])} [{time.time() - started:.0f} s]", flush=True)
        return
    records = [json.loads(line) for path in args.data for line in open(path)]
    base = learned.validate(json.loads(Path(args.value).read_text()))
    names = list(base["solo"]["features"])
    diffs = pairs(records)
    w, how = fit(diffs, list(base["solo"]["weights"]), names, args.temp, args.l2, args.steps,
                 args.rate)
    out = json.loads(json.dumps(base))
    out["solo"]["weights"] = [round(x, 5) for x in w]
    out["about"] = (f"{base.get('about', '')}; solo weights fitted to the plan level's choices "
                    f"by benchmarks/imitate_plan.py (temp {args.temp}, l2 {args.l2}, "
                    f"{len(diffs)} pairs of {len(records)} deals)")
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(records)} deals, {len(diffs)} pairs: {how}")
    print({n: (round(a, 3), round(b, 3)) for n, a, b in zip(names, base["solo"]["weights"], w)
           if abs(a - b) > 1e-4})
    print(f"done in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
