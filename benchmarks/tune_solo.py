"""Tune the solo weights of the learned value by play: a coordinate search on the mean score.

    .venv/bin/python benchmarks/tune_solo.py --deals 120 --seed T1 --workers 2 --rounds 2 \\
        --out /tmp/tuned.json

A refit by regression (``benchmarks/train_value.py``) fits what the fast level's own games say
about a position, not which weights play better: refitted on 600 of its own solo games, the
solo part scored -58.0 on the 200 ``S200`` deals where the shipped weights score -44.3
(docs/bots.md, "Solo weights tuned by play"). This script asks the other question. Starting
from the solo weights of ``--value`` (default: the shipped value.json), each round tries every
weight of ``--features`` (default: every solo feature but ``bias``, which moves no decision)
one step up and one step down (the step: ``--share`` of the weight's size, at least its
``--min-step``), plays the fast level on the same ``--deals`` deals (the ladder's: seed
``"{seed}:solo:{i}"``, the bots' generator ``"{seed}:solo:{i}:bots"``) and keeps a change when
the mean score gains more than ``--accept`` points (paired: the same deals, and the fast level
is deterministic per seed, so only the weights differ). The steps halve after a round that kept
nothing. The deals are a training set: measure the result on other deals before shipping it
(``benchmarks/ladder.py --pairs "" --games 0 --solo 200 --solo-levels fast --seed S200 --value
OUT``). ``--log`` keeps every tried candidate (JSON lines).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.arknova.bot import learned  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

VALUE_FILE = ROOT / "engine" / "arknova" / "data" / "value.json"
MAX_DECISIONS = 5_000

_LOADED: dict = {}


def deal(task: tuple) -> float:
    """The fast level's score on one solo deal with the solo weights ``weights``."""
    text, seed = task
    if _LOADED.get("text") != text:  # a new candidate: validate it once per worker
        data = learned.validate(json.loads(text))
        _LOADED.update(text=text, data=data)
        learned.load = lambda: _LOADED["data"]  # looked up at each call (as ladder.py)
    game = engine.get_game("arknova")
    bot = make_bot("fast")
    state = game.setup(1, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    for _ in range(MAX_DECISIONS):
        if not game.waiting_for(state):
            break
        state, _ = game.apply(state, 0, decide(bot, game, state, 0, rng))
    res = game.result(state)
    return float(res["scores"][0]) if res else -200.0


def with_weights(base: dict, weights: list[float]) -> str:
    data = json.loads(json.dumps(base))
    data["solo"]["weights"] = [round(w, 5) for w in weights]
    return json.dumps(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--value", default=str(VALUE_FILE), help="the value.json to start from")
    ap.add_argument("--deals", type=int, default=120)
    ap.add_argument("--seed", default="T1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--features", default="", help="comma-separated solo feature names")
    ap.add_argument("--share", type=float, default=0.5, help="a step: this share of the weight")
    ap.add_argument("--min-step", type=float, default=0.1)
    ap.add_argument("--accept", type=float, default=0.5, help="points a change must gain")
    ap.add_argument("--out", required=True)
    ap.add_argument("--log", help="append every candidate here (JSON lines)")
    args = ap.parse_args()
    base = learned.validate(json.loads(Path(args.value).read_text()))
    names = list(base["solo"]["features"])
    tune = [n for n in args.features.split(",") if n] or [n for n in names if n != "bias"]
    unknown = [n for n in tune if n not in names]
    if unknown:
        raise SystemExit(f"no solo feature {unknown} (features: {names})")
    weights = list(base["solo"]["weights"])
    steps = {n: max(args.min_step, args.share * abs(weights[names.index(n)])) for n in tune}
    seeds = [f"{args.seed}:solo:{i}" for i in range(args.deals)]
    started = time.time()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        def score(ws: list[float]) -> list[float]:
            text = with_weights(base, ws)
            return list(pool.map(deal, [(text, s) for s in seeds], chunksize=4))

        best = score(weights)
        best_mean = statistics.fmean(best)
        print(f"start: mean {best_mean:.2f} over {len(seeds)} deals", flush=True)
        Path(args.out).write_text(with_weights(base, weights))
        for rnd in range(args.rounds):
            kept = 0
            for n in tune:
                j = names.index(n)
                for sign in (1, -1):
                    trial = weights[:]
                    trial[j] = weights[j] + sign * steps[n]
                    scores = score(trial)
                    mean = statistics.fmean(scores)
                    diffs = [a - b for a, b in zip(scores, best)]
                    se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
                    took = mean - best_mean > args.accept
                    print(f"round {rnd} {n} {weights[j]:+.3f} -> {trial[j]:+.3f}: mean "
                          f"{mean:.2f} ({mean - best_mean:+.2f}, se {se:.2f})"
                          f"{'  kept' if took else ''}  [{time.time() - started:.0f} s]",
                          flush=True)
                    if args.log:
                        with open(args.log, "a") as fh:
                            fh.write(json.dumps({"round": rnd, "feature": n, "weight": trial[j],
                                                 "mean": mean, "gain": mean - best_mean,
                                                 "se": se, "kept": took}) + "\n")
                    if took:
                        weights, best, best_mean = trial, scores, mean
                        kept += 1
                        break
            if not kept:
                steps = {n: s / 2 for n, s in steps.items()}
            Path(args.out).write_text(with_weights(base, weights))
            print(f"round {rnd}: mean {best_mean:.2f}, kept {kept}; wrote {args.out}", flush=True)
    out = json.loads(Path(args.out).read_text())
    out["about"] = (f"{base.get('about', '')}; solo weights tuned by benchmarks/tune_solo.py "
                    f"--deals {args.deals} --seed {args.seed} --rounds {args.rounds} (training "
                    f"mean {best_mean:.2f})")
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(dict(zip(names, weights)))
    print(f"done in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
