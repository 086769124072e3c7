"""Moves: legal actions, optimistic concurrency, engine refusals, bots, the log."""

from __future__ import annotations

import asyncio

import httpx
from sqlalchemy import select

from app.models import ActionRecord, Game, Snapshot
from tests.toygame import TOY

from .conftest import make_settings, running_app


async def test_legal_and_errors(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    gid = await api.toy_game(ada, others=[bob])
    legal = await ada.legal(gid)
    assert legal["version"] == 0 and legal["seat"] == 0
    hand = (await ada.game(gid))["view"]["private"]["hand"]
    assert legal["actions"] == [{"type": "play", "card": c} for c in hand]

    # a spectator / non-seat can neither ask nor act
    r = await eve.get(f"/api/games/{gid}/legal")
    assert r.status_code == 403 and r.json()["error"]["code"] == "no_seat"
    r = await eve.act(gid, legal["actions"][0], version=0)
    assert r.status_code == 403 and r.json()["error"]["code"] == "no_seat"
    r = await api.client.post(f"/api/games/{gid}/actions", json={"version": 0, "action": {}})
    assert r.status_code == 401

    # illegal: the engine's own code and sentence, with 422
    other = next(c for c in range(1, 21) if c not in hand)
    r = await ada.act(gid, {"type": "play", "card": other}, version=0)
    assert r.status_code == 422
    assert r.json()["error"] == {"code": "not_in_hand", "message": "You do not hold that card."}
    r = await ada.act(gid, {"type": "dance"}, version=0)
    assert r.status_code == 422 and r.json()["error"]["code"] == "wrong_decision"
    r = await ada.act(gid, {"no": "type"}, version=0)
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"

    # accepted
    r = await ada.act(gid, legal["actions"][0], version=0)
    assert r.status_code == 200
    body = r.json()
    assert body["version"] == 1
    assert body["events"] == [{"kind": "chose", "data": {"seat": 0}}]
    assert body["view"]["private"]["chosen"] == hand[0]
    assert body["waiting_for"] == [1]

    # stale version: 409 with the current version
    r = await bob.act(gid, (await bob.legal(gid))["actions"][0], version=0)
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "stale_version" and r.json()["error"]["version"] == 1
    # ada owes nothing now: 403 not_your_turn (the engine's code)
    r = await ada.act(gid, {"type": "play", "card": hand[1]}, version=1)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_turn"
    assert (await ada.legal(gid))["actions"] == []

    # nothing refused was written
    async with api.services.db.read() as s:
        versions = (await s.execute(select(ActionRecord.version)
                                    .where(ActionRecord.game_id == gid))).scalars().all()
    assert versions == [1]


async def test_simultaneous_secret_decision(api):
    """Both seats answer the same decision independently; neither sees the other's card."""
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    a_card = (await ada.legal(gid))["actions"][-1]
    b_card = (await bob.legal(gid))["actions"][0]

    r = await bob.act(gid, b_card, version=0)
    assert r.status_code == 200
    # ada still has her decision; bob's choice is secret from her and from spectators
    g = await ada.game(gid)
    assert g["waiting_for"] == [0]
    assert g["view"]["public"]["answered"] == [False, True]
    assert g["view"]["private"]["chosen"] is None
    spect = (await api.client.get(f"/api/games/{gid}")).json()
    assert spect["view"]["private"] is None
    assert spect["view"]["public"] == g["view"]["public"]
    assert (await bob.game(gid))["view"]["private"]["chosen"] == b_card["card"]
    log = (await ada.get(f"/api/games/{gid}/log")).json()
    assert "action" not in log["entries"][0]  # bob's answer is not shown to ada

    r = await ada.act(gid, a_card, version=1)
    assert r.status_code == 200
    events = r.json()["events"]
    revealed = next(e for e in events if e["kind"] == "revealed")
    assert revealed["data"]["cards"] == [a_card["card"], b_card["card"]]
    winner = revealed["data"]["winner"]
    assert r.json()["waiting_for"] == [winner]


async def _play_round_to_draw(api, ada, bob, gid):
    """Play one round; the winner draws. Returns (winner_player, loser_player, version)."""
    a = (await ada.legal(gid))["actions"][0]
    b = (await bob.legal(gid))["actions"][0]
    assert (await ada.act(gid, a, version=0)).status_code == 200
    r = await bob.act(gid, b, version=1)
    winner = r.json()["waiting_for"][0]
    players = [ada, bob]
    w, loser = players[winner], players[1 - winner]
    r = await w.act(gid, {"type": "draw"}, version=2)
    assert r.status_code == 200
    return w, loser, r.json()


async def test_log_hides_private_events(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    winner, loser, reply = await _play_round_to_draw(api, ada, bob, gid)
    # the drawer sees the card it drew, privately
    drew = [e for e in reply["events"] if e["kind"] == "drew_card"]
    assert len(drew) == 1 and drew[0]["private"] is True
    card = drew[0]["data"]["card"]
    assert card in reply["view"]["private"]["hand"]

    def kinds(log):
        return [e["kind"] for entry in log["entries"] for e in entry["events"]]

    mine = (await winner.get(f"/api/games/{gid}/log?after=0")).json()
    theirs = (await loser.get(f"/api/games/{gid}/log?after=0")).json()
    spect = (await api.client.get(f"/api/games/{gid}/log?after=0")).json()
    assert "drew_card" in kinds(mine)
    assert "drew_card" not in kinds(theirs) and "drew_card" not in kinds(spect)
    assert kinds(theirs) == kinds(spect) == ["chose", "chose", "revealed", "drew"]
    assert [e["version"] for e in spect["entries"]] == [1, 2, 3] and spect["version"] == 3
    # after=N gives only the later versions
    later = (await api.client.get(f"/api/games/{gid}/log?after=2")).json()
    assert [e["version"] for e in later["entries"]] == [3]
    # raw actions are only shown to the seat that played them
    assert all("action" not in e for e in spect["entries"])
    own = [e for e in mine["entries"] if "action" in e]
    winner_seat = (await winner.game(gid))["your_seat"]
    assert own and all(e["seat"] == winner_seat for e in own)
    # nor is the card anywhere in what the loser or a spectator can fetch
    loser_view = (await loser.game(gid))["view"]
    assert loser_view["private"]["hand"] != (await winner.game(gid))["view"]["private"]["hand"]
    assert "drew_card" not in str(theirs) and "drew_card" not in str(spect)


async def test_bot_seats_play_until_a_human_owes(api):
    ada = await api.user("ada")
    gid = await api.toy_game(ada, seats=3, bots=[1, 2])
    await api.idle()
    g = await ada.game(gid)
    # both bots answered the simultaneous decision right after the start
    assert g["waiting_for"] == [0] and g["version"] == 2
    assert g["view"]["public"]["answered"] == [False, True, True]
    # play the whole game: bots answer after every human move
    for _ in range(100):
        g = await ada.game(gid)
        if g["status"] == "finished":
            break
        assert g["waiting_for"] == [0]
        action = (await ada.legal(gid))["actions"][0]
        r = await ada.act(gid, action, version=g["version"])
        assert r.status_code == 200, r.text
        await api.idle()
    assert g["status"] == "finished"
    result = g["result"]
    assert set(result["scores"]) == {"0", "1", "2"} and sorted(result["ranking"]) == [0, 1, 2]
    # bot moves are logged under their seats, one version each, no gap
    async with api.services.db.read() as s:
        rows = (await s.execute(select(ActionRecord.version, ActionRecord.seat)
                                .where(ActionRecord.game_id == gid)
                                .order_by(ActionRecord.version))).all()
        snaps = (await s.execute(select(Snapshot.version).where(Snapshot.game_id == gid))
                 ).scalars().all()
        row = await s.get(Game, gid)
    assert [v for v, _ in rows] == list(range(1, len(rows) + 1)) == list(range(1, g["version"] + 1))
    assert {seat for _, seat in rows} == {0, 1, 2}
    assert row.status == "finished" and g["version"] in snaps and 0 in snaps
    # the stored log replays to the stored state, bit for bit
    replay = await api.services.games.replay(gid)
    assert replay["match"] is True
    assert replay["state_hash"] == TOY.state_hash(row.state)
    r = await ada.act(gid, {"type": "score"}, version=g["version"])
    assert r.status_code == 403 and r.json()["error"]["code"] == "game_over"
    mine = (await ada.get("/api/games?mine=1")).json()
    assert mine[0]["status"] == "finished" and mine[0]["your_turn"] is False


async def test_snapshots_every_n_versions(db_url):
    async with running_app(make_settings(db_url, snapshot_every=2)) as api:
        ada = await api.user("ada")
        gid = await api.toy_game(ada, seats=2, bots=[1])
        for _ in range(4):
            await api.idle()
            g = await ada.game(gid)
            if g["status"] == "finished":
                break
            await ada.act(gid, (await ada.legal(gid))["actions"][0], version=g["version"])
        await api.idle()
        g = await ada.game(gid)
        assert g["version"] >= 5
        async with api.services.db.read() as s:
            snaps = (await s.execute(select(Snapshot.version).where(Snapshot.game_id == gid)
                                     .order_by(Snapshot.version))).scalars().all()
        expected = set(range(0, g["version"] + 1, 2))
        if g["status"] == "finished":
            expected.add(g["version"])  # and always at the end
        assert snaps == sorted(expected)
        # any older version can be rebuilt from the snapshots and the log
        frames = await api.services.games.load_frames(gid, -1, g["version"])
        assert [f.version for f in frames] == list(range(0, g["version"] + 1))
        async with api.services.db.read() as s:
            current = (await s.get(Game, gid)).state
        assert TOY.state_hash(frames[-1].state) == TOY.state_hash(current)


async def test_twenty_concurrent_submissions_one_winner(api):
    """20 submissions for one version at once: exactly 1 accepted, 19 × 409, no gap, no dup."""
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    a = (await ada.legal(gid))["actions"]
    b = (await bob.legal(gid))["actions"]
    # move the game on a little first
    assert (await ada.act(gid, a[0], version=0)).status_code == 200
    assert (await bob.act(gid, b[0], version=1)).status_code == 200
    g = await ada.game(gid)
    version = g["version"]
    winner = [ada, bob][g["waiting_for"][0]]
    choices = [{"type": "draw"}, {"type": "score"}]
    # separate HTTP clients, so separate requests and separate DB sessions all in flight at once
    clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=api.app),
                                 base_url="http://test") for _ in range(20)]
    try:
        replies = await asyncio.gather(*[
            c.post(f"/api/games/{gid}/actions", headers=winner.headers,
                   json={"version": version, "action": choices[i % 2]})
            for i, c in enumerate(clients)])
    finally:
        await asyncio.gather(*[c.aclose() for c in clients])
    statuses = sorted(r.status_code for r in replies)
    assert statuses == [200] + [409] * 19, [r.text for r in replies if r.status_code != 409]
    assert all(r.json()["error"]["code"] == "stale_version" for r in replies
               if r.status_code == 409)
    async with api.services.db.read() as s:
        versions = (await s.execute(select(ActionRecord.version).where(
            ActionRecord.game_id == gid).order_by(ActionRecord.version))).scalars().all()
        row = await s.get(Game, gid)
    assert versions == [1, 2, 3] and row.version == 3


