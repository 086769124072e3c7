"""The game chat in real browsers: two players and a spectator, each in their own context.

A line typed by one player appears live on the other's page, as text (a ``<script>`` in it is
shown literally, never run); a spectator reads the players and writes in the spectators'
channel, which the players' pages never show while the game runs. Also the lobby's
"Notifications" section: add a webhook, see its secret once, remove it. Any browser console
error fails the test.
"""

from __future__ import annotations

from .conftest import DESKTOP, PHONE
from .helpers import WAIT, register, unique, wait_running

EVIL = '<script>window.__pwned = 1</script><b>bold</b> & <img src=x onerror="window.__pwned=2">'


def _token(page) -> str:
    """The page's login (the HttpOnly cookie: the test reads it from the browser context)."""
    return next(c["value"] for c in page.context.cookies() if c["name"] == "menagerie_token")


def _open_chat(page) -> None:
    page.click("#chat-toggle")
    page.wait_for_selector("#chat:not([hidden])")


def _say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function("() => document.querySelector('#chat-input').value === ''")


def _texts(page) -> list[str]:
    return page.eval_on_selector_all("#chat .chat-line .chat-text", "els => els.map(e => e.textContent)")


def _wait_text(page, text: str, timeout: float = WAIT) -> None:
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('#chat .chat-line .chat-text')].some(e => e.textContent === t)",
        arg=text, timeout=timeout)


def test_chat_between_two_players_and_a_spectator(server, browser, console, artifacts):
    contexts = []

    def page(label, viewport):
        ctx = browser.new_context(viewport=viewport)
        contexts.append(ctx)
        p = ctx.new_page()
        p.set_default_timeout(WAIT)
        return console.watch(p, label)

    try:
        ana, ben, cleo = page("ana", DESKTOP), page("ben", PHONE), page("cleo", DESKTOP)
        names = unique("ana"), unique("ben"), unique("cleo")
        for p, name in zip((ana, ben, cleo), names):
            register(p, server, name)

        # the lobby's notifications: add a webhook, the secret shows once, remove it
        ana.wait_for_selector("#notifications:not([hidden]) #notify-url")
        ana.fill("#notify-url", "https://example.invalid/menagerie-hook")
        ana.click("#notify-add")
        secret = ana.wait_for_selector("#notify-secret code").text_content()
        ana.screenshot(path=str(artifacts / "lobby-notifications.png"), full_page=True)
        assert secret.startswith("whsec_")
        assert "example.invalid/menagerie-hook" in ana.inner_text("#notifications .notify-list")
        ana.click("#notifications [data-remove-webhook]")
        ana.wait_for_selector("#notifications .empty-note")
        assert ana.query_selector("#notify-secret") is None

        g = server.api("POST", "/api/games", {"game": "arknova", "seats": 2}, token=_token(ana))
        gid = g["id"]
        server.api("POST", f"/api/games/{gid}/join", {}, token=_token(ben))
        server.set_seed(gid, "e2e-chat-1")
        server.api("POST", f"/api/games/{gid}/start", {}, token=_token(ana))
        for p in (ana, ben, cleo):
            p.goto(server.url(f"/game.html?id={gid}"))
            wait_running(p)
            p.wait_for_function("() => document.querySelector('#conn').dataset.state === 'live'")

        # a player's line, live on the other player's page, shown as text
        _open_chat(ana)
        assert ana.query_selector("#chat .chat-tab") is None  # players: one channel
        _say(ana, EVIL)
        _wait_text(ana, EVIL)
        ben.wait_for_selector("#chat-toggle .chat-unread:not([hidden])")
        _open_chat(ben)
        _wait_text(ben, EVIL)
        for p in (ana, ben):
            assert p.evaluate("window.__pwned") is None
            assert p.query_selector("#chat .chat-lines script, #chat .chat-lines b, #chat .chat-lines img") is None
        _say(ben, "hi ana, good luck")
        _wait_text(ana, "hi ana, good luck")

        # the spectator reads the players, writes among spectators
        _open_chat(cleo)
        _wait_text(cleo, "hi ana, good luck")
        tabs = cleo.eval_on_selector_all("#chat .chat-tab", "els => els.map(e => e.dataset.channel)")
        assert tabs == ["players", "spectators"]
        assert cleo.is_hidden("#chat .chat-form")  # the players' channel is not theirs
        cleo.click('#chat .chat-tab[data-channel="spectators"]')
        _say(cleo, "ana should build first")
        _wait_text(cleo, "ana should build first")
        # ...which the players never get while the game runs
        _say(ben, "your move")
        _wait_text(ana, "your move")
        for p in (ana, ben):
            assert "ana should build first" not in _texts(p)
            assert "ana should build first" not in p.content()
        # the live players' line reached the spectator too (unread on the other tab)
        cleo.click('#chat .chat-tab[data-channel="players"]')
        _wait_text(cleo, "your move")

        cleo.screenshot(path=str(artifacts / "chat-spectator-desktop.png"))
        ben.screenshot(path=str(artifacts / "chat-player-phone.png"))

        # a reload keeps the history
        ben.reload()
        wait_running(ben)
        _open_chat(ben)
        _wait_text(ben, EVIL)
        _wait_text(ben, "your move")  # the whole history, however it arrives
        assert _texts(ben) == [EVIL, "hi ana, good luck", "your move"]
    finally:
        for ctx in contexts:
            ctx.close()
