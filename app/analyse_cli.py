"""``menagerie analyse``: the post-game analysis of a game (stored, or a record file).

    menagerie analyse GAME_ID            # a finished game of DATABASE_URL
    menagerie analyse --file RECORD.json # a record (GET /api/games/{id}/record); '-': stdin
        [--playouts N] [--candidates N] [--json]

Runs :func:`engine.bots.analysis.analyse` (each decision of each seat judged from that seat's
information only; see docs/analysis.md) with a progress bar on standard error, then prints the
report: per seat the accuracy, mean loss and mistakes, the biggest mistakes with what the bot
would have played, and a compact line of each seat's value over the game; ``--json`` prints
the report as one JSON object instead.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from typing import Any

import typer

#: characters of the value line, lowest to highest
BARS = "▁▂▃▄▅▆▇█"
SPARK_WIDTH = 48


def load_stored_record(game_id: int) -> dict:
    """The record of a finished stored game, as ``GET /api/games/{id}/record`` exports it."""
    from .db import Database
    from .games import GameService
    from .realtime import Hub
    from .records import RecordService
    from .settings import Settings

    settings = Settings()

    async def run():
        db = Database(settings)
        try:
            hub = Hub(None, None, sync_window=1, frame_cache=2)  # type: ignore[arg-type]
            return await RecordService(settings, GameService(db, settings, hub)).export(game_id)
        finally:
            await db.dispose()

    return asyncio.run(run())


def read_record_file(path: str) -> dict:
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    return json.loads(text)


def seat_names(seats: list[dict]) -> list[str]:
    return [x.get("user") or (f"bot {x['bot']}" if x.get("bot") else f"seat {x['seat']}")
            for x in seats]


def spark(values: list[float], width: int = SPARK_WIDTH) -> str:
    """A line of block characters: the values in ``width`` buckets (each its mean), scaled
    from the lowest to the highest."""
    if not values:
        return ""
    n = min(width, len(values))
    buckets = [values[len(values) * i // n: len(values) * (i + 1) // n] for i in range(n)]
    means = [sum(b) / len(b) for b in buckets]
    lo, hi = min(means), max(means)
    span = (hi - lo) or 1.0
    return "".join(BARS[min(len(BARS) - 1, int((m - lo) / span * len(BARS)))] for m in means)


def render(report: dict, names: list[str], title: str) -> str:
    """The text report."""
    out = [title, ""]
    out.append(f"{'seat':<5} {'player':<20} {'accuracy':>8} {'mean loss':>9} {'win lost':>8} "
               f"{'mistakes':>8} {'decisions':>9}")
    for s in report["seats"]:
        acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        win = s.get("mean_win_loss")
        lost = "-" if win is None else f"{100 * win:.2f}%"
        out.append(f"{s['seat']:<5} {names[s['seat']][:20]:<20} {acc:>8} "
                   f"{s['mean_loss']:>9.2f} {lost:>8} {s['mistakes']:>8} {s['decisions']:>9}")
    out.append("")
    if report["mistakes"]:
        out.append(f"Biggest mistakes (expected value lost, in the game's evaluation units; "
                   f"a mistake loses more than {report['unit']:g}):")
        for m in report["mistakes"]:
            out.append(f"  -{m['loss']:.1f} at version {m['version']}, {names[m['seat']]}: "
                       f"{m['text']['chosen']['text']}, instead of {m['text']['best']['text']}")
    else:
        out.append("No mistakes above the threshold.")
    out.append("")
    out.append("Value over the game (each seat's chosen answers, low to high):")
    for s, series in enumerate(report["series"]):
        vals = [p["value"] for p in series]
        if vals:
            out.append(f"  {names[s][:20]:<20} {spark(vals)}  "
                       f"{min(vals):+.0f} .. {max(vals):+.0f}, last {vals[-1]:+.0f}")
    if not report["complete"]:
        out.append("")
        out.append(f"(incomplete: {len(report['entries'])} of {report['total']} decisions)")
    return "\n".join(out)


def register(app) -> None:
    """Add the ``analyse`` command to the ``menagerie`` Typer app."""

    @app.command("analyse")
    def analyse_command(
        game_id: int = typer.Argument(None, help="Game id (a finished game in DATABASE_URL)"),
        file: str = typer.Option(None, "--file", "-f",
                                 help="A game record (JSON, menagerie-record/1) instead of a "
                                      "stored game; '-' reads standard input"),
        playouts: int = typer.Option(None, "--playouts", min=1,
                                     help="Sampled worlds per analysed move (default: the "
                                          "engine's measured setting)"),
        candidates: int = typer.Option(None, "--candidates", min=0,
                                       help="Bot answers compared besides the chosen one"),
        policy: str = typer.Option(None, "--policy",
                                   help="Who picks and plays out the compared answers: own, "
                                        "learned, mix or plan (the default: the plan level's "
                                        "look at move starts, which judges deeper play)"),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON"),
    ) -> None:
        """Analyse a finished game: each seat's decisions against the search bot's best, from
        that seat's information; accuracy, biggest mistakes, value over the game."""
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from engine.bots.analysis import Settings, analyse
        from engine.core import IllegalAction

        from .records import check_record
        from .refusal import Refusal

        if (game_id is None) == (file is None):
            typer.echo("give a game ID or --file RECORD.json (one of them)", err=True)
            raise typer.Exit(2)
        try:
            record = read_record_file(file) if file is not None else load_stored_record(game_id)
        except (OSError, ValueError) as exc:
            typer.echo(f"cannot read {file}: {exc}", err=True)
            raise typer.Exit(2) from None
        except Refusal as exc:
            typer.echo(f"{exc.code}: {exc.message}", err=True)
            raise typer.Exit(2) from None
        try:
            name, game, seats, options, seed, log = check_record(record)
        except Refusal as exc:
            typer.echo(f"{exc.code}: {exc.message}", err=True)
            raise typer.Exit(2) from None
        over: dict[str, Any] = {k: v for k, v in (("playouts", playouts),
                                                  ("candidates", candidates),
                                                  ("policy", policy)) if v is not None}
        try:
            settings = dataclasses.replace(Settings(), **over)
        except ValueError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from None
        actions = [{"seat": s, "action": a} for s, a in log]
        err = Console(stderr=True)
        with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                      transient=True) as bar:
            task = bar.add_task("analyse", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            try:
                report = analyse(game, len(seats), options, seed, actions, settings,
                                 progress=progress)
            except IllegalAction as exc:
                typer.echo(f"{exc.code}: {exc.message}", err=True)
                raise typer.Exit(1) from None
        names = seat_names(seats)
        if as_json:
            typer.echo(json.dumps({"game": name, "id": record.get("id"), "players": names,
                                   "settings": settings.as_dict(), **report}))
            return
        where = f"game {record['id']}" if record.get("id") is not None else (file or "")
        title = (f"Analysis of {name} {where}: {report['total']} decisions, "
                 f"{settings.playouts} playouts per move, {settings.candidates} candidates")
        typer.echo(render(report, names, title))


__all__ = ["load_stored_record", "register", "render", "seat_names", "spark"]
