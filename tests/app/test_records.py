"""Game records: export of finished games, import (replayed and validated by the engine), the
``menagerie replay --file`` command, and the replay viewer's history (views per version, hidden
information while the game runs, everything after the end, undo rows, break/round marks)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from sqlalchemy import insert, select, update
from typer.testing import CliRunner

import engine
from app.cli import cli
from app.models import ActionRecord, Game, Snapshot
from app.records import FORMAT, effective_actions
from engine.bots import get_bot

from .conftest import play_to_end


def bot_record(name: str = "zoocracy", seats: int = 2, seed: str = "record-seed") -> dict:
    """A finished game played in-process by random bots, as a record."""
    game = engine.get_game(name)
    state = game.setup(seats, {}, seed)
    bot = get_bot("random")
    actions = []
    while game.result(state) is None:
        seat = sorted(game.waiting_for(state))[0]
        action = bot.choose(game, game.view(state, seat), game.legal_actions(state, seat),
                            {"rng": len(actions) + 7})
        state, _ = game.apply(state, seat, action)
        actions.append([seat, action])
    return {"format": FORMAT, "game": name, "options": {},
            "seats": [{"seat": 0, "user": "somebody"}] + [{"seat": s, "bot": "random"}
                                                          for s in range(1, seats)],
            "actions": actions, "result": json.loads(json.dumps(game.result(state))),
            "seed": seed, "hash": game.state_hash(state)}


# --------------------------------------------------------------------------- the log

def test_effective_actions_honour_undo():
    R = lambda v, seat, action, kind="move": SimpleNamespace(version=v, seat=seat,  # noqa
                                                             action=action, kind=kind)
    rows = [R(1, 0, {"a": 1}), R(2, 1, {"a": 2}), R(3, 1, {"a": 3}),
            R(4, 1, {"undo": 2}, "undo"), R(5, 1, {"a": 5}, "auto"), R(6, 0, {"a": 6}),
            R(7, 0, {"undo": 0}, "undo"), R(8, 0, {"a": 8})]
    assert effective_actions(rows[:3]) == [(0, {"a": 1}), (1, {"a": 2}), (1, {"a": 3})]
    assert effective_actions(rows[:6]) == [(0, {"a": 1}), (1, {"a": 2}), (1, {"a": 5}),
                                           (0, {"a": 6})]
    assert effective_actions(rows) == [(0, {"a": 8})]


# --------------------------------------------------------------------------- export

async def test_export_only_once_the_game_is_over(api):
    a, b = await api.user("exp_a"), await api.user("exp_b")
    gid = await api.toy_game(a, others=[b], options={"rounds": 2})
    r = await b.get(f"/api/games/{gid}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    g = await play_to_end(api, gid, [a, b])
    rec = (await api.client.get(f"/api/games/{gid}/record")).json()
    assert rec["format"] == FORMAT and rec["game"] == "toy" and rec["options"] == {"rounds": 2}
    assert rec["seats"] == [{"seat": 0, "user": "exp_a"}, {"seat": 1, "user": "exp_b"}]
    assert len(rec["actions"]) == g["version"] and rec["seed"]
    assert rec["result"]["ranking"] == g["result"]["ranking"]
    final = engine.replay("toy", 2, rec["options"], rec["seed"],
                          [tuple(x) for x in rec["actions"]])
    async with api.services.db.read() as s:
        stored = (await s.get(Game, gid)).state
    toy = engine.get_game("toy")
    assert toy.state_hash(final) == toy.state_hash(toy.load(stored))
    assert (await api.client.get("/api/games/999999/record")).status_code == 404


async def test_undo_rows_in_history_and_record(api):
    """An undo row (state of version V again, a snapshot at the undo's version) is skipped by
    the record's effective actions and shown by the history as the restored state."""
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b], options={"rounds": 2})
    hand = (await b.game(gid))["view"]["private"]["hand"]
    assert (await b.act(gid, {"type": "play", "card": hand[0]}, version=0)).status_code == 200
    # what the lead's undo does: version 2 = the state of version 0 again
    async with api.services.db.write() as s:
        snap0 = await s.scalar(select(Snapshot.state).where(Snapshot.game_id == gid,
                                                            Snapshot.version == 0))
        await s.execute(insert(ActionRecord).values(game_id=gid, version=2, seat=1,
                                                    action={"undo": 0}, events=[], kind="undo"))
        await s.execute(insert(Snapshot).values(game_id=gid, version=2, state=snap0))
        await s.execute(update(Game).where(Game.id == gid)
                        .values(version=2, state=snap0, waiting_for=[0, 1]))
        await s.commit()
    api.services.games.cache.drop(gid)
    r = await b.act(gid, {"type": "play", "card": hand[1]}, version=2)
    assert r.status_code == 200, r.text
    answered = []
    for v in range(4):
        h = (await a.get(f"/api/games/{gid}/history?version={v}")).json()
        answered.append(h["view"]["public"]["answered"])
    assert answered == [[False, False], [False, True], [False, False], [False, True]]
    g = await play_to_end(api, gid, [a, b])
    rec = (await a.get(f"/api/games/{gid}/record")).json()
    assert len(rec["actions"]) == g["version"] - 2
    assert rec["actions"][0] == [1, {"type": "play", "card": hand[1]}]
    toy = engine.get_game("toy")
    final = engine.replay("toy", 2, rec["options"], rec["seed"], rec["actions"])
    async with api.services.db.read() as s:
        stored = (await s.get(Game, gid)).state
    assert toy.state_hash(final) == toy.state_hash(toy.load(stored))
    # and an import of that record rebuilds the same game
    r = await a.post("/api/games/import", json=rec)
    assert r.status_code == 201, r.text


