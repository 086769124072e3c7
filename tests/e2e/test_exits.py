"""Issue #33 in real Chromium, at 1440x900 and 390x844, in English, Ukrainian and German:
resigning through the confirm (the other player's page ends live, both read who resigned in
their language, in the log too), the creator cancelling an open game, and "My next game" (the
button and Shift+N) going from game to game where it is your move. On the phone these tools wait
behind the header's "⋯" menu (open_tools). Games have fixed seeds."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import PASSWORD, WAIT, sign_in, unique

LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "uk": "uk-UA", "de": "de-DE"}
STATIC = Path(__file__).resolve().parents[2] / "static"

pytestmark = pytest.mark.usefixtures("no_console_errors")


def words(lang: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def fill(template: str, **params) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), template)


def player(server) -> dict:
    name = unique("ex")
    return server.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})


def started_game(server, owner: dict, other: dict, seed: str, time_control=None) -> int:
    body = {"game": "arknova", "seats": 2}
    if time_control:
        body["time_control"] = time_control
    gid = server.api("POST", "/api/games", body, owner["token"])["id"]
    server.set_seed(gid, seed)
    server.api("POST", f"/api/games/{gid}/join", {}, other["token"])
    server.api("POST", f"/api/games/{gid}/start", {}, owner["token"])
    return gid


def open_page(browser, watch, server, reg: dict, lang: str, viewport: dict, path: str, label: str):
    ctx = browser.new_context(viewport=viewport, locale=LOCALES[lang])
    page = watch.watch(ctx.new_page(), label)
    page.set_default_timeout(WAIT)
    page.goto(server.url("/"))
    sign_in(page, server, reg["user"], reg["token"])
    page.goto(server.url(path))
    return ctx, page


@contextlib.contextmanager
def page_at(browser, watch, server, reg: dict | None, lang: str, viewport: dict, path: str,
            label: str) -> Iterator:
    """:func:`open_page` as a block: the page of ``path`` in a context of its own, signed in as
    ``reg`` (``None``: signed out), the context closed when the block ends."""
    ctx = browser.new_context(viewport=viewport, locale=LOCALES[lang])
    try:
        page = watch.watch(ctx.new_page(), label)
        page.set_default_timeout(WAIT)
        if reg is not None:
            page.goto(server.url("/"))
            sign_in(page, server, reg["user"], reg["token"])
        page.goto(server.url(path))
        yield page
    finally:
        ctx.close()


def open_tools(page) -> None:
    """The header's tools (resign, next game, vacation notes, bell) wait behind the "⋯" button
    on a phone: open its menu there (a laptop shows them in the header's line)."""
    page.wait_for_selector("#game-tools:not(.empty)", state="attached")
    toggle = page.locator("#tools-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
        page.wait_for_selector("#tools-menu", state="visible")


@pytest.mark.parametrize("lang,viewport", [(lang, vp) for lang in LOCALES
                                           for vp in (LAPTOP, PHONE)],
                         ids=[f"{lang}-{vp['width']}" for lang in LOCALES for vp in (LAPTOP, PHONE)])
def test_resign_through_the_confirm_ends_the_game_for_both(server, browser, watch, artifacts,
                                                           lang, viewport):
    w = words(lang)
    ada, bob = player(server), player(server)
    gid = started_game(server, ada, bob, f"e2e-resign-{lang}")
    contexts = []
    try:
        ctx, a = open_page(browser, watch, server, ada, lang, viewport, f"/game.html?id={gid}", "ada")
        contexts.append(ctx)
        ctx, b = open_page(browser, watch, server, bob, lang, viewport, f"/game.html?id={gid}", "bob")
        contexts.append(ctx)
        b.wait_for_function("() => window.menagerie && window.menagerie.state.status === 'running'")
        a.wait_for_selector("#resign-btn", state="attached")
        open_tools(a)
        button = a.wait_for_selector("#resign-btn")
        assert w["exits.resign"] in button.inner_text()
        # the question names who wins; "keep playing" changes nothing
        button.click()
        dialog = a.wait_for_selector("#resign-dialog[open]")
        bob_name = bob["user"]["username"]
        assert dialog.inner_text().startswith(
            fill(w["exits.resign_confirm_two"], name=bob_name)[:20])
        assert bob_name in a.inner_text("#resign-dialog-text")
        a.screenshot(path=str(artifacts / f"exits-resign-confirm-{lang}-{viewport['width']}.png"))
        a.click("#resign-dialog-no")
        a.wait_for_selector("#resign-dialog", state="detached")
        assert a.evaluate("window.menagerie.state.status") == "running"
        open_tools(a)
        a.click("#resign-btn")
        a.click("#resign-dialog-yes")
        # both pages end: the final card says who resigned
        line = fill(w["exits.resigned_seats"], names=ada["user"]["username"])
        for page in (a, b):
            page.wait_for_selector("#final-screen:not([hidden]) #final-outcome")
            assert page.inner_text("#final-outcome") == line
            assert page.evaluate("window.menagerie.state.status") == "finished"
        assert b.locator("#resign-btn").count() == 0
        b.screenshot(path=str(artifacts / f"exits-resigned-final-{lang}-{viewport['width']}.png"))
        # the log says it (the resigner reads the "you" form)
        assert fill(w["log.resign.you"]) in a.evaluate("document.getElementById('log').innerText")
        assert fill(w["log.resign"], S=ada["user"]["username"]) in b.evaluate(
            "document.getElementById('log').innerText")
        result = server.api("GET", f"/api/games/{gid}")["result"]
        assert result["resigned"] == [0] and result["ranking"] == [1, 0]
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.parametrize("lang,viewport", [("en", LAPTOP), ("uk", PHONE), ("de", PHONE),
                                           ("de", LAPTOP)],
                         ids=["en-1440", "uk-390", "de-390", "de-1440"])
def test_next_game_button_and_shortcut(server, browser, watch, lang, viewport):
    w = words(lang)
    ada, bob = player(server), player(server)
    # both owe their opening keep in each: the hour game runs out first, the untimed one last
    untimed = started_game(server, ada, bob, "e2e-next-1")
    hour = started_game(server, ada, bob, "e2e-next-2", {"mode": "move", "seconds": 3600})
    day = started_game(server, ada, bob, "e2e-next-3", {"mode": "move", "seconds": 86400})
    ctx, page = open_page(browser, watch, server, ada, lang, viewport,
                          f"/game.html?id={untimed}", "ada")
    try:
        page.wait_for_selector("#next-game-btn", state="attached")
        open_tools(page)
        button = page.wait_for_selector("#next-game-btn")
        assert w["next.button"] in button.inner_text()
        assert button.get_attribute("title") == w["next.title"]
        button.click()
        page.wait_for_url(re.compile(rf".*/game\.html\?id={hour}$"))
        page.wait_for_selector("#next-game-btn", state="attached")
        page.wait_for_function("() => window.menagerie && window.menagerie.state.status === 'running'")
        page.keyboard.press("Shift+N")
        page.wait_for_url(re.compile(rf".*/game\.html\?id={day}$"))
        page.wait_for_selector("#next-game-btn", state="attached")
        open_tools(page)
        page.click("#next-game-btn")
        page.wait_for_url(re.compile(rf".*/game\.html\?id={hour}$"))
        # the lobby's list of my games in the same order
        page.goto(server.url("/"))
        page.wait_for_function(
            "ids => ids.every(id => document.querySelector(`#list-turn [data-game='${id}']`))",
            arg=[untimed, hour, day])
        order = page.evaluate(
            "() => [...document.querySelectorAll('#list-turn [data-game]')]"
            ".map(el => Number(el.dataset.game))")
        assert [g for g in order if g in (untimed, hour, day)] == [hour, day, untimed]
    finally:
        ctx.close()


def test_the_creator_cancels_an_open_game(server, browser, watch):
    ada, bob = player(server), player(server)
    gid = server.api("POST", "/api/games", {"game": "arknova", "seats": 2}, ada["token"])["id"]
    server.api("POST", f"/api/games/{gid}/join", {}, bob["token"])
    ctx, b = open_page(browser, watch, server, bob, "de", PHONE, f"/game.html?id={gid}", "bob")
    ctx2, a = open_page(browser, watch, server, ada, "uk", LAPTOP, f"/game.html?id={gid}", "ada")
    try:
        assert b.wait_for_selector("#leave-btn").inner_text() == words("de")["exits.leave"]
        assert b.locator("#cancel-btn").count() == 0
        # (bob's page would read the deleted game: a 404 in its console)
        ctx.close()
        a.wait_for_selector("#cancel-btn").click()
        a.wait_for_selector("#cancel-dialog[open]")
        assert a.inner_text("#cancel-dialog-text") == words("uk")["exits.cancel_confirm"]
        a.click("#cancel-dialog-yes")
        a.wait_for_url(re.compile(r".*/$"))
        with pytest.raises(urllib.error.HTTPError) as gone:
            server.api("GET", f"/api/games/{gid}")
        assert gone.value.code == 404
    finally:
        ctx.close()
        ctx2.close()


@pytest.mark.parametrize("lang,viewport", [("en", LAPTOP), ("uk", PHONE), ("de", LAPTOP)],
                         ids=["en-1440", "uk-390", "de-1440"])
def test_a_vacation_declared_in_the_lobby_shows_at_the_table(server, browser, watch, artifacts,
                                                             lang, viewport):
    w = words(lang)
    ada, bob = player(server), player(server)
    gid = started_game(server, ada, bob, f"e2e-vacation-{lang}", {"mode": "move", "seconds": 86400})
    before = server.api("GET", f"/api/games/{gid}")["clock"]["seats"]["0"]["deadline"]
    ctx, a = open_page(browser, watch, server, ada, lang, viewport, "/", "ada")
    ctx2, b = open_page(browser, watch, server, bob, lang, viewport, f"/game.html?id={gid}", "bob")
    try:
        a.wait_for_selector("#vacation:not([hidden]) #vac-declare")
        assert a.inner_text("#h-vacation") == w["vac.title"]
        assert a.inner_text("#vac-left").startswith(w["vac.left"].split("{")[0])
        a.fill("#vac-days", "2")
        a.click("#vac-declare")
        a.wait_for_selector("#vacation-list li")
        a.screenshot(path=str(artifacts / f"vacation-lobby-{lang}-{viewport['width']}.png"))
        after = server.api("GET", f"/api/games/{gid}")["clock"]["seats"]["0"]
        assert after["deadline"] > before and len(after["off"]) == 1
        # bob's table says ada is on vacation (after a reload of the game)
        b.reload()
        b.wait_for_selector('.badge.vacation[data-vacation-seat="0"]', state="attached")
        assert b.locator("#game-tools.has-note").count() == 1  # the phone's "⋯" wears a dot
        open_tools(b)
        note = b.wait_for_selector('.badge.vacation[data-vacation-seat="0"]')
        start = w["vac.on_vacation"].split("{until}")[0].replace("{name}", ada["user"]["username"])
        assert note.inner_text().strip().startswith(start.strip())
        b.screenshot(path=str(artifacts / f"vacation-table-{lang}-{viewport['width']}.png"))
        # ended from the lobby: the note goes
        a.click("#vacation-list button")
        a.wait_for_selector("#vacation-list", state="detached")
        b.reload()
        b.wait_for_selector("#next-game-btn", state="attached")
        assert b.locator(".badge.vacation").count() == 0
        assert b.locator("#game-tools.has-note").count() == 0
    finally:
        ctx.close()
        ctx2.close()
