"""Median ms per fast decision on fixed positions, with the hand-potential features computed
(``learned.hand_potential``) and with them stubbed to ``[0, 0]`` (their cost), alternating
order over three passes (docs/bots.md, "Value3").

    nice -n 19 .venv/bin/python benchmarks/hand_potential_ms.py
"""

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.arknova.bot import learned  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from tests.engine.test_bots import positions  # noqa: E402

ARK = engine.get_game("arknova")
states = []
for seed in (61, 62, 63):
    for st in positions(ARK, 2, seed, every=7, limit=1400):
        seat = min(ARK.waiting_for(st))
        if len(ARK.legal_actions(st, seat)) > 1:
            states.append((st, seat))
real = learned.hand_potential
out = {}
for rep in range(3):
    for name in (("without", "with") if rep % 2 else ("with", "without")):
        learned.hand_potential = real if name == "with" else (lambda p, parts: [0.0, 0.0])
        learned._FEATS.clear()
        bot = make_bot("fast")
        for st, seat in states:
            t0 = time.perf_counter()
            decide(bot, ARK, st, seat, {"rng": 5})
            out.setdefault(f"{name} (pass {rep})", []).append(1000 * (time.perf_counter() - t0))
for k, v in out.items():
    print(k, len(v), "median ms", round(statistics.median(v), 2), "mean", round(statistics.fmean(v), 2))