async def test_concurrent_submissions_from_separate_apps(db_url):
    """Two app instances (two engines, two pools) on one database: still one winner."""
    async with running_app(make_settings(db_url)) as one, \
            running_app(make_settings(db_url)) as two:
        ada, bob = await one.user("ada"), await one.user("bob")
        gid = await one.toy_game(ada, others=[bob])
        a_actions = (await ada.legal(gid))["actions"]
        b_actions = (await bob.legal(gid))["actions"]
        requests = []
        for i in range(20):
            api = (one, two)[i % 2]
            player, actions = ((ada, a_actions), (bob, b_actions))[(i // 2) % 2]
            requests.append(api.client.post(
                f"/api/games/{gid}/actions", headers=player.headers,
                json={"version": 0, "action": actions[i % len(actions)]}))
        replies = await asyncio.gather(*requests)
        assert sorted(r.status_code for r in replies) == [200] + [409] * 19
        g = await ada.game(gid)
        assert g["version"] == 1
        log = (await ada.get(f"/api/games/{gid}/log")).json()
        assert [e["version"] for e in log["entries"]] == [1]


async def test_replay_compares_the_log_as_far_as_the_stored_state(api, monkeypatch):
    """A move committed between the replay's two reads (the game row, then the log: a bot's
    move, say) is not held against the stored state: the log is replayed as far as the row."""
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    r = await ada.act(gid, (await ada.legal(gid))["actions"][0], version=0)
    assert r.status_code == 200
    store = api.services.games.ctx.store
    early = await store.game_row(gid, state=True)  # the row before bob's move
    r = await bob.act(gid, (await bob.legal(gid))["actions"][0], version=1)
    assert r.status_code == 200 and early.version == 1

    async def row_read_before_the_move(game_id, *, state):
        return early

    monkeypatch.setattr(store, "game_row", row_read_before_the_move)
    assert len(await store.all_actions(gid)) == 2  # the log already holds bob's move
    assert (await api.services.games.replay(gid))["match"] is True
