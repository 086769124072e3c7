"""Post-game analysis and hints (engine/bots/analysis.py), with fast settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import engine
from engine.bots import decide, get_bot
from engine.bots.analysis import (
    MIN_PLAYOUTS,
    WIN_UNIT,
    Settings,
    accuracy,
    analyse,
    analyse_point,
    for_game,
    points,
    summarize,
    unit_of,
)
from engine.bots.evaluation import evaluator_for
from engine.bots.greedy import ranked
from engine.bots.hints import hint
from engine.bots.labels import KEYS, QUIET, describe, generic
from engine.core import rng as _rng
from tests.toygame import TOY

from .hidden import PERTURBERS

ARK = engine.get_game("arknova")
FAST = Settings(playouts=3, candidates=1)
#: The cheapest look (greedy and fast one ply each, 2 playouts): a whole greedy game's analysis
#: at about a quarter of the default plan look's CPU (which passes the same test too).
CHEAPEST = Settings(playouts=2, candidates=1, policy="mix", measure="margin_mean")

#: seed "p3": at action 18 (seat 0 starts a move) greedy plays the sponsors action (playing
#: sponsor S055 next); its worst answer by greedy's own value is 15 VP-like units lower
SEED, MOVE_AT, CHAIN_AT, LENGTH = "p3", 18, 19, 60


def greedy_log(game, seed, length, plant: int | None = None, seats: int = 2) -> list[dict]:
    """A greedy game's first ``length`` actions; at ``plant`` the worst answer by greedy's
    value (looking at the real state: this is the scripted blunder, not the analysis)."""
    state = game.setup(seats, {}, seed)
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    log = []
    for i in range(length):
        waiting = game.waiting_for(state)
        if not waiting:
            break
        seat = min(waiting)
        if i == plant:
            legal = game.legal_actions(state, seat)
            order = ranked(game, evaluator_for(game), state, seat, legal, top_width=len(legal))
            action = legal[order[-1][1]]
        else:
            action = decide(get_bot("greedy"), game, state, seat, rng)
        log.append({"seat": seat, "action": action})
        state, _ = game.apply(state, seat, action)
    return log


def state_at(game, log, index, seed=SEED, seats=2):
    state = game.setup(seats, {}, seed)
    for item in log[:index]:
        state, _ = game.apply(state, item["seat"], item["action"])
    return state


@pytest.fixture(scope="module")
def clean_log():
    return greedy_log(ARK, SEED, LENGTH)


@pytest.fixture(scope="module")
def clean_report(clean_log):
    return analyse(ARK, 2, {}, SEED, clean_log, FAST)


# ------------------------------------------------------------------ the planted blunder
@pytest.mark.parametrize("plant", [MOVE_AT, CHAIN_AT], ids=["move-start", "chained"])
def test_a_planted_blunder_is_among_the_biggest_mistakes(plant, clean_log):
    log = greedy_log(ARK, SEED, LENGTH, plant=plant)
    assert log[plant] != clean_log[plant]  # the blunder is not greedy's answer
    report = analyse(ARK, 2, {}, SEED, log, FAST)
    top = [m["index"] for m in report["mistakes"][:3]]
    assert plant in top, report["mistakes"][:3]
    m = next(m for m in report["mistakes"] if m["index"] == plant)
    assert m["chosen"] == log[plant]["action"] and m["best"] != m["chosen"]
    # more than a mistake: the default yardstick is the mean of the hand projection, which sees
    # the sponsor's appeal income the blunder gives up (14-15 VP), and the learned value, which
    # does not (its income weights were fitted near 0: 0.3-0.6 VP); docs/analysis.md. About 4
    # VP: 4.6 (3 playouts) / 4.2 (12) on value3, 3.9 / 3.9 since the duel's hand_homes
    # "matched" (2026-12-04), so 1.5 units, not the 2 it cleared by a hair before
    assert m["loss"] > 1.5 * unit_of(ARK)
    assert m["value_best"] - m["value_chosen"] == pytest.approx(m["loss"])
    assert m["chained"] is (plant == CHAIN_AT)
    # labels: structured and in words
    assert m["text"]["chosen"]["key"] and m["text"]["chosen"]["text"]
    assert m["text"]["best"]["text"] and m["text"]["best"]["text"] != m["text"]["chosen"]["text"]
    # the blunderer's accuracy drops below the clean game's
    seat = log[plant]["seat"]
    clean = analyse(ARK, 2, {}, SEED, clean_log, FAST)
    assert report["seats"][seat]["accuracy"] < clean["seats"][seat]["accuracy"]
    assert report["seats"][seat]["mistakes"] >= 1


@pytest.mark.parametrize("plant", [MOVE_AT, CHAIN_AT], ids=["move-start", "chained"])
def test_the_planted_blunder_on_greedys_yardstick(plant):
    """Greedy's own policy measured on the hand projection alone (the yardstick before
    2026-12-03, still a setting) charges the blunder what the hand value sees in it."""
    log = greedy_log(ARK, SEED, LENGTH, plant=plant)
    state = ARK.setup(2, {}, SEED)
    for item in log[:plant]:
        state, _ = ARK.apply(state, item["seat"], item["action"])
    own = Settings(playouts=3, candidates=1, policy="own", measure="margin")
    entry = analyse_point(ARK, state, log[plant]["seat"], log[plant]["action"], own, plant)
    assert entry["loss"] > 10


def test_the_plan_policy_compares_the_plan_levels_candidates_and_charges_the_blunder():
    """Policy "plan": at a move start fast's best 4 answers (the plan level's candidates) and the
    chosen one, each followed by the plan level's line; the planted blunder is charged more than
    a unit (about 4 VP on the hand projection's mean), deterministically per seed and index."""
    log = greedy_log(ARK, SEED, LENGTH, plant=MOVE_AT)
    state = state_at(ARK, log, MOVE_AT)
    seat, chosen = log[MOVE_AT]["seat"], log[MOVE_AT]["action"]
    settings = Settings(playouts=2, policy="plan")
    entry = analyse_point(ARK, state, seat, chosen, settings, MOVE_AT)
    assert entry["playouts"] == 2 and not entry["chained"]
    assert 2 <= entry["compared"] <= 5  # fast's best 4, and the blunder when not among them
    assert entry["chosen"] == chosen and entry["best"] != chosen
    assert entry["loss"] > unit_of(ARK)
    assert analyse_point(ARK, state, seat, chosen, settings, MOVE_AT) == entry
    # inside a chain it answers as the learned policy (the fast level's one-ply look)
    chain = state_at(ARK, log, CHAIN_AT)
    c_seat, c_chosen = log[CHAIN_AT]["seat"], log[CHAIN_AT]["action"]
    assert (analyse_point(ARK, chain, c_seat, c_chosen, settings, CHAIN_AT)
            == analyse_point(ARK, chain, c_seat, c_chosen, Settings(playouts=2, policy="learned"),
                             CHAIN_AT))


def test_the_plan_policys_look_is_set_by_plan_answers_and_plan_next():
    """``plan_answers`` answers of fast's order are compared (and the chosen one), each line
    trying ``plan_next`` answers at the seat's next turn: the cheapest look compares at most
    two; the cost-cut look (3 and 2) still charges the planted blunder more than a unit."""
    log = greedy_log(ARK, SEED, LENGTH, plant=MOVE_AT)
    state = state_at(ARK, log, MOVE_AT)
    seat, chosen = log[MOVE_AT]["seat"], log[MOVE_AT]["action"]
    one = analyse_point(ARK, state, seat, chosen, Settings(playouts=1, policy="plan",
                                                           plan_answers=1, plan_next=1), MOVE_AT)
    assert one["compared"] == 2 and one["playouts"] == 1  # fast's best, and the blunder
    cut = Settings(playouts=2, policy="plan", measure="margin_learned", plan_answers=3,
                   plan_next=2)
    entry = analyse_point(ARK, state, seat, chosen, cut, MOVE_AT)
    assert 2 <= entry["compared"] <= 4 and entry["best"] != chosen
    assert entry["loss"] > unit_of(ARK) and entry["win_loss"] > 0.05


def test_a_planted_blunder_in_a_whole_game():
    """The same blunder in a game played to its end (~750 actions, ~730 analysed), with the
    cheapest setting: a mistake, and one of the three biggest of the opening (the first 100
    actions). Not among the game's three biggest any more: on the yardstick of neither level
    the blunderer, who falls behind and then stalls (greedy's way: docs/analysis.md), is charged
    more later on (up to 25 VP a move, where the fast level's answer gains what greedy's does
    not, even measured on the hand projection alone)."""
    log = greedy_log(ARK, SEED, 5000, plant=MOVE_AT)
    assert ARK.result(state_at(ARK, log, len(log))) is not None  # the game is over
    report = analyse(ARK, 2, {}, SEED, log, CHEAPEST)
    assert report["complete"] and report["total"] > 400
    planted = next(e for e in report["entries"] if e["index"] == MOVE_AT)
    assert planted["loss"] > unit_of(ARK)
    opening = sorted((e for e in report["entries"] if e["index"] < 100), key=lambda e: -e["loss"])
    # among the three biggest: 4.7 VP, second after 6.5 on value3; 4.2, third after 5.2 and 4.9
    # since the duel's hand_homes "matched" (the two others are seat 0's and seat 1's own)
    assert MOVE_AT in [e["index"] for e in opening[:3]]


# ------------------------------------------------------------------ the report's shape
def test_points_leave_out_forced_decisions(clean_log):
    pts = points(ARK, 2, {}, SEED, clean_log)
    assert pts and all(p["index"] == p["version"] for p in pts)
    indexes = {p["index"] for p in pts}
    state = ARK.setup(2, {}, SEED)
    for i, item in enumerate(clean_log):
        assert (i in indexes) == (len(ARK.legal_actions(state, item["seat"])) > 1)
        if i in indexes:
            assert next(p for p in pts if p["index"] == i)["action"] == item["action"]
        state, _ = ARK.apply(state, item["seat"], item["action"])


def test_report_shape(clean_report, clean_log):
    r = clean_report
    assert r["complete"] is True and r["total"] == len(points(ARK, 2, {}, SEED, clean_log))
    assert [e["index"] for e in r["entries"]] == sorted(e["index"] for e in r["entries"])
    assert len(r["entries"]) == r["total"] and len(r["series"]) == len(r["seats"]) == 2
    for e in r["entries"]:
        assert e["loss"] == pytest.approx(max(0.0, e["value_best"] - e["value_chosen"]))
        assert e["legal"] > 1 and e["chosen"] == clean_log[e["index"]]["action"]
    for s in r["seats"]:
        mine = [e for e in r["entries"] if e["seat"] == s["seat"]]
        assert s["decisions"] == len(mine)
        # the default accuracy counts the win chance lost (Settings.accuracy "win")
        assert s["accuracy"] == accuracy(sum(e["win_loss"] for e in mine) / len(mine), WIN_UNIT)
        assert s["mean_win_loss"] == pytest.approx(sum(e["win_loss"] for e in mine) / len(mine),
                                                   abs=1e-4)
        assert s["mistakes"] == sum(1 for e in mine if e["loss"] > 2.0)
        assert 0 <= s["accuracy"] <= 100
        assert [p["version"] for p in r["series"][s["seat"]]] == [e["version"] for e in mine]
    json.dumps(r)  # plain JSON
    assert r["unit"] == unit_of(ARK) == 2.0
    assert accuracy(0) == 100.0 and accuracy(2.0) == pytest.approx(36.8)
    assert accuracy(0.25, 0.25) == pytest.approx(36.8)


def test_accuracy_counted_by_the_win_chance_lost(clean_log, clean_report):
    """``Settings.accuracy = "win"``: a seat's accuracy is 100 * exp(-mean win chance lost /
    WIN_UNIT); the planted blunder (a win chance of about 0.2 given up) lowers it below the
    clean game's; the mistakes stay counted in the game's unit."""
    by_win = Settings(playouts=3, candidates=1, accuracy="win")
    r = summarize(ARK, 2, clean_report["entries"], clean_report["total"], settings=by_win)
    for s in r["seats"]:
        mine = [e for e in r["entries"] if e["seat"] == s["seat"]]
        assert s["accuracy"] == accuracy(sum(e["win_loss"] for e in mine) / len(mine), WIN_UNIT)
        assert s["mistakes"] == sum(1 for e in mine if e["loss"] > 2.0)
    assert accuracy(WIN_UNIT, WIN_UNIT) == pytest.approx(36.8)
    by_margin = summarize(ARK, 2, clean_report["entries"], clean_report["total"],
                          settings=Settings(accuracy="margin"))
    for s in by_margin["seats"]:
        mine = [e for e in clean_report["entries"] if e["seat"] == s["seat"]]
        assert s["accuracy"] == accuracy(sum(e["loss"] for e in mine) / len(mine), 2.0)
    log = greedy_log(ARK, SEED, LENGTH, plant=MOVE_AT)
    blunder = analyse(ARK, 2, {}, SEED, log, by_win)
    seat = log[MOVE_AT]["seat"]
    planted = next(e for e in blunder["entries"] if e["index"] == MOVE_AT)
    assert planted["win_loss"] > 0.05
    assert blunder["seats"][seat]["accuracy"] < r["seats"][seat]["accuracy"]


def test_mistakes_carry_the_line_that_followed(clean_log, clean_report):
    """A mistake's chosen answer is described with the seat's own follow-ups from the log."""
    low = Settings(playouts=3, candidates=1, mistake=0.0)  # every loss is listed
    r = summarize(ARK, 2, clean_report["entries"], clean_report["total"], settings=low,
                  actions=clean_log, options={}, seed=SEED)
    assert r["mistakes"]
    described = 0
    for m in r["mistakes"]:
        i, line = m["index"], m["chosen_line"]
        after = clean_log[i + 1:i + 1 + len(line)]
        assert [x["action"] for x in after] == line
        assert all(x["seat"] == m["seat"] for x in after)
        said = [a for a in line if a["type"] not in QUIET]
        if said:
            described += 1
            assert m["text"]["chosen"]["text"].endswith(")")
            assert len(m["text"]["chosen"]["params"]["then"]) == min(3, len(said))
    assert described
    # without the log the labels describe the answers alone
    bare = summarize(ARK, 2, clean_report["entries"], clean_report["total"], settings=low)
    assert [m["index"] for m in bare["mistakes"]] == [m["index"] for m in r["mistakes"]]
    assert all(m["chosen_line"] == [] for m in bare["mistakes"])


def test_deterministic(clean_log, clean_report):
    again = analyse(ARK, 2, {}, SEED, clean_log, FAST)
    assert again == clean_report
    other = analyse(ARK, 2, {}, SEED, clean_log, Settings(playouts=3, candidates=1, seed="x"))
    assert other["total"] == clean_report["total"]
    # a record's [seat, action] pairs are read the same way
    pairs = [[x["seat"], x["action"]] for x in clean_log]
    assert analyse(ARK, 2, {}, SEED, pairs, FAST) == clean_report


def test_resume_gives_the_same_report(clean_log, clean_report):
    half = clean_report["entries"][: len(clean_report["entries"]) // 2]
    seen = []
    stored = json.loads(json.dumps(half))  # as a job keeps them in the database
    resumed = analyse(ARK, 2, {}, SEED, clean_log, FAST, done=stored,
                      progress=lambda d, t: seen.append((d, t)))
    assert resumed == clean_report
    total = clean_report["total"]
    # the progress starts at the entries already done and counts up to the total
    assert seen[0] == (len(half), total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == list(range(len(half), total + 1))


def test_should_stop_gives_a_partial_report(clean_log):
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 4

    report = analyse(ARK, 2, {}, SEED, clean_log, FAST, should_stop=stop)
    assert report["complete"] is False and len(report["entries"]) == 4
    assert report["total"] > 4


def test_settings_round_trip():
    s = Settings(playouts=5, candidates=3, seed="z")
    assert Settings.from_dict(s.as_dict()) == s
    assert Settings.from_dict(None) == Settings()
    assert Settings.from_dict({"playouts": 2, "unknown": 1}) == Settings(playouts=2)
    with pytest.raises(ValueError):
        Settings.from_dict({"playouts": 0})
    with pytest.raises(ValueError):
        Settings(candidates=-1)
    with pytest.raises(ValueError):
        Settings.from_dict({"playouts": "many"})
    with pytest.raises(ValueError):
        Settings(plan_answers=0)
    with pytest.raises(ValueError):
        Settings(plan_next=0)
    with pytest.raises(ValueError):
        Settings(accuracy="vp")
    words = Settings(policy="plan", measure="margin_learned", budget=300, accuracy="win",
                     plan_answers=3, plan_next=2)
    assert Settings.from_dict(words.as_dict()) == words
    assert Settings.from_dict(json.loads(json.dumps(words.as_dict()))) == words
    assert Settings.from_dict({"accuracy": "win"}).accuracy == "win"
    with pytest.raises(ValueError):
        Settings(policy="greedy")
    with pytest.raises(ValueError):
        Settings(measure="score")


def test_a_long_game_gets_fewer_playouts_per_move(clean_log):
    pts = points(ARK, 2, {}, SEED, clean_log)
    starts = sum(1 for p in pts if not p["chained"])
    assert 0 < starts < len(pts)  # both kinds of decision
    # chained: the seat is inside its own move (the evaluator's own_followup)
    state = ARK.setup(2, {}, SEED)
    chained = {p["index"]: p["chained"] for p in pts}
    for i, item in enumerate(clean_log):
        if i in chained:
            assert chained[i] == evaluator_for(ARK).own_followup(state, item["seat"])
        state, _ = ARK.apply(state, item["seat"], item["action"])
    base = Settings(playouts=8)
    assert for_game(base, pts) is base  # no budget: every move start gets its 8
    assert for_game(Settings(playouts=8, budget=8 * starts), pts) == Settings(
        playouts=8, budget=8 * starts)
    assert for_game(Settings(playouts=8, budget=3 * starts + 1), pts).playouts == 3
    assert for_game(Settings(playouts=8, budget=1), pts).playouts == MIN_PLAYOUTS
    # the whole report: the move starts' entries carry the playouts they got
    cut = Settings(playouts=3, candidates=1, budget=2 * starts)
    report = analyse(ARK, 2, {}, SEED, clean_log, cut)
    assert {e["playouts"] for e in report["entries"]} <= {0, 2}
    assert any(e["playouts"] == 2 for e in report["entries"])


# ------------------------------------------------------------------ hidden information
def _perturbed_positions(log):
    """(seat, real state, the state with everything hidden from seat changed)."""
    for index in (MOVE_AT, CHAIN_AT, 30, 41):
        state = state_at(ARK, log, index)
        seat = log[index]["seat"]
        changed = PERTURBERS["arknova"](state, 1 - seat)
        assert changed != state
        assert ARK.view(changed, seat) == ARK.view(state, seat)
        yield index, seat, state, changed


@pytest.mark.parametrize("policy", ["own", "mix", "plan"])
def test_analysis_and_hints_never_read_the_hidden_parts(clean_log, policy):
    # several answers played out (mix: by both levels, measured by both values)
    wide = Settings(playouts=2, candidates=3, policy=policy,
                    measure="margin_mean" if policy == "mix" else "margin")
    played = 0
    for index, seat, state, changed in _perturbed_positions(clean_log):
        chosen = clean_log[index]["action"]
        entry = analyse_point(ARK, state, seat, chosen, wide, index)
        assert analyse_point(ARK, changed, seat, chosen, wide, index) == entry
        played += entry["playouts"] > 0
        h = hint(ARK, state, seat, wide)
        assert hint(ARK, changed, seat, wide) == h
        played += len(h["alternatives"]) > 0 and not entry["chained"]
    assert played >= 2  # the playouts ran (not only greedy's look)


def test_a_secret_answer_of_the_other_seat_stays_secret():
    """Toy game: both seats choose a card at once (seat 0 first, so seat 1 decides after seat
    0's secret card). Another hand, deck and secret card for the other seat give the deciding
    seat the same entry and the same hint."""
    log = greedy_log(TOY, "toy-h", 40)
    state = TOY.setup(2, {}, "toy-h")
    wide = Settings(playouts=4, candidates=3)
    secret = played = 0
    for i, item in enumerate(log):
        seat = item["seat"]
        if state["phase"] == "play":
            changed = PERTURBERS["toy"](state, 1 - seat)
            assert TOY.view(changed, seat) == TOY.view(state, seat)
            entry = analyse_point(TOY, state, seat, item["action"], wide, i)
            assert analyse_point(TOY, changed, seat, item["action"], wide, i) == entry
            assert hint(TOY, changed, seat, wide) == hint(TOY, state, seat, wide)
            secret += changed["chosen"][1 - seat] != state["chosen"][1 - seat]
            played += entry["playouts"] > 0
        state, _ = TOY.apply(state, seat, item["action"])
    assert secret >= 2 and played >= 2


def test_hint_answers_a_legal_action(clean_log):
    for index in (MOVE_AT, CHAIN_AT, 30):
        state = state_at(ARK, clean_log, index)
        seat = clean_log[index]["seat"]
        h = hint(ARK, state, seat, FAST)
        assert h["action"] in ARK.legal_actions(state, seat)
        assert h["reason"]["key"].startswith("analysis.reason.")
        assert h["label"]["text"] and isinstance(h["value"], float)
        assert all(a["value"] <= h["value"] for a in h["alternatives"])
    with pytest.raises(ValueError):
        hint(ARK, state, 1 - seat, FAST)  # that seat owes no decision


def test_hint_on_a_forced_decision():
    state = ARK.setup(2, {}, SEED)
    log = greedy_log(ARK, SEED, LENGTH)
    for item in log:
        if len(ARK.legal_actions(state, item["seat"])) == 1:
            h = hint(ARK, state, item["seat"], FAST)
            assert h["action"] == ARK.legal_actions(state, item["seat"])[0]
            assert h["reason"]["key"] == "analysis.reason.forced"
            return
        state, _ = ARK.apply(state, item["seat"], item["action"])
    pytest.fail("no forced decision in the game's first actions")


# ------------------------------------------------------------------ other games, labels
def test_toy_and_zoocracy_are_analysed():
    log = greedy_log(TOY, "toy-a", 100, seats=2)
    report = analyse(TOY, 2, {}, "toy-a", log, FAST)
    assert report["complete"] and report["total"] >= 1
    for m in report["mistakes"]:
        assert m["text"]["chosen"]["key"] == "analysis.label.generic"
        assert m["text"]["chosen"]["text"].startswith("Play: card ")
    zoo = engine.get_game("zoocracy")
    zlog = greedy_log(zoo, "z1", 40, seats=3)
    zrep = analyse(zoo, 3, {}, "z1", zlog, FAST)
    assert zrep["complete"] and len(zrep["seats"]) == 3
    # its own unit (goal steps, not VP): the mistakes are measured in it; the accuracy (by the
    # win chance lost, the default) from its win chances, spread by 8 units (2 goal steps)
    assert zrep["unit"] == unit_of(zoo) == 0.25
    for s in zrep["seats"]:
        mine = [e for e in zrep["entries"] if e["seat"] == s["seat"]]
        assert s["accuracy"] == accuracy(sum(e["win_loss"] for e in mine) / len(mine), WIN_UNIT)
        assert s["mistakes"] == sum(1 for e in mine if e["loss"] > 0.25)
    by_margin = summarize(zoo, 3, zrep["entries"], zrep["total"],
                          settings=Settings(accuracy="margin"))
    for s in by_margin["seats"]:
        losses = [e["loss"] for e in zrep["entries"] if e["seat"] == s["seat"]]
        assert s["accuracy"] == accuracy(sum(losses) / len(losses), 0.25)


def test_labels():
    assert describe(ARK, None, 0, {"type": "action", "card": "build", "x": 0})["text"] == \
        "Build action"
    lab = describe(ARK, None, 0, {"type": "animal", "card": "A054", "enclosure": 1})
    assert lab["key"] == "analysis.label.animal" and lab["params"]["card"] == "A054"
    assert lab["text"] == "Play Koala"
    line = [{"type": "building", "building": "enclosure_2"}, {"type": "done"}]
    lab = describe(ARK, None, 0, {"type": "action", "card": "build", "x": 0}, line=line)
    assert lab["text"] == "Build action (Build enclosure (2))"
    assert lab["params"]["then"][0]["key"] == "analysis.label.building"
    place = {"type": "place", "cells": [[3, 4], [3, 5]]}
    lab = describe(ARK, None, 0, {"type": "building", "building": "kiosk"}, line=[place])
    assert lab["text"] == "Build kiosk (at 3,4)" and lab["params"]["then"][0]["params"] == \
        {"cells": [[3, 4], [3, 5]]}
    g = generic({"type": "play", "card": 7})
    assert g == {"key": "analysis.label.generic", "params": {"type": "play", "fields": {"card": 7}},
                 "text": "Play: card 7"}
    assert describe(TOY, None, 0, {"type": "play", "card": 7}) == g


@pytest.mark.parametrize("name,seats", [("arknova", 2), ("zoocracy", 3)])
def test_every_label_key_is_known(name, seats):
    """Every answer met in a game gets a label whose key is a client message or one of
    labels.KEYS (the new ones), with an English text; the game's describer knows most types."""
    cats = json.loads((Path(__file__).resolve().parents[2] / "static/i18n/en.json").read_text())
    game = engine.get_game(name)
    state = game.setup(seats, {}, "labels")
    chooser = {"rng": 5}
    kinds, generic_kinds = set(), set()
    for _ in range(300):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        legal = game.legal_actions(state, seat)
        for a in legal:
            lab = describe(game, state, seat, a)
            assert lab["key"] in cats or lab["key"] in KEYS, (a, lab)
            assert lab["text"] and json.dumps(lab["params"])
            kinds.add(a["type"])
            if a["type"] == "animal":  # which enclosure: two homes of one card differ
                assert re.search(r" in .+ at \d+,\d+$", lab["text"]), lab
            if lab["key"] == "analysis.label.generic":
                generic_kinds.add(a["type"])
        state, _ = game.apply(state, seat, legal[_rng.randbelow(chooser, len(legal))])
    assert len(kinds) >= 8 and len(generic_kinds) <= 2, generic_kinds
    # the engine's own keys are namespaced; the client puts some into words (static/js/
    # analysis.js LABEL_KEYS, in every catalog) and shows the engine's English for the rest
    assert all(k.startswith(("analysis.label.", "analysis.reason.")) for k in KEYS)


STATIC = Path(__file__).resolve().parents[2] / "static"


def client_label_tables() -> tuple[set[str], dict[str, tuple[str, str, str]]]:
    """static/js/analysis.js: the engine's label keys the client puts into words (LABEL_KEYS),
    and its VARIANTS (key -> the param that picks, its words when set, when not)."""
    js = (STATIC / "js" / "analysis.js").read_text()
    block = re.search(r"const LABEL_KEYS = new Set\(\[(.*?)\]\);", js, re.S).group(1)
    variants = re.search(r"const VARIANTS = \{(.*?)\};", js, re.S).group(1)
    return set(re.findall(r'"([a-z_.]+)"', block)), {
        f"analysis.label.{k}": (p, yes, no) for k, p, yes, no in
        re.findall(r'(\w+): \["(\w+)", "([a-z_.]+)", "([a-z_.]+)"\]', variants)}


#: the params of a Zoocracy label the client names (ids: parties, enclosures, offices, cards)
#: or prints as they are (numbers, the vote)
ZC_PARAMS = {"party", "enclosure", "from", "to", "office", "card", "count", "amount", "yes"}


class LabelWords:
    """Checks that a label is in words in English, Ukrainian and German: a key of the client's
    catalogues (or its VARIANTS' words, the one its params pick), never the generic label or a
    key left to the engine's English text, only params of ``allowed``, and every placeholder of
    each language's words a param the label carries."""

    def __init__(self, allowed: set[str]) -> None:
        self.cats = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text())
                     for lang in ("en", "uk", "de")}
        self.translated, self.variants = client_label_tables()
        self.allowed = allowed
        self.keys: set[str] = set()

    def check(self, a, lab) -> None:
        key, params = lab["key"], lab["params"]
        assert key != "analysis.label.generic", (a, lab)
        assert set(params) <= self.allowed, (a, lab)
        if key in self.variants:
            param, on, off = self.variants[key]
            for w in (on, off):
                assert all(isinstance(c.get(w), str) for c in self.cats.values()), (w, a)
            words = on if params.get(param) else off
        else:
            assert not key.startswith("analysis.label.") or key in self.translated, \
                f"{key} is shown in the engine's English only ({a})"
            words = key
        supplied = {k for k, v in params.items() if v is not None} | {"then"}
        for lang, cat in self.cats.items():
            assert isinstance(cat.get(words), str), f"{lang}: no words for {words} ({a})"
            needs = set(re.findall(r"\{(\w+)\}", cat[words]))
            assert needs <= supplied, (lang, words, cat[words], params)
        self.keys.add(key)


def random_decisions(game, seats: int, seed, steps: int):
    """``(state, seat, legal)`` of each decision of a random game (a seeded random answer)."""
    state = game.setup(seats, {}, seed)
    chooser = {"rng": _rng.seed_to_int(seed)}
    for _ in range(steps):
        waiting = sorted(game.waiting_for(state))
        if not waiting:
            return
        seat = waiting[0]
        legal = game.legal_actions(state, seat)
        pick = yield state, seat, legal
        pick = pick or legal[_rng.randbelow(chooser, len(legal))]
        state, _ = game.apply(state, seat, pick)


def test_zoocracy_labels_are_in_words_in_every_language():
    """Every label of Zoocracy's answers a reader can see (hints, analysis reports: here the
    labels of every legal answer of real decisions, games of 2 to 5 seats, and of a line of
    follow-ups) is in words in every language (:class:`LabelWords`)."""
    game = engine.get_game("zoocracy")
    words, kinds = LabelWords(ZC_PARAMS), set()
    for seats in (2, 3, 4, 5):
        for state, seat, legal in random_decisions(game, seats, f"zc-labels-{seats}", 600):
            for a in legal:
                words.check(a, describe(game, state, seat, a))
                kinds.add(a["type"])
            # a label with the answer's follow-ups: each of them in words too
            lab = describe(game, state, seat, legal[0], line=legal[:3])
            for sub in lab["params"].get("then", []):
                words.check(legal[0], sub)
    assert len(kinds) >= 15 and len(words.keys) >= 15, (kinds, words.keys)


def test_summarize_of_no_entries():
    r = summarize(ARK, 2, [], 10)
    assert r["complete"] is False and r["mistakes"] == [] and r["seats"][0]["accuracy"] is None


#: the params of an Ark Nova label the client names or prints (analysis.js labelText)
ARK_PARAMS = {"action", "x", "cards", "card", "building", "cells", "enclosure", "folder",
              "project", "level", "release", "task", "continent", "university", "tile", "verb"}


def test_arknova_labels_are_in_words_in_every_language():
    """Every label of the zoo builder's answers (every legal answer of random 2-player games,
    the sell and pouch answers of hand-card abilities and the reputation task among them) is
    in words in every language (:class:`LabelWords`)."""
    words, types = LabelWords(ARK_PARAMS), set()
    for seed in range(10):
        for state, seat, legal in random_decisions(ARK, 2, f"ark-labels-{seed}", 500):
            for a in legal[:80]:
                words.check(a, describe(ARK, state, seat, a))
                types.add(a["type"])
    assert {"task", "sell", "pouch"} & types, types
    assert len(types) >= 20 and len(words.keys) >= 20, (types, words.keys)


def test_a_solo_games_accuracy_counts_the_points_given_away():
    """Alone at the table the score is the result: the accuracy counts the VP given away per
    decision (the win chance of reaching 0 sits near 0 or 1 for most of a solo game, so by it
    nearly every game read 100 %); with rivals it counts the win chance (the default)."""
    def entry(i, seat, loss, win_loss):
        return {"index": i, "seat": seat, "version": i, "loss": loss, "win_loss": win_loss,
                "value_chosen": -20.0, "value_best": -20.0 + loss, "win_chosen": 0.01,
                "win_best": 0.01 + win_loss, "chosen": {"type": "action", "card": "cards", "x": 0},
                "best": {"type": "action", "card": "build", "x": 0}}
    solo = [entry(0, 0, 3.0, 0.001), entry(1, 0, 1.0, 0.0), entry(2, 0, 0.0, 0.0)]
    report = summarize(ARK, 1, solo, 3)
    seat = report["seats"][0]
    assert seat["accuracy_by"] == "margin"
    assert seat["accuracy"] == accuracy(4.0 / 3, unit_of(ARK))  # 51.3, not 98.4 by the chance
    assert seat["accuracy"] == pytest.approx(51.3, abs=0.1)
    duel = [entry(0, 0, 3.0, 0.04), entry(1, 1, 1.0, 0.0)]
    two = summarize(ARK, 2, duel, 2)
    assert [s["accuracy_by"] for s in two["seats"]] == ["win", "win"]
    assert two["seats"][0]["accuracy"] == accuracy(0.04, WIN_UNIT)
