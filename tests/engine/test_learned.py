"""The learned value (engine/arknova/bot/learned.py): its weights file, its symmetry, the tempo term
that makes a winning seat end the game, and the bots on it (no timing assertions)."""

from __future__ import annotations

import copy

import pytest

import engine
from engine.arknova.bot import learned
from engine.bots import FastBot, decide
from engine.bots.evaluation import evaluator_for
from engine.core.state import clone

from .test_bots import positions

ARK = engine.get_game("arknova")


def test_shipped_weights_are_valid_and_a_broken_file_is_refused():
    data = learned.load()
    assert len(data["duel"]["weights"]) == len(learned.DUEL)
    assert len(data["solo"]["weights"]) == len(learned.SOLO)
    for broken in ({**data, "tempo": -1},
                   {**data, "duel": {**data["duel"], "weights": data["duel"]["weights"][:-1]}},
                   {**data, "solo": {**data["solo"], "sigma": 0}},
                   {**data, "duel": {**data["duel"], "features": ["vp"]}},
                   {**data, "duel": {**data["duel"], "weights": [float("nan")] * len(learned.DUEL)}},
                   {**data, "progress": 0}, {**data, "progress": "wide"}):
        with pytest.raises(learned.ValueFileError):
            learned.validate(copy.deepcopy(broken))


def test_duel_features_are_the_zoos_difference():
    checked = 0
    for state in positions(ARK, 2, 31, every=37):
        a, b = learned.features(state, 0), learned.features(state, 1)
        assert [round(x, 9) for x in a[:-1]] == [round(-x, 9) for x in b[:-1]]
        assert sorted((a[-1], b[-1])) == [-1.0, 1.0]  # whose turn
        assert 0.0 <= learned.win_chance(state, 0) <= 1.0
        checked += 1
    assert checked >= 3


def test_more_points_is_worth_more_to_the_seat_and_less_to_its_rival():
    ev = evaluator_for(ARK, "learned")
    assert ev is not evaluator_for(ARK)
    state = next(iter(positions(ARK, 2, 13, every=1)))
    richer = clone(state)
    richer["players"][0]["appeal"] += 10
    assert learned.predicted_margin(richer, 0) > learned.predicted_margin(state, 0)
    assert ev.value(richer, 0) > ev.value(state, 0)
    assert ev.value(richer, 1) < ev.value(state, 1)


def test_a_seat_far_ahead_values_coming_closer_to_the_end(monkeypatch):
    """The tempo term: with the rival far behind, the same zoo nearer to 0 points (the end) is
    worth more to the leader than the margin alone says; to the trailing seat, just its margin."""
    state = next(iter(positions(ARK, 2, 14, every=1)))
    ahead = clone(state)
    ahead["players"][0]["appeal"] += 60
    nearer = clone(ahead)
    nearer["players"][0]["appeal"] += 5
    monkeypatch.setitem(learned.load(), "tempo", 0.0)
    plain = learned.utility(nearer, 0) - learned.utility(ahead, 0)
    monkeypatch.setitem(learned.load(), "tempo", 1.0)
    assert learned.win_chance(ahead, 0) > 0.8
    assert learned.utility(nearer, 0) - learned.utility(ahead, 0) > plain + 3.0
    behind = clone(state)
    behind["players"][0]["appeal"] += 50
    behind["players"][1]["appeal"] += 110
    closer = clone(behind)
    closer["players"][0]["appeal"] += 5
    with_tempo = learned.utility(closer, 0) - learned.utility(behind, 0)
    assert with_tempo > 0  # a trailing seat still wants its own points (one-sided term)
    monkeypatch.setitem(learned.load(), "tempo", 0.0)
    assert with_tempo == pytest.approx(learned.utility(closer, 0) - learned.utility(behind, 0))