# --------------------------------------------------------------------------- import

async def test_import_a_record(api):
    a, b, c = await api.user("imp_a"), await api.user("imp_b"), await api.user("imp_c")
    gid = await api.toy_game(a, others=[b], options={"rounds": 3})
    g = await play_to_end(api, gid, [a, b], pick=1)
    rec = (await a.get(f"/api/games/{gid}/record")).json()
    r = await c.post("/api/games/import", json=rec)
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != gid and new["status"] == "finished" and new["game"] == "toy"
    assert new["version"] == g["version"] and new["your_seat"] is None
    assert new["result"]["ranking"] == g["result"]["ranking"]
    assert new["result"]["imported"]["by"] == "imp_c"
    assert all(x["user"] is None for x in new["seats"])
    async with api.services.db.read() as s:
        row = await s.get(Game, new["id"])
        assert row.source == "import" and row.rated is False
        snaps = (await s.execute(select(Snapshot.version).where(
            Snapshot.game_id == new["id"]))).scalars().all()
        assert 0 in snaps and new["version"] in snaps
    # browsable like any game, and its own record is the same game again
    for v in range(new["version"] + 1):
        h = await c.get(f"/api/games/{new['id']}/history?version={v}")
        assert h.status_code == 200
    mine = (await api.client.get(f"/api/games/{gid}/history?version=3")).json()
    theirs = (await api.client.get(f"/api/games/{new['id']}/history?version=3")).json()
    assert mine["view"] == theirs["view"] and mine["privates"] == theirs["privates"]
    again = (await c.get(f"/api/games/{new['id']}/record")).json()
    assert again["actions"] == rec["actions"] and again["seed"] == rec["seed"]
    assert again["source"] == "import"


async def test_import_refusals(api):
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b], options={"rounds": 2})
    await play_to_end(api, gid, [a, b])
    rec = (await a.get(f"/api/games/{gid}/record")).json()

    async def refused(record, status=422):
        r = await a.post("/api/games/import", json=record)
        assert r.status_code == status, r.text
        return r.json()["error"]

    assert (await api.client.post("/api/games/import", json=rec)).status_code == 401
    assert (await refused({**rec, "format": "pgn"}))["code"] == "bad_record"
    assert (await refused({**rec, "game": "chess"}))["code"] == "unknown_game"
    assert (await refused({k: v for k, v in rec.items() if k != "seed"}))["code"] == "bad_record"
    assert (await refused({**rec, "seats": [{"seat": 1}, {"seat": 0}]}))["code"] == "bad_record"
    assert (await refused({**rec, "options": {"rounds": 7}}))["code"] == "bad_options"
    # an action that is not legal: the engine's code and the action's index
    bad = json.loads(json.dumps(rec))
    first = next(i for i, (seat, act) in enumerate(bad["actions"]) if act["type"] == "play")
    bad["actions"][first][1]["card"] = 99
    err = await refused(bad)
    assert err["code"] == "not_in_hand" and err["index"] == first
    bad = json.loads(json.dumps(rec))
    bad["actions"][0][0] = 5
    assert (await refused(bad))["code"] == "bad_record"
    # a game that is not over, a game that goes on after the end
    assert (await refused({**rec, "actions": rec["actions"][:-1]}))["code"] == "not_finished"
    assert (await refused({**rec, "actions": rec["actions"] + [rec["actions"][-1]]})
            )["code"] == "game_over"
    # a result that the actions do not give
    wrong = {**rec, "result": {**rec["result"], "ranking": rec["result"]["ranking"][::-1]}}
    assert (await refused(wrong))["code"] == "result_mismatch"
    assert (await refused([1, 2, 3]))["code"] in ("invalid_request", "bad_record")
    # the error sentence follows Accept-Language (the code does not)
    r = await a.post("/api/games/import", json={**rec, "format": "x"},
                     headers={"Accept-Language": "de"})
    assert r.json()["error"]["code"] == "bad_record"
    assert r.json()["error"]["message"] != "Unknown record format; expected " \
                                           "'menagerie-record/1'."


