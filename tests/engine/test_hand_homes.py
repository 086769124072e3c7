"""One free enclosure houses one hand animal (``engine/arknova/bot/handhomes.py``): the learned
value's hand worth with ``hand_homes: "matched"`` against the per-animal rating."""

from __future__ import annotations

import copy

import pytest

from engine.arknova import deck
from engine.arknova.bot import handhomes, learned
from engine.arknova.bot.evaluate import zoo_parts
from engine.arknova.bot.zooparts import HAND_SHARE, hand_value
from engine.arknova.zoo import placements

from .arknova.positions import building, edited, fresh, plain_animal

HOME, REQ = HAND_SHARE["home"], HAND_SHARE["req"]


def _position(hand: list[str], free: tuple[str, ...] = ("enclosure_5",), money: int = 60) -> dict:
    """Seat 0 with empty enclosures of the given types and ``hand`` in its hand."""
    def edit(d):
        p = d["players"][0]
        p.update(money=money, hand=list(hand))
        for btype in free:
            building(d, 0, btype, placements(p, btype, False)[0])
    return edited(fresh(), edit)


def _three() -> list[str]:
    return [plain_animal(size=n) for n in (2, 3, 4)]


def _value_file(duel_rule: str | None = None) -> dict:
    """The shipped weights with the duel part's ``hand_homes`` set (None: no rule of its own)."""
    data = copy.deepcopy(learned.load())
    data.pop("hand_homes", None)
    data["duel"].pop("hand_homes", None)
    if duel_rule is not None:
        data["duel"]["hand_homes"] = duel_rule
    return learned.validate(data)


def test_a_free_enclosure_is_the_home_of_one_hand_animal_only():
    hand = _three()
    state = _position(hand)
    p = state["players"][0]
    cards = zoo_parts(state, 0)[6][0]
    assert [share for _, _, share in cards] == [HOME, HOME, HOME]  # each rated on its own
    shares = [share for _, _, share in handhomes.matched(p, cards)]
    assert shares.count(HOME) == 1 and shares.count(REQ) == 2
    best = max(range(3), key=lambda i: cards[i][1] - handhomes.MONEY_W * cards[i][0])
    assert shares[best] == HOME  # the best animal (worth net of cost) keeps the home


def test_two_free_enclosures_house_two_and_the_small_one_goes_to_the_small_animal():
    hand = _three()
    state = _position(hand, ("enclosure_5", "enclosure_2"))
    p = state["players"][0]
    cards = zoo_parts(state, 0)[6][0]
    shares = [share for _, _, share in handhomes.matched(p, cards)]
    assert shares.count(HOME) == 2
    # each animal into the smallest building that fits: the size-2 animal never takes the 5
    sizes = [deck.card(c)["size"] for c in hand]
    homed = sorted(s for s, share in zip(sizes, shares) if share == HOME)
    assert homed[-1] > 2


def test_playing_the_homed_animal_costs_the_hand_only_that_animal(monkeypatch):
    """The probe of the module doc: with the per-animal rating, moving one animal into the only
    free enclosure took the home from the others too, and the hand's worth fell by more than
    the played card's own; matched, it falls by exactly that card's worth."""
    hand = _three()
    state = _position(hand)
    p = state["players"][0]
    cards, keep = zoo_parts(state, 0)[6]
    matched = handhomes.matched(p, cards)
    i = next(k for k, (_, _, share) in enumerate(matched) if share == HOME)
    cost, worth, _ = matched[i]
    own = HOME * (worth - handhomes.MONEY_W * cost)
    assert own > 0

    files = {rule: _value_file(rule) for rule in ("matched", "shared")}

    def worth_of(s, rule):
        monkeypatch.setattr(learned, "load", lambda: files[rule])
        return learned.zoo_features(s, 0)[learned.ZOO.index("hand")]

    def move_in(d):  # the animal leaves the hand and fills the free enclosure
        q = d["players"][0]
        q["hand"].remove(hand[i])
        b = next(b for b in q["buildings"] if b["kind"] == "enclosure" and not b["animals"])
        b["animals"].append(hand[i])
        q["animals"].append({"card": hand[i], "building": b["id"]})

    after = edited(state, move_in)
    assert worth_of(state, "matched") - worth_of(after, "matched") == pytest.approx(own)
    assert worth_of(state, "shared") - worth_of(after, "shared") > own + 0.1
    # the per-animal figure is hand_value's own (greedy, the frozen reference, reads it)
    assert worth_of(state, "shared") == pytest.approx(
        hand_value({}, {}, handhomes.MONEY_W, 1.0, None, None, (cards, keep)))


def test_the_shipped_value_houses_one_animal_per_enclosure_in_the_duel_and_solo():
    # the solo part since 2026-12-05, with its hand weights tuned by play on that rating
    # (docs/bots.md, "The solo on matched homes"); the duel since 2026-12-04
    data = learned.load()
    assert data["duel"].get("hand_homes", data.get("hand_homes")) == "matched"
    assert data["solo"].get("hand_homes", data.get("hand_homes")) == "matched"


def test_the_rule_is_the_parts_own_and_a_wrong_word_is_refused(monkeypatch):
    state = _position(_three())
    data = _value_file()  # no rule: the per-animal rating, as before the option
    monkeypatch.setattr(learned, "load", lambda: data)
    shared = learned.zoo_features(state, 0)
    data["duel"]["hand_homes"] = "matched"
    duel = learned.zoo_features(state, 0)  # the memo answers per rule, not per position only
    assert duel[learned.ZOO.index("hand")] < shared[learned.ZOO.index("hand")]
    data["duel"].pop("hand_homes")
    data["solo"]["hand_homes"] = "matched"  # a 2-seat game reads the duel part: as before
    assert learned.zoo_features(state, 0) == shared
    data["hand_homes"] = "matched"  # the file's rule, where the part has none
    assert learned.zoo_features(state, 0) == duel
    for bad in ({"hand_homes": "all"}, {"duel": {**data["duel"], "hand_homes": 1}}):
        broken = {**copy.deepcopy(data), **bad}
        with pytest.raises(learned.ValueFileError):
            learned.validate(broken)
