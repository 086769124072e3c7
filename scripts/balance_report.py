"""Balance report of the zoo builder from bot-vs-bot games: writes ``docs/balance.md``.

    .venv/bin/python scripts/balance_report.py [--minutes 10] [--games N] [--bots greedy,greedy]
                                               [--seed balance] [--out docs/balance.md]
                                               [--jobs 1] [--records FILE] [--from-records]

Plays 2-player games (seats rotate, see ``engine/bots/simulate.py``) until ``--games`` are done or
``--minutes`` of wall time have passed, whichever comes first, and reports. Game ``i`` is the
same game whatever ``--jobs`` is (its seed is ``"{seed}:{i}"``), so the report of N games does
not depend on the number of processes.

Long runs are meant for the background, e.g.
``nice -n 15 .venv/bin/python scripts/balance_report.py --games 1000 --minutes 90 --jobs 2
--records /tmp/balance.jsonl > /tmp/balance.log 2>&1 &``: ``--jobs N`` plays N games at a time in
N processes, each finished game is appended to ``--records`` (one JSON line) and a progress line
goes to stderr every ``--every`` games. If the run has to be stopped, ``--from-records`` writes
the report from the games recorded so far without playing any.

The report gives:

- the first-seat advantage: how often seat 0 won (ties split), with a 95 % interval;
- per card (animals, sponsors, conservation projects): its play rate (share of zoos that ended
  the game with it: animals in the zoo, sponsors played, projects supported) and the win rate
  of the zoos that played it, with the number of plays;
- flagged outliers: cards whose win rate is far from 50 % for their number of plays (|z| >= 2.5
  and at least 12 plays), cards never played, and cards played by more than 60 % of zoos.

Win rates of a strong card and of the zoos that can afford it are entangled (good zoos play
more cards); read the flags as "look at this card", not as proof.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.arknova.content import load_content  # noqa: E402
from engine.bots.simulate import labels_for, play_game  # noqa: E402

Z_FLAG = 2.5
MIN_PLAYS = 12
POPULAR = 0.6


#: From this line on, the old report is kept as it is (the solo score distributions of
#: ``menagerie simulate --players 1``, written by hand with their commands and dates).
KEEP_MARK = "<!-- kept by scripts/balance_report.py: the sections below are not generated -->"


def collect(state: dict) -> dict:
    """The cards each zoo ended the game with (module-level: picklable)."""
    return {"zoos": [{"animals": sorted({a["card"] for a in p["animals"]}),
                      "sponsors": sorted(set(p["sponsors"])),
                      "projects": sorted(set(p["supported"]))} for p in state["players"]]}


def interval(p: float, n: int) -> tuple[float, float]:
    """Wilson 95 % interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _slim(record: dict) -> dict:
    """What the report needs of a game record (no traceback)."""
    return {k: v for k, v in record.items() if k != "traceback"}


def run(games: int, minutes: float, bots: list[str], seed: str, progress=True, jobs: int = 1,
        records_path: str | None = None, every: int = 10, start: int = 0) -> list[dict]:
    """Play games ``start .. start+games-1`` (``jobs`` at a time) until done or ``minutes``
    have passed (no game is started after the deadline); the records sorted by game index.
    A run stopped by its time limit is continued by another with ``start`` = the games done
    (game ``i`` is the same game in any run)."""
    records: list[dict] = []
    started = time.perf_counter()
    deadline = started + minutes * 60
    sink = open(records_path, "a") if records_path else None

    def done(r: dict) -> None:
        records.append(_slim(r))
        if sink is not None:
            sink.write(json.dumps(records[-1]) + "\n")
            sink.flush()
        if progress and (len(records) % every == 0 or r["error"]):
            elapsed = time.perf_counter() - started
            print(f"{len(records)}/{games} games, {elapsed / 60:.1f} min, "
                  f"{elapsed / len(records):.2f} s per game"
                  + (f"; {r['error']}" if r["error"] else ""), file=sys.stderr, flush=True)

    try:
        if jobs <= 1:
            for i in range(start, start + games):
                if time.perf_counter() >= deadline:
                    break
                done(play_game("arknova", 2, bots, seed, i, None, collect))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                pending: set = set()
                nxt = start
                while True:
                    while (nxt < start + games and len(pending) < jobs
                           and time.perf_counter() < deadline):
                        pending.add(pool.submit(play_game, "arknova", 2, bots, seed, nxt, None,
                                                collect))
                        nxt += 1
                    if not pending:
                        break
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        done(fut.result())
    finally:
        if sink is not None:
            sink.close()
    return sorted(records, key=lambda r: r["index"])