def test_end_features_see_who_is_nearer_to_the_end():
    """The lead counts more near the end, the seat nearer to 0 points gets +1 (the rival -1),
    and far from the end (both zoos 40 or more points short) the nearness is 0."""
    lead_near, first_near, lead_breaks = learned.end_features(-5.0, -25.0, 6)
    near = 1.0 - 5.0 / learned.NEAR
    assert lead_near == pytest.approx(20.0 * near)
    assert first_near == pytest.approx(1.0 * near)  # 20 points nearer: capped at 1
    assert lead_breaks == pytest.approx(20.0 * 6 / 10)
    assert learned.end_features(-25.0, -5.0, 6) == pytest.approx([-20.0 * near, -near, -12.0])
    assert learned.end_features(-60.0, -45.0, 2)[:2] == [0.0, 0.0]
    # past 0 (the end triggered) the nearness is full and the sign follows who is there
    assert learned.end_features(3.0, -8.0, 9)[:2] == pytest.approx([11.0, 0.8])
    widened = copy.deepcopy(learned.load())
    widened["progress"] = 120.0
    assert learned.validate(widened)["progress"] == 120.0


def test_fast_bot_is_reproducible_per_seed():
    bot = FastBot(depth=3, width=3, top_width=10)
    for state in positions(ARK, 2, 15, every=41, limit=200):
        seat = min(ARK.waiting_for(state))
        assert decide(bot, ARK, state, seat, {"rng": 9}) == decide(bot, ARK, state, seat,
                                                                   {"rng": 9})


def test_a_finished_game_keeps_the_tempo_term():
    """Ending a won game must not look worse than the position before it: the finished game's
    value is its final margin +-20 plus the whole tempo term when won (one-sided: none lost)."""
    from engine.bots.evaluation import final_value
    from engine.core import rng as _rng

    state = ARK.setup(2, {}, 17)
    chooser = {"rng": 3}
    while ARK.waiting_for(state):
        seat = min(ARK.waiting_for(state))
        legal = ARK.legal_actions(state, seat)
        state, _ = ARK.apply(state, seat, legal[_rng.randbelow(chooser, len(legal))])
    scores = ARK.result(state)["scores"]
    assert scores[0] != scores[1]
    winner = 0 if scores[0] > scores[1] else 1
    data = learned.load()
    bonus = data["tempo"] * data.get("progress", learned.PROGRESS)
    assert learned.value(state, winner) == final_value(ARK, state, winner) + bonus
    assert learned.value(state, 1 - winner) == final_value(ARK, state, 1 - winner)
    assert learned.value(state, winner) >= learned.WIN_BONUS + bonus


def test_an_older_weights_file_loads_with_the_new_features_at_zero():
    """A value.json written before features were added (its names a subsequence of today's)
    loads with weight 0 on the missing ones; names out of order are refused."""
    data = copy.deepcopy(learned.load())
    names = learned.DUEL
    keep = [i for i, n in enumerate(names) if n not in ("ready", "build", "ready*phase")]
    old = {**data, "duel": {**data["duel"], "features": [names[i] for i in keep],
                            "weights": [float(i + 1) for i in keep]}}
    widened = learned.validate(copy.deepcopy(old))["duel"]
    assert widened["features"] == list(names)
    assert widened["weights"] == [0.0 if i not in keep else float(i + 1)
                                  for i in range(len(names))]
    swapped = copy.deepcopy(old)
    swapped["duel"]["features"][:2] = swapped["duel"]["features"][1::-1]
    with pytest.raises(learned.ValueFileError):
        learned.validate(swapped)


def _animal(size: int, with_size) -> str:
    """An animal card without requirements (icons, water, rock, ...) of ``size`` spaces."""
    from engine.arknova import deck

    for c in deck.all_cards().values():
        if (c["type"] == "animal" and not c.get("special") and with_size(c["size"], size)
                and not any((c.get("requires") or {}).values())):
            return c["id"]
    raise AssertionError("no such animal")


