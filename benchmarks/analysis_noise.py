"""Charges that know the playouts' noise, scored offline on ``analysis_measures.py --worlds``.

    .venv/bin/python benchmarks/analysis_noise.py dv_fg.json dv_pf.json

A ``--worlds`` pass keeps, for every analysed decision, each compared answer's measured playout
end in every sampled world (per measure) and which of them was chosen. The compared answers
meet the same worlds, so the difference between an answer and the chosen one has a standard
error over the worlds. Rules scored here, per measure, on move starts only (``starts``) or on
the chained decisions too (``all``):

- ``plain``: the shipped charge, the best mean minus the chosen one's (at least 0);
- ``k``: each answer's mean difference to the chosen one less ``k`` standard errors, the
  largest (at least 0);
- ``shrink``: each mean difference ``d`` times ``max(0, 1 - a se² / d²)``, the largest.

Prints per rule and pair how often the winner's accuracy (the shipped formula,
:func:`engine.bots.analysis.accuracy`) is at least the loser's, over the decided games, and
how many move-start charges of the plain rule are within one standard error
(docs/analysis.md, "A charge net of the playouts' noise").
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from benchmarks.analysis_totals import decided  # noqa: E402
from engine.bots.analysis import accuracy, unit_of  # noqa: E402
from engine.bots.analysis_measure import MEASURES  # noqa: E402

RULES = [("plain", 0.0)] + [("k", k) for k in (0.5, 1.0, 1.5, 2.0, 3.0)] + \
    [("shrink", a) for a in (1.0, 2.0, 4.0)]


def differences(worlds: list, chosen: int, j: int) -> list[tuple[float, float]]:
    """``(mean difference, standard error)`` of each other compared answer to the chosen one,
    by measure ``j`` (the error 0 with a single world)."""
    base = [w[j] for w in worlds[chosen]]
    n = len(base)
    out = []
    for k, ws in enumerate(worlds):
        if k == chosen:
            continue
        d = [w[j] - x for w, x in zip(ws, base)]
        m = sum(d) / n
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n) if n > 1 else 0.0
        out.append((m, se))
    return out


def charge(worlds: list, chosen: int, j: int, rule: tuple[str, float]) -> float:
    kind, p = rule
    best = 0.0
    for m, se in differences(worlds, chosen, j):
        if kind == "k":
            m -= p * se
        elif kind == "shrink":
            m = m * max(0.0, 1.0 - p * se * se / (m * m)) if m > 0 else 0.0
        best = max(best, m)
    return best


def main() -> None:
    files = sys.argv[1:]
    if not files:
        raise SystemExit(__doc__)
    unit = unit_of(engine.get_game("arknova"))
    games = [g for f in files for g in json.loads(Path(f).read_text())["games"]]
    if any(len(e) < 7 for g in games for e in g["entries"]):
        raise SystemExit("these passes have no worlds: run analysis_measures.py with --worlds")
    agree: dict = {}
    for g, win in decided(games):
        for j, name in enumerate(MEASURES):
            for rule in RULES:
                for scope in ("starts", "all") if rule[0] != "plain" else ("starts",):
                    acc = []
                    for seat in (0, 1):
                        losses = [charge(e[6], e[5], j, rule if scope == "all" or not e[2]
                                         else ("plain", 0.0))
                                  for e in g["entries"] if e[0] == seat]
                        acc.append(accuracy(sum(losses) / max(1, len(losses)), unit))
                    for pair in (g["pair"], "all"):
                        agree.setdefault((name, rule, scope, pair), []).append(
                            acc[win] >= acc[1 - win])
    pairs = sorted({k[3] for k in agree})
    print("| measure | rule | scope | " + " | ".join(pairs) + " |")
    print("|---|---|---|" + "---:|" * len(pairs))
    for key in dict.fromkeys(k[:3] for k in agree):
        name, (kind, p), scope = key
        cells = [f"{sum(agree[key + (q,)])} of {len(agree[key + (q,)])}" for q in pairs]
        print(f"| {name} | {kind} {p:g} | {scope} | " + " | ".join(cells) + " |")
    for j, name in enumerate(MEASURES):
        charged = []
        for g in games:
            for e in g["entries"]:
                if e[2] or e[3] < 2 or len(e[6][0]) < 2:
                    continue
                diffs = differences(e[6], e[5], j)
                m, se = max(diffs) if diffs else (0.0, 0.0)
                if m > 0:
                    charged.append((m, se))
        if charged:
            within = sum(m <= se for m, se in charged)
            print(f"{name}: {len(charged)} move starts charged, {within} "
                  f"({within / len(charged):.2f}) within one standard error; median charge "
                  f"{statistics.median(m for m, _ in charged):.2f}, median error "
                  f"{statistics.median(se for _, se in charged):.2f}")


if __name__ == "__main__":
    main()
