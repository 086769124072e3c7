"""The invitation notices by mail (issue #33, item 4) on SQLite and PostgreSQL: the invitee gets
``game_invitation`` in their language with a link to the game, the creator
``invitation_declined``; switched off with the "invitation" kind."""

from __future__ import annotations

from .test_notify import FAST, Inbox, body, inbox, settings, settle, with_email  # noqa: F401


async def test_the_invitee_and_then_the_creator_are_mailed(api, inbox):  # noqa: F811
    ada, bob = await api.user("ada"), await api.user("bob")
    await with_email(api, inbox, bob, "bob@example.org", lang="uk")
    await with_email(api, inbox, ada, "ada@example.org", lang="de")
    r = await ada.post("/api/invitations", json={"game": "toy", "seats": 2, "invite": ["bob"]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    await settle(api)
    [mail] = inbox.to("bob@example.org", "game_invitation")
    assert mail["Subject"] == "ada запрошує вас до гри Hidden high card (test game)"
    assert f"https://menagerie.test/game.html?id={gid}" in body(mail)
    assert inbox.to("ada@example.org", "game_invitation") == []
    assert (await bob.post(f"/api/games/{gid}/invitation/decline")).status_code == 200
    await settle(api)
    [mail] = inbox.to("ada@example.org", "invitation_declined")
    assert mail["Subject"] == "bob hat deine Einladung zu Hidden high card (test game) abgelehnt"


async def test_no_invitation_mail_when_the_kind_is_off(api, inbox):  # noqa: F811
    ada, bob = await api.user("ada"), await api.user("bob")
    await with_email(api, inbox, bob, "off@example.org", kinds={"invitation": False})
    r = await ada.post("/api/invitations", json={"game": "toy", "seats": 2, "invite": ["bob"]})
    assert r.status_code == 201
    await settle(api)
    assert inbox.to("off@example.org", "game_invitation") == []


def test_push_messages_of_the_invitation_notices():
    from app.push import PushService

    got = PushService.payload("game_invitation", 7, "Zoo", 0, None, "de", by="ada")
    assert (got["title"], got["body"], got["tag"]) == (
        "Eine Einladung — Menagerie", "ada lädt dich zu Zoo #7 ein.", "menagerie-invite-7")
    got = PushService.payload("invitation_declined", 7, "Zoo", 0, None, "uk", by="bob")
    assert got["body"] == "bob відхиляє ваше запрошення до гри Zoo #7."
