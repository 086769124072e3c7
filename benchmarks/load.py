"""Load generator: concurrent Ark Nova games, spectator sockets, faults, and a baseline.

    .venv/bin/python benchmarks/load.py --games 200 --spectators 500 --rate 200 --duration 20
    .venv/bin/python benchmarks/load.py --games 200 --spectators 500 --rate 0   # saturation
    .venv/bin/python benchmarks/load.py --games 40 --spectators 80 --servers 2 --kill-every 5

What it does (everything on 127.0.0.1, bounded in count and time, stops by itself):

1. Creates a throwaway PostgreSQL database next to ``--db`` (default ``TEST_POSTGRES_URL``),
   starts ``menagerie serve`` on it (``--servers`` processes of ``--workers`` workers each), or
   uses ``--url``. Registers two players per game, creates ``--games`` real ``arknova`` games
   (no bots) and starts them; opens ``--spectators`` anonymous sockets (at most 20,000) spread
   over the games and over source addresses 127.0.x.y (``--per-address`` each, so the server's
   per-address socket cap stays on). A spectator reconnects like the browser client: a growing,
   jittered delay, and after a 4503 refusal (the server sheds spectators past
   ``MENAGERIE_WS_SPECTATOR_LIMIT``) the server's ``retry_after``, jittered. The report counts
   the players' errors apart from the spectators', and the spectators admitted and shed.
2. Each game is played by two scripted clients: the seat that owes a decision asks
   ``GET /legal``, picks one of the answers at random and ``POST``s it at the version it saw.
   ``--rate R`` paces the games to R accepted actions per second in total (each game acts
   every games/R seconds); ``--rate 0`` plays as fast as the server answers (throughput).
3. Measures, after ``--warmup`` seconds and for ``--duration`` seconds: accepted actions per
   second, the POST's latency (p50/p95/p99), the legal-moves GET's latency, and the fan-out
   delay: from the POST's answer to the *last* spectator of that game receiving that version.
   Counts every error: HTTP statuses other than 200, refused or dropped connections, versions
   a spectator never received, gaps in a spectator's versions.
4. Runs the same client loop against ``benchmarks/baseline.py`` (a bare FastAPI endpoint doing
   the comparable transaction on the same database) and prints ours / baseline.
5. ``--verify`` (default on): every acknowledged action is in the ``actions`` table (same seat,
   same action), and every game's log replays to the stored state's hash.

``--analysis``: before the phases, imports an Ark Nova game (two greedy bots, about 450
actions) and requests its post-game analysis (issue #19) at the server's default setting, waits
until the analysis worker process is computing it, and reports with each phase how many
decisions the analysis got through during the phase (it must still be running at the end: the
phase measured live play *while* analysing). Compare with a run without the flag.

Faults: ``--servers 2 --kill-every S`` kills one server process with SIGKILL every S seconds
and restarts it ``--restart-after`` seconds later (clients fail over to the other server and
resync their sockets); ``--pg-restart-cmd CMD --pg-restart-at T`` runs CMD (e.g. ``service
postgresql restart``) T seconds into the run. Exit status 1 when an acknowledged action is
missing, a game does not replay, or (without faults) any error happened.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# the pieces, re-exported for the tests and scripts that use ``benchmarks.load``
from benchmarks.loadgen.client import RawHttp, Recorder, Slot  # noqa: E402
from benchmarks.loadgen.measure import LOAD_ENV, PASSWORD, ServerProc  # noqa: E402
from benchmarks.loadgen.phases import line, run_target  # noqa: E402
from benchmarks.loadgen.run import Options, Run  # noqa: E402
from benchmarks.loadgen.targets import Baseline, Ours, Target  # noqa: E402
from benchmarks.loadgen.verify import create_database, drop_database  # noqa: E402

__all__ = ["LOAD_ENV", "PASSWORD", "Baseline", "Options", "Ours", "RawHttp", "Recorder", "Run",
           "ServerProc", "Slot", "Target", "line", "main", "run_menagerie", "run_target"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--spectators", type=int, default=500)
    p.add_argument("--rate", default="200",
                   help="total actions/s to offer; 0 = as fast as possible; a comma list "
                        "runs one phase per rate (e.g. 200,0)")
    p.add_argument("--duration", type=float, default=20.0, help="measured seconds per phase")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--targets", default="menagerie,baseline",
                   help="menagerie, baseline or both (the same client loop)")
    p.add_argument("--workers", type=int, default=1, help="uvicorn workers per server process")
    p.add_argument("--servers", type=int, default=1, help="server processes (own ports)")
    p.add_argument("--url", help="use a running Menagerie (comma list) instead of starting one")
    p.add_argument("--db", default=os.environ.get("TEST_POSTGRES_URL"),
                   help="PostgreSQL URL whose server gets a throwaway database "
                        "(default TEST_POSTGRES_URL)")
    p.add_argument("--keep-db", action="store_true")
    p.add_argument("--access-log", action="store_true", help="keep the JSON access log on")
    p.add_argument("--kill-every", type=float, default=0.0)
    p.add_argument("--restart-after", type=float, default=1.0)
    p.add_argument("--pg-restart-cmd", default="")
    p.add_argument("--pg-restart-at", type=float, default=5.0)
    p.add_argument("--no-verify", dest="verify", action="store_false")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--grace", type=float, default=3.0,
                   help="seconds the sockets get after the last move to receive it")
    p.add_argument("--json", action="store_true")
    p.add_argument("--per-address", type=int, default=30,
                   help="spectators per source address 127.0.x.y (the server's per-address "
                        "socket cap stays on); 0: all from 127.0.0.1")
    p.add_argument("--arrive-per-second", type=float, default=1000.0,
                   help="spectators that start connecting per second (0: all at once)")
    p.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                   help="an environment variable for the servers started, e.g. "
                        "MENAGERIE_WS_SPECTATOR_LIMIT=4000 (repeatable)")
    p.add_argument("--analysis", action="store_true",
                   help="keep a post-game analysis running during the phases (see above)")
    args = p.parse_args(argv)
    args.rates = [float(x) for x in args.rate.split(",")]
    named = [t.strip() for t in args.targets.split(",") if t.strip()]
    args.targets = [k for t in named for k in (("menagerie", "baseline") if t == "both" else (t,))]
    if any(t not in ("menagerie", "baseline") for t in args.targets):
        p.error("--targets: menagerie, baseline or both")
    if args.games < 1 or args.games > 2000 or args.spectators > 20000 or args.duration > 600:
        p.error("bounded: at most 2000 games, 20000 spectators, 600 s per phase")
    args.server_env = dict(kv.split("=", 1) for kv in args.server_env)
    return args


def options_of(args) -> Options:
    return Options(games=args.games, spectators=args.spectators, duration=args.duration,
                   warmup=args.warmup, seed=args.seed, kill_every=args.kill_every,
                   restart_after=args.restart_after, pg_restart_cmd=args.pg_restart_cmd,
                   pg_restart_at=args.pg_restart_at, grace=args.grace,
                   per_address=args.per_address, arrive_per_second=args.arrive_per_second)


async def run_menagerie(db_url: str, argv: list[str], extra_env: dict | None = None) -> dict:
    """One run against Menagerie servers started on ``db_url`` (migrated); for the tests."""
    args = parse_args([*argv, "--targets", "menagerie"])
    log_dir = Path(tempfile.mkdtemp(prefix="menagerie-load-"))
    out = await run_target("menagerie", args, options_of(args), db_url, log_dir, extra_env)
    out["logs"] = str(log_dir)
    return out


async def amain(args) -> dict:
    opts = Options(games=args.games, spectators=args.spectators, duration=args.duration,
                   warmup=args.warmup, seed=args.seed, kill_every=args.kill_every,
                   restart_after=args.restart_after, pg_restart_cmd=args.pg_restart_cmd,
                   pg_restart_at=args.pg_restart_at, per_address=args.per_address,
                   arrive_per_second=args.arrive_per_second)
    log_dir = Path(tempfile.mkdtemp(prefix="menagerie-load-"))
    report: dict = {"args": {k: v for k, v in vars(args).items() if k != "db"},
                    "logs": str(log_dir)}
    db_url = None
    if not args.url or "baseline" in args.targets:
        if not args.db:
            raise SystemExit("set TEST_POSTGRES_URL or --db (a PostgreSQL server to use)")
        db_url = await create_database(args.db)
        from app.migrate import upgrade

        await upgrade(db_url)
    try:
        for kind in args.targets:
            if kind == "baseline" and args.url:
                pass
            report[kind] = await run_target(kind, args, opts, db_url, log_dir,
                                            args.server_env)
    finally:
        if db_url and not args.keep_db:
            with contextlib.suppress(Exception):
                await drop_database(args.db, db_url)
    if "menagerie" in report and "baseline" in report:
        ratios = []
        for ours, base in zip(report["menagerie"]["phases"], report["baseline"]["phases"]):
            r = round(ours["actions_per_s"] / base["actions_per_s"], 2) if base[
                "actions_per_s"] else None
            ratios.append(r)
            rate = "max" if not ours["rate_target"] else f"{ours['rate_target']:g}/s"
            print(f"ours/baseline at rate {rate}: throughput {r}  (action p99 "
                  f"{ours['action_ms']['p99']} vs {base['action_ms']['p99']} ms)")
        report["ratio"] = ratios
    return report


def failed(report: dict, faults: bool) -> bool:
    bad = False
    v = report.get("menagerie", {}).get("verify")
    if v and (v["missing"] or v["mismatched"] or v["replay_mismatch"] or v["stuck"]
              or v["log_holes"]):
        bad = True
    for kind in ("menagerie", "baseline"):
        for ph in report.get(kind, {}).get("phases", []):
            if ph["errors"] and not faults:
                bad = True
    return bad


def raise_open_files() -> None:
    """Thousands of sockets: the soft limit of open files up to the hard one (this process
    and the servers it starts)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_open_files()
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    report = asyncio.run(amain(args))
    if args.json:
        print(json.dumps(report, indent=2))
    return 1 if failed(report, bool(args.kill_every or args.pg_restart_cmd)) else 0


if __name__ == "__main__":
    sys.exit(main())
