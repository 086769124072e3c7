"""Bots, determinization and ``menagerie simulate`` (fast: no timing assertions)."""

from __future__ import annotations

import json
from collections import Counter

import orjson
import pytest

import engine
import engine.arknova.bot.evalmemo as M
from engine.bots import (
    FastBot,
    GreedyBot,
    MctsBot,
    PlanBot,
    RandomBot,
    Sampler,
    SearchBot,
    bot_kinds,
    decide,
    get_bot,
    make_bot,
)
from engine.bots.evaluation import evaluator_for
from engine.core import rng as _rng
from engine.core.state import clone
from tests.toygame import TOY

from .hidden import PERTURBERS

GAMES = [TOY] + [engine.get_game(n) for n in engine.game_names()]
IDS = [g.name for g in GAMES]
ARK = engine.get_game("arknova")

#: a cheaper greedy for whole games inside the test suite
FAST_GREEDY = GreedyBot(depth=3, width=3, top_width=10)


def positions(game, seats: int, seed: int, every: int = 9, limit: int = 400):
    """States met in a random game (every ``every``-th decision, at most ``limit`` steps)."""
    state = game.setup(seats, {}, seed)
    chooser = {"rng": _rng.seed_to_int(f"positions-{seed}")}
    for step in range(limit):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        if step % every == 0:
            yield state
        seat = waiting[_rng.randbelow(chooser, len(waiting))]
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[_rng.randbelow(chooser, len(legal))])


def _cards(state) -> Counter:
    """Every card id in an arknova state (piles, hands, zoos, pending offers)."""
    out: Counter = Counter()

    def walk(x):
        if isinstance(x, str) and x[:1] in "ASPBF" and x[1:].isdigit():
            out[x] += 1
        elif isinstance(x, dict):
            for k, v in x.items():
                if k not in ("history",):
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk({k: v for k, v in state.items() if k != "final_details"})
    return out


# --------------------------------------------------------------------------- determinization
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_determinize_keeps_the_view_exactly(game):
    for seats, seed in ((game.min_seats, 1), (game.max_seats, 2)):
        for state in positions(game, seats, seed):
            before = clone(state)
            for seat in range(seats):
                d = game.determinize(state, seat, {"rng": 11 + seat})
                assert orjson.dumps(game.view(d, seat)) == orjson.dumps(game.view(state, seat))
                assert game.waiting_for(d) == game.waiting_for(state)
                if seat in game.waiting_for(state):
                    assert game.legal_actions(d, seat) == game.legal_actions(state, seat)
            assert state == before, "determinize mutated its input"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_determinize_depends_only_on_what_the_seat_sees(game):
    perturb = PERTURBERS[game.name]
    checked = 0
    for seats, seed in ((game.min_seats, 3), (game.max_seats, 4)):
        for state in positions(game, seats, seed, every=13):
            for seat in range(seats):
                mine = game.determinize(state, seat, {"rng": 99})
                for other in range(seats):
                    if other == seat:
                        continue
                    changed = perturb(state, other)
                    assert game.determinize(changed, seat, {"rng": 99}) == mine
                    checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_determinize_resamples_and_advances_the_generator(game):
    state = next(iter(positions(game, game.min_seats, 5, every=1)))
    rng = {"rng": 1}
    a = game.determinize(state, 0, rng)
    assert rng["rng"] != 1, "the caller's generator must advance"
    b = game.determinize(state, 0, rng)
    assert a["rng"] != state["rng"] and a["rng"] != b["rng"]
    assert game.determinize(state, 0, {"rng": 1}) == a


def test_arknova_determinize_moves_hidden_cards_only_and_keeps_every_card():
    moved = 0
    for seats, seed in ((2, 6), (3, 7), (4, 8)):
        for state in positions(ARK, seats, seed, every=17):
            for seat in range(seats):
                d = ARK.determinize(state, seat, {"rng": seat + 1})
                assert _cards(d) == _cards(state), "cards appeared or vanished"
                assert d["players"][seat]["hand"] == state["players"][seat]["hand"]
                assert d["players"][seat]["final"] == state["players"][seat]["final"]
                assert d["display"] == state["display"] and d["discard"] == state["discard"]
                assert len(d["deck"]) == len(state["deck"])
                assert sorted(d["base_pile"]) == d["base_pile"]
                moved += d["deck"] != state["deck"]
    assert moved > 10