def test_hand_potential_counts_animals_playable_now_or_after_one_build():
    """``ready``: animals in hand with a free home and the money for them; ``build``: those
    that need an enclosure first, with the money for both (2 per space)."""
    from engine.arknova import deck
    from engine.arknova.bot.evaluate import zoo_parts

    state, seat = next((s, k) for s in positions(ARK, 2, 40, every=5, limit=1500)
                       for k, p in enumerate(s["players"])
                       if any(b["kind"] == "enclosure" and not b["animals"]
                              for b in p["buildings"]))
    p = state["players"][seat]
    free = max(len(b["cells"]) for b in p["buildings"]
               if b["kind"] == "enclosure" and not b["animals"])
    small, big = _animal(free, int.__le__), _animal(free, int.__gt__)
    cs, cb = deck.card(small), deck.card(big)
    build_price = cb["cost"] + 2 * cb["size"]
    ready_i, build_i = learned.ZOO.index("ready"), learned.ZOO.index("build")

    def potential(money: int) -> tuple[float, float, float]:
        s = clone(state)
        s["players"][seat]["hand"] = [small, big]
        s["players"][seat]["money"] = money
        z = learned.zoo_features(s, seat)
        return z[ready_i], z[build_i], zoo_parts(s, seat)[8]  # points per conservation

    ready, build, cp_w = potential(max(cs["cost"], build_price))
    assert ready == cs["appeal"] + cp_w * cs["conservation"]
    assert build == cb["appeal"] + cp_w * cb["conservation"]
    ready, build, _ = potential(build_price - 1)
    assert build == 0.0 and ready == (cs["appeal"] + cp_w * cs["conservation"]
                                      if cs["cost"] <= build_price - 1 else 0.0)
    assert potential(cs["cost"] - 1)[0] == 0.0


def test_money_beyond_the_cap_counts_for_nothing(monkeypatch):
    """``money_cap`` (value.json, optional): money past it adds nothing to the features (a zoo
    with hundreds of unspendable money valued it and stalled the game to keep it)."""
    state = clone(next(iter(positions(ARK, 2, 13, every=1))))
    state["players"][0]["money"], state["players"][1]["money"] = 500, 20
    i, j = learned.DUEL.index("money"), learned.DUEL.index("money*phase")
    assert learned.features(state, 0)[i] == 480.0
    shipped = learned.load()
    capped = {**shipped, "money_cap": 50}
    monkeypatch.setattr(learned, "load", lambda: capped)
    x = learned.features(state, 0)
    assert x[i] == 30.0
    richer = clone(state)
    richer["players"][0]["money"] = 900
    assert learned.features(richer, 0)[i] == 30.0
    assert learned.features(richer, 0)[j] == x[j]
    for bad in (0, -5, float("inf"), "many"):
        with pytest.raises(learned.ValueFileError):
            learned.validate({**copy.deepcopy(capped), "money_cap": bad})
        with pytest.raises(learned.ValueFileError):
            learned.validate({**copy.deepcopy(capped),
                              "solo": {**capped["solo"], "money_cap": bad}})
    # a part's own cap: here only solo games are capped, duels count all the money
    solo_only = {**shipped, "solo": {**shipped["solo"], "money_cap": 50}}
    monkeypatch.setattr(learned, "load", lambda: solo_only)
    assert learned.features(state, 0)[i] == 480.0
    alone = clone(next(iter(positions(ARK, 1, 13, every=1))))
    alone["players"][0]["money"] = 500
    assert learned.features(alone, 0)[learned.SOLO.index("money")] == 50.0


def test_progress_on_the_markers_pays_the_points_that_end_the_game(monkeypatch):
    """``progress_on: markers`` (value.json): the tempo term counts the points on the tracks
    (appeal plus the conservation's worth, 0 ends the game), not the projected points, which
    also count the final-scoring cards' conservation (paid only at the end). Counted on the
    projected points, a zoo whose final cards put it past 0 got nothing for the last points
    its markers needed, and a fast bot sat 10 points short for 8 breaks (docs/bots.md)."""
    state = clone(next(iter(positions(ARK, 2, 14, every=1))))
    me, rival = state["players"]
    me["appeal"], me["conservation"] = 84, 10  # markers: 84 + (2 * 10 - 14) - 100 = -10
    me["final"], me["partners"] = ["F08"], ["africa", "americas", "asia", "europe"]
    rival["appeal"], rival["conservation"] = 10, 0
    assert learned.markers(state, 0) == -10
    assert learned.zoo_features(state, 0)[0] == 2.0  # conservation 10 + 4 (F08): 84 + 18 - 100
    nearer = clone(state)
    nearer["players"][0]["appeal"] += 5  # markers -5, projected 7
    shipped = learned.load()
    assert shipped.get("progress_on", "projected") in learned.PROGRESS_ON
    data = {"projected": {**shipped, "progress_on": "projected"},
            "markers": {**shipped, "progress_on": "markers"}}
    u = {}
    for on, d in data.items():
        monkeypatch.setattr(learned, "load", lambda d=d: d)
        u[on] = (learned.utility(state, 0), learned.utility(nearer, 0))
    lean = [2.0 * learned.win_chance(s, 0) - 1.0 for s in (state, nearer)]
    assert min(lean) > 0.99  # far ahead
    tempo, window = shipped["tempo"], shipped.get("progress", learned.PROGRESS)
    # projected: both past 0, the whole window either way; markers: 10 and 5 points short
    assert u["markers"][0] - u["projected"][0] == pytest.approx(tempo * lean[0] * -10.0)
    assert u["markers"][1] - u["projected"][1] == pytest.approx(tempo * lean[1] * -5.0)
    assert window > 10.0
    gain = {on: b - a for on, (a, b) in u.items()}
    assert gain["markers"] - gain["projected"] == pytest.approx(
        tempo * (lean[1] * -5.0 - lean[0] * -10.0))
    assert gain["markers"] > gain["projected"] + 4.0 * tempo
    with pytest.raises(learned.ValueFileError):
        learned.validate({**copy.deepcopy(shipped), "progress_on": "points"})


