"""One target's run: its servers, the setup, one phase per rate, the printed line."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from pathlib import Path

import httpx

from .client import Recorder
from .measure import PASSWORD, ServerProc
from .run import Options, Run
from .targets import Baseline, Ours
from .verify import verify_baseline, verify_ours


async def run_target(kind: str, args, opts: Options, db_url: str | None,
                     log_dir: Path, extra_env: dict | None = None) -> dict:
    rec = Recorder()
    servers: list[ServerProc] = []
    if kind == "menagerie" and args.url:
        bases = [u.rstrip("/") for u in args.url.split(",")]
    else:
        assert db_url is not None
        env = {} if kind == "baseline" else {
            "MENAGERIE_ACCESS_LOG": "true" if args.access_log else "false", **(extra_env or {})}
        servers = [ServerProc(kind, db_url, args.workers, env, log_dir, f"{kind}{i}")
                   for i in range(args.servers)]
        for s in servers:
            s.start()
        await asyncio.gather(*(s.ready() for s in servers))
        bases = [s.base for s in servers]
    limits = httpx.Limits(max_connections=max(50, args.games * 2),
                          max_keepalive_connections=max(50, args.games * 2))
    try:
        async with httpx.AsyncClient(limits=limits, timeout=opts.timeout) as client:
            target = (Ours if kind == "menagerie" else Baseline)(bases, client, rec)
            t0 = time.perf_counter()
            slots = await target.setup(args.games, secrets.token_hex(3))
            setup_s = time.perf_counter() - t0
            results = []
            busy = (await start_analysis(client, bases[0])
                    if kind == "menagerie" and args.analysis else None)
            for rate in args.rates:
                o = Options(**{**opts.__dict__, "rate": rate})
                run = Run(target, slots, o, servers)
                rec.new_phase()
                before = await analysis_state(client, bases[0], busy) if busy else None
                res = await run.go()
                if busy:
                    after = await analysis_state(client, bases[0], busy)
                    res["analysis"] = {"status_after": after["status"],
                                       "done_before": before["done"], "done_after": after["done"],
                                       "total": after["total"]}
                res["setup_s"] = round(setup_s, 1)
                res["workers"] = args.workers
                res["servers"] = len(bases)
                results.append(res)
                print(line(res), flush=True)
        out = {"phases": results, "health_after": []}
        async with httpx.AsyncClient(timeout=5) as c:
            for base in bases:
                try:
                    out["health_after"].append((await c.get(base + "/healthz")).json())
                except Exception as exc:  # noqa: BLE001 - reported, judged by the caller
                    out["health_after"].append({"error": repr(exc)})
        if args.verify and db_url is not None:
            out["verify"] = await (verify_ours if kind == "menagerie" else verify_baseline)(
                db_url, rec)
            print(f"  verify {kind}: {json.dumps(out['verify'])}", flush=True)
        return out
    finally:
        for s in servers:
            s.stop()


async def start_analysis(client: httpx.AsyncClient, base: str) -> dict:
    """``--analysis``: a finished Ark Nova game imported and its analysis requested; returns
    once the worker process is computing it."""
    from tests.arkrecord import greedy_record

    name = f"an{secrets.token_hex(4)}"
    r = await client.post(base + "/api/auth/register",
                          json={"username": name, "password": PASSWORD})
    r.raise_for_status()
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    record = await asyncio.to_thread(greedy_record, "load-analysis")
    r = await client.post(base + "/api/games/import", json=record, headers=headers)
    r.raise_for_status()
    busy = {"id": r.json()["id"], "headers": headers}
    r = await client.post(base + f"/api/games/{busy['id']}/analysis", headers=headers)
    r.raise_for_status()
    for _ in range(1200):
        state = await analysis_state(client, base, busy)
        if state["status"] == "running" and state["done"]:
            print(f"  analysis of game {busy['id']} running: {state['done']}/{state['total']}",
                  flush=True)
            return busy
        await asyncio.sleep(0.1)
    raise SystemExit("the analysis did not start within 120 s")


async def analysis_state(client: httpx.AsyncClient, base: str, busy: dict) -> dict:
    r = await client.get(base + f"/api/games/{busy['id']}/analysis", headers=busy["headers"])
    r.raise_for_status()
    return r.json()


def line(r: dict) -> str:
    a, f = r["action_ms"], r["fanout_ms"]
    counts = ", ".join(f"{k}={v}" for k, v in sorted(r["counts"].items())) or "none"
    rate = "max" if not r["rate_target"] else f"{r['rate_target']:g}/s"
    return (f"{r['target']:9s} rate {rate:>7s}  games {r['games']} spectators "
            f"{r['spectators']} (admitted {r['spectators_admitted']}, shed at the end "
            f"{r['spectators_shed_at_end']}, refusals {r['shed_refusals']})  errors: players "
            f"{r['player_errors']} spectators {r['spectator_errors']}  "
            f"accepted {r['actions_per_s']}/s  action p50 {a['p50']} p95 "
            f"{a['p95']} p99 {a['p99']} ms  legal p99 {r['legal_ms']['p99']} ms  fan-out p50 "
            f"{f['p50']} p99 {f['p99']} ms  missed {r['fanout_missed']}  server cpu "
            f"{r['server_cpu']} ({r['server_cpu_ms_per_action']} ms/action) client cpu "
            f"{r['client_cpu']} db cpu {r['db_cpu']} cpu stall {r['cpu_stall']}  rss {r['server_rss_mb']} MB  "
            f"events: {counts}"
            + (f"  faults: {'; '.join(r['faults'])}" if r["faults"] else "")
            + (f"  analysis: {r['analysis']['done_before']}->{r['analysis']['done_after']}/"
               f"{r['analysis']['total']} decisions, {r['analysis']['status_after']} at the end"
               if r.get("analysis") else ""))
