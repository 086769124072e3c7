"""Engine speed: random play, the biggest decisions, views, dump/load, and the bots.

    .venv/bin/python benchmarks/engine.py [--game arknova] [--games 20] [--json]
    .venv/bin/python benchmarks/engine.py --profile            # cProfile of random play
    .venv/bin/python benchmarks/engine.py --bots-only --json   # the bot figures alone
    .venv/bin/python benchmarks/engine.py --profile-greedy     # cProfile of a greedy game

Measures (wall clock, one process, on whatever else the machine is doing):

- random play: decisions per second over whole games (``legal_actions`` + ``apply`` + the
  random bot), and the median time of a full random game with 2 and with 4 players;
- the biggest positions met in those games (most legal answers, i.e. placement enumeration):
  ``legal_actions`` time there;
- ``view`` (spectator and seat), ``dump`` + JSON encoding, JSON decoding + ``load``, and the
  size of a state as JSON, on late-game positions;
- the bots: greedy milliseconds per decision and mcts playouts per second (2 players).

Times are medians of repeated calls (best of several rounds for the small ones).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

import engine  # noqa: E402
from engine.bots import decide, get_bot, make_bot  # noqa: E402
from engine.core import rng as _rng  # noqa: E402


def random_game(game, seats: int, seed: int, keep: list | None = None):
    """Play one random game; returns (decisions, seconds). ``keep`` gets (n_legal, state, seat)
    of the biggest decisions and some late positions."""
    bot = get_bot("random")
    state = game.setup(seats, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"bench-{seed}")}
    n = 0
    t = time.perf_counter()
    biggest: dict = {}
    while True:
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        legal = game.legal_actions(state, seat)
        if keep is not None:
            kind = _kind(state)
            if len(legal) > biggest.get(kind, (0,))[0]:
                biggest[kind] = (len(legal), state, seat)
        action = bot.choose(game, None, legal, rng)
        state, _ = game.apply(state, seat, action)
        n += 1
    dt = time.perf_counter() - t
    if keep is not None:
        keep.extend(biggest.values())
        keep.append((0, state, 0))
    return n, dt


def _kind(state) -> str:
    stack = state.get("stack")
    return stack[-1].get("kind", "?") if isinstance(stack, list) and stack else "?"


def per_call(fn, repeat: int = 200, rounds: int = 5) -> float:
    """Best-of-rounds mean seconds per call."""
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - t) / repeat)
    return best


def bench(game_name: str, games: int) -> dict:
    game = engine.get_game(game_name)
    out: dict = {"game": game_name, "games_per_size": games}
    keep: list = []
    for seats in sorted({game.min_seats, min(4, game.max_seats)}):
        times, decisions = [], 0
        for seed in range(games):
            n, dt = random_game(game, seats, seed, keep if seats == game.min_seats or seed < 5
                                else None)
            times.append(dt)
            decisions += n
        out[f"random_{seats}p"] = {
            "median_game_s": round(statistics.median(times), 4),
            "decisions_per_game": round(decisions / games, 1),
            "decisions_per_s": round(decisions / sum(times)),
        }
    # the biggest decisions (placement enumeration)
    per_kind: dict = {}
    for k in keep:
        if k[0] and k[0] > per_kind.get(_kind(k[1]), (0,))[0]:
            per_kind[_kind(k[1])] = k
    big = sorted(per_kind.values(), key=lambda k: -k[0])[:6]
    rows = []
    for n, state, seat in big:
        rows.append({"legal": n, "decision": _kind(state),
                     "legal_actions_ms": round(per_call(
                         lambda s=state, q=seat: game.legal_actions(s, q), 50) * 1e3, 3),
                     "apply_first_ms": round(per_call(
                         lambda s=state, q=seat: game.apply(s, q, game.legal_actions(s, q)[0]),
                         20) * 1e3, 3)})
    out["biggest_decisions"] = rows
    if game_name == "arknova":
        out["placement"] = bench_placement(game)
    # views, dump/load, size on late-game states (the final state of each random game)
    late = [k[1] for k in keep if k[0] == 0][:8]
    sizes = [len(orjson.dumps(game.dump(s))) for s in late]
    biggest = late[max(range(len(late)), key=lambda i: sizes[i])]
    data = orjson.dumps(game.dump(biggest))
    out["state"] = {
        "json_bytes_median": int(statistics.median(sizes)),
        "json_bytes_max": max(sizes),
        "view_spectator_ms": round(per_call(lambda: game.view(biggest, None)) * 1e3, 4),
        "view_seat_ms": round(per_call(lambda: game.view(biggest, 0)) * 1e3, 4),
        "view_json_bytes": len(orjson.dumps(game.view(biggest, 0))),
        "dump_json_ms": round(per_call(lambda: orjson.dumps(game.dump(biggest))) * 1e3, 4),
        "load_json_ms": round(per_call(lambda: game.load(orjson.loads(data))) * 1e3, 4),
        "state_hash_ms": round(per_call(lambda: game.state_hash(biggest)) * 1e3, 4),
    }
    return out


def bench_placement(game) -> dict:
    """The biggest "place" decision: each building on each map, on zoos from empty to half
    built (a fixed building order, Build II); the one with the most legal placements is timed
    through the contract (``legal_actions``) and by the placement rules alone."""
    from benchmarks.placement import half_built
    from engine.arknova.decisions import push
    from engine.arknova.placement import legal_placements, zoo_cells
    from engine.arknova.zoomap import load_buildings, load_maps

    buildings = load_buildings()
    worst = None
    for zmap in load_maps().values():
        full = half_built(zmap, buildings)
        for k, b in ((k, b) for k in range(len(full) + 1) for b in buildings.values()):
            zoo = full[:k]
            state = game.setup(2, {"map": zmap.id}, 1)
            p = state["players"][0]
            p["buildings"] = [{"id": i + 1, "type": z["id"], "kind": z["kind"],
                               "cells": z["cells"], "animals": [], "used": 0}
                              for i, z in enumerate(zoo)]
            state["stack"] = [{"kind": "turn", "seat": 0}]
            push(state, "place", seat=0, building=b.id, cost=0, upgraded=True)
            n = len(game.legal_actions(state, 0))
            if worst is None or n > worst[0]:
                worst = (n, state, zmap, b, zoo)
    n, state, zmap, b, zoo = worst
    occupied, kiosks = zoo_cells(zoo)
    return {"map": zmap.id, "building": b.id, "legal": n,
            "legal_actions_ms": round(per_call(lambda: game.legal_actions(state, 0), 100) * 1e3,
                                      3),
            "legal_placements_ms": round(per_call(
                lambda: legal_placements(zmap, b, occupied, kiosks, True), 200) * 1e3, 3),
            "apply_first_ms": round(per_call(
                lambda: game.apply(state, 0, game.legal_actions(state, 0)[0]), 50) * 1e3, 3)}


def bench_bots(game_name: str, decisions: int = 5000) -> dict:
    """Greedy ms per decision over a whole greedy-vs-greedy game, and mcts playouts per second
    (1 s budget) in positions of that game."""
    game = engine.get_game(game_name)
    greedy = get_bot("greedy")
    state = game.setup(2, {}, 77)
    rng = {"rng": 1}
    times = []
    positions = []
    cpu = time.process_time()
    for i in range(decisions):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        t = time.perf_counter()
        action = decide(greedy, game, state, seat, rng)
        times.append(time.perf_counter() - t)
        if i % 40 == 5:
            positions.append((state, seat))
        state, _ = game.apply(state, seat, action)
    cpu = time.process_time() - cpu
    mcts = make_bot("mcts:1.0")
    playouts, seconds = 0, 0.0
    for state, seat in positions:
        decide(mcts, game, state, seat, {"rng": 3})
        if mcts.last_stats:
            playouts += mcts.last_stats["playouts"]
            seconds += mcts.last_stats["seconds"]
    return {"greedy_decisions": len(times),
            "greedy_ms_per_decision_mean": round(statistics.fmean(times) * 1e3, 1),
            "greedy_ms_per_decision_median": round(statistics.median(times) * 1e3, 1),
            "greedy_ms_per_decision_max": round(max(times) * 1e3, 1),
            "greedy_game_cpu_s": round(cpu, 2),
            "mcts_searches": sum(1 for _ in positions),
            "mcts_playouts_per_s": round(playouts / seconds, 1) if seconds else None}


def profile(game_name: str, games: int) -> str:
    game = engine.get_game(game_name)
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        random_game(game, 2, seed)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(25)
    return buf.getvalue()


def profile_greedy(game_name: str, seed: int = 77) -> str:
    """cProfile of one greedy-vs-greedy 2-player game (the bots' hot spots)."""
    game = engine.get_game(game_name)
    greedy = get_bot("greedy")
    state = game.setup(2, {}, seed)
    rng = {"rng": 1}
    prof = cProfile.Profile()
    prof.enable()
    while game.waiting_for(state):
        seat = min(game.waiting_for(state))
        state, _ = game.apply(state, seat, decide(greedy, game, state, seat, rng))
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(30)
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="arknova")
    parser.add_argument("--games", type=int, default=20, help="random games per seat count")
    parser.add_argument("--no-bots", action="store_true", help="skip the bot measurements")
    parser.add_argument("--profile", action="store_true", help="cProfile random play instead")
    parser.add_argument("--profile-greedy", action="store_true",
                        help="cProfile one greedy-vs-greedy game instead")
    parser.add_argument("--bots-only", action="store_true", help="only the bot measurements")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.profile:
        print(profile(args.game, args.games))
        return
    if args.profile_greedy:
        print(profile_greedy(args.game))
        return
    out = {"game": args.game} if args.bots_only else bench(args.game, args.games)
    if not args.no_bots:
        out["bots"] = bench_bots(args.game)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for key, value in out.items():
        print(f"{key}: {json.dumps(value)}")


if __name__ == "__main__":
    main()