async def test_import_a_zoocracy_game_and_jump_to_rounds(api):
    rec = bot_record()
    expected = rec.pop("hash")
    a = await api.user()
    r = await a.post("/api/games/import", json=rec)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    h = (await a.get(f"/api/games/{gid}/history?version=0")).json()
    marks = h["marks"]
    assert marks and all(m["kind"] == "round" for m in marks)
    assert [m["number"] for m in marks] == sorted(m["number"] for m in marks)
    at = (await a.get(f"/api/games/{gid}/history?version={marks[-1]['version']}")).json()
    assert any(e["kind"] == "round" for e in at["events"])
    assert at["view"]["public"]["round"] == marks[-1]["number"]
    out = (await a.get(f"/api/games/{gid}/history")).json()
    assert out["version"] == out["last"] == len(rec["actions"]) and out["result"]
    zoo = engine.get_game("zoocracy")
    async with api.services.db.read() as s:
        assert zoo.state_hash(zoo.load((await s.get(Game, gid)).state)) == expected


# --------------------------------------------------------------------------- history

async def test_history_hides_secrets_while_running(api):
    a, b, spect = await api.user(), await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b], options={"rounds": 2})
    r = await spect.get(f"/api/games/{gid}/history?version=0")
    assert r.status_code == 200
    h0 = r.json()
    assert h0["version"] == 0 and h0["last"] == 0 and h0["events"] == [] and h0["seat"] is None
    hand_a = (await a.game(gid))["view"]["private"]["hand"]
    hand_b = (await b.game(gid))["view"]["private"]["hand"]
    await a.act(gid, {"type": "play", "card": hand_a[0]}, version=0)
    await b.act(gid, {"type": "play", "card": hand_b[0]}, version=1)
    g = await a.game(gid)
    winner = g["view"]["public"]["winner"]
    w = a if winner == 0 else b
    legal = await w.legal(gid)
    draw = next(x for x in legal["actions"] if x["type"] == "draw")
    assert (await w.act(gid, draw, version=legal["version"])).status_code == 200
    for who in (a, b, spect, None):
        r = await (who.get(f"/api/games/{gid}/history?version=3") if who else
                   api.client.get(f"/api/games/{gid}/history?version=3"))
        body = r.json()
        assert body["view"]["private"] is None and "privates" not in body
        assert "action" not in body and body["seat"] == winner and body["kind"] == "move"
        assert [e["kind"] for e in body["events"]] == ["drew"]  # not the card drawn
        text = json.dumps(body["view"])
        assert "hand\"" not in text
    v1 = (await spect.get(f"/api/games/{gid}/history?version=1")).json()
    assert v1["view"]["public"]["answered"] == [True, False]
    assert (await spect.get(f"/api/games/{gid}/history?version=4")).json()["error"]["code"] \
        == "bad_version"
    # after the end: everything
    await play_to_end(api, gid, [a, b])
    body = (await spect.get(f"/api/games/{gid}/history?version=3")).json()
    assert sorted(body["privates"]) == ["0", "1"] and body["action"] == draw
    assert any(e["kind"] == "drew_card" for e in body["events"])
    last = (await spect.get(f"/api/games/{gid}/history")).json()
    assert last["status"] == "finished" and last["result"]["ranking"]
    # an open game has no history; an unknown game is not found
    r = await a.post("/api/games", json={"game": "toy", "seats": 2})
    assert (await a.get(f"/api/games/{r.json()['id']}/history")).status_code == 409
    assert (await a.get("/api/games/987654/history")).status_code == 404
    assert (await a.get(f"/api/games/{gid}/history?version=-1")).status_code == 422


# --------------------------------------------------------------------------- the command line

def test_replay_a_record_file(tmp_path):
    rec = bot_record(seed="cli-seed")
    expected = rec.pop("hash")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    result = CliRunner().invoke(cli, ["replay", "--file", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"state hash: {expected}"
    assert json.loads(lines[1].removeprefix("result: "))["ranking"] == rec["result"]["ranking"]
    rec["actions"] = rec["actions"][:10]
    path.write_text(json.dumps(rec))
    result = CliRunner().invoke(cli, ["replay", "--file", str(path)])
    assert result.exit_code == 1 and "not_finished" in result.output
    path.write_text("{not json")
    assert CliRunner().invoke(cli, ["replay", "--file", str(path)]).exit_code == 2
    assert CliRunner().invoke(cli, ["replay"]).exit_code == 2


@pytest.mark.parametrize("name", ["zoocracy"])
def test_bot_records_replay_bit_for_bit(name):
    rec = bot_record(name, seats=3, seed="three")
    game = engine.get_game(name)
    final = engine.replay(name, 3, {}, rec["seed"], rec["actions"])
    assert game.state_hash(final) == rec["hash"]


async def test_a_record_may_be_larger_than_a_move_but_not_unbounded(api):
    """Imports have a limit of their own (a long 4-player record is ≈ 50 kB; moves stay at
    the default 64 KiB)."""
    user = await api.user()
    filler = "x" * 100_000
    r = await user.post("/api/games/import", json={"format": "menagerie-record/1",
                                                   "game": "toy", "note": filler})
    assert r.status_code == 422, r.text  # read and refused as a record, not as a size
    huge = "x" * (api.services.settings.max_import_bytes + 10)
    r = await user.post("/api/games/import", json={"note": huge})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    r = await user.post("/api/games", json={"game": "toy", "seats": 2, "options": {},
                                            "note": filler})
    assert r.status_code == 413
