"""Issue #33 (items 4 and 7) in real Chromium, at 1440x900 and 390x844, in English, Ukrainian
and German: an invitation made in the lobby's new-game form and accepted from the invited
player's lobby (it appears there live; the game starts with a fixed seed), and a player's
profile page (games the viewer may see, results, the rating chart with its axes, follow)."""

from __future__ import annotations

import re
import time
import urllib.error

import pytest

from .helpers import WAIT
from .test_exits import LAPTOP, PHONE, fill, open_page, player, started_game, words

pytestmark = pytest.mark.usefixtures("no_console_errors")

CASES = [("en", LAPTOP), ("uk", PHONE), ("de", LAPTOP)]


@pytest.mark.parametrize("lang,viewport", CASES, ids=[f"{lang}-{vp['width']}" for lang, vp in CASES])
def test_an_invitation_accepted_from_the_lobby(server, browser, watch, artifacts, lang, viewport):
    w = words(lang)
    ada, bob, eve = player(server), player(server), player(server)
    bob_name = bob["user"]["username"]
    ctx, a = open_page(browser, watch, server, ada, lang, viewport, "/", "ada")
    ctx2, b = open_page(browser, watch, server, bob, lang, viewport, "/", "bob")
    try:
        b.wait_for_selector("#friends:not([hidden])")  # bob's lobby is up, the invites box hidden
        assert b.locator("#invites").is_hidden()
        a.click("#new-game-btn")
        a.wait_for_selector("#ng-invite")
        assert a.inner_text("#ng-invites legend") == w["invite.legend"]
        a.fill("#ng-invite", bob_name)
        assert a.is_checked("#ng-unlisted")
        a.click("#create-game")
        # ada's lobby lists her invitation as sent, with a withdraw button
        sent = a.wait_for_selector(f"#list-invites [data-withdraw$=':{bob_name}']")
        assert sent.inner_text() == fill(w["invite.withdraw"], name=bob_name)
        gid = int(sent.get_attribute("data-withdraw").split(":")[0])
        server.set_seed(gid, f"e2e-invite-{lang}")
        # nobody else sees or joins it
        assert gid not in [g["id"] for g in server.api("GET", "/api/games?status=open")]
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.api("POST", f"/api/games/{gid}/join", {}, eve["token"])
        assert refused.value.code == 403
        # bob's lobby shows it at once (the per-user socket), in his language
        item = b.wait_for_selector(f"#list-invites [data-game='{gid}']")
        assert fill(w["invite.from"], name=ada["user"]["username"]) in item.inner_text()
        toast = b.wait_for_selector(".toast")
        title = w.get("game.arknova.title") or "Ark Nova"
        assert toast.inner_text() == fill(w["invite.toast"], name=ada["user"]["username"], title=title)
        b.screenshot(path=str(artifacts / f"invite-lobby-{lang}-{viewport['width']}.png"))
        assert b.inner_text(f"[data-accept='{gid}']") == w["lobby.accept"]
        b.click(f"[data-accept='{gid}']")
        # the last seat accepted: the game starts and bob is at the table
        b.wait_for_url(re.compile(rf".*/game\.html\?id={gid}$"))
        b.wait_for_function("() => window.menagerie && window.menagerie.state.status === 'running'",
                            timeout=WAIT)
        g = server.api("GET", f"/api/games/{gid}", None, bob["token"])
        assert g["status"] == "running" and g["your_seat"] == 1 and g["unlisted"] is True
        assert [s["invited"] for s in g["seats"]] == [False, False]
        # ada's lobby: the invitation is gone, the game is among hers
        a.wait_for_selector(f"#list-invites [data-game='{gid}']", state="detached")
        a.wait_for_selector(f"#list-turn [data-game='{gid}'], #list-mine [data-game='{gid}']")
    finally:
        ctx.close()
        ctx2.close()


PROFILE_CASES = [("en", PHONE), ("uk", LAPTOP), ("de", PHONE)]


@pytest.mark.parametrize("lang,viewport", PROFILE_CASES,
                         ids=[f"{lang}-{vp['width']}" for lang, vp in PROFILE_CASES])
def test_the_profile_page(server, browser, watch, artifacts, lang, viewport):
    w = words(lang)
    ada, bob, eve = player(server), player(server), player(server)
    name = ada["user"]["username"]
    # two rated games ada lost and won by resignation, one running, one unlisted invitation
    for i, resigner in enumerate((ada, bob)):
        gid = started_game(server, ada, bob, f"e2e-profile-{lang}-{i}")
        server.api("POST", f"/api/games/{gid}/resign", {}, resigner["token"])
    running = started_game(server, ada, bob, f"e2e-profile-{lang}-run")
    hidden = server.api("POST", "/api/invitations", {"game": "arknova", "seats": 2,
                                                     "invite": [bob["user"]["username"]]},
                        ada["token"])["id"]
    for _ in range(100):  # the ratings come from the outbox, a moment after the games end
        ratings = server.api("GET", f"/api/players/{name}")["ratings"]
        if ratings and len(ratings[0]["history"]) == 2:
            break
        time.sleep(0.1)
    ctx, page = open_page(browser, watch, server, eve, lang, viewport,
                          f"/player.html?name={name}", "eve")
    try:
        page.wait_for_selector("#profile-ratings svg.rating-chart")
        assert page.inner_text("#profile-name") == name
        assert page.title() == fill(w["profile.page_title"], name=name)
        # the chart has both axes, with their labels in the page's language and two points
        chart = page.locator("#profile-ratings svg.rating-chart")
        assert chart.locator("line.axis").count() == 2
        labels = chart.locator("text.axis-label").evaluate_all("els => els.map(e => e.textContent)")
        assert labels == [w["profile.axis_games"], w["profile.axis_rating"]]
        assert chart.locator("circle.rating-point").count() == 2
        assert chart.locator("text.y-tick").count() >= 2
        # games: the running one, never the unlisted invitation; two finished with results
        current = page.locator("#profile-current [data-game]")
        assert [int(x) for x in current.evaluate_all("els => els.map(e => e.dataset.game)")] == [running]
        assert page.locator(f"[data-game='{hidden}']").count() == 0
        finished = page.locator("#profile-finished [data-game]")
        assert finished.count() == 2
        texts = finished.all_inner_texts()
        assert fill(w["profile.place_only"], place=1, total=2) in " ".join(texts)
        assert fill(w["profile.place_only"], place=2, total=2) in " ".join(texts)
        assert page.inner_text("#profile-played h2") == w["profile.played"]
        assert page.locator("#profile-played tbody tr").count() == 1
        page.screenshot(path=str(artifacts / f"profile-{lang}-{viewport['width']}.png"), full_page=True)
        # no sideways scrolling on a phone
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        # eve follows ada from the page
        button = page.wait_for_selector("#follow-toggle")
        assert button.inner_text() == w["friends.follow"]
        button.click()
        page.wait_for_function("t => document.getElementById('follow-toggle').innerText === t",
                               arg=w["friends.unfollow"])
        assert [f["user"]["username"] for f in server.api("GET", "/api/me/following", None,
                                                          eve["token"])] == [name]
    finally:
        ctx.close()