def test_project_soon_is_the_best_project_by_how_soon_association_can_support_it():
    """``project_soon`` (solo): the best project level the zoo meets, in points, halved for
    each step the association card's slot plus the X tokens fall short of strength 5; 0 when
    those steps and the support's turn do not fit in the turns left, or no worker can go."""
    from engine.arknova.bot.evaluate import zoo_parts
    from engine.arknova.bot.zooparts import icons_of, project_levels_memo

    def levels(s):
        p = s["players"][0]
        key, zoo_icons = icons_of(p)
        return project_levels_memo(s, p, zoo_icons, key)

    state = next(s for seed in range(40, 60) for s in positions(ARK, 1, seed, every=1, limit=300)
                 if levels(s) and s["stack"][-1]["kind"] == "turn")
    best = max(levels(state))
    cp_w = zoo_parts(state, 0)[8]

    def soon(slot: int, x: int, turns_left: float = 20.0, uses: int = 0) -> float:
        s = clone(state)
        p = s["players"][0]
        others = [c for c in p["cards"] if c != "association"]
        p["cards"] = others[:slot - 1] + ["association"] + others[slot - 1:]
        p["x"], p["task_uses"] = x, {**p["task_uses"], "project": uses}
        return learned.project_soon(s, 0, turns_left)

    assert soon(5, 0) == cp_w * best
    assert soon(2, 1) == cp_w * best / 4           # 2 steps short
    assert soon(1, 4) == soon(1, 5) == cp_w * best  # X tokens make up the slots
    assert soon(1, 0) == cp_w * best / 16
    assert soon(3, 0, turns_left=3) == cp_w * best / 4 and soon(3, 0, turns_left=2) == 0.0
    assert soon(5, 0, uses=2) == 0.0               # a third support before the break: no
    feats = learned.features(state, 0)
    assert len(feats) == len(learned.SOLO)
    assert feats[learned.SOLO.index("project_soon")] == learned.project_soon(
        state, 0, learned.clock(state)[1])


