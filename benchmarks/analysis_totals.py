"""Totals of ``benchmarks/analysis_measures.py`` passes, pooled over pairs; the half-time sign.

    .venv/bin/python benchmarks/analysis_totals.py am_fg.json am_pf.json am_fr.json \\
        [--trim 0.1] [--logs LOGS]

From the ``--json`` files of ``analysis_measures.py`` (their ``entries``: seat and loss per
measure of every analysed decision): per pair and over all the files' decided games, how often
the winner's accuracy is at least the loser's (issue #29: >= 80 % of 100 games between different
levels), per measure, with the accuracy of the plain mean loss (the shipped formula,
:func:`engine.bots.analysis.accuracy`) and with each seat's biggest ``--trim`` share of losses
left out. With ``--logs`` (the folder ``analysis_ladder.py --logs`` fills), also per pair and
measure the half-time sign: seat 0's margin by that measure at the move start nearest half the
game's turns, against the final winner (issue #29: >= 80 % of held-out games).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from benchmarks.ladder import wilson  # noqa: E402
from engine.bots.analysis import accuracy, unit_of  # noqa: E402
from engine.bots.analysis_measure import MEASURES  # noqa: E402
from engine.bots.evaluation import evaluator_for  # noqa: E402


def seat_accuracy(losses: list[float], trim: float, unit: float) -> float:
    """The accuracy of a seat's losses, its biggest ``trim`` share left out."""
    xs = sorted(losses)
    k = int(len(xs) * trim)
    xs = xs[:len(xs) - k] if k else xs
    return accuracy(sum(xs) / max(1, len(xs)), unit)


def decided(games: list[dict]):
    """``(game, winning seat)`` of each decided 2-player game of the passes."""
    for g in games:
        s = g["scores"]
        if s and s[0] != s[1]:
            yield g, 0 if s[0] > s[1] else 1


def agreement(games: list[dict], trims: tuple, unit: float) -> dict:
    """``{(pair, measure, trim): [winner's accuracy >= loser's, per decided game]}``."""
    out: dict = {}
    for g, w in decided(games):
        for j, m in enumerate(MEASURES):
            for trim in trims:
                acc = [seat_accuracy([e[1][j] for e in g["entries"] if e[0] == seat], trim, unit)
                       for seat in (0, 1)]
                for pair in (g["pair"], "all"):
                    out.setdefault((pair, m, trim), []).append(acc[w] >= acc[1 - w])
    return out


def half_time(logs: Path) -> dict:
    """``{(pair, measure): [the half-time margin has the winner's sign, per decided game]}``."""
    game = engine.get_game("arknova")
    evs = {m: evaluator_for(game, m) for m in MEASURES}
    out: dict = {}
    for f in sorted(logs.glob("*.json")):
        d = json.loads(f.read_text())
        res = d["result"]
        if not res:
            continue
        scores = {int(k): v for k, v in res["scores"].items()}
        if len(scores) != 2 or scores[0] == scores[1]:
            continue
        state = game.setup(2, {}, d["seed"])
        starts = []
        for item in d["log"]:
            if state["stack"][-1]["kind"] == "turn":
                starts.append((state["turn"], state))  # states are values: apply copies
            state, _ = game.apply(state, item["seat"], item["action"])
        turns = max(1, state["turn"])
        _, mid = min(starts, key=lambda ts: abs(ts[0] / turns - 0.5))
        pair = ":".join(sorted(d["levels"]))
        for m, ev in evs.items():
            right = (ev.value(mid, 0) > 0) == (scores[0] > scores[1])
            for key in ((pair, m), ("all", m)):
                out.setdefault(key, []).append(right)
    return out


def line(label: str, v: list[bool]) -> str:
    lo, hi = wilson(sum(v), len(v))
    return f"| {label} | {sum(v)} of {len(v)} ({sum(v) / len(v):.2f}, {lo:.2f}–{hi:.2f}) |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="--json files of analysis_measures.py")
    ap.add_argument("--trim", type=float, default=0.1)
    ap.add_argument("--logs", help="the games' logs: also the half-time sign")
    args = ap.parse_args()
    games = [g for f in args.files for g in json.loads(Path(f).read_text())["games"]]
    unit = unit_of(engine.get_game("arknova"))
    print("| pair, measure, biggest share left out | winner's accuracy >= loser's (95 % CI) |")
    print("|---|---|")
    for (pair, m, trim), v in agreement(games, (0.0, args.trim), unit).items():
        print(line(f"{pair}, {m}, {trim:g}", v))
    if args.logs:
        print("\n| pair, measure | half-time sign is the winner's (95 % CI) |\n|---|---|")
        for (pair, m), v in sorted(half_time(Path(args.logs)).items()):
            print(line(f"{pair}, {m}", v))


if __name__ == "__main__":
    main()
