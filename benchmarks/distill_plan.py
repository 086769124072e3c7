"""Move the solo weights toward the plan level's look: a one-ply value that sees what two turns
of planning see.

    .venv/bin/python benchmarks/distill_plan.py --seed DS59 --games 160 --workers 2 \\
        --alpha 0.5 --out /tmp/distilled.json

Plays ``--games`` solo games of the fast level on the weights of ``--value`` (default: the
shipped value.json; seeds ``"{seed}:solo:{i}"``) and, at the start of each of its turns with a
choice, asks the plan level (``--plan``, default ``plan``; its own generator, so the games stay
fast's) what its look finds: the best of its candidates' values two or three own turns on
(``PlanBot.last_stats["means"]``: the learned value there plus the lines' answer terms). The
target of a position is that look less the parts of the value that are not linear in the
features (the win chance's term and the pending placements, as measured at the position), and
the solo weights are fitted to it by the ridge of ``benchmarks/train_value.py`` (the change from
the projected points, the solo's floors and ceilings, ``--lam``). The written file has the solo
weights moved ``--alpha`` of the way from today's to the fit (1: the fit itself); the rest of the
file is kept. Games whose index is a multiple of 5 are held out: the script prints how much of
the look's spread the fit and today's weights explain there (R^2) and each weight before and
after. ``--data FILE`` keeps the positions (JSON lines); ``--refit`` fits them without playing.

``--part duel`` does the same for the duel's weights: fast-against-fast games (seeds
``"{seed}:duel:{i}"``), the plan level asked at each mover's turn start from its seat, with the
value's tempo term off for the look and the value measured there (the term grows as the end
nears, so a look turns ahead holds more of it than the position: the look is the margin plus
the win chance's term). Every such position has ``my_turn`` 1: its weight is the fit's
intercept (the best of several candidates' means lies above the position's value) and is
dropped, today's kept.

``--per-answer`` (solo) asks the plan level at *every* decision of fast's games with a choice
(it plans inside its own turn in a solo game: play this animal or keep it, which card to keep)
and keeps a row per candidate: the features where the candidate's chain ends in the world fast
ranked on (``last_stats["ends"]``: the position fast's one-ply look scores it on), its answer
term and its look. Fast compares the answers of one decision with each other only, so the fit
is of the differences within a decision (each decision's rows less their mean: the look's own
offset goes to no weight), shrunk toward today's weights (the ridge is on the change), ``bias``
kept.

Why a look and not the final score: a fit to the final score of fast's own games learns what
fast goes on to make of a position (and played worse than the weights tuned by play, docs/bots.md
"Value3"); a fit to the plan level's look learns what planning sees in it. Measured in
docs/bots.md, "The plan level's look as a teacher"; measure a candidate on fresh deals
(``benchmarks/ladder.py --solo-levels fast,fast@b --value OUT --value-b
engine/arknova/data/value.json``) before it replaces value.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.arknova.bot import learned  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

VALUE_FILE = ROOT / "engine" / "arknova" / "data" / "value.json"
_spec = importlib.util.spec_from_file_location("train_value", ROOT / "benchmarks" / "train_value.py")
assert _spec is not None and _spec.loader is not None
train_value = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(train_value)


def use_value(path: str) -> None:
    """Play on the weights in ``path`` (also each worker's initializer)."""
    data = learned.validate(json.loads(Path(path).read_text()))
    learned.load = lambda: data  # the module's functions look ``load`` up at each call


def play(task: tuple) -> dict:
    """One game of the fast level (solo, or fast against fast); at each turn start with a
    choice, the mover's features, its value and the plan level's look from its seat (with
    ``per_answer``: at every decision with a choice, a row per candidate, :func:`answer_rows`)."""
    seed, plan_spec, seats, per_answer = task
    game = engine.get_game("arknova")
    fast, plan = make_bot("fast"), make_bot(plan_spec)
    state = game.setup(seats, {}, seed)
    rngs = [{"rng": _rng.seed_to_int(f"{seed}:bots:{s}" if seats > 1 else f"{seed}:bots")}
            for s in range(seats)]
    plan_rng = {"rng": _rng.seed_to_int(f"{seed}:plan")}
    playing = learned.load
    weights = playing()
    looked_with = weights if seats == 1 else {**weights, "tempo": 0.0}  # made once: read per value
    teacher = lambda: looked_with  # noqa: E731
    rows = []
    while waiting := game.waiting_for(state):
        seat = min(waiting)
        asked = per_answer or state["stack"][-1]["kind"] == "turn"
        if asked and len(game.legal_actions(state, seat)) > 1:
            plan.last_stats = None
            learned.load = teacher  # the look and the value at the position: tempo-free
            try:
                decide(plan, game, state, seat, plan_rng)
                stats = plan.last_stats
                if stats and per_answer:
                    rows.extend(answer_rows(stats, seat, len(rows)))
                elif stats:  # None: plan had a single candidate and did not look
                    rows.append({"turn": state["turn"], "seat": seat,
                                 "x": learned.features(state, seat),
                                 "value": learned.value(state, seat),
                                 "look": max(stats["means"])})
            finally:
                learned.load = playing
        state, _ = game.apply(state, seat, decide(fast, game, state, seat, rngs[seat]))
    return {"seed": seed, "scores": game.result(state)["scores"], "rows": rows}


def answer_rows(stats: dict, seat: int, group: int) -> list[dict]:
    """``--per-answer``: one row per candidate of a decision the plan level looked at: the
    features where its chain ends (the position fast's one-ply look scores), the value's
    non-linear parts there, its answer term and its look (the mean over the worlds). A decision
    one of whose chains ends the game is left out (its value is the final score)."""
    ends = stats["ends"]
    if any(end["over"] for end in ends):
        return []
    rows = []
    for end, term, look in zip(ends, stats["terms"], stats["means"]):
        x = learned.features(end, seat)
        rows.append({"group": group, "x": x, "term": term, "look": look,
                     "nl": learned.value(end, seat) - linear(x, learned.load()["solo"]["weights"])})
    return rows


def linear(x: list[float], w: list[float]) -> float:
    return sum(a * b for a, b in zip(x, w))


def samples(games: list[dict], weights: list[float], held: bool) -> tuple[list, list]:
    """Features and targets (the look less the value's non-linear parts at the position)."""
    xs, ys = [], []
    for i, g in enumerate(games):
        if (i % 5 == 0) != held:
            continue
        for r in g["rows"]:
            xs.append(r["x"])
            ys.append(r["look"] - (r["value"] - linear(r["x"], weights)))
    return xs, ys


def answer_samples(games: list[dict], held: bool) -> tuple[list, list]:
    """``--per-answer``: each decision's rows less their decision's mean (fast compares the
    answers of one decision only, so only the differences between them are fitted): the
    features and the targets (the look less the answer term and the value's non-linear parts
    at the chain's end)."""
    xs, ys = [], []
    for i, g in enumerate(games):
        if (i % 5 == 0) != held:
            continue
        groups: dict = {}
        for r in g["rows"]:
            groups.setdefault(r["group"], []).append(r)
        for rows in groups.values():
            if len(rows) < 2:
                continue
            n = len(rows)
            mx = [sum(col) / n for col in zip(*(r["x"] for r in rows))]
            t = [r["look"] - r["term"] - r["nl"] for r in rows]
            mt = sum(t) / n
            for r, y in zip(rows, t):
                xs.append([a - b for a, b in zip(r["x"], mx)])
                ys.append(y - mt)
    return xs, ys


def per_answer_fit(games: list[dict], today: list[float], names: tuple, lam: float) -> list[float]:
    """Today's weights moved by the ridge fit (toward today's: the change is what is shrunk) of
    the differences between a decision's answers, within the part's floors and ceilings; the
    bias (equal in every answer of a decision) stays today's."""
    xs, ys = answer_samples(games, held=False)
    if not xs or len(xs[0]) != len(names):
        raise SystemExit("no positions, or positions of other features: play them again")
    res = [y - linear(x, today) for x, y in zip(xs, ys)]
    lower, upper = train_value.BOUNDS["solo"]
    shift = dict(zip(names, today))
    keep = [j for j, n in enumerate(names) if n != "bias"]  # 0 in every demeaned row
    delta = train_value.bounded_ridge(
        [[x[j] for j in keep] for x in xs], res, lam, tuple(names[j] for j in keep),
        {k: v - shift[k] for k, v in lower.items() if k in shift},
        {k: v - shift[k] for k, v in upper.items() if k in shift})
    fit = list(today)
    for j, d in zip(keep, delta):
        fit[j] += d
    return fit


def r2(xs: list, ys: list, w: list[float], offset: bool = False) -> float:
    """Share of the targets' spread ``w`` explains (``offset``: after the best constant, the
    duel's dropped intercept)."""
    res = [y - linear(x, w) for x, y in zip(xs, ys)]
    shift = statistics.fmean(res) if offset else 0.0
    mean = statistics.fmean(ys)
    total = sum((y - mean) ** 2 for y in ys)
    return 1.0 - sum((r - shift) ** 2 for r in res) / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=("solo", "duel"), default="solo",
                    help="solo games and weights, or fast-against-fast games and the duel's")
    ap.add_argument("--seed", default="DS59")
    ap.add_argument("--games", type=int, default=160)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--plan", default="plan", help="the bot spec whose look is the teacher")
    ap.add_argument("--value", default=str(VALUE_FILE), help="the value.json to start from")
    ap.add_argument("--alpha", type=float, default=0.5, help="share of the way to the fit")
    ap.add_argument("--lam", type=float, default=0.3, help="ridge strength (scaled features)")
    ap.add_argument("--data", help="keep the positions here (JSON lines)")
    ap.add_argument("--refit", action="store_true", help="fit --data without playing")
    ap.add_argument("--per-answer", action="store_true",
                    help="solo: ask the plan level at every decision of fast's games and fit "
                         "the differences between its candidates' looks where their chains end")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.per_answer and args.part != "solo":
        raise SystemExit("--per-answer is for the solo part")
    use_value(args.value)
    if args.refit:
        if not args.data:
            raise SystemExit("--refit needs --data")
        games = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line]
    else:
        seats = 1 if args.part == "solo" else 2
        tasks = [(f"{args.seed}:{args.part}:{i}", args.plan, seats, args.per_answer)
                 for i in range(args.games)]
        with ProcessPoolExecutor(args.workers, initializer=use_value,
                                 initargs=(args.value,)) as ex:
            games = list(ex.map(play, tasks))
        if args.data:
            Path(args.data).write_text("".join(json.dumps(g) + "\n" for g in games))
    data = learned.load()
    part = args.part
    names, today = (learned.SOLO if part == "solo" else learned.DUEL), data[part]["weights"]
    if args.per_answer:
        fit = per_answer_fit(games, today, names, args.lam)
        hx, hy = answer_samples(games, held=True)
        print(f"held out: {len(hx)} answers, R^2 of the differences between a decision's looks:"
              f" fit {r2(hx, hy, fit):.3f}, today's weights {r2(hx, hy, today):.3f}")
        write(args, data, part, names, today, fit, len(hx))
        return
    xs, ys = samples(games, today, held=False)
    if not xs or len(xs[0]) != len(names):
        raise SystemExit("no positions, or positions of other features: play them again")
    fit = train_value.bounded_ridge(xs, [y - x[0] for x, y in zip(xs, ys)], args.lam, names,
                                    *train_value.BOUNDS[part])
    if part == "duel":  # every position is at its mover's turn start: ``my_turn`` is 1 in all,
        # an intercept that takes the look's offset (the best of several candidates' means) and
        # is dropped: the weight of having the move stays today's
        fit[names.index("my_turn")] = today[names.index("my_turn")]
    fit[0] += 1.0  # fitted as the change from the projected points (train_value.py)
    hx, hy = samples(games, today, held=True)
    if hx:
        off = part == "duel"
        print(f"held out: {len(hx)} positions, R^2 of the look{' (less its mean offset)' * off}:"
              f" fit {r2(hx, hy, fit, off):.3f}, today's weights {r2(hx, hy, today, off):.3f}")
    write(args, data, part, names, today, fit, len(xs))


def write(args, data: dict, part: str, names: tuple, today: list, fit: list, n: int) -> None:
    """Write value.json with the part's weights moved ``--alpha`` of the way to ``fit``."""
    out = json.loads(json.dumps(data))
    out[part]["weights"] = [round(a + args.alpha * (b - a), 5) for a, b in zip(today, fit)]
    learned.validate(out)
    for name, a, b, c in zip(names, today, fit, out[part]["weights"]):
        print(f"{name:22} today {a:8.3f}  fit {b:8.3f}  written {c:8.3f}")
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out} ({n} rows, alpha {args.alpha})")


if __name__ == "__main__":
    main()
