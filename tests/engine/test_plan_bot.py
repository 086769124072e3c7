"""The plan level (``engine/bots/plan.py``): fast's look with its best answers compared one own
turn further; fast itself unchanged (no timing assertions)."""

from __future__ import annotations

import hashlib

import orjson
import pytest

import engine
from engine.bots import FastBot, PlanBot, Sampler, bot_kinds, decide, get_bot, make_bot
from engine.bots.evaluation import evaluator_for, searching, step
from engine.bots.greedy import finish_chain, own_followup, ranked
from engine.core import rng as _rng
from engine.core.state import clone

ARK = engine.get_game("arknova")
ZOO = engine.get_game("zoocracy")
#: a cheaper plan level for the test suite (the same code paths; planning from the first turn
#: alone too, so the early positions these tests set up are planned)
SMALL = dict(k=3, samples=2, depth=4, width=3, top_width=8, reply_depth=3, reply_width=3,
             reply_top=6, solo_opening=None)


def play(game, seats: int, seed: str, bots, decisions: int, rng_seed: int = 7):
    """The answers of the first ``decisions`` decisions of a game (seat ``s`` asks ``bots[s]``)."""
    state = game.setup(seats, {}, seed)
    rng = {"rng": rng_seed}
    out = []
    for _ in range(decisions):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        action = decide(bots[seat], game, state, seat, rng)
        out.append(action)
        state, _ = game.apply(state, seat, action)
    return out, state


def digest(actions) -> str:
    return hashlib.sha256(orjson.dumps(actions, option=orjson.OPT_SORT_KEYS)).hexdigest()


#: fast's answers on two fixed seeds, recorded on main before the plan level existed (commit
#: 0818dd0, value.json = value3; the duel's again on 2026-12-04 when value.json gave the duel's
#: incomes their worth, docs/bots.md "Incomes at their worth", and on 2026-12-05 when it capped
#: the duel's assets and gave the solo's sponsor appeal its worth, "Reputation at its worth"; the
#: solo's again that evening for its projects within reach, "Projects within reach", and that
#: night for its matched homes and tuned hand weights, "The solo on matched homes"; on
#: 2026-12-06 both for ``strength_used``, "The strength an action card is used at"; on
#: 2026-12-07 the solo's for its weights moved toward the plan level's look, "The plan level's
#: look as a teacher"), and again for its ``idle_strength`` 0, "An action card used for nothing").
#: They change only with the rules, the cards or value.json; a change of the bots' code must
#: leave them as they are.
FAST_SOLO = ("6a78e9bf95fa957d018e68158f0a7d44ec14f0719c217d00b3263ad0a13799ce", 60, 18)
FAST_DUEL = ("5062509b2f9fb28a23f5da6ddbb25f6c67e10ca6827841970c1e2fb78af8ef2d", 40, 11)


@pytest.mark.parametrize("seats,seed,decisions,want", [
    (1, "fast-golden-solo", 60, FAST_SOLO), (2, "fast-golden-duel", 40, FAST_DUEL)],
    ids=["solo", "duel"])
def test_fast_plays_exactly_as_before(seats, seed, decisions, want):
    fast = get_bot("fast")
    actions, state = play(ARK, seats, seed, [fast] * seats, decisions)
    assert (digest(actions), len(actions), state["turn"]) == want


def test_plan_is_registered_above_fast_with_its_settings():
    assert isinstance(get_bot("plan"), PlanBot) and get_bot("plan").evaluation == "learned"
    kinds = bot_kinds()
    assert kinds.index("fast") < kinds.index("plan")
    plan = get_bot("plan")
    assert (plan.k, plan.samples, plan.followups, plan.horizon, plan.k_next, plan.top_width) == \
        (4, 2, None, 2, 3, 24)
    bot = make_bot("plan:k=3,samples=1,followups=1")
    assert (bot.k, bot.samples, bot.followups, bot.top_width) == (3, 1, 1, 24)
    assert type(get_bot("fast")) is FastBot  # fast is not the plan level with k=1


def test_plan_with_one_candidate_plays_as_fast():
    """``k=1`` keeps fast's best answer: the same answers as fast on the same generator."""
    settings = dict(depth=4, width=3, top_width=8)
    fast, _ = play(ARK, 1, "plan-k1", [FastBot(**settings)], 45)
    plan, _ = play(ARK, 1, "plan-k1", [PlanBot(k=1, **settings)], 45)
    assert plan == fast and len(plan) == 45


