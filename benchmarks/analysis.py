"""CPU time of the post-game analysis of one greedy-vs-greedy game.

    .venv/bin/python benchmarks/analysis.py [--seed g1] [--game arknova] [--players 2]
        [--playouts N] [--candidates N] [--json] [--hints K]

Plays a game with greedy on every seat (game seed ``--seed``, bots' generator
``"{seed}:bots"``), then analyses it with :func:`engine.bots.analysis.analyse` at the default
settings (or the ones given) and prints the CPU seconds of the analysis
(``time.process_time``: the machine is shared, wall time would measure the neighbours too),
the points analysed and the seconds per point, split into move starts (played out) and chained
follow-ups (greedy's one-ply look). With ``--hints K`` it times :func:`hint` instead, at every
``K``-th decision of the game that has more than one answer (CPU seconds: mean, median, max).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import decide, get_bot  # noqa: E402
from engine.bots.analysis import Settings, analyse  # noqa: E402
from engine.bots.hints import hint  # noqa: E402
from engine.core import rng as _rng  # noqa: E402


def greedy_game(game, players: int, seed: str) -> list[dict]:
    """The action log of a greedy-vs-greedy game."""
    state = game.setup(players, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    bot = get_bot("greedy")
    log = []
    while game.waiting_for(state):
        seat = min(game.waiting_for(state))
        action = decide(bot, game, state, seat, rng)
        log.append({"seat": seat, "action": action})
        state, _ = game.apply(state, seat, action)
    return log


def time_hints(game, args, log, settings) -> None:
    state = game.setup(args.players, {}, args.seed)
    cpu = []
    for i, item in enumerate(log):
        if i % args.hints == 0 and len(game.legal_actions(state, item["seat"])) > 1:
            started = time.process_time()
            hint(game, state, item["seat"], settings)
            cpu.append(time.process_time() - started)
        state, _ = game.apply(state, item["seat"], item["action"])
    cpu.sort()
    print(f"seed {args.seed}: {len(cpu)} hints; CPU s mean {sum(cpu) / len(cpu):.3f} "
          f"median {cpu[len(cpu) // 2]:.3f} max {cpu[-1]:.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", default="g1")
    p.add_argument("--game", default="arknova")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--playouts", type=int)
    p.add_argument("--candidates", type=int)
    p.add_argument("--json", action="store_true")
    p.add_argument("--hints", type=int, help="time hints at every K-th decision instead")
    args = p.parse_args()
    game = engine.get_game(args.game)
    log = greedy_game(game, args.players, args.seed)
    over = {k: v for k, v in (("playouts", args.playouts), ("candidates", args.candidates))
            if v is not None}
    settings = dataclasses.replace(Settings(), **over)
    if args.hints:
        time_hints(game, args, log, settings)
        return
    ticks: list[float] = []
    started = time.process_time()
    report = analyse(game, args.players, {}, args.seed, log, settings,
                     progress=lambda done, total: ticks.append(time.process_time()))
    cpu = time.process_time() - started
    entries = report["entries"]
    moves = [e for e in entries if not e["chained"]]
    # the CPU of each entry: the time between its progress call and the one before
    each = [b - a for a, b in zip(ticks, ticks[1:])]
    move_cpu = sum(t for t, e in zip(each, entries) if not e["chained"])
    out = {"seed": args.seed, "game": args.game, "decisions": len(log), "points": len(entries),
           "move_points": len(moves), "chained_points": len(entries) - len(moves),
           "cpu_s": round(cpu, 2), "s_per_point": round(cpu / max(1, len(entries)), 4),
           "move_cpu_s": round(move_cpu, 2), "chained_cpu_s": round(sum(each) - move_cpu, 2),
           "settings": settings.as_dict(),
           "accuracy": [s["accuracy"] for s in report["seats"]],
           "mistakes": [s["mistakes"] for s in report["seats"]]}
    if args.json:
        print(json.dumps(out))
        return
    print(f"seed {out['seed']}: {out['decisions']} decisions, {out['points']} points analysed "
          f"({out['move_points']} move starts, {out['chained_points']} chained); "
          f"CPU {out['cpu_s']} s ({out['move_cpu_s']} s move starts, "
          f"{out['chained_cpu_s']} s chained), {out['s_per_point']} s per point; "
          f"accuracy {out['accuracy']}, mistakes {out['mistakes']}")


if __name__ == "__main__":
    main()
