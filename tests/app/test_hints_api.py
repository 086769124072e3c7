"""GET /legal carries the engine's hints for the caller's seat (and only for it)."""

from __future__ import annotations


async def test_legal_carries_the_seats_hints(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    r = await ada.post("/api/games", json={"game": "arknova", "seats": 2, "bots": [],
                                           "options": {"map": "plains"}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert (await bob.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
    for player in (ada, bob):
        legal = await player.legal(gid)
        r = await player.act(gid, legal["actions"][0], version=legal["version"])
        assert r.status_code == 200, r.text
    legal = await ada.legal(gid)
    hints = legal["hints"]
    view = await ada.game(gid)
    assert set(hints["hand"]) == set(view["view"]["private"]["hand"])
    assert set(hints["actions"]) == {s["card"] for s in view["view"]["public"]["players"][0]["slots"]}
    display = view["view"]["public"]["display"]
    assert {int(f): h["card"] for f, h in hints["display"].items()} == {
        i + 1: c for i, c in enumerate(display) if c}
    # bob (not to move) still gets his own hints, never ada's hand
    bob_hints = (await bob.legal(gid))["hints"]
    assert set(bob_hints["hand"]) == set((await bob.game(gid))["view"]["private"]["hand"])
    assert not set(bob_hints["hand"]) & set(hints["hand"])
    # the toy game has no hints: the field is there and empty
    gid2 = await api.toy_game(ada, others=[bob])
    assert (await ada.legal(gid2))["hints"] == {}
