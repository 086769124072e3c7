"""Bot-vs-bot games, summarised (the engine half of ``menagerie simulate``).

:func:`simulate` is a pure function of its arguments (apart from the ``seconds`` it reports and
bots with a time budget, whose playout counts depend on the machine): game ``i`` is set up with
the seed ``"{seed}:{i}"``, its bots draw from a generator seeded with ``"{seed}:{i}:bots"``, and
the bots sit in rotation (in game ``i`` seat ``s`` is taken by bot entry ``(s + i) % players``),
so no bot always moves first.

Bot entries name one bot per seat (cycled when shorter than the number of players); an entry
may carry settings after a colon (see :func:`engine.bots.make_bot`), e.g. ``mcts:0.5`` (0.5 s
per decision) or ``mcts:budget=none,playouts=9,candidates=3`` (see :func:`parse_bots`: a
``name=value`` part after an entry with settings is one more setting of that entry, since bot
kinds never contain ``=``). The command line and the records file live in ``app/simulate.py``.
"""

from __future__ import annotations

import statistics
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import engine
from engine.core import rng as _rng

from .base import decide, make_bot

MAX_DECISIONS = 50_000


def parse_bots(text: str) -> list[str]:
    """The bot entries of a ``--bots`` value: ``"mcts:budget=none,playouts=9,greedy"`` ->
    ``["mcts:budget=none,playouts=9", "greedy"]``. Parts are split on commas; a ``name=value``
    part that follows an entry with settings (``kind:...``) continues that entry."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def labels_for(bots: list[str], players: int) -> list[str]:
    """One label per bot entry (seat slot): the spec, numbered when it occurs twice."""
    entries = [bots[j % len(bots)] for j in range(players)]
    out = []
    for j, spec in enumerate(entries):
        out.append(spec if entries.count(spec) == 1 else f"{spec}#{entries[:j + 1].count(spec)}")
    return out


def play_game(game_name: str, players: int, bots: list[str], seed: int | str, index: int,
              options: dict | None = None, collect: Callable | None = None) -> dict:
    """Play game ``index`` of a simulation; a JSON-able record (errors are caught)."""
    game = engine.get_game(game_name)
    entries = [bots[j % len(bots)] for j in range(players)]
    labels = labels_for(bots, players)
    seat_entry = [(s + index) % players for s in range(players)]
    record: dict = {"index": index, "seats": [labels[e] for e in seat_entry], "error": None}
    started = time.perf_counter()
    decisions = 0
    state = None
    try:
        seat_bots = [make_bot(entries[e]) for e in seat_entry]
        state = game.setup(players, options or {}, f"{seed}:{index}")
        rng = {"rng": _rng.seed_to_int(f"{seed}:{index}:bots")}
        while True:
            waiting = sorted(game.waiting_for(state))
            if not waiting:
                break
            for seat in waiting:  # simultaneous decisions: each seat answers in seat order
                if seat not in game.waiting_for(state):
                    continue
                action = decide(seat_bots[seat], game, state, seat, rng)
                state, _ = game.apply(state, seat, action)
                decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"game did not end after {MAX_DECISIONS} decisions")
        result = game.result(state)
        record.update(
            scores=[result["scores"][s] for s in range(players)],
            places=places(result, players),
            turns=state.get("turn") if isinstance(state.get("turn"), int) else None,
            breaks=state.get("breaks") if isinstance(state.get("breaks"), int) else None)
        if collect is not None:
            record["collected"] = collect(state)
    except Exception as exc:  # a bot or the engine failed: count it, keep going
        record["error"] = f"game {index}: {type(exc).__name__}: {exc}"
        record["traceback"] = traceback.format_exc(limit=6)
    record["decisions"] = decisions
    record["seconds"] = time.perf_counter() - started
    return record


def places(result: dict, players: int) -> list[int]:
    """Each seat's place (1 = won; ties share a place), from the result's details or scores."""
    given = (result.get("details") or {}).get("places")
    if given:
        return [int(given[s] if s in given else given[str(s)]) for s in range(players)]
    scores = result["scores"]
    return [1 + sum(1 for o in range(players) if scores[o] > scores[s]) for s in range(players)]


def _mean(xs: list) -> float | None:
    xs = [x for x in xs if x is not None]
    return round(statistics.fmean(xs), 3) if xs else None


def summarize(records: list[dict], game: str, players: int, bots: list[str],
              seed: int | str, seconds: float) -> dict:
    labels = labels_for(bots, players)
    ok = [r for r in records if r["error"] is None]
    wins = {lab: 0.0 for lab in labels}
    vps: dict[str, list] = {lab: [] for lab in labels}
    first = 0.0
    for r in ok:
        winners = [s for s in range(players) if r["places"][s] == 1]
        for s in range(players):
            vps[r["seats"][s]].append(r["scores"][s])
        for s in winners:
            wins[r["seats"][s]] += 1.0 / len(winners)
        if 0 in winners:
            first += 1.0 / len(winners)
    errors = [r["error"] for r in records if r["error"] is not None]
    per_bot = {}
    for lab in labels:
        xs = vps[lab]
        per_bot[lab] = {
            "wins": round(wins[lab], 3),
            "win_rate": round(wins[lab] / len(ok), 4) if ok else None,
            "vp_mean": _mean(xs),
            "vp_stdev": round(statistics.stdev(xs), 3) if len(xs) > 1 else 0.0,
        }
    out = {
        "game": game, "games": len(records), "finished": len(ok), "players": players,
        "bots": labels, "seed": seed,
        "wins": {lab: per_bot[lab]["wins"] for lab in labels},
        "per_bot": per_bot,
        "length": {"turns_mean": _mean([r.get("turns") for r in ok]),
                   "breaks_mean": _mean([r.get("breaks") for r in ok]),
                   "decisions_mean": _mean([r["decisions"] for r in ok])},
        "first_seat_win_rate": round(first / len(ok), 4) if ok else None,
        "errors": {"count": len(errors), "first": errors[:5]},
        "seconds": round(seconds, 2),
    }
    if players == 1:  # a solo game: the score is the result, the goal 0 or more
        out["solo"] = {lab: score_distribution(vps[lab]) for lab in labels}
    return out


def _quantile(xs: list, q: float) -> float:
    """The ``q`` quantile of sorted ``xs`` (linear between the closest ranks)."""
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return round(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo), 3)


def score_distribution(scores: list, goal: float = 0) -> dict:
    """Mean, stdev, quantiles (min, 10 %, 25 %, median, 75 %, 90 %, max) of solo scores, and
    the share of games that reached ``goal`` (a score of 0 or more)."""
    xs = sorted(x for x in scores if x is not None)
    if not xs:
        return {"games": 0, "mean": None, "stdev": None, "quantiles": None, "reached": None}
    qs = {"min": 0.0, "p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9, "max": 1.0}
    return {"games": len(xs), "mean": round(statistics.fmean(xs), 3),
            "stdev": round(statistics.stdev(xs), 3) if len(xs) > 1 else 0.0,
            "quantiles": {k: _quantile(xs, q) for k, q in qs.items()},
            "reached": round(sum(1 for x in xs if x >= goal) / len(xs), 4)}


def simulate(game: str, games: int, players: int, bots: list[str] | str, seed: int | str = 0,
             *, options: dict | None = None, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             collect: Callable | None = None, records: list | None = None,
             on_record: Callable[[dict], None] | None = None, start: int = 0) -> dict:
    """Play ``games`` bot games and summarise them.

    Returns a dict with the keys ``game, games, finished, players, bots, seed`` (the inputs;
    ``bots`` as one label per seat slot), ``wins`` (label -> wins, ties split evenly),
    ``per_bot`` (label -> ``wins, win_rate, vp_mean, vp_stdev``), with one player ``solo``
    (label -> :func:`score_distribution` of the solo scores), ``length``
    (``turns_mean, breaks_mean, decisions_mean``; turns and breaks when the game's state counts
    them), ``first_seat_win_rate`` (ties split), ``errors`` (``count`` and the ``first``
    messages) and ``seconds`` (wall time). ``records`` (a list) receives every game's record;
    ``collect(state)`` adds game-specific data to each record (it must be picklable with
    ``workers > 1``). ``workers > 1`` plays games in that many processes (same results).
    ``on_record(record)`` is called as each game ends (in game order). ``start`` plays games
    ``start`` to ``start + games - 1`` (each game's seed and seat order depend on its index, so
    a stopped run continues with the games it had not played).
    """
    if isinstance(bots, str):
        bots = parse_bots(bots)
    if not bots:
        raise ValueError("name at least one bot")
    g = engine.get_game(game)  # KeyError for unknown games
    if not g.min_seats <= players <= g.max_seats:
        raise ValueError(f"{game} takes {g.min_seats} to {g.max_seats} players")
    for spec in bots:
        make_bot(spec)  # KeyError / ValueError for unknown bots or settings
    started = time.perf_counter()
    out: list[dict] = []
    if start < 0:
        raise ValueError("start must be 0 or more")
    args = [(game, players, bots, seed, i, options, collect)
            for i in range(start, start + games)]
    if workers > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_game, *a) for a in args]
            for fut in futures:
                out.append(fut.result())
                if on_record:
                    on_record(out[-1])
                if progress:
                    progress(len(out), games)
    else:
        for a in args:
            out.append(play_game(*a))
            if on_record:
                on_record(out[-1])
            if progress:
                progress(len(out), games)
    if records is not None:
        records.extend(out)
    return summarize(out, game, players, bots, seed, time.perf_counter() - started)
