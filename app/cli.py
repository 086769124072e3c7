"""The ``menagerie`` command line: serve, migrate, replay (simulate and analyse live in
their own modules, registered here)."""

from __future__ import annotations

import asyncio
import json
import sys

import typer

from .settings import Settings

cli = typer.Typer(help="Menagerie: a multiplayer server for board games.", no_args_is_help=True,
                  add_completion=False)


@cli.command()
def serve(host: str = typer.Option(None, help="Interface to listen on [MENAGERIE_HOST]"),
          port: int = typer.Option(None, help="TCP port [MENAGERIE_PORT]"),
          workers: int = typer.Option(None, min=1, max=64,
                                      help="Worker processes sharing the port "
                                           "[MENAGERIE_WORKERS] (PostgreSQL only above 1)"),
          migrate_first: bool = typer.Option(True, "--migrate/--no-migrate",
                                             help="Upgrade the database schema first")) -> None:
    """Migrate the database to the newest schema, then run the server."""
    import uvicorn

    from . import logs
    from .migrate import upgrade

    settings = Settings()
    logs.configure(settings.log_level)
    workers = workers or settings.workers
    if workers > 1 and not settings.is_postgres:
        typer.echo("--workers above 1 needs PostgreSQL (DATABASE_URL=postgresql+asyncpg://...): "
                   "with SQLite the live updates stay inside one process", err=True)
        raise typer.Exit(2)
    if migrate_first:
        asyncio.run(upgrade(settings.database_url))
    from .serving import open_files, uvicorn_options

    open_files(settings)
    options = dict(host=host or settings.host,
                   port=port if port is not None else settings.port,
                   **uvicorn_options(settings))
    if workers > 1:
        # each worker builds its app from the environment (app.main.app_from_env); they share
        # the port, and uvicorn restarts a worker that dies
        uvicorn.run("app.main:app_from_env", factory=True, workers=workers, **options)
    else:
        from .main import create_app

        uvicorn.run(create_app(settings), **options)


@cli.command()
def migrate(revision: str = typer.Argument("head", help="Target revision")) -> None:
    """Upgrade the database schema (DATABASE_URL) to the newest revision."""
    from .migrate import current_revision, upgrade

    settings = Settings()
    asyncio.run(upgrade(settings.database_url, revision))
    typer.echo(f"database at revision {asyncio.run(current_revision(settings.database_url))}")


@cli.command()
def replay(game_id: int = typer.Argument(None, help="Game id (stored in DATABASE_URL)"),
           file: str = typer.Option(None, "--file", "-f",
                                    help="A game record (JSON, menagerie-record/1) to replay "
                                         "instead of a stored game; '-' reads standard input")
           ) -> None:
    """Replay a stored game from its seed and action log (or a record file); print the state
    hash and result."""
    if (game_id is None) == (file is None):
        typer.echo("give a game ID or --file RECORD.json (one of them)", err=True)
        raise typer.Exit(2)
    if file is not None:
        _replay_file(file)
        return
    from .db import Database
    from .games import GameService
    from .realtime import Hub
    from .refusal import Refusal

    settings = Settings()

    async def run():
        db = Database(settings)
        try:
            hub = Hub(None, None, sync_window=1, frame_cache=2)  # type: ignore[arg-type]
            return await GameService(db, settings, hub).replay(game_id)
        finally:
            await db.dispose()

    try:
        out = asyncio.run(run())
    except Refusal as exc:
        typer.echo(f"{exc.code}: {exc.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"state hash: {out['state_hash']}")
    typer.echo(f"result: {json.dumps(out['result'], sort_keys=True)}")
    if not out["match"]:
        typer.echo(f"MISMATCH: the stored state hashes to {out['stored_hash']}", err=True)
        raise typer.Exit(1)
    typer.echo(f"matches the stored state at version {out['version']} "
               f"({out['actions']} actions)")


def _replay_file(path: str) -> None:
    """``menagerie replay --file``: replay a record with the engine, without a database."""
    from .records import replay_file
    from .refusal import Refusal

    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        record = json.loads(text)
    except (OSError, ValueError) as exc:
        typer.echo(f"cannot read {path}: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        out = replay_file(record)
    except Refusal as exc:
        where = f" (action {exc.extra['index']})" if "index" in exc.extra else ""
        typer.echo(f"{exc.code}: {exc.message}{where}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"state hash: {out['state_hash']}")
    typer.echo(f"result: {json.dumps(out['result'], sort_keys=True)}")
    typer.echo(f"replayed {out['actions']} actions of {out['game']}")


def _register_simulate() -> None:
    from .simulate import register

    register(cli)


def _register_analyse() -> None:
    from .analyse_cli import register

    register(cli)


_register_simulate()
_register_analyse()


def main() -> None:  # console script entry point
    cli()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
