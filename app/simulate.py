"""``menagerie simulate``: the command line over :mod:`engine.bots.simulate`.

    menagerie simulate --game arknova --games 200 --players 2 --bots greedy,random --seed 1 --json

``--bots`` lists one bot per seat (see :func:`engine.bots.simulate.parse_bots`); ``--json``
prints one JSON object (see :func:`engine.bots.simulate.simulate` for its keys); otherwise a
short table. A rich progress bar shows on stderr. ``--records FILE`` appends every finished
game to ``FILE`` (one JSON line each) as it ends, so a long run that has to be stopped still
leaves its games (:func:`summarize_records` summarises such a file).
"""

from __future__ import annotations

import json
import sys

from engine.bots.simulate import parse_bots, simulate, summarize


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
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

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
            raise typer.Exit(2) from None
        if as_json:
            sys.stdout.write(json.dumps(summary, sort_keys=True) + "\n")
            return
        out = Console()
        out.print(f"{summary['games']} games of {game}, {players} players, seed {seed_value} "
                  f"({summary['seconds']} s)")
        for lab, row in summary["per_bot"].items():
            solo = (summary.get("solo") or {}).get(lab)
            if solo and solo["games"]:
                q = solo["quantiles"]
                out.print(f"  {lab:<24} solo score {solo['mean']} ± {solo['stdev']}  "
                          f"(min {q['min']}, p25 {q['p25']}, median {q['median']}, "
                          f"p75 {q['p75']}, max {q['max']});  reached 0 in "
                          f"{solo['reached']:.1%}")
                continue
            out.print(f"  {lab:<24} wins {row['wins']:>7}  ({(row['win_rate'] or 0):.1%})  "
                      f"VP {row['vp_mean']} ± {row['vp_stdev']}")
        length = summary["length"]
        out.print(f"  length: {length['turns_mean']} turns, {length['breaks_mean']} breaks, "
                  f"{length['decisions_mean']} decisions (means)")
        if players > 1 or summary["first_seat_win_rate"] is None:
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
