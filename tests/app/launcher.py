"""Run the app like ``menagerie serve`` with the test-only toy game registered.

    python -m tests.app.launcher --port 8123 [--migrate]

The database comes from DATABASE_URL, like the real server. Used by the multi-process and
restart tests, and handy for trying the API by hand with the toy game.
"""

from __future__ import annotations

import argparse
import asyncio

import uvicorn

import engine
from app import logs
from app.main import create_app
from app.migrate import upgrade
from app.serving import uvicorn_options
from app.settings import Settings
from tests.toygame import TOY


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--migrate", action="store_true")
    args = parser.parse_args()
    engine.register(TOY, replace=True)
    settings = Settings()
    logs.configure(settings.log_level)
    if args.migrate:
        asyncio.run(upgrade(settings.database_url))
    uvicorn.run(create_app(settings), host=args.host, port=args.port,
                **uvicorn_options(settings))


if __name__ == "__main__":
    main()
