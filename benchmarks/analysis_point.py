"""Why was one decision charged what it was? Every sampled world of one analysed move start.

    nice -n 19 .venv/bin/python benchmarks/analysis_point.py \\
        /tmp/an3/logs/analysis-ladder_greedy-ref_random_0.json 938 [--policy own --measure margin]

Reads a game's log (the JSON files ``benchmarks/analysis_ladder.py --logs`` writes), and for
the decision at ``INDEX`` (a move start) replays what :func:`engine.bots.analysis.analyse_point`
does with the same generator (settings' seed and the index): the compared answers, then per
sampled world each compared answer's playout end (the same worlds and playouts): its measure, whether the game ended there, the zoos'
money and appeal, and the hand and learned margins behind the mean. The entry itself (loss,
chosen, best) is printed first, from ``analyse_point``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.arknova.bot import margin as mg  # noqa: E402
from engine.arknova.bot.evaluate import clock  # noqa: E402
from engine.bots import analysis as an  # noqa: E402
from engine.bots.analysis_measure import Measure  # noqa: E402
from engine.bots.analysis_values import find_answer, policy_evaluators  # noqa: E402
from engine.bots.evaluation import searching  # noqa: E402
from engine.bots.greedy import GreedyBot, ranked  # noqa: E402
from engine.bots.mcts import MctsBot  # noqa: E402
from engine.core import rng as _rng  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("index", type=int)
    ap.add_argument("--policy", default=an.Settings.policy)
    ap.add_argument("--measure", default=an.Settings.measure)
    args = ap.parse_args()
    game = engine.get_game("arknova")
    data = json.loads(Path(args.log).read_text())
    log, seed = data["log"], data["seed"]
    state = game.setup(len(data["levels"]), {}, seed)
    for item in log[:args.index]:
        state, _ = game.apply(state, item["seat"], item["action"])
    seat, chosen = log[args.index]["seat"], log[args.index]["action"]
    settings = an.Settings(policy=args.policy, measure=args.measure)
    entry = an.analyse_point(game, state, seat, chosen, settings, args.index)
    print({k: entry[k] for k in ("seat", "loss", "chosen", "best", "compared", "chained")})
    print("clock", clock(state), "breaks", state["breaks"], "end", state["end"],
          "zoos (appeal, conservation, money)",
          [(p["appeal"], p["conservation"], p["money"]) for p in state["players"]])
    if entry["chained"]:
        return
    rng = {"rng": _rng.seed_to_int(f"{settings.seed}:{args.index}")}  # as analyse_point
    evs = policy_evaluators(game, settings.policy)
    meas = Measure(game, an.unit_of(game), settings.measure)
    g = GreedyBot()
    with searching(evs[0]):
        world = game.determinize(state, seat, rng)
        legal = game.legal_actions(world, seat)
        # the compared answers, as analysis_values picks them (the rankings draw nothing)
        share = max(1, -(-settings.candidates // len(evs)))
        idx: list = []
        for ev in evs:
            order = ranked(game, ev, world, seat, legal, depth=g.depth, width=g.width,
                           top_width=g.top_width)
            idx += [i for v, i in order[:share]
                    if v >= order[0][0] - settings.margin and i not in idx]
        if find_answer(legal, chosen) not in idx:
            idx.append(find_answer(legal, chosen))
        print("compared:", [legal[i] for i in idx])
        bot = MctsBot(budget=None, horizon=settings.horizon)
        for r in range(settings.playouts):
            world = game.determinize(state, seat, rng)
            cells = []
            for i in idx:
                end = bot.playout_state(game, evs[r % len(evs)], world, seat, legal[i], rng)
                m = meas(end, seat)[0]
                extra = "exact" if end["over"] else \
                    f"hand {mg.hand_margin(end, seat):.1f} learned " \
                    f"{mg.learned_projection(end, seat):.1f}"
                cells.append(f"{m:7.1f} ({extra}; money "
                             f"{[p['money'] for p in end['players']]}, appeal "
                             f"{[p['appeal'] for p in end['players']]})")
            print(r, " | ".join(cells))


if __name__ == "__main__":
    main()
