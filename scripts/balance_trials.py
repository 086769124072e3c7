"""Controlled balance trials: does holding card X win games? does a zoo map?

    .venv/bin/python scripts/balance_trials.py --cards A099,S056,A012 --pairs 80
        [--map-games 300] [--jobs 2] [--bots greedy] [--seed trial] [--records FILE]
        [--controls A016] [--from-records] [--out docs/balance-trials.md]

The balance report (``scripts/balance_report.py``) flags cards whose zoos win unusually often,
but a strong zoo also affords the expensive cards, so the flag mixes the card's strength with
the strength of the zoos that play it. This script separates the two: for each card and pair
``i`` it plays two games from the same seed (``"{seed}:{card}:{i}"``) with the same bots, and
after the opening (both players have kept their 4 cards) it moves the card into the hand of
seat 0 in the first game and of seat 1 in the second, in place of one of that seat's kept cards
(which goes where the card was: the deck, the display, the other hand or the discard). Every
other card and every generator draw is the same in the two games, so the only difference is
who holds the card. The report gives, per card, the holder's win rate (ties split) with its
95 % Wilson interval, the holder's mean VP lead, and how often the holder put the card into
play. A card whose holder wins far more often than the holders of ordinary control cards
decides games; one inside the controls' range does not, whatever its flag said. ``--controls``
names the ordinary cards (from the middle of the balance report) that the others are compared
with: the report gives each card's lead over the pooled controls with a 95 % interval, and calls
a card *above the controls* only when that interval lies above zero.

Maps: every game of the report is played on one map for both zoos, so a map cannot decide it;
with the option ``map=mixed`` each zoo gets a different map. ``--map-games N`` plays N such
games (seed ``"{seed}:maps:{i}"``, seats as the engine deals them) and reports each map's win
rate over the games it was in.

``--records`` keeps every game (one JSON line) and a rerun plays only the games missing from
it; ``--out`` writes the report as Markdown (it is ``docs/balance-trials.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import get_game  # noqa: E402
from engine.bots import decide, make_bot  # noqa: E402
from engine.bots.simulate import places  # noqa: E402
from engine.core import rng as _rng  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from balance_report import interval  # noqa: E402

MAX_DECISIONS = 50_000


def _move_into_hand(state: dict, card: str, holder: int, slot: int) -> None:
    """Put ``card`` into ``holder``'s hand at ``slot``; the card that was there goes where
    ``card`` was. Nothing else changes."""
    hand = state["players"][holder]["hand"]
    if card in hand:  # already held (the seed dealt it there)
        return
    places = [state["deck"], state["display"], state["discard"]]
    places += [p["hand"] for p in state["players"]]
    for place in places:
        if card in place:
            at = place.index(card)
            place[at], hand[slot] = hand[slot], card
            return
    raise ValueError(f"card {card} is not in the deck, the display, a hand or the discard")


def _play_out(game, state: dict, bot, rng: dict, after_opening=None) -> dict:
    """Play to the end with ``bot`` on every seat; ``after_opening(state)`` (a copy to change)
    runs once, when the opening's simultaneous "keep 4 of 8" is over."""
    decisions = 0
    while waiting := sorted(game.waiting_for(state)):
        if after_opening is not None and len(waiting) == 1:
            state, after_opening = after_opening(json.loads(json.dumps(state))), None
        for seat in waiting:
            if seat in game.waiting_for(state):
                state, _ = game.apply(state, seat, decide(bot, game, state, seat, rng))
                decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError("game did not end")
    return state


def _game(key: str, index: int, options: dict, seed: str, bots: str, record: dict,
          after_opening=None) -> tuple[dict | None, dict | None]:
    """Set up and play game ``"{seed}:{key}:{index}"``: (final state, result); an error is
    written into ``record`` (counted, never hidden) and gives (None, None)."""
    game = get_game("arknova")
    try:
        state = game.setup(2, options, f"{seed}:{key}:{index}")
        rng = {"rng": _rng.seed_to_int(f"{seed}:{key}:{index}:bots")}
        state = _play_out(game, state, make_bot(bots), rng, after_opening)
        return state, game.result(state)
    except Exception as exc:
        record["error"] = f"{type(exc).__name__}: {exc}"
        return None, None


def play_trial(card: str, index: int, holder: int, bots: str, seed: str) -> dict:
    """One game of pair ``index``: ``holder`` gets ``card`` after the opening."""
    started = time.perf_counter()
    record: dict = {"card": card, "index": index, "holder": holder, "error": None}

    def hand_over(state: dict) -> dict:
        _move_into_hand(state, card, holder, index % 4)
        return state

    state, result = _game(card, index, {}, seed, bots, record, hand_over)
    if result is not None:
        scores = [result["scores"][s] for s in range(2)]
        place = places(result, 2)
        zoo = state["players"][holder]
        record.update(
            scores=scores, places=place,
            win=1.0 if place[holder] < place[1 - holder] else
            0.5 if place[holder] == place[1 - holder] else 0.0,
            lead=scores[holder] - scores[1 - holder],
            played=card in {a["card"] for a in zoo["animals"]} or card in zoo["sponsors"]
            or card in zoo["supported"])
    record["seconds"] = time.perf_counter() - started
    return record