def test_arknova_games_go_on_from_determinized_states():
    for state in positions(ARK, 3, 9, every=60):
        d = ARK.determinize(state, 1, {"rng": 3})
        chooser = {"rng": 5}
        for _ in range(3000):
            waiting = sorted(ARK.waiting_for(d))
            if not waiting:
                break
            legal = ARK.legal_actions(d, waiting[0])
            d, _ = ARK.apply(d, waiting[0], legal[_rng.randbelow(chooser, len(legal))])
        assert ARK.result(d) is not None


# --------------------------------------------------------------------------- bots see views only
def _bots():
    return [("greedy", FAST_GREEDY),
            ("mcts", MctsBot(budget=None, playouts=4, candidates=3, rollout_top=6,
                             rollout_width=3, rollout_depth=3)),
            ("fast", FastBot(depth=3, width=3, top_width=10)),
            ("search", SearchBot(budget=None, playouts=4, candidates=3, rollout_top=6,
                                 rollout_width=3, rollout_depth=3)),
            # progressive widening, the seat's own playout moves on a wider look, solo horizon
            ("search-wide", SearchBot(budget=None, playouts=5, candidates=2, rollout_top=6,
                                      rollout_width=3, rollout_depth=3, widen=1, own_top=8,
                                      solo_horizon=2)),
            ("plan", PlanBot(k=3, samples=2, depth=3, width=3, top_width=8, reply_top=6,
                             reply_width=3, reply_depth=3))]


def test_the_view_check_covers_every_registered_level():
    assert {bot.kind for _, bot in _bots()} == set(bot_kinds()) - {"random"}
    for _, bot in _bots():
        assert type(bot) is type(get_bot(bot.kind))


@pytest.mark.parametrize("kind,bot", _bots(), ids=[k for k, _ in _bots()])
def test_bots_decide_only_from_the_view(kind, bot):
    perturb = PERTURBERS["arknova"]
    checked = 0
    every = 23 if kind in ("greedy", "fast") else 61
    for seats, seed in ((2, 10), (3, 11)):
        for state in positions(ARK, seats, seed, every=every, limit=300):
            seat = min(ARK.waiting_for(state))
            legal = ARK.legal_actions(state, seat)
            if len(legal) < 2:
                continue
            choice = bot.choose(ARK, ARK.view(state, seat), legal, {"rng": 42},
                                Sampler(ARK, state, seat))
            assert choice in legal
            for other in range(seats):
                if other == seat:
                    continue
                changed = perturb(state, other)
                assert ARK.view(changed, seat) == ARK.view(state, seat)
                again = bot.choose(ARK, ARK.view(changed, seat), ARK.legal_actions(changed, seat),
                                   {"rng": 42}, Sampler(ARK, changed, seat))
                assert again == choice, f"{kind} used hidden information of seat {other}"
                checked += 1
    assert checked >= 4


def test_toy_bots_decide_only_from_the_view():
    from engine.bots.evaluation import Evaluator, register_evaluator

    register_evaluator("toy", Evaluator(
        value=lambda s, seat: s["scores"][seat] - max(s["scores"][o] for o in range(s["seats"])
                                                      if o != seat) + 0.1 * sum(s["hands"][seat])))
    greedy = GreedyBot()
    for state in positions(TOY, 3, 12, every=1, limit=40):
        for seat in sorted(TOY.waiting_for(state)):
            legal = TOY.legal_actions(state, seat)
            choice = greedy.choose(TOY, TOY.view(state, seat), legal, {"rng": 1},
                                   Sampler(TOY, state, seat))
            for other in range(3):
                if other != seat:
                    changed = PERTURBERS["toy"](state, other)
                    assert greedy.choose(TOY, TOY.view(changed, seat), legal, {"rng": 1},
                                         Sampler(TOY, changed, seat)) == choice