def test_plan_is_reproducible_per_seed():
    a, sa = play(ARK, 1, "plan-det", [PlanBot(**SMALL)], 30, rng_seed=3)
    b, sb = play(ARK, 1, "plan-det", [PlanBot(**SMALL)], 30, rng_seed=3)
    assert a == b and len(a) == 30
    assert ARK.view(sa, 0) == ARK.view(sb, 0)
    duel_a, _ = play(ARK, 2, "plan-det-duel", [PlanBot(**SMALL), FastBot()], 16)
    duel_b, _ = play(ARK, 2, "plan-det-duel", [PlanBot(**SMALL), FastBot()], 16)
    assert duel_a == duel_b


def _turn_start(seats: int, seed: str, turns: int):
    """A state at the start of a turn of seat 0 after ``turns`` turns of fast."""
    fast = FastBot(depth=4, width=3, top_width=8)
    state = ARK.setup(seats, {}, seed)
    rng = {"rng": 1}
    while True:
        waiting = sorted(ARK.waiting_for(state))
        seat = waiting[0]
        if (seat == 0 and state["turn"] >= turns and state["stack"][-1]["kind"] == "turn"
                and len(ARK.legal_actions(state, 0)) > 2):
            return state
        state, _ = ARK.apply(state, seat, decide(fast, ARK, state, seat, rng))


@pytest.mark.parametrize("seats", [1, 2])
def test_plan_compares_fasts_best_answers_one_turn_further(seats):
    state = _turn_start(seats, f"plan-look-{seats}", 4)
    bot = PlanBot(**SMALL)
    legal = ARK.legal_actions(state, 0)
    sample = Sampler(ARK, state, 0)
    choice = bot.choose(ARK, ARK.view(state, 0), legal, {"rng": 11}, sample)
    # the candidates are fast's top k on the first sampled world (the same generator)
    rng = {"rng": 11}
    world = sample(rng)
    ev = evaluator_for(ARK, "learned")
    order = ranked(ARK, ev, world, 0, legal, depth=4, width=3, top_width=8)
    stats = bot.last_stats
    assert stats["candidates"] == [legal[i] for _, i in order[:3]]
    assert stats["one_ply"] == [v for v, _ in order[:3]]
    # the answer is the candidate with the best two-turn mean, and each mean is the look's
    means = stats["means"]
    assert choice == stats["candidates"][max(range(3), key=lambda j: (means[j], -j))]
    worlds = [world, sample(rng)]
    with searching(ev):
        again = [sum(bot.two_turns(ARK, ev, w, 0, a) for w in worlds) / 2
                 for a in stats["candidates"]]
    assert again == means
    # each candidate's chain end in the first world is the state fast's look scored it on
    # (its one-ply value: the value there plus the answer's term), a teacher's per-answer row
    for a, end, term, one in zip(stats["candidates"], stats["ends"], stats["terms"],
                                 stats["one_ply"]):
        with searching(ev):
            chain_end = finish_chain(ARK, ev, step(ARK, world, 0, a), 0, 4, 3)[0]
        assert end == chain_end
        assert ev.value(end, 0) + term == pytest.approx(one)


@pytest.mark.parametrize("seats", [1, 2])
def test_the_look_stops_at_the_seats_next_turn(seats):
    state = _turn_start(seats, f"plan-next-{seats}", 3)
    bot = PlanBot(**SMALL)
    ev = evaluator_for(ARK, "learned")
    turn = state["turn"]
    world = Sampler(ARK, state, 0)({"rng": 2})
    with searching(ev):
        for action in ARK.legal_actions(state, 0)[:4]:
            after = bot.next_turn(ARK, ev, ARK.apply(world, 0, action)[0], 0)
            assert ARK.waiting_for(after) == {0}
            assert after["stack"][-1]["kind"] == "turn"
            assert after["turn"] == turn + seats  # one turn of each seat (no break decides)


def test_plan_without_followups_answers_inside_its_chain_as_fast():
    """``followups=0`` (the default): decisions inside the seat's own chain are fast's."""
    state = _turn_start(1, "plan-chain", 2)
    rng = {"rng": 4}
    fast = FastBot(depth=4, width=3, top_width=8)
    plan = PlanBot(followups=0, **SMALL)
    inside = 0
    for _ in range(40):
        if not ARK.waiting_for(state):
            break
        legal = ARK.legal_actions(state, 0)
        if state["stack"][-1]["kind"] != "turn" and len(legal) > 1:
            r = {"rng": _rng.next_u64(rng)}
            a = plan.choose(ARK, ARK.view(state, 0), legal, dict(r), Sampler(ARK, state, 0))
            assert a == fast.choose(ARK, ARK.view(state, 0), legal, dict(r),
                                    Sampler(ARK, state, 0))
            assert plan.last_stats is None
            inside += 1
        state, _ = ARK.apply(state, 0, decide(fast, ARK, state, 0, rng))
    assert inside >= 3


