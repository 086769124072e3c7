"""Fit the learned value (``engine/arknova/data/value.json``) to the final margin of self-play.

    .venv/bin/python benchmarks/train_value.py --seed 29 --games 160 --solo 160 \\
        --bots greedy,greedy --bots fast,fast --bots fast,greedy --workers 2 --write

Plays ``--games`` seat-rotated 2-player games per ``--bots`` pair (seeds ``"{seed}:{pair}:{i}"``)
and ``--solo`` solo games per solo bot (``--solo-bots``, default ``greedy`` and ``fast``) with
the weights currently shipped, records the features (:func:`engine.arknova.bot.learned.features`)
of both seats at the start of every move, and fits ridge regressions (pure Python normal
equations, features scaled to unit spread, ``--lam`` 0.3; the change from today's projected
margin is what is fitted): the duel weights to each seat's final margin, the solo weights to the final score.
Games whose index is a multiple of 5 are held out; the held-out fit is printed by stage of the
game (error and how often the predicted margin has the final winner's sign). ``sigma`` is the
held-out residual spread. ``--write`` replaces ``value.json`` (``tempo`` is kept unless
``--tempo`` is given). Iterate: train, write, train again (the second round plays with the
new value). ``--data FILE`` keeps the positions (JSON lines) to refit without playing.
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
from engine.arknova.bot import learned  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.simulate import parse_bots  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

VALUE_FILE = ROOT / "engine" / "arknova" / "data" / "value.json"
MAX_DECISIONS = 20_000


def use_value(path: str | None) -> None:
    """Play on the weights in ``path`` (a candidate value.json) instead of the shipped ones
    (validated; also each worker's initializer; as ``benchmarks/ladder.py --value``)."""
    if path:
        data = learned.validate(json.loads(Path(path).read_text()))
        learned.load = lambda: data  # the module's functions look ``load`` up at each call


def play(task: tuple) -> dict:
    """One game: the features of every seat at the start of each move, and the result."""
    bots, seed, index = task
    game = engine.get_game("arknova")
    players = len(bots)
    seat_bots = [make_bot(bots[(s + index) % players]) for s in range(players)]
    state = game.setup(players, {}, f"{seed}:{index}")
    rng = {"rng": _rng.seed_to_int(f"{seed}:{index}:bots")}
    rows = []
    decisions = 0
    while True:
        waiting = sorted(game.waiting_for(state))
        if not waiting or decisions > MAX_DECISIONS:
            break
        stack = state["stack"]
        if stack and stack[-1]["kind"] == "turn":
            rows.append({"turn": state["turn"], "breaks": state["breaks"],
                         "x": [learned.features(state, s) for s in range(players)]})
        for seat in waiting:
            if seat in game.waiting_for(state):
                state, _ = game.apply(state, seat, decide(seat_bots[seat], game, state, seat, rng))
                decisions += 1
    res = game.result(state)
    scores = [res["scores"][s] for s in range(players)] if res else None
    return {"bots": [bots[(s + index) % players] for s in range(players)], "index": index,
            "scores": scores, "turns": state["turn"], "breaks": state["breaks"], "rows": rows}


def targets(game: dict) -> list[float]:
    sc = game["scores"]
    if len(sc) == 1:
        return [float(sc[0])]
    return [float(sc[s] - max(v for o, v in enumerate(sc) if o != s)) for s in range(len(sc))]


def ridge(xs: list[list[float]], ys: list[float], lam: float) -> list[float]:
    """Weights minimizing squared error + ``lam`` * |w|^2 (features scaled to unit spread)."""
    n = len(xs[0])
    scale = [max(1e-9, math.sqrt(sum(x[j] * x[j] for x in xs) / len(xs))) for j in range(n)]
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in zip(xs, ys):
        z = [x[j] / scale[j] for j in range(n)]
        for i in range(n):
            zi = z[i]
            if zi == 0.0:
                continue
            b[i] += zi * y
            row = a[i]
            for j in range(n):
                row[j] += zi * z[j]
    for i in range(n):
        a[i][i] += lam * len(xs)
    # Gaussian elimination with partial pivoting
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] / scale[i] for i in range(n)]


