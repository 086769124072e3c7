"""``menagerie simulate``: bot-vs-bot games, summarised.

:func:`simulate` is a pure function of its arguments (apart from the ``seconds`` it reports and
bots with a time budget, whose playout counts depend on the machine): game ``i`` is set up with
the seed ``"{seed}:{i}"``, its bots draw from a generator seeded with ``"{seed}:{i}:bots"``, and
the bots sit in rotation (in game ``i`` seat ``s`` is taken by bot entry ``(s + i) % players``),
so no bot always moves first.

The command line (registered by :func:`register` on the ``menagerie`` Typer app)::

    menagerie simulate --game arknova --games 200 --players 2 --bots greedy,random --seed 1 --json

``--bots`` lists one bot per seat (cycled when shorter than ``--players``); an entry may carry
settings after a colon (see :func:`engine.bots.make_bot`), e.g. ``mcts:0.5`` (0.5 s per
decision) or ``mcts:budget=none,playouts=9,candidates=3`` (see :func:`parse_bots`: a
``name=value`` part after an entry with settings is one more setting of that entry, since bot
kinds never contain ``=``). ``--json`` prints one JSON object (see :func:`simulate` for its
keys); otherwise a short table. A rich progress bar shows on stderr. ``--records FILE`` appends
every finished game to ``FILE`` (one JSON line each) as it ends, so a long run that has to be
stopped still leaves its games (:func:`summarize_records` summarises such a file).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

import engine
from engine.bots import decide, make_bot
from engine.core import rng as _rng

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
            places=_places(result, players),
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


def _places(result: dict, players: int) -> list[int]:
    places = (result.get("details") or {}).get("places")
    if places:
        return [int(places[s] if s in places else places[str(s)]) for s in range(players)]
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
    return {
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


def simulate(game: str, games: int, players: int, bots: list[str] | str, seed: int | str = 0,
             *, options: dict | None = None, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             collect: Callable | None = None, records: list | None = None,
             on_record: Callable[[dict], None] | None = None, start: int = 0) -> dict:
    """Play ``games`` bot games and summarise them.

    Returns a dict with the keys ``game, games, finished, players, bots, seed`` (the inputs;
    ``bots`` as one label per seat slot), ``wins`` (label -> wins, ties split evenly),
    ``per_bot`` (label -> ``wins, win_rate, vp_mean, vp_stdev``), ``length``
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


def summarize_records(path: str, game: str, players: int, bots: list[str] | str,
                      seed: int | str) -> dict:
    """The :func:`simulate` summary of the games in a ``--records`` file (``seconds``: the sum
    of the games' own times)."""
    if isinstance(bots, str):
        bots = parse_bots(bots)
    with open(path) as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    return summarize(recs, game, players, bots, seed, sum(r["seconds"] for r in recs))


# --------------------------------------------------------------------------- command line
def register(app) -> None:
    """Add the ``simulate`` command to the ``menagerie`` Typer app."""
    import typer

    @app.command("simulate")
    def simulate_command(
        game: str = typer.Option("arknova", "--game", help="Game name (see GET /api/catalog)"),
        games: int = typer.Option(10, "--games", min=1, help="Number of games"),
        players: int = typer.Option(2, "--players", help="Seats per game"),
        bots: str = typer.Option("greedy,random", "--bots",
                                 help="Comma-separated bot kinds, one per seat (cycled); "
                                      "settings after a colon, e.g. mcts:0.5 or "
                                      "mcts:budget=none,playouts=9"),
        seed: str = typer.Option("0", "--seed", help="Seed of the whole simulation"),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON summary object"),
        workers: int = typer.Option(1, "--workers", min=1,
                                    help="Processes (one game per process at a time)"),
        records: str = typer.Option(None, "--records",
                                    help="Append each finished game to this file (JSON lines)"),
        start: int = typer.Option(0, "--start", min=0,
                                  help="Index of the first game (continue a stopped run)"),
    ) -> None:
        """Play bot-vs-bot games and report wins, scores and game length."""
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        seed_value: int | str = int(seed) if seed.lstrip("-").isdigit() else seed
        err = Console(stderr=True)

        def save(record: dict) -> None:
            with open(records, "a") as fh:
                fh.write(json.dumps({k: v for k, v in record.items() if k != "traceback"})
                         + "\n")

        try:
            with Progress(TextColumn("[bold]simulate[/] {task.description}"), BarColumn(),
                          MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                          console=err, transient=as_json) as bar:
                task = bar.add_task(f"{game} {bots}", total=games)
                summary = simulate(game, games, players, bots, seed_value, workers=workers,
                                   progress=lambda done, total: bar.update(task, completed=done),
                                   on_record=save if records else None, start=start)
        except (KeyError, ValueError) as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2)
        if as_json:
            sys.stdout.write(json.dumps(summary, sort_keys=True) + "\n")
            return
        out = Console()
        out.print(f"{summary['games']} games of {game}, {players} players, seed {seed_value} "
                  f"({summary['seconds']} s)")
        for lab, row in summary["per_bot"].items():
            out.print(f"  {lab:<24} wins {row['wins']:>7}  ({(row['win_rate'] or 0):.1%})  "
                      f"VP {row['vp_mean']} ± {row['vp_stdev']}")
        length = summary["length"]
        out.print(f"  length: {length['turns_mean']} turns, {length['breaks_mean']} breaks, "
                  f"{length['decisions_mean']} decisions (means)")
        out.print(f"  first seat wins {summary['first_seat_win_rate']:.1%}"
                  if summary["first_seat_win_rate"] is not None else "  no finished game")
        if summary["errors"]["count"]:
            out.print(f"  [red]{summary['errors']['count']} errors[/]: "
                      + "; ".join(summary["errors"]["first"]))


def main() -> None:  # pragma: no cover - `python -m app.simulate ...`
    import typer

    app = typer.Typer(add_completion=False)
    register(app)

    @app.callback()
    def _root() -> None:
        """Menagerie bot simulations."""

    app()


if __name__ == "__main__":  # pragma: no cover
    main()