@pytest.mark.parametrize("seats", [1, 2])
def test_plan_plans_inside_its_chain_alone_and_not_with_rivals(seats):
    """``followups`` None (the default): inside its own chain the plan level compares fast's
    best answers further (``last_stats`` set, the answer the best mean) in a solo game, and
    answers as fast with a rival."""
    state = _turn_start(seats, "plan-chain", 2)
    rng = {"rng": 4}
    fast = FastBot(depth=4, width=3, top_width=8)
    plan = PlanBot(**SMALL)
    ev = evaluator_for(ARK, "learned")
    assert plan.plans_followups(ARK, state) is (seats == 1)
    assert PlanBot(followups=0).plans_followups(ARK, state) is False
    assert PlanBot(followups=1).plans_followups(ARK, state) is True
    planned = inside = 0
    for _ in range(60):
        waiting = sorted(ARK.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        legal = ARK.legal_actions(state, seat)
        if seat == 0 and len(legal) > 1 and own_followup(ARK, ev, state, 0):
            r = {"rng": _rng.next_u64(rng)}
            plan.last_stats = None
            a = plan.choose(ARK, ARK.view(state, 0), legal, dict(r), Sampler(ARK, state, 0))
            inside += 1
            if plan.last_stats is not None:
                planned += 1
                stats = plan.last_stats
                best = max(range(len(stats["means"])), key=lambda j: (stats["means"][j], -j))
                assert a == stats["candidates"][best]
            else:
                assert a == fast.choose(ARK, ARK.view(state, 0), legal, dict(r),
                                        Sampler(ARK, state, 0))
        state, _ = ARK.apply(state, seat, decide(fast, ARK, state, seat, rng))
    assert inside >= 3
    assert (planned > 0) is (seats == 1)


def test_alone_it_plans_from_the_view_only_inside_its_chain_too():
    """A solo game's hidden information is the deck's order (and the generator): changing
    them leaves the view as it was and the plan level's answer too, at turn starts and inside
    its chain (where it plans alone)."""
    state = _turn_start(1, "plan-view-solo", 2)
    rng = {"rng": 9}
    fast = FastBot(depth=4, width=3, top_width=8)
    plan = PlanBot(**SMALL)
    checked = inside = 0
    for _ in range(40):
        if not ARK.waiting_for(state):
            break
        legal = ARK.legal_actions(state, 0)
        if len(legal) > 1:
            changed = clone(state)
            changed["rng"] = (changed["rng"] * 31 + 7) % (1 << 64)
            _rng.shuffle({"rng": 12345}, changed["deck"])
            _rng.shuffle({"rng": 54321}, changed["final_deck"])
            assert changed["deck"] != state["deck"]
            assert ARK.view(changed, 0) == ARK.view(state, 0)
            a = plan.choose(ARK, ARK.view(state, 0), legal, {"rng": 42}, Sampler(ARK, state, 0))
            b = plan.choose(ARK, ARK.view(changed, 0), ARK.legal_actions(changed, 0),
                            {"rng": 42}, Sampler(ARK, changed, 0))
            assert a == b
            checked += 1
            inside += state["stack"][-1]["kind"] != "turn"
        state, _ = ARK.apply(state, 0, decide(fast, ARK, state, 0, rng))
    assert checked >= 6 and inside >= 3


def test_plan_plays_zoocracy_on_its_own_evaluator():
    actions, state = play(ZOO, 2, "plan-zoo", [PlanBot(**SMALL), FastBot()], 12)
    assert len(actions) == 12


def test_a_longer_horizon_takes_the_best_of_the_next_turns_answers():
    """``horizon=2``: an answer's value is the best, over the next turn's ``k_next`` best
    answers by fast's ranking, of their own look one turn further; each answer of the line adds
    its term (``Evaluator.answer``: the strength an action card is used at), as fast's ranking
    adds it for one answer, unless ``terms=0``."""
    state = _turn_start(1, "plan-horizon", 3)
    bot = PlanBot(horizon=2, k_next=2, **SMALL)
    ev = evaluator_for(ARK, "learned")
    world = Sampler(ARK, state, 0)({"rng": 6})
    action = ARK.legal_actions(state, 0)[0]
    with searching(ev):
        got = bot.two_turns(ARK, ev, world, 0, action)
        # the same look by hand: the chain as fast plays it, on to the next turn, fast's
        # ranking there, and each of its two best answers looked at one turn further
        mid = finish_chain(ARK, ev, step(ARK, world, 0, action), 0, bot.depth, bot.width)[0]
        mid = bot.next_turn(ARK, ev, mid, 0)
        assert mid["stack"][-1]["kind"] == "turn" and mid["turn"] == state["turn"] + 1
        legal = ARK.legal_actions(mid, 0)
        order = ranked(ARK, ev, mid, 0, legal, depth=4, width=3, top_width=8)
        want = max(bot.two_turns(ARK, ev, mid, 0, legal[i], 1) for _, i in order[:2])
        one = bot.two_turns(ARK, ev, world, 0, action, 1)
        own = ev.answer(world, 0, action)
        bare = PlanBot(horizon=2, k_next=2, terms=0, **SMALL)
        without = bare.two_turns(ARK, ev, world, 0, action, 1)
    assert action["type"] == "action" and own != 0  # the first card is not in the middle slot
    assert got == want + own
    assert one == order[0][0] + own  # one turn ahead: fast's best next turn, plus the term
    assert without == order[0][0]


def test_the_budget_stops_the_further_look_between_rounds():
    """Past its budget of value calls the plan level looks further at fewer of the next turn's
    answers, every candidate alike: with a budget of one call it plays as ``horizon=1``, with
    room for ``r`` rounds as ``k_next=r``, with ample room as without a budget."""
    state = _turn_start(1, "plan-budget", 3)
    legal = ARK.legal_actions(state, 0)

    def answer(**settings):
        bot = PlanBot(**{**SMALL, **settings})
        choice = bot.choose(ARK, ARK.view(state, 0), legal, {"rng": 5}, Sampler(ARK, state, 0))
        return choice, bot.last_stats

    free, unbounded = answer(budget=None)
    assert unbounded["rounds"] == PlanBot(**SMALL).k_next == 3
    one, one_turn = answer(horizon=1, budget=None)
    tight, short = answer(budget=1)
    assert (short["rounds"], one_turn["rounds"]) == (0, 0)
    assert (tight, short["means"], short["calls"]) == (one, one_turn["means"], one_turn["calls"])
    assert unbounded["means"] != one_turn["means"]  # the look did look further
    first = one_turn["calls"]  # the looks' own calls: the first round is expected to cost as much
    some, partial = answer(budget=2 * first)
    assert 1 <= partial["rounds"] < 3  # a partial look, not the whole one
    narrow, as_narrow = answer(budget=None, k_next=partial["rounds"])
    assert (some, partial["means"]) == (narrow, as_narrow["means"])
    ample, wide = answer(budget=10 * unbounded["calls"])
    assert (ample, wide["means"], wide["calls"]) == (free, unbounded["means"], unbounded["calls"])



@pytest.mark.parametrize("seats", [1, 2])
def test_a_solo_opening_is_answered_as_fast_and_planned_after_it(seats):
    """``solo_opening=N``: alone, every decision of the first ``N`` turns is fast's (no plan
    looked at); from turn ``N`` on it plans as before. With a rival it plans from the start."""
    ev = evaluator_for(ARK, "learned")
    fast = FastBot(depth=4, width=3, top_width=8)
    plan = PlanBot(**{**SMALL, "solo_opening": 2})
    state = ARK.setup(seats, {}, "plan-opening")
    rng = {"rng": 5}
    before = planned_before = planned_after = 0
    for _ in range(200):
        waiting = sorted(ARK.waiting_for(state))
        if not waiting or state["turn"] >= 4 * seats:
            break
        seat = waiting[0]
        legal = ARK.legal_actions(state, seat)
        if seat == 0 and len(legal) > 1:
            r = {"rng": _rng.next_u64(rng)}
            plan.last_stats = None
            a = plan.choose(ARK, ARK.view(state, 0), legal, dict(r), Sampler(ARK, state, 0))
            if ev.turn(state) < 2:
                before += 1
                planned_before += plan.last_stats is not None
                if seats == 1:
                    assert a == fast.choose(ARK, ARK.view(state, 0), legal, dict(r),
                                            Sampler(ARK, state, 0))
            else:
                planned_after += plan.last_stats is not None
        state, _ = ARK.apply(state, seat, decide(fast, ARK, state, seat, rng))
    assert before >= 2 and planned_after > 0
    assert (planned_before == 0) is (seats == 1)
    assert plan.in_opening(ARK, ev, ARK.setup(seats, {}, "x")) is (seats == 1)
    assert PlanBot(solo_opening=None).in_opening(ARK, ev, ARK.setup(1, {}, "x")) is False
    assert PlanBot().solo_opening == 9  # the shipped default (docs/bots.md)