#: Bounds the fit keeps (an active set: a weight past its bound is fixed at it and the rest
#: refitted). Resources are worth something: fitted freely on greedy's games, money and cards
#: came out slightly negative (greedy hoards both), and bots on that value stopped taking money
#: at all and looped without a break; tokens against a zoo cost. The hand has floors: fitted
#: freely it got 0 (greedy's games), and a bot that does not value cards never draws any, plays
#: few animals and ends games late (probe: 36 of 97 turns spent on X tokens, no card action).
#: The incomes have floors at their worth (a point of appeal per break, 0.2 points a coin, for
#: each break probably left): self-play hardly builds kiosks or plays income sponsors, so the
#: fit cannot see what they earn and left both at about 0; at their worth the fast level won
#: 0.710 of 200 games against the fitted weights and 0.823 against greedy-ref (was 0.645;
#: docs/bots.md, "Incomes at their worth").
LOWER = {"money": 0.05, "side_income": 0.0, "appeal_in": 0.0, "assets": 0.0, "space": 0.0,
         "hand": 0.6, "projects": 0.0, "cards": 0.3, "conservation": 0.0, "animals": 0.0,
         "side_income*breaks": 0.2, "appeal_in*breaks": 1.0, "money*phase": 0.05,
         "assets*phase": 0.0, "space*phase": 0.0, "hand*phase": 0.4, "projects*phase": 0.0,
         "ready": 0.0, "build": 0.0, "ready*phase": 0.0, "build*phase": 0.0,
         "project_soon": 0.3}
#: Ceilings: tokens against a zoo never help it; and the duel's assets (reputation, X tokens,
#: workers, upgrades, partners, universities, icons) are capped at what play measured: the fit
#: gave them 0.63 + 0.87 by phase (1.5 points a reputation step early), and the one-ply look
#: then spent a third of its turns on the association action's reputation with its enclosures
#: empty; at 0.3 + 0.5 the fast level won 0.705 of 100 games and 0.593 of 200 fresh ones against
#: the fitted weights (docs/bots.md, "Reputation at its worth").
#: The project soon within the association card's reach (``project_soon``) counts 0.3 to 0.5 of
#: its points: past the points its support brings, a zoo would keep the card at strength 5 and
#: never support (a screen at 0.6 in solo did just that: docs/bots.md, "Projects within reach").
UPPER = {"malus": 0.0, "assets": 0.3, "assets*phase": 0.5, "project_soon": 0.5}
#: Solo games have no floors on the hand: a solo game's last turns must not hoard cards (the
#: fit itself puts the hand's weight on ``hand*phase``, which fades over the last turns).
#: ``build`` (animals in hand that need an enclosure first, affordable) may go down to -0.1:
#: with ``build*phase`` at 0.15 such an animal then counts a little early and less than
#: nothing in the last turns, where it will not be played; tuned by play on matched homes
#: it scored -37.0 against -41.1 on 200 fresh deals (docs/bots.md, "The solo on matched homes").
SOLO_LOWER = {**LOWER, "hand": 0.0, "cards": 0.0, "hand*phase": 0.0, "build": -0.1,
              "side_income*breaks": 0.0}  # the solo's sponsor appeal also at its worth (1.0)
#: The solo's project options (``projects``: the levels the zoo meets) count at most half their
#: points: fitted at 1.69 by phase, an option was worth more than its support, so projects were
#: rarely supported, 0.3 a game (docs/bots.md, "Projects within reach").
SOLO_UPPER = {"malus": 0.0, "projects": 0.0, "projects*phase": 0.5, "project_soon": 0.5}
#: Each part's (floors, ceilings).
BOUNDS = {"duel": (LOWER, UPPER), "solo": (SOLO_LOWER, SOLO_UPPER)}


def bounded_ridge(xs: list[list[float]], ys: list[float], lam: float,
                  names: tuple, lower: dict | None = None,
                  upper: dict | None = None) -> list[float]:
    """:func:`ridge` with the ``lower`` / ``upper`` bounds (defaults :data:`LOWER` and
    :data:`UPPER`; active set)."""
    lower = LOWER if lower is None else lower
    upper = UPPER if upper is None else upper
    fixed: dict[int, float] = {}
    for _ in range(len(names) + 1):
        free = [j for j in range(len(names)) if j not in fixed]
        yy = [y - sum(v * x[j] for j, v in fixed.items()) for x, y in zip(xs, ys)]
        wf = ridge([[x[j] for j in free] for x in xs], yy, lam)
        w = [0.0] * len(names)
        for j, v in fixed.items():
            w[j] = v
        for j, v in zip(free, wf):
            w[j] = v
        moved = False
        for j in free:
            lo, hi = lower.get(names[j]), upper.get(names[j])
            if lo is not None and w[j] < lo:
                fixed[j] = lo
                moved = True
            elif hi is not None and w[j] > hi:
                fixed[j] = hi
                moved = True
        if not moved:
            return w
    return w


def samples(games: list[dict], held: bool) -> tuple[list, list, list]:
    xs, ys, meta = [], [], []
    for g in games:
        if g["scores"] is None or (g["index"] % 5 == 0) != held:
            continue
        ts = targets(g)
        for row in g["rows"]:
            for s, x in enumerate(row["x"]):
                xs.append(x)
                ys.append(ts[s])
                meta.append((row["turn"] / max(1, g["turns"]), s))
    return xs, ys, meta


