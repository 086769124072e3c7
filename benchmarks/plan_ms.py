"""What the plan level does in solo deals, and what a decision costs.

    .venv/bin/python benchmarks/plan_ms.py --levels fast,plan:followups=0 --deals 6 --seed P2

Per level (a bot spec, :func:`engine.bots.make_bot`), on the same deals as
``benchmarks/ladder.py --solo N --seed SEED`` (deal ``i`` has the seed ``"{seed}:solo:{i}"``,
the bots' generator ``"{seed}:solo:{i}:bots"``, so the scores are the ladder's): the mean score;
the median wall milliseconds per decision with a choice, at a turn's start and inside a turn
(at a turn's start also the process's CPU milliseconds: what one core spends, whatever the
machine's load);
the action cards the turns took; the animals in the zoo and the money left at the end; and for
the plan level how often it answered fast's best answer (rank 0) or a lower one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.core import rng as _rng  # noqa: E402


def deal(spec: str, seed: str) -> dict:
    game = engine.get_game("arknova")
    bot = make_bot(spec)
    state = game.setup(1, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    start_ms, inside_ms, start_cpu, ranks, cards = [], [], [], Counter(), Counter()
    while game.waiting_for(state):
        legal = game.legal_actions(state, 0)
        at_start = state["stack"][-1]["kind"] == "turn"
        t0, c0 = time.perf_counter(), time.process_time()
        action = decide(bot, game, state, 0, rng)
        ms, cpu = 1000 * (time.perf_counter() - t0), 1000 * (time.process_time() - c0)
        if len(legal) > 1:
            (start_ms if at_start else inside_ms).append(ms)
            if at_start:
                start_cpu.append(cpu)
            stats = getattr(bot, "last_stats", None)
            if stats and at_start:
                ranks[stats["candidates"].index(action)] += 1
        if at_start:
            cards[action.get("card", action["type"])] += 1
        state, _ = game.apply(state, 0, action)
    p = state["players"][0]
    return {"score": game.result(state)["scores"][0], "start_ms": start_ms, "start_cpu": start_cpu,
            "inside_ms": inside_ms, "ranks": ranks, "cards": cards,
            "animals": len(p["animals"]), "money": p["money"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="fast,plan", help="bot specs, separated by ';' or ','"
                    " (use ';' when a spec has settings: 'fast;plan:k=3,followups=0')")
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", default="P2")
    args = ap.parse_args()
    levels = args.levels.split(";") if ";" in args.levels else args.levels.split(",")
    for spec in levels:
        t0 = time.time()
        runs = [deal(spec, f"{args.seed}:solo:{i}") for i in range(args.deals)]
        start = [m for r in runs for m in r["start_ms"]]
        inside = [m for r in runs for m in r["inside_ms"]]
        cpu = [m for r in runs for m in r["start_cpu"]]
        ranks: Counter = sum((r["ranks"] for r in runs), Counter())
        cards: Counter = sum((r["cards"] for r in runs), Counter())
        n = len(runs)
        print(f"{spec}: {n} deals, mean score {statistics.fmean(r['score'] for r in runs):.1f}; "
              f"median ms at a turn's start {statistics.median(start):.1f} wall, "
              f"{statistics.median(cpu):.1f} CPU (max {max(cpu):.0f}; {len(start)}), "
              f"inside a turn {statistics.median(inside) if inside else 0:.1f} ({len(inside)}); "
              f"turns per deal by card {dict(sorted((k, round(v / n, 1)) for k, v in cards.items()))}; "
              f"animals {statistics.fmean(r['animals'] for r in runs):.1f}, money left "
              f"{statistics.fmean(r['money'] for r in runs):.1f}; picks by fast's rank "
              f"{dict(sorted(ranks.items()))}; {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
