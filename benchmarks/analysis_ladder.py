"""Does the post-game analysis believe the stronger level? And what does it cost?

    nice -n 15 .venv/bin/python benchmarks/analysis_ladder.py \\
        --pairs greedy-ref:random,fast:greedy-ref --games 4 [--playouts N] [--json FILE]

For each pair ``a:b`` it plays ``--games`` 2-player games between the two levels (game ``i``
with seed ``"{seed}:{a}:{b}:{i}"``, ``a`` first in even games, second in odd ones; the levels
of ``benchmarks/ladder.py``), analyses each with :func:`engine.bots.analysis.analyse` (default
settings unless given) and prints

- the share of decided games in which the winner's accuracy is at least the loser's, with a
  95 % Wilson interval (issue #29: >= 80 % of games between different levels), and the share
  in which the winner lost no more win chance per analysed decision than the loser (the same
  question asked of the win chance instead of the margin);
- the CPU seconds of each game's analysis (``time.process_time``: the machine is shared), the
  median and the most, and how many took at most 120 s (issue #29: <= 2 minutes of one core);
- the biggest single loss charged and the seats' summed losses against the final margin.

One process, one core; run it niced. Everything is deterministic per seed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from benchmarks.ladder import spec, wilson  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.analysis import Settings, analyse  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

MAX_DECISIONS = 30_000


def play(levels: list[str], seed: str) -> tuple[list[dict], dict | None]:
    """The log and the result of one game of ``levels`` (one per seat)."""
    game = engine.get_game("arknova")
    bots = [make_bot(spec(lv)) for lv in levels]
    state = game.setup(len(levels), {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    log: list[dict] = []
    while len(log) < MAX_DECISIONS:
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        action = decide(bots[seat], game, state, seat, rng)
        log.append({"seat": seat, "action": action})
        state, _ = game.apply(state, seat, action)
    return log, game.result(state)


def played(levels: list[str], seed: str, logs: str | None) -> tuple[list[dict], dict | None]:
    """:func:`play`, or the same game read back from ``logs`` (a folder: one JSON file per
    game, written the first time), so analyses of different settings or branches meet the very
    same games without playing them again."""
    if not logs:
        return play(levels, seed)
    path = Path(logs) / (seed.replace(":", "_") + ".json")
    if path.exists():
        data = json.loads(path.read_text())
        if data["levels"] == levels:
            return data["log"], data["result"]
    log, res = play(levels, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"levels": levels, "seed": seed, "log": log, "result": res}))
    return log, res


def one(levels: list[str], seed: str, settings: Settings, logs: str | None = None) -> dict:
    game = engine.get_game("arknova")
    log, res = played(levels, seed, logs)
    if res is not None:  # read back from JSON: the scores' seat keys are strings
        res = {**res, "scores": {int(k): v for k, v in res["scores"].items()}}
    started = time.process_time()
    report = analyse(game, 2, {}, seed, log, settings)
    cpu = time.process_time() - started
    scores = [res["scores"][s] for s in range(2)] if res else None
    acc = [s["accuracy"] for s in report["seats"]]
    entries = report["entries"]
    starts = [e for e in entries if not e["chained"]]
    return {"levels": levels, "seed": seed, "scores": scores, "actions": len(log),
            "points": len(entries), "move_starts": len(starts),
            "playouts": max((e["playouts"] for e in starts), default=0),  # after a cut
            "cpu_s": round(cpu, 1), "accuracy": acc,
            "max_loss": max((e["loss"] for e in entries), default=0.0),
            "sum_loss": [round(sum(e["loss"] for e in entries if e["seat"] == s), 1)
                         for s in range(2)],
            # the win chance a seat lost per analysed decision, on average (0..1): the other
            # count of "the winner played better" (docs/analysis.md, "The shipped analysis on
            # the same 99 games")
            "win_loss": [round(statistics.fmean([e["win_loss"] for e in entries
                                                 if e["seat"] == s] or [0.0]), 5)
                         for s in range(2)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", default="greedy-ref:random,fast:greedy-ref")
    ap.add_argument("--games", type=int, default=4, help="games per pair (the issue: 100)")
    ap.add_argument("--seed", default="analysis-ladder")
    ap.add_argument("--playouts", type=int)
    ap.add_argument("--policy", help="who picks and plays out the answers (own, learned, mix, "
                    "plan)")
    ap.add_argument("--plan-answers", type=int, help="policy plan: fast's best answers compared")
    ap.add_argument("--plan-next", type=int, help="policy plan: the line's answers at the next turn")
    ap.add_argument("--measure", help="margin, margin_learned or margin_mean")
    ap.add_argument("--budget", type=int, help="sampled worlds a game's move starts may take")
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--logs", help="folder of the games' logs: read when there, else written")
    ap.add_argument("--first", type=int, default=0, help="the first game's number")
    args = ap.parse_args()
    over = {k: getattr(args, k) for k in ("playouts", "policy", "measure", "budget",
                                            "plan_answers", "plan_next")
            if getattr(args, k) is not None}
    settings = dataclasses.replace(Settings(), **over)
    games = []
    for pair in [p for p in args.pairs.split(",") if p]:
        a, b = pair.split(":", 1)
        for i in range(args.first, args.first + args.games):
            levels = [a, b] if i % 2 == 0 else [b, a]
            g = one(levels, f"{args.seed}:{a}:{b}:{i}", settings, args.logs)
            g["pair"] = pair
            games.append(g)
            print(json.dumps(g), file=sys.stderr, flush=True)
    out: dict = {"settings": settings.as_dict(), "games": games, "pairs": []}
    print("| pair | games | decided | winner's accuracy >= loser's (95 % CI) | by the win chance "
          "lost | analysis CPU s median / max | <= 120 s | biggest loss | summed losses (winner / "
          "loser) vs margin (median) |")
    print("|---|---:|---:|---|---|---|---:|---:|---|")
    for pair in dict.fromkeys(g["pair"] for g in games):
        mine = [g for g in games if g["pair"] == pair]
        decided = [g for g in mine if g["scores"] and g["scores"][0] != g["scores"][1]]
        ok = ok_win = 0
        sums_w, sums_l, margins = [], [], []
        for g in decided:
            w = 0 if g["scores"][0] > g["scores"][1] else 1
            ok += g["accuracy"][w] >= g["accuracy"][1 - w]
            ok_win += g["win_loss"][w] <= g["win_loss"][1 - w]
            sums_w.append(g["sum_loss"][w])
            sums_l.append(g["sum_loss"][1 - w])
            margins.append(abs(g["scores"][0] - g["scores"][1]))
        lo, hi = wilson(ok, len(decided))
        wlo, whi = wilson(ok_win, len(decided))
        cpu = [g["cpu_s"] for g in mine]
        row = {"pair": pair, "games": len(mine), "decided": len(decided),
               "winner_at_least": ok, "share": round(ok / max(1, len(decided)), 3),
               "ci95": [round(lo, 3), round(hi, 3)], "winner_lost_less_chance": ok_win,
               "cpu_median": statistics.median(cpu),
               "cpu_max": max(cpu), "within_120": sum(1 for c in cpu if c <= 120),
               "max_loss": max(g["max_loss"] for g in mine)}
        out["pairs"].append(row)
        med = (lambda xs: statistics.median(xs) if xs else None)
        print(f"| {pair} | {row['games']} | {row['decided']} | {ok} ({row['share']:.2f}, "
              f"{lo:.2f}–{hi:.2f}) | {ok_win} ({ok_win / max(1, len(decided)):.2f}, "
              f"{wlo:.2f}–{whi:.2f}) | {row['cpu_median']} / {row['cpu_max']} | "
              f"{row['within_120']} | {row['max_loss']} | {med(sums_w)} / {med(sums_l)} vs "
              f"{med(margins)} |")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