def test_random_bot_keeps_the_old_call_and_bots_are_registered():
    state = ARK.setup(2, {}, 1)
    legal = ARK.legal_actions(state, 0)
    a = get_bot("random").choose(ARK, ARK.view(state, 0), legal, {"rng": 7})
    assert a == RandomBot().choose(ARK, ARK.view(state, 0), legal, {"rng": 7})
    assert isinstance(get_bot("greedy"), GreedyBot) and isinstance(get_bot("mcts"), MctsBot)
    assert get_bot("fast").evaluation == "learned" and get_bot("search").evaluation == "learned"
    assert get_bot("greedy").evaluation is None  # the hand-weighted reference
    assert make_bot("fast:top_width=5").evaluation == "learned"
    assert make_bot("greedy:evaluation=learned").evaluation == "learned"
    # without a sampler the searching bots still answer legally
    assert get_bot("greedy").choose(ARK, ARK.view(state, 0), legal, {"rng": 7}) in legal
    assert make_bot("mcts:0.25").budget == 0.25
    assert make_bot("mcts:budget=none,playouts=3").playouts == 3
    with pytest.raises(ValueError):
        make_bot("greedy:nonsense=1")
    with pytest.raises(KeyError):
        make_bot("no-such-bot")


def test_mcts_is_reproducible_without_a_time_budget_and_counts_playouts():
    bot = MctsBot(budget=None, playouts=5, candidates=3, rollout_top=6, rollout_width=3,
                  rollout_depth=3)
    state = ARK.setup(2, {}, 3)
    for s in (0, 1):
        state, _ = ARK.apply(state, s, ARK.legal_actions(state, s)[0])
    seat = min(ARK.waiting_for(state))
    a = decide(bot, ARK, state, seat, {"rng": 5})
    stats = bot.last_stats
    b = decide(bot, ARK, state, seat, {"rng": 5})
    assert a == b
    assert stats is None or stats["playouts"] <= 5


def test_search_widens_from_the_greedy_order_and_stays_reproducible():
    """``widen=1`` adds the next answer of greedy's order every round: more answers get
    playouts than the ``candidates`` it starts with, and the same generator gives the same
    answer and the same visits."""
    bot = SearchBot(budget=None, playouts=7, candidates=2, margin=1000.0, widen=1,
                    rollout_top=4, rollout_width=2, rollout_depth=2, own_top=5)
    state = ARK.setup(2, {}, 3)
    for s in (0, 1):
        state, _ = ARK.apply(state, s, ARK.legal_actions(state, s)[0])
    seat = min(ARK.waiting_for(state))
    assert len(ARK.legal_actions(state, seat)) > 3
    a = decide(bot, ARK, state, seat, {"rng": 5})
    stats = bot.last_stats
    assert stats["playouts"] == 7
    # rounds: 2 answers, then 3, then (one dropped after two rounds of the third) ...
    assert len(stats["candidates"]) >= 3
    assert sum(stats["visits"]) == 7
    b = decide(bot, ARK, state, seat, {"rng": 5})
    assert a == b and bot.last_stats["visits"] == stats["visits"]
    assert a in stats["candidates"]


def _scripted_search(bot, monkeypatch, values, over_at=None):
    """Search one opening decision of ``bot`` with scripted playout values: the ``n``-th
    playout of the ``k``-th candidate (greedy's order) is worth ``values[k][n]``; with
    ``over_at`` the budget runs out once that many playouts are done."""
    state = ARK.setup(2, {}, 3)
    for s in (0, 1):
        state, _ = ARK.apply(state, s, ARK.legal_actions(state, s)[0])
    seat = min(ARK.waiting_for(state))
    played: list = []

    def playout(game, ev, world, who, action, rng, horizon=None):
        k = order.index(action)
        played.append(k)
        return values[k][played.count(k) - 1]

    monkeypatch.setattr(bot, "playout", lambda *a, **kw: 0.0)
    decide(bot, ARK, state, seat, {"rng": 5})  # a first pass: greedy's order of the candidates
    order = bot.last_stats["candidates"]
    monkeypatch.setattr(bot, "playout", playout)
    if over_at is not None:
        monkeypatch.setattr(bot, "_over_budget", lambda start, done, spent: done >= over_at)
    answer = decide(bot, ARK, state, seat, {"rng": 5})
    return order.index(answer), bot.last_stats["visits"], played


