"""Calibrate the analysis measure of a solo game by turns left (``engine/arknova/data/calibration.json``).

    .venv/bin/python benchmarks/calibrate.py --deals 600 --seed CAL64 --level fast \\
        --data /tmp/cal.jsonl --write

Plays ``--deals`` solo deals with a bot level (deal ``i``: seed ``"{seed}:solo:{i}"``) and, at
the start of each of its moves, records the turns left and the raw measures of
``engine/arknova/bot/margin.py`` (the hand projection, the learned value's projection and their
mean; no calibration). Deals whose index is not divisible by 5 fit, per measure and number of
turns left, the mean of ``final score - measure`` (the offset) and the spread of what is left
(sigma, at least :data:`MIN_SIGMA`); the others are held out. It prints, by stage, on the held-out
deals, each measure's mean error, mean absolute error, its mean win chance against the share of
deals that reached 0, and the Brier score of that chance, before and after the calibration.
``--data FILE`` keeps the positions (``--refit`` fits from the file without playing);
``--write`` writes the fit to the shipped file, ``--out FILE`` elsewhere; the file records the
digest of the value.json it was fitted on (``tests/engine/test_calibration.py`` fails when
value.json changes and the calibration is not refitted).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.arknova.bot import margin  # noqa: E402
from engine.arknova.bot.calibration import MEASURES  # noqa: E402
from engine.arknova.bot.evaluate import clock  # noqa: E402
from engine.arknova.solo import total_turns  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.analysis_measure import chance  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

SHIPPED = ROOT / "engine" / "arknova" / "data" / "calibration.json"
VALUE = ROOT / "engine" / "arknova" / "data" / "value.json"
MIN_SIGMA = 1.0
STAGES = ((19, 99, "early (19+ turns left)"), (10, 18, "middle (10-18)"), (0, 9, "late (0-9)"))


def play(task: tuple) -> dict:
    """One solo deal of ``level``: its final score and, at each move start, the turns left and
    the raw measures."""
    level, seed = task
    game = engine.get_game("arknova")
    bot = make_bot(level)
    state = game.setup(1, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    rows = []
    for _ in range(30_000):
        if not game.waiting_for(state):
            break
        if state["stack"] and state["stack"][-1]["kind"] == "turn":
            hand, learned = margin.hand_margin(state, 0), margin.learned_projection(state, 0)
            rows.append([clock(state)[1], hand, learned, 0.5 * (hand + learned)])
        state, _ = game.apply(state, 0, decide(bot, game, state, 0, rng))
    res = game.result(state)
    return {"seed": seed, "score": res["scores"][0], "rows": rows}


def fit(deals: list[dict]) -> dict:
    """Per measure, the offset and sigma at each number of turns left (0 to the game's)."""
    n = total_turns() + 1
    out = {}
    for k, name in enumerate(MEASURES, start=1):
        by: list[list[float]] = [[] for _ in range(n)]
        for d in deals:
            for r in d["rows"]:
                by[min(n - 1, int(round(r[0])))].append(d["score"] - r[k])
        off = [statistics.fmean(x) if x else None for x in by]
        sig = [max(MIN_SIGMA, statistics.pstdev(x)) if len(x) > 1 else None for x in by]
        for row in (off, sig):  # a number of turns left no move started at: the nearest one's
            known = [i for i, v in enumerate(row) if v is not None]
            for i, v in enumerate(row):
                if v is None:
                    row[i] = row[min(known, key=lambda j: (abs(j - i), j))]
        out[name] = {"offset": [round(v, 2) for v in off], "sigma": [round(v, 2) for v in sig]}
    return out


def report(deals: list[dict], fitted: dict | None, sigma_raw: float) -> dict:
    """By stage: mean error, mean absolute error, mean win chance, share reached, Brier."""
    out: dict = {}
    for k, name in enumerate(MEASURES, start=1):
        out[name] = {}
        for lo, hi, label in STAGES:
            xs = []
            for d in deals:
                for r in d["rows"]:
                    if lo <= r[0] <= hi:
                        m, s = r[k], sigma_raw
                        if fitted is not None:
                            i = min(len(fitted[name]["offset"]) - 1, int(round(r[0])))
                            m, s = m + fitted[name]["offset"][i], fitted[name]["sigma"][i]
                        xs.append((m, chance(m, s), d["score"]))
            if not xs:
                continue
            out[name][label] = {
                "n": len(xs), "bias": round(statistics.fmean(m - f for m, _, f in xs), 2),
                "mae": round(statistics.fmean(abs(m - f) for m, _, f in xs), 2),
                "win": round(statistics.fmean(p for _, p, _ in xs), 3),
                "reached": round(statistics.fmean(float(f >= 0) for _, _, f in xs), 3),
                "brier": round(statistics.fmean((p - (f >= 0)) ** 2 for _, p, f in xs), 4)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", default="CAL64")
    ap.add_argument("--level", default="fast", help="the bot spec that plays the deals")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--data", help="keep the positions in this JSON-lines file")
    ap.add_argument("--refit", action="store_true", help="fit from --data without playing")
    ap.add_argument("--write", action="store_true", help="write the shipped calibration.json")
    ap.add_argument("--out", help="write the fit to this file")
    args = ap.parse_args()
    if args.refit:
        if not args.data:
            raise SystemExit("--refit needs --data")
        deals = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line]
    else:
        tasks = [(args.level, f"{args.seed}:solo:{i}") for i in range(args.deals)]
        deals = []
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for d in pool.map(play, tasks, chunksize=1):
                deals.append(d)
                print(f"{len(deals)}/{len(tasks)} score {d['score']}", file=sys.stderr)
        if args.data:
            Path(args.data).write_text("".join(json.dumps(d) + "\n" for d in deals))
    index = {d["seed"]: int(d["seed"].rsplit(":", 1)[1]) for d in deals}
    train = [d for d in deals if index[d["seed"]] % 5]
    held = [d for d in deals if index[d["seed"]] % 5 == 0]
    fitted = fit(train)
    scores = [d["score"] for d in deals]
    result = {
        "about": "benchmarks/calibrate.py: per measure of engine/arknova/bot/margin.py and "
                 "number of turns left (the index), the mean of final score - measure (offset) "
                 "and the spread around it (sigma) in solo games of the level below",
        "solo": {"level": args.level, "seed": args.seed, "deals": len(deals),
                 # the learned measure's offsets hold for these weights only (a test checks)
                 "value_sha256": hashlib.sha256(VALUE.read_bytes()).hexdigest(),
                 "fitted_on": len(train), "mean_score": round(statistics.fmean(scores), 2),
                 "reached": round(sum(1 for s in scores if s >= 0) / len(scores), 3),
                 "measures": fitted,
                 "held_out": {"deals": len(held),
                              "before": report(held, None, margin.sigma(1)),
                              "after": report(held, fitted, 0.0)}}}
    print(json.dumps({k: v for k, v in result["solo"].items() if k != "measures"}, indent=1))
    target = SHIPPED if args.write else Path(args.out) if args.out else None
    if target is not None:
        target.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