def play_map_game(index: int, bots: str, seed: str) -> dict:
    """Game ``index`` of the map trial: each zoo on its own map (``map=mixed``)."""
    started = time.perf_counter()
    record: dict = {"card": "maps", "index": index, "holder": -1, "error": None}
    state, result = _game("maps", index, {"map": "mixed"}, seed, bots, record)
    if result is not None:
        record.update(maps=[p["map"] for p in state["players"]],
                      scores=[result["scores"][s] for s in range(2)],
                      places=places(result, 2))
    record["seconds"] = time.perf_counter() - started
    return record


def _play(card: str, index: int, holder: int, bots: str, seed: str) -> dict:
    if card == "maps":
        return play_map_game(index, bots, seed)
    return play_trial(card, index, holder, bots, seed)


def run(cards: list[str], pairs: int, map_games: int, bots: str, seed: str, jobs: int,
        path: str | None, done_keys: set) -> list[dict]:
    todo = [(c, i, h) for c in cards for i in range(pairs) for h in (0, 1)]
    todo += [("maps", i, -1) for i in range(map_games)]
    todo = [key for key in todo if key not in done_keys]
    out: list[dict] = []
    sink = open(path, "a") if path else None
    started = time.perf_counter()

    def finish(r: dict) -> None:
        out.append(r)
        if sink:
            sink.write(json.dumps(r) + "\n")
            sink.flush()
        if len(out) % 20 == 0 or r["error"]:
            el = time.perf_counter() - started
            print(f"{len(out)}/{len(todo)} games, {el / 60:.1f} min"
                  + (f"; {r['error']}" if r["error"] else ""), file=sys.stderr, flush=True)

    try:
        if jobs <= 1:
            for c, i, h in todo:
                finish(_play(c, i, h, bots, seed))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                pending: set = set()
                queue = list(todo)
                while queue or pending:
                    while queue and len(pending) < jobs:
                        pending.add(pool.submit(_play, *queue.pop(0), bots, seed))
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        finish(fut.result())
    finally:
        if sink:
            sink.close()
    return out


def summary(records: list[dict], cards: list[str]) -> list[dict]:
    """Per card: the holder's win rate (ties split) with its interval, mean lead, play rate."""
    rows = []
    for card in cards:
        rs = [r for r in records if r["card"] == card and r["error"] is None]
        n = len(rs)
        if not n:
            continue
        rate = sum(r["win"] for r in rs) / n
        lo, hi = interval(rate, n)
        rows.append({"card": card, "games": n, "holder_win_rate": round(rate, 3),
                     "interval": [round(lo, 3), round(hi, 3)],
                     "lead_mean": round(sum(r["lead"] for r in rs) / n, 2),
                     "played_rate": round(sum(r["played"] for r in rs) / n, 3),
                     "errors": sum(1 for r in records if r["card"] == card and r["error"])})
    return rows


def map_summary(records: list[dict]) -> list[dict]:
    """Per map: the win rate (ties split) of its zoos in mixed-map games, mean VP."""
    rs = [r for r in records if r["card"] == "maps" and r["error"] is None]
    out = []
    for name in sorted({m for r in rs for m in r["maps"]}):
        wins = n = 0.0
        vp = []
        for r in rs:
            for seat, m in enumerate(r["maps"]):
                if m != name or r["maps"][1 - seat] == name:
                    continue
                n += 1
                me, other = r["places"][seat], r["places"][1 - seat]
                wins += 1.0 if me < other else 0.5 if me == other else 0.0
                vp.append(r["scores"][seat])
        if n:
            lo, hi = interval(wins / n, int(n))
            out.append({"map": name, "games": int(n), "win_rate": round(wins / n, 3),
                        "interval": [round(lo, 3), round(hi, 3)],
                        "vp_mean": round(sum(vp) / len(vp), 1)})
    return out


def against_controls(rows: list[dict], records: list[dict], controls: list[str]) -> dict:
    """Per non-control card: holder win rate minus the pooled controls' (95 % interval)."""
    pool = [r["win"] for r in records if r["card"] in controls and r["error"] is None]
    out: dict = {}
    if not pool:
        return out
    pc, nc = sum(pool) / len(pool), len(pool)
    for row in rows:
        if row["card"] in controls:
            continue
        p, n = row["holder_win_rate"], row["games"]
        diff = p - pc
        half = 1.96 * ((p * (1 - p) / n + pc * (1 - pc) / nc) ** 0.5)
        out[row["card"]] = {"diff": round(diff, 3), "interval": [round(diff - half, 3),
                                                                 round(diff + half, 3)],
                            "above": diff - half > 0}
    return out