def test_search_options_are_off_by_default_and_keep_the_old_rejection(monkeypatch):
    """With its options at their defaults (no widening, no solo horizon, no own look) the search
    decides as before them: all candidates play the same rounds, after ``rounds_first`` rounds
    the worst mean is dropped each round, the answer is the best mean of the survivors; cut by
    the budget mid-round, it compares the rounds every candidate still in completed."""
    bot = SearchBot(budget=None, playouts=10, candidates=3, margin=1000.0, rollout_top=4,
                    rollout_width=2, rollout_depth=2)
    assert (bot.widen, bot.solo_horizon, bot.own) == (0, -1, None)
    # rounds 0-1: means 1, 3, 0 -> the third dropped; rounds 2-3: the first reaches 3 > 1.5
    pick, visits, played = _scripted_search(bot, monkeypatch, [[1, 1, 5, 5], [3, 3, 0, 0], [0, 0]])
    assert (pick, visits, played) == (0, [4, 4, 2], [0, 1, 2, 0, 1, 2, 0, 1, 0, 1])
    # out of time after 7: round 2 played only the first (worth 100); rounds 0-1 decide
    bot = SearchBot(budget=1.0, playouts=8, candidates=3, margin=1000.0, rollout_top=4,
                    rollout_width=2, rollout_depth=2)
    pick, visits, _ = _scripted_search(bot, monkeypatch, [[1, 1, 100], [3, 3, 0], [0, 0]],
                                       over_at=7)
    assert (pick, visits) == (1, [3, 2, 2])
    # out of time in round 1: round 0 is every candidate's, it decides (not greedy's first)
    pick, visits, _ = _scripted_search(bot, monkeypatch, [[0, 100], [5], [1]], over_at=4)
    assert (pick, visits) == (1, [2, 1, 1])


def test_mcts_answers_like_random_when_the_game_cannot_sample_worlds():
    """A sampler that cannot sample possible worlds: the search falls back to the random bot
    with the same generator (the fallback once named an undefined ``view``)."""
    class NoWorlds:
        def __init__(self, seat):
            self.seat = seat

        def __call__(self, rng):
            raise NotImplementedError

    state = ARK.setup(2, {}, 3)
    for s in (0, 1):
        state, _ = ARK.apply(state, s, ARK.legal_actions(state, s)[0])
    seat = min(ARK.waiting_for(state))
    view, legal = ARK.view(state, seat), ARK.legal_actions(state, seat)
    assert len(legal) > 1
    bot = MctsBot(budget=None, playouts=2)
    for seed in range(5):
        got = bot.choose(ARK, view, legal, {"rng": seed}, sample=NoWorlds(seat))
        assert got == RandomBot().choose(ARK, view, legal, {"rng": seed})


def test_evaluator_prefers_more_points():
    ev = evaluator_for(ARK)
    state = next(iter(positions(ARK, 2, 13, every=1)))
    richer = clone(state)
    richer["players"][0]["appeal"] += 10
    assert ev.value(richer, 0) > ev.value(state, 0)
    assert ev.value(richer, 1) < ev.value(state, 1)


def test_bot_state_copies_are_exact_and_independent():
    from engine.arknova.bot.evaluate import clone_state
    from engine.arknova.game import BUILDING_KEYS
    from engine.bots.evaluation import fast_clone

    checked = 0
    for seats, seed in ((2, 21), (4, 22)):
        for state in positions(ARK, seats, seed, every=7):
            for p in state["players"]:  # clone_state copies buildings by these keys
                assert all(set(b) == BUILDING_KEYS for b in p["buildings"])
            for copy in (clone_state(state), fast_clone(state)):
                assert orjson.dumps(copy) == orjson.dumps(state)
                assert copy == clone(state)
                for p in copy["players"]:  # what the engine mutates is never shared
                    for b in p["buildings"]:
                        b["animals"].append("A001")
                        b["used"] += 1
                    p["hand"].append("A001")
                copy["deck"].append("A001")
            assert orjson.dumps(state) == orjson.dumps(clone(state))
            checked += 1
    assert checked > 20


def test_memoized_evaluation_matches_a_fresh_one():
    """The evaluation's memos (zoo values, layouts, icons, hands) never change a value."""
    ev = evaluator_for(ARK)
    states = [s for seed in (23, 24) for s in positions(ARK, 2, seed, every=5)]
    warm = [(ev.value(s, 0), ev.value(s, 1)) for s in states]
    warm = [(ev.value(s, 0), ev.value(s, 1)) for s in states]  # now from the memos
    fresh = []
    for s in states:
        M.ZOOS.clear()
        M.MEMO.clear()
        fresh.append((ev.value(s, 0), ev.value(s, 1)))
    assert warm == fresh


