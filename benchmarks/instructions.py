"""Instructions per greedy decision, counted by valgrind: the bots' speed without the noise.

On a shared 2-core machine the CPU time of the same greedy run moves by ±25 % from one run to
the next (docs/benchmarks.md), which hides any change smaller than that. The number of
machine instructions does not move: this script plays the same greedy-vs-greedy decisions as
``benchmarks/ratios.py`` (seeds ``--seeds``, the first ``--decisions`` of each game) under
``valgrind --tool=callgrind`` twice, once without the decisions and once with them, and prints
the difference per decision, with the hash of the decisions (equal hashes: the same play).

    .venv/bin/python benchmarks/instructions.py [--seeds 1,2,3] [--decisions 40] [--json]

Needs ``valgrind`` on the PATH; a run of the default takes about 3 minutes. ``PYTHONHASHSEED``
is fixed so that two runs of the same code count the same instructions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(seeds: list[int], decisions: int) -> str:
    """Greedy against greedy, as ``ratios.py`` plays it; returns the hash of the decisions."""
    sys.path.insert(0, str(ROOT))
    import engine
    from benchmarks.ratios import greedy_games
    from engine.core.state import canonical_json

    game = engine.get_game("arknova")
    if hasattr(game, "prepare"):
        game.prepare()
    h = hashlib.sha256()
    for *_, action in greedy_games(game, seeds, decisions):
        h.update(canonical_json(action))
    return h.hexdigest()[:16]


def count(seeds: str, decisions: int) -> tuple[int, str]:
    """Instructions of one run of :func:`play` under callgrind, and its printed hash."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--inner", "--seeds", seeds, "--decisions", str(decisions)],
        capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1)), out.stdout.strip()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--decisions", type=int, default=40, help="decisions per seed")
    p.add_argument("--json", action="store_true")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.inner:
        print(play(seeds, args.decisions))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 2
    start = time.time()
    base, _ = count(args.seeds, 0)
    total, digest = count(args.seeds, args.decisions)
    n = len(seeds) * args.decisions
    result = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                 capture_output=True, text=True).stdout.strip(),
        "seeds": seeds, "decisions": n,
        "greedy_minstr_per_decision": round((total - base) / n / 1e6, 3),
        "greedy_decisions_sha256": digest, "seconds": round(time.time() - start, 1),
    }
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{result['commit']}: {result['greedy_minstr_per_decision']} M instructions per "
              f"greedy decision ({n} decisions, hash {digest})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