def read_records(path: str) -> list[dict]:
    """The games recorded in a ``--records`` file (the last record of each index)."""
    by_index: dict = {}
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if line:
                r = json.loads(line)
                by_index[r["index"]] = r
    return [by_index[i] for i in sorted(by_index)]


def report(records: list[dict], bots: list[str], seed: str, minutes: float,
           seconds: float, command: str, jobs: int = 1) -> str:
    ok = [r for r in records if r["error"] is None]
    content = load_content()
    names = {**{c: a.name for c, a in content.animals.items()},
             **{c: s.name for c, s in content.sponsors.items()},
             **{c: p.name for c, p in content.projects.items()},
             **{c: p.name for c, p in content.base_projects.items()}}
    kinds = {**{c: "animal" for c in content.animals}, **{c: "sponsor" for c in content.sponsors},
             **{c: "project" for c in content.projects},
             **{c: "base project" for c in content.base_projects}}
    plays: Counter = Counter()
    wins: Counter = Counter()
    zoos = 0
    first = 0.0
    margins = []
    for r in ok:
        winners = [s for s in range(2) if r["places"][s] == 1]
        if 0 in winners:
            first += 1 / len(winners)
        margins.append(abs(r["scores"][0] - r["scores"][1]))
        for s, zoo in enumerate(r["collected"]["zoos"]):
            zoos += 1
            share = (1 / len(winners)) if s in winners else 0.0
            for group in ("animals", "sponsors", "projects"):
                for cid in zoo[group]:
                    plays[cid] += 1
                    wins[cid] += share
    n = len(ok)
    rate = first / n if n else 0.0
    lo, hi = interval(rate, n)
    vps = [v for r in ok for v in r["scores"]]
    where = ("one process" if jobs <= 1 else f"{jobs} processes")
    lines = [
        "# Balance report: the zoo builder (generated)",
        "",
        f"Generated by `{command}` from **{n} finished 2-player games** "
        f"({len(records) - n} errors) of `{bots[0]}` against `{bots[1]}`, seats rotating, "
        f"seed `{seed}`"
        + (f", in {seconds / 60:.1f} minutes of wall time with {where} (limit {minutes} min)."
           if seconds else ".")
        + (" The issue asks for at least 1,000 games; this is what fitted in the time limit, "
           "so per-card figures rest on few plays each and are a screening, not a verdict."
           if n < 1000 else
           " Per-card figures still rest on few plays for rare cards: read them as a "
           "screening, not a verdict."),
        "",
        "## First-seat advantage",
        "",
        f"- seat 0 (moves first, starts with the lowest appeal) won **{rate:.1%}** of the games "
        f"(ties split), 95 % interval {lo:.1%} – {hi:.1%}"
        + (" — no significant advantage." if lo <= 0.5 <= hi else
           " — a significant advantage." if lo > 0.5 else " — a significant disadvantage."),
        f"- mean final score {sum(vps) / len(vps):.1f} VP; mean winning margin "
        f"{sum(margins) / len(margins):.1f} VP" if vps else "- no finished game",
        f"- mean length: {sum(r['turns'] for r in ok) / max(1, n):.1f} turns, "
        f"{sum(r['breaks'] for r in ok) / max(1, n):.1f} breaks",
        "",
    ]
    rows = []
    for cid in sorted(kinds):
        k = plays[cid]
        wr = wins[cid] / k if k else None
        z = (wr - 0.5) / math.sqrt(0.25 / k) if k else 0.0
        rows.append((cid, kinds[cid], names.get(cid, cid), k, k / zoos if zoos else 0.0, wr, z))
    flagged = []
    for cid, kind, name, k, pr, wr, z in rows:
        why = []
        if k >= MIN_PLAYS and abs(z) >= Z_FLAG:
            why.append(f"win rate {wr:.0%} over {k} plays (z = {z:+.1f})")
        if k == 0 and kind != "base project":
            why.append("never played")
        if pr > POPULAR:
            why.append(f"played by {pr:.0%} of zoos")
        if why:
            flagged.append((cid, kind, name, "; ".join(why)))
    lines += ["## Flagged outliers", "",
              f"Rules: |z| ≥ {Z_FLAG} with at least {MIN_PLAYS} plays (z of the win rate "
              "against 50 %), never played, or played by more than "
              f"{POPULAR:.0%} of zoos.", "",
              "A flag is a screening, not a verdict: strong zoos afford more and dearer cards, "
              "so a card's win rate mixes its own strength with that of the zoos that play "
              "it. The controlled trials in `docs/balance-trials.md` "
              "(`scripts/balance_trials.py`: the same games with only the card's holder "
              "changed) measure the card alone.", ""]
    if flagged:
        lines += ["| card | kind | name | why |", "|---|---|---|---|"]
        lines += [f"| {cid} | {kind} | {name} | {why} |" for cid, kind, name, why in flagged]
    else:
        lines.append("No card is flagged.")
    lines += ["", "## Every card", "",
              f"Play rate: share of the {zoos} zoos that ended the game with the card (animals "
              "in the zoo, sponsors played, projects supported). Win rate: games won by those "
              "zoos (ties split).", "",
              "| card | kind | name | plays | play rate | win rate |", "|---|---|---|---:|---:|---:|"]
    for cid, kind, name, k, pr, wr, _z in rows:
        lines.append(f"| {cid} | {kind} | {name} | {k} | {pr:.1%} | "
                     f"{'–' if wr is None else f'{wr:.0%}'} |")
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("--seed", default="balance")
    parser.add_argument("--out", default=str(ROOT / "docs" / "balance.md"))
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at a time, one process each (default 1)")
    parser.add_argument("--records", default=None,
                        help="append every finished game to this JSON-lines file")
    parser.add_argument("--from-records", action="store_true",
                        help="play nothing: write the report from the --records file")
    parser.add_argument("--every", type=int, default=10, help="progress line every N games")
    parser.add_argument("--start", type=int, default=0,
                        help="first game index (continue a run stopped by --minutes)")
    args = parser.parse_args()
    bots = [b.strip() for b in args.bots.split(",")]
    if len(labels_for(bots, 2)) != 2:
        raise SystemExit("--bots names two bots")
    argv = [a for a in sys.argv[1:]]
    if args.from_records:
        if not args.records:
            raise SystemExit("--from-records needs --records FILE")
        records = read_records(args.records)[:args.games]
        seconds = 0.0
    else:
        started = time.perf_counter()
        records = run(args.games, args.minutes, bots, args.seed, jobs=args.jobs,
                      records_path=args.records, every=args.every, start=args.start)
        seconds = time.perf_counter() - started
    command = "python scripts/balance_report.py " + " ".join(argv)
    text = report(records, bots, args.seed, args.minutes, seconds, command.strip(), args.jobs)
    out = Path(args.out)
    if out.is_file() and KEEP_MARK in out.read_text():  # the solo section is not made here
        text = text.rstrip("\n") + "\n\n" + out.read_text()[out.read_text().index(KEEP_MARK):]
    out.write_text(text)
    print(f"wrote {args.out} ({len(records)} games)", file=sys.stderr)


if __name__ == "__main__":
    main()