def test_session_memo_by_identity_matches_a_fresh_one():
    """Inside a search session values are also found by the identity of the dicts they read
    (states made by ``simulate`` share what a move did not touch): every value found so is
    the value computed afresh, with every memo cleared and no session."""
    ev = evaluator_for(ARK)
    found, shared = [], 0
    with ev.session():
        for seed in (25, 26):
            for s in positions(ARK, 2, seed, every=9):
                seat = min(ARK.waiting_for(s))
                for a in ARK.legal_actions(s, seat)[:6]:
                    nxt = ARK.simulate(s, seat, a)
                    shared += any(p is q for p, q in zip(s["players"], nxt["players"]))
                    # kept as JSON: the states are freed, so their ids are reused in the session
                    found.append((orjson.dumps(nxt), ev.value(nxt, 0), ev.value(nxt, 1)))
    assert shared > 10  # a zoo a move only looked at is the same dict in the next state
    assert len(found) > 50
    for raw, v0, v1 in found:
        M.ZOOS.clear()
        M.MEMO.clear()
        nxt = orjson.loads(raw)
        assert (ev.value(nxt, 0), ev.value(nxt, 1)) == (v0, v1)


def test_every_scoring_counter_says_what_it_reads():
    """The final points' memo keys on what each counter reads (COUNTER_READS): a counter
    added to scoring.count must be named there, or the memo falls back to the whole zoo."""
    from engine.arknova import scoring
    from engine.arknova.bot.zooparts import COUNTER_READS

    assert scoring.counter_names() == set(COUNTER_READS)


def test_greedy_beats_random():
    """A cheap greedy wins at least 8 of 10 seeded games against the random bot, seats
    swapped (the full-strength measurement, 200+ games, is in docs/benchmarks.md)."""
    wins = 0
    for i in range(10):
        seats = [FAST_GREEDY, get_bot("random")] if i % 2 == 0 else [get_bot("random"),
                                                                       FAST_GREEDY]
        state = ARK.setup(2, {}, f"duel-{i}")
        rng = {"rng": _rng.seed_to_int(i)}
        while ARK.waiting_for(state):
            seat = min(ARK.waiting_for(state))
            state, _ = ARK.apply(state, seat, decide(seats[seat], ARK, state, seat, rng))
        ranking = ARK.result(state)["ranking"]
        wins += ranking[0] == (i % 2)
    assert wins >= 8, f"greedy won only {wins} of 10"


# --------------------------------------------------------------------------- simulate
def test_simulate_returns_the_documented_keys():
    from engine.bots.simulate import simulate

    records: list = []
    out = simulate("arknova", 3, 2, "random,random", seed=4, records=records)
    assert {"game", "games", "finished", "players", "bots", "seed", "wins", "per_bot",
            "length", "first_seat_win_rate", "errors", "seconds"} <= set(out)
    assert out["games"] == out["finished"] == 3 and out["errors"] == {"count": 0, "first": []}
    assert sum(out["wins"].values()) == pytest.approx(3)
    for row in out["per_bot"].values():
        assert {"wins", "win_rate", "vp_mean", "vp_stdev"} <= set(row)
    assert out["length"]["turns_mean"] > 0 and out["length"]["breaks_mean"] > 0
    # seats rotate: each bot entry sits first in some game
    assert {r["seats"][0] for r in records} == {"random#1", "random#2"}
    again = simulate("arknova", 3, 2, ["random", "random"], seed=4)
    assert {k: v for k, v in again.items() if k != "seconds"} == \
        {k: v for k, v in out.items() if k != "seconds"}
    with pytest.raises(ValueError):
        simulate("arknova", 1, 5, "random", seed=1)


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:budget=none,playouts=2,candidates=2"])
def test_every_bot_plays_a_solo_game(bot):
    """No opponents: the bots, their evaluation and the summary cope (a solo distribution)."""
    from engine.bots.simulate import simulate

    out = simulate("arknova", 1, 1, bot, seed=3)
    assert out["errors"] == {"count": 0, "first": []} and out["finished"] == 1
    assert out["length"]["turns_mean"] == 27 and out["length"]["breaks_mean"] == 6
    solo = out["solo"][bot]
    assert solo["games"] == 1 and solo["mean"] == out["per_bot"][bot]["vp_mean"]
    assert solo["reached"] == (1.0 if solo["mean"] >= 0 else 0.0)


