"""How close the engine is to its floor, and the server to the bare baseline, from one run.

    .venv/bin/python benchmarks/ratios.py                 # engine and bots
    TEST_POSTGRES_URL=postgresql+asyncpg://... .venv/bin/python benchmarks/ratios.py --server
    .venv/bin/python benchmarks/ratios.py --json

Everything is CPU time of this process (``time.process_time``), so other work on the machine
weighs less than in wall time, and every figure that is a ratio comes from the same run:

- **engine**: ``--games`` random 2-player Ark Nova games (seeds 0..n-1, the same answers for
  both measurements). *Full contract* per game = ``legal_actions`` + ``apply`` (which checks the
  answer and leaves its input unchanged) for every decision; *rule-work floor* = the same
  ``legal_actions`` + the game's handlers applied in place on one private copy (no check, no
  copy, no undo marks). Each game is timed three times each way, interleaved, keeping the fastest.
  *Owned* = the full contract for a caller that owns its state (``apply_in_place``: the same
  check and undo marks, the rules applied to the caller's own copy; what bots and analysis use
  on their private worlds). Prints the median per-game times, the median of the per-game
  ratios full / floor and owned / floor, and the median per-decision times.
- **bots**: greedy against greedy on ``--bot-seeds`` (the first ``--greedy-decisions``
  decisions of each game): greedy milliseconds per decision, and the hash of the decisions;
  mcts (``budget=None``, 12 playouts: reproducible) on the turn-starting positions of those
  games (every ``--mcts-every``-th): playouts per CPU second and the hash of its choices. Same hashes before and after a change = same play.
- **server** (``--server``, needs ``TEST_POSTGRES_URL``): ``benchmarks/load.py`` at 50 and 100
  actions/s against Menagerie and the bare baseline: server CPU per accepted action and the p99
  of the action POST and of ``GET /legal``, each divided by the baseline's.

Runs on older commits too (it uses only the public contract and ``Game._apply``), so the same
file measures before and after a change in the same hour.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

import engine  # noqa: E402
from engine.bots import decide, get_bot  # noqa: E402
from engine.bots.mcts import MctsBot  # noqa: E402
from engine.core import rng as _rng  # noqa: E402
from engine.core.state import canonical_json, clone  # noqa: E402

cpu = time.process_time


# --------------------------------------------------------------------------- engine
def random_answers(game, seed: int) -> list:
    """The (seat, action) sequence of one random 2-player game."""
    bot = get_bot("random")
    state = game.setup(2, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"ratios-{seed}")}
    out = []
    while True:
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            return out
        seat = waiting[0]
        action = bot.choose(game, None, game.legal_actions(state, seat), rng)
        out.append((seat, action))
        state, _ = game.apply(state, seat, action)


def time_full(game, seed: int, answers: list) -> list[float]:
    state = game.setup(2, {}, seed)
    times = []
    for seat, action in answers:
        t = cpu()
        game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, action)
        times.append(cpu() - t)
    return times


def time_owned(game, seed: int, answers: list) -> list[float] | None:
    """The full contract for a caller that owns its state (``apply_in_place``: the check, the
    rules in place, the undo marks); None on commits without it."""
    if not hasattr(game, "apply_in_place"):
        return None
    state = clone(game.setup(2, {}, seed))
    times = []
    for seat, action in answers:
        t = cpu()
        game.legal_actions(state, seat)
        game.apply_in_place(state, seat, action)
        times.append(cpu() - t)
    return times


def time_floor(game, seed: int, answers: list) -> list[float]:
    state = clone(game.setup(2, {}, seed))
    actions = clone([a for _, a in answers])  # the handlers may keep parts of an answer
    times = []
    for (seat, _), action in zip(answers, actions):
        t = cpu()
        game.legal_actions(state, seat)
        game._apply(state, seat, action)
        times.append(cpu() - t)
    return times


def bench_engine(games: int) -> dict:
    game = engine.get_game("arknova")
    if hasattr(game, "prepare"):
        game.prepare()
    full_games, floor_games, owned_games, ratios, owned_ratios = [], [], [], [], []
    full_dec, floor_dec, owned_dec = [], [], []
    for seed in range(games):
        answers = random_answers(game, seed)
        full = floor = owned = None
        for _ in range(3):  # interleaved; the fastest of three runs of each
            f = time_full(game, seed, answers)
            r = time_floor(game, seed, answers)
            o = time_owned(game, seed, answers)
            full = f if full is None or sum(f) < sum(full) else full
            floor = r if floor is None or sum(r) < sum(floor) else floor
            if o is not None:
                owned = o if owned is None or sum(o) < sum(owned) else owned
        full_games.append(sum(full))
        floor_games.append(sum(floor))
        ratios.append(sum(full) / sum(floor))
        full_dec += full
        floor_dec += floor
        if owned is not None:
            owned_games.append(sum(owned))
            owned_ratios.append(sum(owned) / sum(floor))
            owned_dec += owned
    out = {
        "games": games,
        "decisions_per_game": round(len(full_dec) / games, 1),
        "full_ms_per_game": round(statistics.median(full_games) * 1e3, 2),
        "floor_ms_per_game": round(statistics.median(floor_games) * 1e3, 2),
        "full_over_floor": round(statistics.median(ratios), 3),
        "full_us_per_decision_median": round(statistics.median(full_dec) * 1e6, 1),
        "floor_us_per_decision_median": round(statistics.median(floor_dec) * 1e6, 1),
    }
    if owned_games:
        out.update({
            "owned_ms_per_game": round(statistics.median(owned_games) * 1e3, 2),
            "owned_over_floor": round(statistics.median(owned_ratios), 3),
            "owned_us_per_decision_median": round(statistics.median(owned_dec) * 1e6, 1),
        })
    return out


# --------------------------------------------------------------------------- bots
def greedy_games(game, seeds: list[int], decisions: int, on_decision=None):
    """Greedy against greedy from each seed, the first ``decisions`` decisions of each game
    (the bots' benchmark positions): yields ``(seed, i, state, seat, action)``, ``action``
    being greedy's answer in ``state``; ``on_decision(seconds)`` gets each decision's CPU."""
    greedy = get_bot("greedy")
    for seed in seeds:
        state = game.setup(2, {}, seed)
        rng = {"rng": _rng.seed_to_int(f"greedy-{seed}")}
        for i in range(decisions):
            waiting = sorted(game.waiting_for(state))
            if not waiting:
                break
            seat = waiting[0]
            t = cpu()
            action = decide(greedy, game, state, seat, rng)
            if on_decision is not None:
                on_decision(cpu() - t)
            yield seed, i, state, seat, action
            state, _ = game.apply(state, seat, action)


def bench_bots(seeds: list[int], decisions: int, mcts_every: int) -> dict:
    game = engine.get_game("arknova")
    mcts = MctsBot(budget=None, playouts=12)
    g_times, g_hash, positions = [], hashlib.sha256(), []
    for seed, i, state, seat, action in greedy_games(game, seeds, decisions, g_times.append):
        g_hash.update(canonical_json(action))
        if i % mcts_every == 0 and state["stack"] and state["stack"][-1]["kind"] == "turn":
            positions.append((state, seat, seed * 1000 + i))
    m_hash, playouts, seconds = hashlib.sha256(), 0, 0.0
    for state, seat, k in positions:
        mcts.last_stats = None
        t = cpu()
        action = decide(mcts, game, state, seat, {"rng": k})
        dt = cpu() - t
        m_hash.update(canonical_json(action))
        if mcts.last_stats:  # a real search (not a forced or follow-up answer)
            playouts += mcts.last_stats["playouts"]
            seconds += dt
    return {
        "greedy_seeds": seeds, "greedy_decisions": len(g_times),
        "greedy_ms_per_decision": round(statistics.fmean(g_times) * 1e3, 2),
        "greedy_ms_per_decision_median": round(statistics.median(g_times) * 1e3, 2),
        "greedy_decisions_sha256": g_hash.hexdigest()[:16],
        "mcts_positions": len(positions), "mcts_playouts": playouts,
        "mcts_playouts_per_cpu_s": round(playouts / seconds, 1) if seconds else None,
        "mcts_choices_sha256": m_hash.hexdigest()[:16],
    }


# --------------------------------------------------------------------------- server
def bench_server(rates: str, duration: float, games: int, spectators: int) -> dict:
    """``benchmarks/load.py`` (ours and the baseline) at each rate; ratios to the baseline."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out_path = f.name
    cmd = [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--games", str(games),
           "--spectators", str(spectators), "--rate", rates, "--duration", str(duration),
           "--json"]
    with open(out_path, "wb") as out:
        subprocess.run(cmd, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT, check=False)
    text = Path(out_path).read_text()
    Path(out_path).unlink()
    start = 0 if text.startswith("{\n") else text.rfind("\n{\n") + 1  # the report is last
    report = json.loads(text[start:])
    rows = []
    for ours, base in zip(report["menagerie"]["phases"], report["baseline"]["phases"]):
        def ratio(a, b):
            return round(a / b, 2) if a is not None and b else None
        rows.append({
            "rate": ours["rate_target"],
            "actions_per_s": ours["actions_per_s"],
            "cpu_ms_per_action": ours["server_cpu_ms_per_action"],
            "cpu_per_action_over_baseline": ratio(ours["server_cpu_ms_per_action"],
                                                  base["server_cpu_ms_per_action"]),
            "action_p99_ms": ours["action_ms"]["p99"],
            "action_p99_over_baseline": ratio(ours["action_ms"]["p99"],
                                              base["action_ms"]["p99"]),
            "legal_p99_ms": ours["legal_ms"]["p99"],
            "baseline_legal_p99_ms": base["legal_ms"]["p99"],
            "legal_p99_over_baseline": ratio(ours["legal_ms"]["p99"], base["legal_ms"]["p99"]),
            "errors": ours["errors"],
        })
    return {"rates": rows}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="random games for the engine ratio")
    p.add_argument("--bot-seeds", default="1,2,3")
    p.add_argument("--greedy-decisions", type=int, default=120)
    p.add_argument("--mcts-every", type=int, default=2,
                   help="mcts searches every n-th greedy decision that starts a turn")
    p.add_argument("--no-bots", action="store_true")
    p.add_argument("--no-engine", action="store_true")
    p.add_argument("--server", action="store_true", help="also run benchmarks/load.py")
    p.add_argument("--rates", default="50,100")
    p.add_argument("--duration", type=float, default=15.0)
    p.add_argument("--load-games", type=int, default=100)
    p.add_argument("--spectators", type=int, default=200)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    try:
        out["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                       capture_output=True, text=True).stdout.strip()
    except OSError:  # pragma: no cover
        pass
    if not args.no_engine:
        out["engine"] = bench_engine(args.games)
    if not args.no_bots:
        out["bots"] = bench_bots([int(s) for s in args.bot_seeds.split(",")],
                                 args.greedy_decisions, args.mcts_every)
    if args.server:
        if not os.environ.get("TEST_POSTGRES_URL"):
            raise SystemExit("--server needs TEST_POSTGRES_URL (a PostgreSQL server to use)")
        out["server"] = bench_server(args.rates, args.duration, args.load_games,
                                     args.spectators)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, value in out.items():
            print(f"{key}: {orjson.dumps(value).decode()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
