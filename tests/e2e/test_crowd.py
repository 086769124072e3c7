"""A spectator shed by a full server (close code 4503 ``crowded``, issue #37) is told so and
comes back later by itself.

The refusal is played by Playwright's WebSocket routing (the shared test server is not full):
the page's first socket gets exactly what a full server sends (the ``crowded`` error with its
``retry_after``, then close 4503); the next one is passed through to the real server, and the
page must go live on it.
"""

from __future__ import annotations

import re

import pytest

from .helpers import PASSWORD, WAIT, unique, wait_running

pytestmark = pytest.mark.usefixtures("no_console_errors")

WORDS = {"en": "Many people are watching, retrying in",
         "de": "Sehr viele Leute schauen zu, neuer Versuch in",
         "uk": "Гру дивиться дуже багато людей, повторна спроба через"}


def _running_game(server) -> int:
    ana = server.api("POST", "/api/auth/register", {"username": unique("cr"), "password": PASSWORD})
    g = server.api("POST", "/api/games", {"game": "zoocracy", "seats": 2, "bots": [1],
                                          "bot": "random"}, ana["token"])
    server.set_seed(g["id"], "e2e-crowd-1")
    server.api("POST", f"/api/games/{g['id']}/start", {}, ana["token"])
    return g["id"]


@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_a_shed_spectator_waits_and_comes_back(server, browser, watch, lang):
    gid = _running_game(server)
    ctx = browser.new_context(locale={"en": "en-US", "de": "de-DE", "uk": "uk-UA"}[lang])
    try:
        page = watch.watch(ctx.new_page(), f"crowd-{lang}")
        page.set_default_timeout(WAIT)
        opened: list[str] = []

        def route(ws):
            opened.append(ws.url)
            if len(opened) == 1:  # the server is full: what app/routes/ws.py sends then
                ws.send('{"type":"error","error":{"code":"crowded","message":"Many people are '
                        'watching; try again in 1 s.","retry_after":1}}')
                ws.close(code=4503, reason="Many people are watching; try again in 1 s.")
            else:
                ws.connect_to_server()

        page.route_web_socket(re.compile(r".*/api/games/\d+/ws.*"), route)
        page.goto(server.url(f"/game.html?id={gid}"))
        # told why, with the wait in seconds, in the page's language
        page.wait_for_function(
            "(w) => (document.querySelector('#conn .conn-text') || {}).textContent?.startsWith(w)",
            arg=WORDS[lang])
        text = page.inner_text("#conn .conn-text")
        seconds = int(re.search(r"(\d+)", text[len(WORDS[lang]):]).group(1))
        assert 3 <= seconds <= 7, text  # at least 5 s (the hint said 1), jittered +-25 %
        assert page.get_attribute("#conn", "data-state") == "down"
        assert len(opened) == 1  # no immediate reconnect
        # later, by itself: a second socket, and the page is live on the real server
        page.wait_for_selector("#conn[data-state='live']", timeout=30_000)
        assert len(opened) == 2
        wait_running(page)
        assert page.evaluate("window.menagerie.state.seat") is None
    finally:
        ctx.close()