def test_solo_score_distribution():
    from engine.bots.simulate import score_distribution, simulate

    d = score_distribution([-10, 0, 5, -20, 15])
    assert d == {"games": 5, "mean": -2.0, "stdev": 13.509,
                 "quantiles": {"min": -20, "p10": -16.0, "p25": -10.0, "median": 0.0,
                               "p75": 5.0, "p90": 11.0, "max": 15},
                 "reached": 0.6}
    assert score_distribution([])["mean"] is None
    assert "solo" not in simulate("arknova", 1, 2, "random", seed=2)  # only with one player


def test_bots_option_takes_several_settings_per_entry(tmp_path):
    from app.simulate import summarize_records
    from engine.bots.simulate import parse_bots, simulate

    assert parse_bots("mcts:budget=none,playouts=9,candidates=3,greedy") == \
        ["mcts:budget=none,playouts=9,candidates=3", "greedy"]
    assert parse_bots("greedy, random") == ["greedy", "random"]
    assert parse_bots("mcts:0.5,greedy") == ["mcts:0.5", "greedy"]
    bot = make_bot(parse_bots("mcts:budget=none,playouts=9,greedy")[0])
    assert bot.budget is None and bot.playouts == 9
    path = tmp_path / "games.jsonl"
    lines: list = []
    out = simulate("arknova", 2, 2, "random,random", seed=5,
                   on_record=lambda r: lines.append(r["index"]))
    assert lines == [0, 1]
    records: list = []
    simulate("arknova", 2, 2, "random,random", seed=5, records=records)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    again = summarize_records(str(path), "arknova", 2, "random,random", 5)
    assert again["wins"] == out["wins"] and again["per_bot"] == out["per_bot"]
    # a stopped run continues: games 1.. played later are the games 1.. of the whole run
    rest: list = []
    simulate("arknova", 1, 2, "random,random", seed=5, records=rest, start=1)
    assert [r["index"] for r in rest] == [1]
    assert {k: v for k, v in rest[0].items() if k != "seconds"} == \
        {k: v for k, v in records[1].items() if k != "seconds"}


def test_simulate_command_prints_one_json_object():
    import typer
    from typer.testing import CliRunner

    from app.simulate import register

    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        """test app"""

    res = CliRunner().invoke(app, ["simulate", "--game", "arknova", "--games", "2", "--players",
                                   "2", "--bots", "random,random", "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stdout.splitlines() if ln.strip()]
    summary = json.loads(lines[-1])
    assert summary["games"] == 2 and summary["errors"]["count"] == 0
    bad = CliRunner().invoke(app, ["simulate", "--bots", "nobody", "--games", "1"])
    assert bad.exit_code == 2


def test_searches_leave_the_worlds_they_search_unchanged():
    """mcts playouts and greedy's candidates share parts with the sampled world (every step
    is copy-on-access): neither may change the world or the real state."""
    bot = MctsBot(budget=None, playouts=4, candidates=3, rollout_top=4, rollout_width=2,
                  rollout_depth=2)
    ev = evaluator_for(ARK)
    checked = 0
    for state in positions(ARK, 2, 31, every=25):
        seat = min(ARK.waiting_for(state))
        legal = ARK.legal_actions(state, seat)
        real = orjson.dumps(state)
        world = ARK.determinize(state, seat, {"rng": 7})
        before = orjson.dumps(world)
        for action in legal[:3]:
            bot.playout(ARK, ev, world, seat, action, {"rng": 3})
        assert orjson.dumps(world) == before
        decide(GreedyBot(depth=3, width=3, top_width=6), ARK, state, seat, {"rng": 1})
        assert orjson.dumps(state) == real
        checked += 1
    assert checked >= 5


def test_session_encodings_hold_what_they_encode():
    """``enc`` finds an encoding by identity inside a session: the object must be held, or a
    new object at a freed one's address would get the old encoding."""
    with M.session():
        for i in range(200):
            data = [i, "x" * (i % 7)]
            assert M.enc(data) == M.encode(data)
            del data  # freed (were it not held): the next list may reuse its address