def report(name: str, w: list[float], games: list[dict]) -> dict:
    xs, ys, meta = samples(games, held=True)
    if not xs:
        return {"sigma": 20.0}
    pred = [sum(a * b for a, b in zip(w, x)) for x in xs]
    res = [y - p for y, p in zip(ys, pred)]
    sigma = statistics.pstdev(res) or 1.0
    out = {"positions": len(xs), "sigma": round(sigma, 2),
           "r2": round(1 - sum(r * r for r in res) / max(1e-9, sum(
               (y - statistics.fmean(ys)) ** 2 for y in ys)), 3), "stages": {}}
    for lo, hi, label in ((0, 1 / 3, "early"), (1 / 3, 2 / 3, "middle"), (2 / 3, 1.01, "late")):
        idx = [i for i, (f, _) in enumerate(meta) if lo <= f < hi]
        if not idx:
            continue
        sign = sum(1 for i in idx if (pred[i] > 0) == (ys[i] > 0)) / len(idx)
        out["stages"][label] = {"mae": round(statistics.fmean(abs(res[i]) for i in idx), 2),
                                "sign": round(sign, 3), "n": len(idx)}
    print(f"{name}: {json.dumps(out)}", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", default="29")
    ap.add_argument("--games", type=int, default=100, help="2-player games per --bots pair")
    ap.add_argument("--bots", action="append", help="a pair, e.g. fast,greedy (repeatable)")
    ap.add_argument("--solo", type=int, default=100, help="solo games per solo bot")
    ap.add_argument("--solo-bots", default="greedy,fast")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lam", type=float, default=0.3, help="ridge strength (scaled features)")
    ap.add_argument("--tempo", type=float, default=None)
    ap.add_argument("--progress", type=float, default=None, help="the tempo term's window")
    ap.add_argument("--data", help="append positions here (JSON lines); with --refit read them")
    ap.add_argument("--refit", action="store_true", help="fit --data without playing")
    ap.add_argument("--write", action="store_true", help="replace engine/arknova/data/value.json")
    ap.add_argument("--value", help="play on this candidate value.json (and refit from it)")
    ap.add_argument("--out", help="write the fitted weights here instead of value.json")
    args = ap.parse_args()
    started = time.time()
    tasks = []
    for k, pair in enumerate(args.bots or ["greedy,greedy"]):
        tasks += [(parse_bots(pair), f"{args.seed}:{k}", i) for i in range(args.games)]
    for k, bot in enumerate(parse_bots(args.solo_bots) if args.solo else []):
        tasks += [([bot], f"{args.seed}:solo{k}", i) for i in range(args.solo)]
    games: list[dict] = []
    if args.refit:
        with open(args.data) as fh:
            games = [json.loads(line) for line in fh if line.strip()]
    else:
        use_value(args.value)
        with ProcessPoolExecutor(max_workers=args.workers, initializer=use_value,
                                 initargs=(args.value,)) as pool:
            for g in pool.map(play, tasks, chunksize=1):
                games.append(g)
                if args.data:
                    with open(args.data, "a") as fh:
                        fh.write(json.dumps(g) + "\n")
        print(f"played {len(games)} games in {time.time() - started:.0f} s", flush=True)
    duel = [g for g in games if len(g["scores"] or ()) == 2]
    solo = [g for g in games if len(g["scores"] or ()) == 1]
    data = json.loads(Path(args.value or VALUE_FILE).read_text())
    for part, subset in (("duel", duel), ("solo", solo)):
        xs, ys, _ = samples(subset, held=False)
        if not xs:
            continue
        names = learned.DUEL if part == "duel" else learned.SOLO
        if len(xs[0]) != len(names):
            raise SystemExit(f"{part}: positions have {len(xs[0])} features, the value "
                             f"{len(names)}: replay them with this code")
        # fitted: what changes from now to the end (the final margin less today's projected
        # margin, feature 0), so that a point now is worth a point at the end plus what the
        # other features add; without this offset collinear income terms ate the points
        w = bounded_ridge(xs, [y - x[0] for x, y in zip(xs, ys)], args.lam, names, *BOUNDS[part])
        w[0] += 1.0
        rep = report(part, w, subset)
        data[part]["features"] = list(names)
        data[part]["weights"] = [round(v, 5) for v in w]
        data[part]["sigma"] = rep["sigma"]
        data[part]["held_out"] = rep
    if args.tempo is not None:
        data["tempo"] = args.tempo
    if args.progress is not None:
        data["progress"] = args.progress
    data["about"] = (f"fitted by benchmarks/train_value.py --seed {args.seed} on {len(duel)} "
                     f"duels ({', '.join(args.bots or ['greedy,greedy'])}) and {len(solo)} solo "
                     "games")
    learned.validate(data)
    for part in ("duel", "solo"):
        print(part, dict(zip(data[part]["features"], data[part]["weights"])))
    if args.write or args.out:
        target = Path(args.out) if args.out else VALUE_FILE
        target.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {target}")
    print(f"done in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