def markdown(rows: list[dict], maps: list[dict], records: list[dict], command: str,
             controls: list[str] | None = None) -> str:
    from engine.arknova.content import load_content

    content = load_content()
    names = {}
    for group in ("animals", "sponsors", "projects", "base_projects"):
        for cid, card in (getattr(content, group, None) or {}).items():
            names[cid] = getattr(card, "name", cid)
    errors = sum(1 for r in records if r["error"])
    lines = [
        "# Balance trials: single cards and maps (generated)", "",
        f"Generated by `{command}` ({len(records)} games, {errors} errors). See the docstring "
        "of `scripts/balance_trials.py` for the method: each pair of games starts from the "
        "same seed and differs only in which seat holds the card after the opening.", "",
        "## Cards: win rate of the zoo that holds the card", "",
        "| card | name | games | holder wins | 95 % interval | mean VP lead | holder played it |",
        "|---|---|---:|---:|---|---:|---:|",
    ]
    controls = controls or []
    for r in rows:
        lo, hi = r["interval"]
        tag = " (control)" if r["card"] in controls else ""
        lines.append(f"| {r['card']} | {names.get(r['card'], r['card'])}{tag} | {r['games']} | "
                     f"{r['holder_win_rate']:.1%} | {lo:.1%} – {hi:.1%} | "
                     f"{r['lead_mean']:+.1f} | {r['played_rate']:.0%} |")
    versus = against_controls(rows, records, controls)
    if versus:
        lines += ["", f"Against the control{'s' if len(controls) > 1 else ''} "
                      f"({', '.join(controls)}): the holder's win rate minus the controls' "
                      "holders', 95 % interval.", ""]
        for cid, v in versus.items():
            lo, hi = v["interval"]
            verdict = ("**above the controls: this card decides games**" if v["above"]
                       else "within the controls' range: not shown to decide games")
            lines.append(f"- {cid} {names.get(cid, cid)}: {v['diff'] * 100:+.1f} points "
                         f"({lo * 100:+.1f} to {hi * 100:+.1f}) — {verdict}")
    if maps:
        lines += ["", "## Maps: win rate of each map's zoos when the zoos have different maps",
                  "", "| map | zoos | wins | 95 % interval | mean VP |", "|---|---:|---:|---|---:|"]
        for m in maps:
            lo, hi = m["interval"]
            lines.append(f"| {m['map']} | {m['games']} | {m['win_rate']:.1%} | "
                         f"{lo:.1%} – {hi:.1%} | {m['vp_mean']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cards", default="", help="comma-separated card ids")
    p.add_argument("--pairs", type=int, default=80, help="pairs of games per card")
    p.add_argument("--map-games", type=int, default=0, help="mixed-map games to play")
    p.add_argument("--bots", default="greedy")
    p.add_argument("--seed", default="trial")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--records", help="append each game here (JSON lines); reruns skip them")
    p.add_argument("--from-records", action="store_true", help="report only, play nothing")
    p.add_argument("--out", help="write the Markdown report here")
    p.add_argument("--controls", default="", help="comma-separated ordinary cards (among --cards)")
    args = p.parse_args()
    cards = [c.strip() for c in args.cards.split(",") if c.strip()]
    old: list[dict] = []
    if args.records and Path(args.records).exists():
        old = [json.loads(ln) for ln in Path(args.records).read_text().splitlines() if ln]
    keys = {(r["card"], r["index"], r["holder"]) for r in old}
    new = [] if args.from_records else run(cards, args.pairs, args.map_games, args.bots,
                                           args.seed, args.jobs, args.records, keys)
    records = [r for r in old + new
               if (r["card"] == "maps" and r["index"] < args.map_games)
               or (r["card"] in cards and r["index"] < args.pairs)]
    controls = [c.strip() for c in args.controls.split(",") if c.strip()]
    rows, maps = summary(records, cards), map_summary(records)
    print(json.dumps({"cards": rows, "maps": maps,
                      "against_controls": against_controls(rows, records, controls)}, indent=1))
    if args.out:
        command = (f"python scripts/balance_trials.py --cards {','.join(cards)} "
                   f"--pairs {args.pairs} --map-games {args.map_games} --bots {args.bots} "
                   f"--seed {args.seed} --controls {','.join(controls)} --records FILE "
                   f"--out {args.out}")
        Path(args.out).write_text(markdown(rows, maps, records, command, controls))


if __name__ == "__main__":
    main()
