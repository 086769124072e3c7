"""The bot ladder: how strong each level is, how long its games last, how well its value predicts.

    .venv/bin/python benchmarks/ladder.py --games 200 --solo 200 --workers 2 \\
        --pairs fast:greedy-ref,search:fast,fast:random,fast:fast --solo-levels fast,search

For each pair ``a:b`` it plays ``--games`` 2-player games (game ``i`` with seed
``"{seed}:{pair}:{i}"``; ``a`` sits first in even games and second in odd ones) and prints

- ``a``'s win rate (ties count half) with a 95 % Wilson interval;
- the median game length in turns per seat and in breaks, and the share of games that ended
  within 12 breaks (the markers crossed; the stall guard's end does not count);
- the median milliseconds per decision of each level (wall clock, decisions with more than one
  answer only), over every game it played;

then per solo level (``--solo-levels``) the mean score and the share of ``--solo`` deals at 0 or
more, and the calibration of the learned value on these games (held out: the value was fitted
on other seeds): the predicted margin of seat 0 at the start of each move against the final
margin, by stage (share of the game's turns): mean absolute error and how often the sign is the
winner's; and at half time. Over the solo deals, the analysis' solo measure (the learned margin
calibrated by turns left, ``engine/arknova/bot/calibration.py``) against the final score: mean
error, mean absolute error and mean win chance against the share that reached 0, by turns left.

Levels: ``random``, ``greedy-ref`` (today's ``greedy``: the hand-weighted evaluation, frozen as
the reference), ``fast``, ``search``, ``plan`` (``search:0.25`` and other bot specs work too, see
:func:`engine.bots.make_bot`; ``--level NAME=SPEC`` names a spec with settings, e.g. ``--level
plan3=plan:k=3,samples=1 --solo-levels fast,plan3``). A level ``LEVEL@b`` plays on the weights of
``--value-b`` (the others on ``--value`` or the shipped file): ``--pairs fast:fast@b --value
cand.json --value-b engine/arknova/data/value.json`` pits a candidate against the shipped value.
``--paired`` plays every pair on the same deals, game by game; ``--first K`` starts at game
``K``. Besides the wall milliseconds it prints each level's CPU milliseconds per decision and per
move start (where a search level searches). ``--json FILE`` also writes every figure as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.arknova.bot import learned, margin  # noqa: E402
from engine.arknova.bot.evaluate import clock  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.analysis_measure import chance  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

#: Ladder names of bot specs; ``greedy-ref`` is the hand-weighted greedy the issue froze.
LEVELS = {"random": "random", "greedy-ref": "greedy", "fast": "fast", "search": "search",
          "plan": "plan"}
MAX_DECISIONS = 30_000


#: The weights each value name plays on (``a``: ``--value`` or the shipped file, ``b``:
#: ``--value-b``); a level ``name@b`` decides on ``b``.
VALUES: dict = {}


def use_value(path: str | None, path_b: str | None = None) -> None:
    """Play on the weights in ``path`` (a candidate value.json) instead of the shipped ones,
    and levels ``...@b`` on those in ``path_b`` (validated; also each worker's initializer)."""
    shipped = learned.load
    VALUES["a"] = shipped
    if path:
        data = learned.validate(json.loads(Path(path).read_text()))
        VALUES["a"] = lambda: data
    if path_b:
        data_b = learned.validate(json.loads(Path(path_b).read_text()))
        VALUES["b"] = lambda: data_b
    learned.load = VALUES["a"]  # the module's functions look ``load`` up at each call


def define_levels(defs: list[str]) -> None:
    """``NAME=SPEC`` entries (``--level``): the level ``NAME`` plays the bot spec ``SPEC``."""
    for d in defs:
        name, eq, bot = d.partition("=")
        if not eq or not name or ":" in name or "," in name or not bot:
            raise SystemExit(f"--level {d!r}: expected NAME=SPEC (NAME without ':' or ',')")
        make_bot(bot)  # a bad spec fails here, before any game
        LEVELS[name] = bot


def init_worker(path: str | None, path_b: str | None, defs: list[str]) -> None:
    """A worker's initializer: the same weights and named levels as the main process."""
    use_value(path, path_b)
    define_levels(defs)


def weights_of(level: str):
    """The ``load`` a level decides on: ``b``'s for ``name@b``, else ``a``'s."""
    return VALUES.get(level.rpartition("@")[2], VALUES["a"]) if "@" in level else VALUES["a"]


def spec(level: str) -> str:
    level = level.partition("@")[0]
    return LEVELS.get(level, level)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def play(task: tuple) -> dict:
    """One game of ``levels`` (one per seat, in seat order); times, length, calibration."""
    levels, seed = task
    game = engine.get_game("arknova")
    players = len(levels)
    bots = [make_bot(spec(lv)) for lv in levels]
    state = game.setup(players, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    ms: list[list[float]] = [[] for _ in range(players)]
    cpu: list[list[float]] = [[] for _ in range(players)]  # CPU ms, decisions with a choice
    starts: list[list[float]] = [[] for _ in range(players)]  # CPU ms, move starts only
    preds = []
    decisions = 0
    while decisions < MAX_DECISIONS:
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        if state["stack"] and state["stack"][-1]["kind"] == "turn":
            if players > 1:
                preds.append((state["turn"], learned.predicted_margin(state, 0)))
            else:  # what the analysis shows: the calibrated expected score and its spread
                tl = clock(state)[1]
                m = margin.learned_margin(state, 0)
                preds.append((tl, m, chance(m, margin.spread_of("learned", state, 0))))
        for seat in waiting:
            if seat not in game.waiting_for(state):
                continue
            many = len(game.legal_actions(state, seat)) > 1
            start = state["stack"][-1]["kind"] == "turn" if state["stack"] else False
            learned.load = weights_of(levels[seat])
            t0, c0 = time.perf_counter(), time.process_time()
            action = decide(bots[seat], game, state, seat, rng)
            learned.load = VALUES["a"]
            if many:
                ms[seat].append(1000 * (time.perf_counter() - t0))
                cpu[seat].append(1000 * (time.process_time() - c0))
                if start:
                    starts[seat].append(cpu[seat][-1])
            state, _ = game.apply(state, seat, action)
            decisions += 1
    res = game.result(state)
    end = state["end"] or {}
    return {"levels": levels, "seed": seed, "scores": [res["scores"][s] for s in range(players)]
            if res else None, "turns": state["turn"], "breaks": state["breaks"],
            "stalled": res is None or end.get("trigger") is None, "ms": ms, "cpu": cpu,
            "starts": starts, "preds": preds}


def start_cpu(xs: list[float]) -> dict:
    """CPU milliseconds of the move-start decisions (where a search level searches)."""
    if not xs:
        return {"start_median": None, "start_p90": None, "start_max": None, "starts": 0}
    xs = sorted(xs)
    return {"start_median": round(statistics.median(xs), 1),
            "start_p90": round(xs[min(len(xs) - 1, int(0.9 * len(xs)))], 1),
            "start_max": round(xs[-1], 1), "starts": len(xs)}


def pair_summary(a: str, b: str, games: list[dict]) -> dict:
    wins = 0.0
    for g in games:
        sa = g["scores"][g["levels"].index(a)] if a != b else g["scores"][0]
        sb = g["scores"][1 - g["levels"].index(a)] if a != b else g["scores"][1]
        wins += 1.0 if sa > sb else 0.5 if sa == sb else 0.0
    n = len(games)
    lo, hi = wilson(wins, n)
    ended = sum(1 for g in games if not g["stalled"] and g["breaks"] <= 12)
    return {"pair": f"{a}:{b}", "games": n, "win_rate": round(wins / n, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "turns_per_seat_median": statistics.median(g["turns"] / 2 for g in games),
            "breaks_median": statistics.median(g["breaks"] for g in games),
            "ended_within_12_breaks": round(ended / n, 3),
            "stalled": sum(1 for g in games if g["stalled"])}


def calibration(games: list[dict]) -> dict:
    rows = []  # (share of the game, predicted, final margin of seat 0)
    half = []
    for g in games:
        if not g["preds"] or g["scores"] is None:
            continue
        final = g["scores"][0] - g["scores"][1]
        for turn, pred in g["preds"]:
            rows.append((turn / max(1, g["turns"]), pred, final))
        t, pred = min(g["preds"], key=lambda tp: abs(tp[0] / max(1, g["turns"]) - 0.5))
        if final != 0:
            half.append((pred > 0) == (final > 0))
    out: dict = {"positions": len(rows)}
    for lo, hi, label in ((0, 1 / 3, "early"), (1 / 3, 2 / 3, "middle"), (2 / 3, 1.01, "late")):
        sel = [r for r in rows if lo <= r[0] < hi and r[2] != 0]
        if sel:
            out[label] = {"mae": round(statistics.fmean(abs(p - f) for _, p, f in sel), 1),
                          "bias": round(statistics.fmean(p - f for _, p, f in sel), 1),
                          "sign": round(sum(1 for _, p, f in sel if (p > 0) == (f > 0))
                                        / len(sel), 3)}
    out["half_time_sign"] = round(sum(half) / len(half), 3) if half else None
    out["half_time_games"] = len(half)
    return out


def solo_calibration(games: list[dict]) -> dict:
    """The analysis' solo measure (the learned margin calibrated by turns left) at each move
    start against the final score, by turns left: mean error, mean absolute error, mean win
    chance against the share of these deals that reached 0."""
    out: dict = {"positions": sum(len(g["preds"]) for g in games)}
    for lo, hi, label in ((19, 99, "early"), (10, 18, "middle"), (0, 9, "late")):
        sel = [(m, p, g["scores"][0]) for g in games for tl, m, p in g["preds"] if lo <= tl <= hi]
        if sel:
            out[label] = {"mae": round(statistics.fmean(abs(m - f) for m, _, f in sel), 1),
                          "bias": round(statistics.fmean(m - f for m, _, f in sel), 1),
                          "win": round(statistics.fmean(p for _, p, _ in sel), 3),
                          "reached": round(statistics.fmean(float(f >= 0) for *_, f in sel), 3)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", default="fast:greedy-ref,fast:random,fast:fast")
    ap.add_argument("--games", type=int, default=20, help="games per pair (the issue: 200)")
    ap.add_argument("--solo-levels", default="greedy-ref,fast")
    ap.add_argument("--solo", type=int, default=20, help="solo deals per level (issue: 200)")
    ap.add_argument("--seed", default="ladder")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--level", action="append", default=[], metavar="NAME=SPEC",
                    help="name a bot spec for --pairs / --solo-levels, e.g. "
                    "--level plan3=plan:k=3,samples=1 or s24=search:budget=none,playouts=24 "
                    "(repeatable)")
    ap.add_argument("--value", help="a candidate value.json to measure (default: the shipped)")
    ap.add_argument("--value-b", help="the value.json of levels named LEVEL@b (e.g. --pairs "
                    "fast:fast@b --value cand.json --value-b engine/arknova/data/value.json)")
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first game (resume a run: the same seeds go on)")
    ap.add_argument("--paired", action="store_true",
                    help="every pair plays the same deals (game i: seed '{seed}:duel:{i}'), "
                         "interleaved game by game: variants of a level compared on equal luck")
    args = ap.parse_args()
    define_levels(args.level)
    started = time.time()
    pairs = [tuple(p.split(":", 1)) for p in args.pairs.split(",") if p]
    tasks = []
    for a, b in pairs:
        for i in range(args.first, args.first + args.games):
            seed = f"{args.seed}:duel:{i}" if args.paired else f"{args.seed}:{a}:{b}:{i}"
            tasks.append(([a, b] if i % 2 == 0 else [b, a], seed))
    if args.paired:  # game by game, so that a run cut short still compares the pairs
        tasks.sort(key=lambda t: int(t[1].rsplit(":", 1)[1]))
    solo_levels = [s for s in args.solo_levels.split(",") if s] if args.solo else []
    for lv in solo_levels:
        tasks += [([lv], f"{args.seed}:solo:{i}")
                  for i in range(args.first, args.first + args.solo)]
    results = []
    use_value(args.value, args.value_b)
    with ProcessPoolExecutor(max_workers=args.workers, initializer=init_worker,
                             initargs=(args.value, args.value_b, args.level)) as pool:
        for g in pool.map(play, tasks, chunksize=1):
            results.append(g)
            print(f"{len(results)}/{len(tasks)} {g['levels']} scores {g['scores']} turns "
                  f"{g['turns']} breaks {g['breaks']} seed {g['seed']} cpu_s "
                  f"{[round(sum(c) / 1000, 1) for c in g['cpu']]} start_cpu_ms_max "
                  f"{[round(max(c), 0) if c else 0 for c in g['starts']]} cpu_ms_max "
                  f"{[round(max(c), 0) if c else 0 for c in g['cpu']]}",
                  file=sys.stderr, flush=True)
    out: dict = {"seed": args.seed, "value": args.value or "shipped", "value_b": args.value_b,
                 "games_per_pair": args.games, "pairs": [], "ms": {}, "solo": {}}
    ms: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    starts: dict[str, list[float]] = {}
    duels = [g for g in results if len(g["levels"]) == 2]
    for g in results:
        for lv, times, c, st in zip(g["levels"], g["ms"], g["cpu"], g["starts"]):
            ms.setdefault(lv, []).extend(times)
            cpu.setdefault(lv, []).extend(c)
            starts.setdefault(lv, []).extend(st)
    for a, b in pairs:
        prefix = f"{args.seed}:duel:" if args.paired else f"{args.seed}:{a}:{b}:"
        mine = [g for g in duels if sorted(g["levels"]) == sorted([a, b])
                and g["seed"].startswith(prefix)]
        out["pairs"].append(pair_summary(a, b, mine))
    for lv in solo_levels:
        xs = [g["scores"][0] for g in results if g["levels"] == [lv]]
        out["solo"][lv] = {"deals": len(xs), "mean": round(statistics.fmean(xs), 1),
                           "reached": round(sum(1 for x in xs if x >= 0) / len(xs), 3)}
    out["ms"] = {lv: {"median": round(statistics.median(t), 1), "decisions": len(t),
                      "cpu_median": round(statistics.median(cpu[lv]), 1),
                      "cpu_mean": round(statistics.fmean(cpu[lv]), 1),
                      "cpu_max": round(max(cpu[lv]), 1), **start_cpu(starts[lv])}
                 for lv, t in ms.items() if t}
    out["calibration"] = calibration(duels)
    out["solo_calibration"] = solo_calibration([g for g in results if len(g["levels"]) == 1])
    out["seconds"] = round(time.time() - started)
    print("| pair | games | win rate a (95 % CI) | turns/seat (median) | breaks (median) "
          "| ended <= 12 breaks | stalled |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for p in out["pairs"]:
        print(f"| {p['pair']} | {p['games']} | {p['win_rate']:.3f} ({p['ci95'][0]:.3f}–"
              f"{p['ci95'][1]:.3f}) | {p['turns_per_seat_median']} | {p['breaks_median']} | "
              f"{p['ended_within_12_breaks']:.3f} | {p['stalled']} |")
    print("\n| level | median ms per decision (wall) | CPU ms median / mean / max | decisions "
          "| move starts: CPU ms median / p90 / max | move starts |\n|---|---:|---:|---:|---:|---:|")
    for lv, m in out["ms"].items():
        print(f"| {lv} | {m['median']} | {m['cpu_median']} / {m['cpu_mean']} / {m['cpu_max']} "
              f"| {m['decisions']} "
              f"| {m['start_median']} / {m['start_p90']} / {m['start_max']} | {m['starts']} |")
    print("\n| solo level | deals | mean score | share >= 0 |\n|---|---:|---:|---:|")
    for lv, s in out["solo"].items():
        print(f"| {lv} | {s['deals']} | {s['mean']} | {s['reached']:.3f} |")
    print("\ncalibration (learned value, seat 0, predicted vs final margin):",
          json.dumps(out["calibration"]))
    print("solo calibration (the analysis' measure by turns left, predicted vs final score):",
          json.dumps(out["solo_calibration"]))
    print(f"\n{out['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
