"""The lobby and the card gallery, at desktop and phone sizes."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import PASSWORD, create_game, register, unique


@pytest.fixture(scope="module")
def catalog(server):
    return server.api("GET", "/api/catalog/arknova")


def test_lobby_register_logout_login_and_lists(server, browser, console, artifacts):
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "lobby")
        sockets = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        name = unique("lob")
        register(page, server, name)
        # the login is the HttpOnly cookie: the page's script never holds the token
        assert page.evaluate("Object.keys(localStorage).filter(k => /token/i.test(k))") == []
        login = [c for c in ctx.cookies() if c["name"] == "menagerie_token"]
        assert len(login) == 1 and login[0]["httpOnly"] and "menagerie_token" not in \
            page.evaluate("document.cookie")
        # a game waiting for players, and one against a bot that is running (our turn: keep)
        gid = create_game(page, seats=3, bots=(2,))
        page.goto(server.url("/"))
        bot_gid = create_game(page, seats=2, bots=(1,))
        server.set_seed(bot_gid, "e2e-lobby-1")
        page.click("#start-btn")
        page.wait_for_function("() => window.menagerie.state.version >= 0")
        # the game's socket signed in by the cookie alone: the seat's private view arrives
        page.wait_for_function("() => window.menagerie.state.seat === 0")
        page.goto(server.url("/"))
        page.wait_for_selector(f'#list-turn [data-game="{bot_gid}"]')
        page.wait_for_selector(f'#list-mine [data-game="{gid}"]')
        assert page.inner_text("#turn-count") == "1"
        page.click("#new-game-btn")
        page.wait_for_selector("#ng-seats")
        page.screenshot(path=str(artifacts / "lobby-1920x1080.png"))
        # log out and in again, in place
        page.click("#logout")
        page.wait_for_selector("#auth-form")
        page.fill("#auth-user", name)
        page.fill("#auth-pass", PASSWORD)
        page.click("#login-btn")
        page.wait_for_selector("#logout")
        page.wait_for_selector(f'#list-turn [data-game="{bot_gid}"]')
        assert sockets and not [u for u in sockets if "token" in u]
        # a new password; then log out everywhere, and in again with the new password
        page.click("#change-password")
        page.fill("#password-current", PASSWORD)
        page.fill("#password-new", PASSWORD + "-2")
        page.click("#password-save")
        page.wait_for_selector("#password-form", state="detached")
        page.click("#logout-everywhere")
        page.wait_for_selector("#auth-form")
        page.fill("#auth-user", name)
        page.fill("#auth-pass", PASSWORD + "-2")
        page.click("#login-btn")
        page.wait_for_selector("#logout")
        # a stranger sees the open game to join and the running one to watch
        other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            p2 = console.watch(other.new_page(), "stranger")
            register(p2, server, unique("str"))
            p2.wait_for_selector(f'#list-open [data-game="{gid}"] [data-join]')
            p2.wait_for_selector(f'#list-watch [data-game="{bot_gid}"]')
            p2.screenshot(path=str(artifacts / "lobby-390x844.png"), full_page=True)
        finally:
            other.close()
    finally:
        ctx.close()


def _matching(catalog, continent, klass, needs):
    out = []
    for c in catalog["cards"]["animals"]:
        if c.get("continent") == continent and klass in c.get("classes", []) and (c.get("requires") or {}).get(needs):
            out.append(c["id"])
    return sorted(out)


def test_card_gallery_filters_and_search(server, browser, console, artifacts, catalog):
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "gallery")
        page.goto(server.url("/cards.html?game=arknova"))
        page.wait_for_selector("#cards .card")
        total = sum(len(v) for k, v in catalog["cards"].items() if isinstance(v, list))
        assert page.locator("#cards .card").count() == total
        # icons are drawn from the sprite, not only words
        assert page.locator("#menagerie-sprite symbol#i-asia").count() == 1
        assert page.locator("#cards .card use[href='#i-primate']").count() > 0
        # "all Asian primates that need water": one click per facet
        page.click("#filters [data-group='continent'][data-value='asia']")
        page.click("#filters [data-group='class'][data-value='primate']")
        asian_primates = sorted(c["id"] for c in catalog["cards"]["animals"]
                                if c.get("continent") == "asia" and "primate" in c.get("classes", []))
        shown = sorted(page.eval_on_selector_all("#cards .card", "els => els.map(e => e.dataset.id)"))
        assert set(asian_primates) <= set(shown)
        page.click("#filters [data-group='needs'][data-value='water']")
        shown = sorted(page.eval_on_selector_all("#cards .card", "els => els.map(e => e.dataset.id)"))
        assert shown == _matching(catalog, "asia", "primate", "water")
        # the URL keeps the filters (shareable)
        assert "continent=asia" in page.url and "class=primate" in page.url
        page.click("#clear")
        # text search
        some = catalog["cards"]["animals"][0]
        page.fill("#q", some["name"])
        page.wait_for_function(f"() => document.querySelectorAll('#cards .card').length < {total}")
        ids = page.eval_on_selector_all("#cards .card", "els => els.map(e => e.dataset.id)")
        assert some["id"] in ids
        page.click("#clear")
        page.click("#filters [data-group='type'][data-value='animal']")
        page.click("#filters [data-group='size'][data-value='5']")
        page.screenshot(path=str(artifacts / "cards-1920x1080.png"))
        # the phone: filters fold away, cards in two columns
        page.set_viewport_size(PHONE)
        expanded = page.get_attribute("#filters-toggle", "aria-expanded")
        page.click("#filters-toggle")
        page.wait_for_function("(was) => document.querySelector('#filters-toggle')"
                               ".getAttribute('aria-expanded') !== was", arg=expanded)
        page.screenshot(path=str(artifacts / "cards-390x844.png"))
    finally:
        ctx.close()
