"""``apply`` copies only what an action touches (engine/core/cow.py) and still changes nothing
it was given: no state of a game's history changes while later actions are applied, even
though they share their untouched parts; the bots' simulated steps change nothing either."""

from __future__ import annotations

import marshal

import pytest

import engine
from engine.bots import decide, get_bot
from engine.bots.evaluation import step
from engine.core import cow, rng as _rng
from engine.core.state import clone


def _plain(data) -> bool:
    """Only exact dicts, lists and atoms (what marshal and orjson take as JSON)."""
    marshal.dumps(data)  # refuses dict subclasses such as cow.Lazy
    return True


def _history(game, seats, seed, steps=None):
    state = game.setup(seats, {}, seed)
    chooser = {"rng": _rng.seed_to_int(f"cow-{seed}")}
    states = [state]
    while game.waiting_for(state) and (steps is None or len(states) <= steps):
        seat = min(game.waiting_for(state))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[_rng.randbelow(chooser, len(legal))])
        states.append(state)
    return states


@pytest.mark.parametrize("name,seats,seed", [("arknova", 2, 11), ("arknova", 4, 12),
                                             ("zoocracy", 3, 13)])
def test_no_state_of_a_history_changes_later(name, seats, seed):
    game = engine.get_game(name)
    states = _history(game, seats, seed)
    snapshots = [clone(s) for s in states]
    # replay the same game: every earlier state is still exactly what it was when made
    again = _history(game, seats, seed)
    assert len(again) == len(states)
    for s, snap, other in zip(states, snapshots, again):
        assert s == snap == other
        assert game.state_hash(s) == game.state_hash(other)
    assert all(_plain(s) for s in states)
    # and an action applied to an old state changes neither it nor its successors
    mid = len(states) // 2
    seat = min(game.waiting_for(states[mid]))
    for a in game.legal_actions(states[mid], seat):
        game.apply(states[mid], seat, a)
    for s, snap in zip(states, snapshots):
        assert s == snap


def test_untouched_parts_are_shared_not_copied():
    """The point of the change: an action shares what it did not touch with its input."""
    game = engine.get_game("arknova")
    states = _history(game, 2, 5, steps=40)
    shared = 0
    for before, after in zip(states, states[1:]):
        for p, q in zip(before["players"], after["players"]):
            if p["buildings"] is q["buildings"]:
                shared += 1
        assert after is not before
    assert shared > 40  # most actions leave most zoos alone: the same lists, not copies


def test_lazy_view_reads_and_writes_like_a_dict():
    src = {"a": 1, "l": [1, [2]], "d": {"x": [3]}, "players": [{"h": [1]}, {"h": [2]}],
           "gone": 5}
    snap = clone(src)
    view = cow.begin(src, {"players": {}})
    view["l"][1].append(9)
    view["d"]["x"].append(4)
    view["players"][1]["h"].append(7)
    assert view.get("a") == 1 and "gone" in view and view.get("nope", 0) == 0
    del view["gone"]
    assert "gone" not in view and view.pop("a") == 1 and view.setdefault("b", 2) == 2
    assert sorted(view) == ["b", "d", "l", "players"] and len(view) == 4
    out = cow.finish(view)
    assert src == snap  # the input never changed
    assert out == {"l": [1, [2, 9]], "d": {"x": [3, 4]}, "players": [{"h": [1]}, {"h": [2, 7]}],
                   "b": 2}
    assert out["players"][0] is src["players"][0]  # never read: shared
    assert _plain(out)


def test_bot_steps_change_nothing_shared():
    game = engine.get_game("arknova")
    state = _history(game, 2, 21, steps=60)[-1]
    snap = clone(state)
    seat = min(game.waiting_for(state))
    for a in game.legal_actions(state, seat)[:10]:
        nxt = step(game, state, seat, a)
        if game.waiting_for(nxt):
            s2 = min(game.waiting_for(nxt))
            step(game, nxt, s2, game.legal_actions(nxt, s2)[0])
    decide(get_bot("greedy"), game, state, seat, {"rng": 1})
    assert state == snap


def test_a_view_that_only_looked_keeps_the_inputs_identity():
    """A lazy dict that only read atoms and changed none stands for its input itself (another
    zoo's appeal read by the end-of-game check leaves that zoo the same dict); one that changed
    anything is a new dict, and its input is unchanged."""
    src = {"a": 1, "b": "x", "c": [1, 2], "d": None}
    v = cow.begin(src, {})
    assert (v["a"], v["b"], v["d"]) == (1, "x", None)
    assert cow.finish(v) == src and cow.begin(src, {}).plain() is src
    player = {"money": 3, "hand": ["A"]}
    root = {"players": [player], "turn": 1}
    view = cow.begin(root, {"players": {}})
    assert view["players"][0]["money"] == 3   # only looked at
    assert cow.finish(view)["players"][0] is player
    view = cow.begin(root, {"players": {}})
    view["players"][0]["money"] += 1
    assert cow.finish(view)["players"][0] == {"money": 4, "hand": ["A"]} and player["money"] == 3
    view = cow.begin(root, {"players": {}})
    assert view["players"][0]["hand"] == ["A"]  # a container read: copied, so a new dict
    out = cow.finish(view)["players"][0]
    assert out == player and out is not player


def test_a_key_written_into_a_view_is_never_lost():
    """A key the input does not have, written into a view (even with the value None, which
    ``dict.get`` also returns for a missing key), makes the view a new dict; a key deleted
    after it was read is not read back from the input."""
    src = {"a": 1, "b": [1]}
    v = cow.begin(src, {})
    v["new"] = None
    out = cow.finish(v)
    assert out == {"a": 1, "b": [1], "new": None} and "new" not in src
    player = {"a": 1}
    root = {"players": [player]}
    view = cow.begin(root, {"players": {}})
    view["players"][0]["x"] = None
    assert cow.finish(view)["players"][0] == {"a": 1, "x": None}
    v = cow.begin(src, {})
    assert v["a"] == 1
    del v["a"]
    assert "a" not in v and v.get("a") is None and cow.finish(v) == {"b": [1]}
    v = cow.begin(src, {})
    v.pop("b")
    assert "b" not in v and list(v) == ["a"] and cow.finish(v) == {"a": 1}
    assert src == {"a": 1, "b": [1]}
