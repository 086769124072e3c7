"""CPU time of the search bot's decisions along one greedy game.

    .venv/bin/python benchmarks/search_time.py mcts:budget=none,playouts=24,candidates=3
        [--seed 77] [--every 3] [--decisions 400]

Plays a 2-player Ark Nova-style game with greedy on both seats; at every ``--every``-th decision
the given bot decides the same position too (its answer is not played), and the CPU time of
each real search (``time.process_time``: a decision the bot searched, not one it answered
greedily) is recorded. Prints the number of searches and the mean, median, 90th percentile and
maximum in seconds. CPU time does not depend on other processes sharing the machine (wall time
does), which is why it is the measure for a bot whose search is bounded by playouts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import decide, get_bot, make_bot  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bot", help="bot spec, e.g. mcts:budget=none,playouts=12,candidates=3")
    p.add_argument("--seed", default="77")
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--decisions", type=int, default=400)
    args = p.parse_args()
    game = engine.get_game("arknova")
    greedy = get_bot("greedy")
    bot = make_bot(args.bot)
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    state = game.setup(2, {}, seed)
    rng = {"rng": 1}
    cpu: list[float] = []
    for i in range(args.decisions):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        if i % args.every == 0:
            bot.last_stats = None  # set again only by a search (a lone answer leaves it)
            started = time.process_time()
            decide(bot, game, state, waiting[0], {"rng": i})
            if getattr(bot, "last_stats", None):  # a real search, not a greedy answer
                cpu.append(time.process_time() - started)
        state, _ = game.apply(state, waiting[0], decide(greedy, game, state, waiting[0], rng))
    if not cpu:
        raise SystemExit("no search was made (is the bot a searching bot?)")
    cpu.sort()
    print(f"{args.bot}: {len(cpu)} searches; CPU s mean {statistics.mean(cpu):.3f} "
          f"median {cpu[len(cpu) // 2]:.3f} p90 {cpu[int(len(cpu) * 0.9)]:.3f} "
          f"max {cpu[-1]:.3f}")


if __name__ == "__main__":
    main()