def test_the_answer_term_counts_the_strength_an_action_card_is_used_at(monkeypatch):
    """``strength_used`` (value.json, per part): at a turn's start a card used at strength ``s``
    (slot plus the X tokens spent) adds ``w * (s - 3)`` to the answer's value when the one-ply
    look ranks it; an X-token move, a decision inside a turn and a part without it add 0."""
    from engine.bots.evaluation import searching
    from engine.bots.greedy import score_answers

    state = next(s for s in positions(ARK, 1, 31, every=1, limit=80)
                 if s["stack"][-1]["kind"] == "turn" and s["players"][0]["x"] >= 1)
    p = state["players"][0]
    legal = ARK.legal_actions(state, 0)
    data = copy.deepcopy(learned.load())
    data["solo"]["strength_used"] = 0.7
    data["solo"].pop("idle_strength", None)  # an idle answer's share: test_learned_idle.py
    monkeypatch.setattr(learned, "load", lambda: data)

    def used_at(a) -> int:  # Animals and Cards work above 5 as at 5: no term for more
        s = p["cards"].index(a["card"]) + 1 + a["x"]
        return min(s, 5) if a["card"] in ("animals", "cards") else s

    for a in legal:
        if a["type"] == "action":
            assert learned.answer_term(state, 0, a) == pytest.approx(0.7 * (used_at(a) - 3))
        else:
            assert learned.answer_term(state, 0, a) == 0.0
    used = next(a for a in legal if a["type"] == "action" and a["x"] == 1)
    assert learned.answer_term(state, 0, used) == pytest.approx(
        0.7 * (p["cards"].index(used["card"]) + 2 - 3))
    # above 5 the Animals and Cards cards do no more (their tables end there): nor does the term
    top = copy.deepcopy(state)
    for card in ("animals", "cards", "build"):
        q = top["players"][0]
        q["cards"] = [c for c in q["cards"] if c != card] + [card]  # slot 5
        q["x"] = 2
        want = 5 if card != "build" else 7  # Build uses the full number
        assert learned.answer_term(top, 0, {"type": "action", "card": card, "x": 2}) == \
            pytest.approx(0.7 * (want - 3))
    # the look adds it to the value of where the answer leads
    ev = evaluator_for(ARK, "learned")
    with searching(ev):
        with_term = score_answers(ARK, ev, state, 0, legal, depth=4, width=3)
        data["solo"]["strength_used"] = 0.0
        without = score_answers(ARK, ev, state, 0, legal, depth=4, width=3)
    for a, v, v0 in zip(legal, with_term, without):
        want = 0.7 * (used_at(a) - 3) if a["type"] == "action" else 0
        assert v == pytest.approx(v0 + want)
    # inside a turn and in a part without the weight: nothing
    inside = next(s for s in positions(ARK, 1, 31, every=1, limit=200)
                  if s["stack"][-1]["kind"] != "turn" and ARK.waiting_for(s))
    assert learned.answer_term(inside, 0, {"type": "action", "card": "build", "x": 0}) == 0.0
    duel = next(s for s in positions(ARK, 2, 31, every=1, limit=80)
                if s["stack"][-1]["kind"] == "turn")
    seat = duel["active"]
    build = {"type": "action", "card": "build", "x": 0}
    data["duel"].pop("strength_used", None)
    assert learned.answer_term(duel, seat, build) == 0.0
    data["duel"]["strength_used"] = 0.5  # each part reads its own weight
    slot = duel["players"][seat]["cards"].index("build") + 1
    assert learned.answer_term(duel, seat, build) == pytest.approx(0.5 * (slot - 3))
    bad = copy.deepcopy(data)
    bad["solo"]["strength_used"] = float("nan")
    with pytest.raises(learned.ValueFileError):
        learned.validate(bad)


def test_an_action_card_may_have_a_strength_weight_of_its_own(monkeypatch):
    """``strength_by_card`` (value.json, per part) overrides ``strength_used`` for the cards it
    names; the others keep the part's weight; a card that is not an action card, or a weight
    that is not a number, is refused."""
    state = next(s for s in positions(ARK, 1, 31, every=1, limit=80)
                 if s["stack"][-1]["kind"] == "turn")
    p = state["players"][0]
    data = copy.deepcopy(learned.load())
    data["solo"]["strength_used"] = 0.7
    data["solo"]["strength_by_card"] = {"association": 2.0, "sponsors": 0.0}
    monkeypatch.setattr(learned, "load", lambda: data)
    for card in ("animals", "build", "cards", "association", "sponsors"):
        a = {"type": "action", "card": card, "x": 0}
        s = p["cards"].index(card) + 1
        w = {"association": 2.0, "sponsors": 0.0}.get(card, 0.7)
        assert learned.answer_term(state, 0, a) == pytest.approx(w * (s - 3))
    assert learned.validate(copy.deepcopy(data))["solo"]["strength_by_card"]["association"] == 2.0
    for bad_map in ({"kiosk": 1.0}, {"build": "1"}, {"build": float("inf")}, [1.0]):
        bad = copy.deepcopy(data)
        bad["solo"]["strength_by_card"] = bad_map
        with pytest.raises(learned.ValueFileError):
            learned.validate(bad)
