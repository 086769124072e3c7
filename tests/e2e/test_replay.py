"""The replay viewer in the browser: a Zoocracy game against a bot, played to its end through the
API in the setup, is stepped through version by version with the keyboard (every version drawn
by the game table's own renderers), jumped through round by round, scrubbed with the slider and
viewed with a seat's private part; the lobby links it, and the final screen of the game page
offers the replay and a rematch. Any browser console error fails the test.

Screenshots: ``test-artifacts/replay-1920x1080.png``, ``replay-390x844.png``.
"""

from __future__ import annotations

import random
import re
import time
import urllib.error

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import PASSWORD, WAIT, sign_in, unique, wait_until

VERSION = "() => Number(document.body.dataset.version)"


def play_finished_game(server) -> tuple[int, dict, str]:
    """A 2-seat Zoocracy game, seat 1 a random bot, seat 0 answered through the API."""
    name = unique("rp")
    reg = server.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})
    token = reg["token"]
    g = server.api("POST", "/api/games", {"game": "zoocracy", "seats": 2, "bots": [1],
                                          "bot": "random"}, token)
    gid = g["id"]
    server.set_seed(gid, "e2e-replay-1")  # the same game every run
    server.api("POST", f"/api/games/{gid}/start", {}, token)
    rng = random.Random(8)

    def mine_or_over():
        # seat 0 alone: a decision both seats owe is answered after the bot's answer (the bot
        # draws from the seed and the version it answers at: answering first changes its choice)
        g = server.api("GET", f"/api/games/{gid}", None, token)
        return g if g["status"] == "finished" or g["waiting_for"] == [0] else None

    for _ in range(5000):
        g = wait_until("seat 0 alone owes an answer or the game is over", mine_or_over)
        if g["status"] == "finished":
            return gid, reg, token
        legal = server.api("GET", f"/api/games/{gid}/legal", None, token)
        act(server, gid, token, legal["version"], rng.choice(legal["actions"]))
    pytest.fail("the game did not finish in 5000 answers")


def act(server, gid: int, token: str, version: int, action: dict) -> None:
    """Send one answer; the per-player action rate limit (429) makes it wait as told and send
    the same answer again, so the game does not depend on when the limit struck."""
    while True:
        try:
            server.api("POST", f"/api/games/{gid}/actions", {"version": version, "action": action},
                       token)
            return
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                raise
            time.sleep(float(exc.headers.get("Retry-After") or 1))


@pytest.fixture(scope="module")
def finished(server):
    return play_finished_game(server)


def open_replay(page, server, gid: int, at: str = "") -> None:
    page.goto(server.url(f"/replay.html?id={gid}{at}"))
    page.wait_for_function("() => !!(window.menagerie && window.menagerie.replay.current)",
                           timeout=WAIT)


def wait_at(page, v: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.version) === {v}"
                           " && !document.body.dataset.loading", timeout=WAIT)


def test_step_through_a_finished_game(server, browser, console, artifacts, finished):
    gid, _, _ = finished
    history = server.api("GET", f"/api/games/{gid}/history?version=0")
    last, marks = history["last"], history["marks"]
    assert last > 20 and marks, "a Zoocracy game has rounds"
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "replay")
        open_replay(page, server, gid)
        # the newest version first, with the table's final screen
        assert page.evaluate(VERSION) == last
        page.wait_for_selector("#final-screen:not([hidden]) .final-card")
        assert page.input_value("#rp-slider") == str(last)
        page.click("#final-screen .final-head button")  # back to the board
        page.keyboard.press("Home")
        wait_at(page, 0)
        assert page.is_disabled("#rp-prev") and page.is_hidden("#final-screen")
        # every version, one key press at a time, each drawn by the Zoocracy renderers
        rounds_seen = set()
        for v in range(1, last + 1):
            page.keyboard.press("ArrowRight")
            wait_at(page, v)
            state = page.evaluate("() => { const s = window.menagerie.state;"
                                  " return {v: s.version, round: s.view.public.round,"
                                  " seat: s.seat, priv: s.view.private}; }")
            assert state["v"] == v and state["seat"] is None and state["priv"] is None
            rounds_seen.add(state["round"])
            assert page.locator("#zoo-map .zc-enc").count() > 0
            assert page.inner_text("#replay-version").strip()
        assert rounds_seen == set(range(1, max(rounds_seen) + 1))
        assert page.is_disabled("#rp-next")
        page.wait_for_selector("#final-screen:not([hidden]) .final-card")
        page.click("#final-screen .final-head button")
        # back, and round by round from the start
        page.keyboard.press("ArrowLeft")
        wait_at(page, last - 1)
        page.keyboard.press("Home")
        wait_at(page, 0)
        for m in marks:
            page.keyboard.press("PageDown")
            wait_at(page, m["version"])
            assert page.evaluate("() => window.menagerie.state.view.public.round") == m["number"]
            assert page.input_value("#rp-marks") == str(m["version"])
        page.click("#rp-prev-mark")
        wait_at(page, marks[-2]["version"] if len(marks) > 1 else 0)
        # the list of rounds, the slider
        page.select_option("#rp-marks", str(marks[0]["version"]))
        wait_at(page, marks[0]["version"])
        middle = last // 2
        page.eval_on_selector("#rp-slider", "(el, v) => { el.value = String(v);"
                              " el.dispatchEvent(new Event('input', {bubbles: true})); }", middle)
        wait_at(page, middle)
        # after the end everything is public: a seat's own part (hand, treasury)
        assert page.is_visible("#replay-as")
        page.select_option("#replay-as", "0")
        page.wait_for_function("() => !!window.menagerie.state.view.private")
        page.wait_for_selector("#player .zc-me")  # "your party": its treasury and hand
        page.click("#rp-next")
        wait_at(page, middle + 1)
        assert page.evaluate("() => window.menagerie.state.seat") == 0
        page.screenshot(path=str(artifacts / "replay-1920x1080.png"))
    finally:
        ctx.close()


def test_replay_on_a_phone_and_links(server, browser, console, artifacts, finished):
    gid, reg, token = finished
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = console.watch(ctx.new_page(), "phone")
        open_replay(page, server, gid, "&v=5")
        assert page.evaluate(VERSION) == 5
        page.tap("#rp-next")
        wait_at(page, 6)
        page.tap("#rp-prev")
        page.tap("#rp-prev")
        wait_at(page, 4)
        page.screenshot(path=str(artifacts / "replay-390x844.png"))
        # signed in: the lobby links the replay; the final screen has replay and rematch
        sign_in(page, server, reg["user"], token)
        page.goto(server.url("/"))
        link = page.wait_for_selector(f'[data-replay="{gid}"]')
        assert link.get_attribute("href") == f"replay.html?id={gid}"
        page.goto(server.url(f"/game.html?id={gid}"))
        page.wait_for_selector("#final-screen .final-extra #replay-link")
        assert page.get_attribute("#replay-link", "href") == f"replay.html?id={gid}"
        page.click("#rematch-btn")
        page.wait_for_url(re.compile(rf".*/game\.html\?id=(?!{gid}$)\d+$"))
        new_id = int(page.url.rsplit("=", 1)[1])
        assert new_id != gid
        summary = server.api("GET", f"/api/games/{gid}/rematch")["rematch"]
        assert summary["id"] == new_id and summary["status"] == "running"  # a bot: at once
        page.wait_for_function("() => !!(window.menagerie && window.menagerie.state.view)")
    finally:
        ctx.close()


def play_two_humans(server) -> tuple[int, list[tuple[dict, str]]]:
    """A 2-seat Zoocracy game between two people, both answered through the API."""
    players = []
    for _ in range(2):
        reg = server.api("POST", "/api/auth/register", {"username": unique("rm"),
                                                        "password": PASSWORD})
        players.append((reg, reg["token"]))
    gid = server.api("POST", "/api/games", {"game": "zoocracy", "seats": 2},
                     players[0][1])["id"]
    server.api("POST", f"/api/games/{gid}/join", {}, players[1][1])
    server.set_seed(gid, "e2e-rematch-1")
    server.api("POST", f"/api/games/{gid}/start", {}, players[0][1])
    rng = random.Random(3)
    for _ in range(5000):
        g = server.api("GET", f"/api/games/{gid}")
        if g["status"] == "finished":
            return gid, players
        for seat in g["waiting_for"]:
            token = players[seat][1]
            legal = server.api("GET", f"/api/games/{gid}/legal", None, token)
            act(server, gid, token, legal["version"], rng.choice(legal["actions"]))
            break
    pytest.fail("the game did not finish in 5000 answers")


def test_rematch_invitation_in_the_lobby(server, browser, console):
    gid, [(a, a_token), (b, b_token)] = play_two_humans(server)
    new = server.api("POST", f"/api/games/{gid}/rematch", {}, a_token)
    assert new["status"] == "open" and new["invited"] == [1]
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "invited")
        page.goto(server.url("/"))
        sign_in(page, server, b["user"], b_token)
        page.goto(server.url("/"))
        page.wait_for_selector(f'#invites:not([hidden]) [data-accept="{new["id"]}"]')
        assert page.is_visible(f'#invites [data-decline="{new["id"]}"]')
        page.click(f'[data-accept="{new["id"]}"]')
        page.wait_for_url(re.compile(rf".*/game\.html\?id={new['id']}$"))
        page.wait_for_function("() => !!(window.menagerie && window.menagerie.state.view)")
        assert server.api("GET", f"/api/games/{new['id']}")["status"] == "running"
        assert server.api("GET", "/api/rematch/invitations", None, b_token) == []
    finally:
        ctx.close()


def arknova_record(seed: str = "e2e-ark") -> dict:
    """A finished 2-player Ark Nova game played in-process by random bots, as a record."""
    import engine
    from engine.bots import get_bot

    game = engine.get_game("arknova")
    state = game.setup(2, {}, seed)
    bot = get_bot("random")
    actions = []
    while game.result(state) is None:
        seat = sorted(game.waiting_for(state))[0]
        action = bot.choose(game, game.view(state, seat), game.legal_actions(state, seat),
                            {"rng": len(actions) + 1})
        state, _ = game.apply(state, seat, action)
        actions.append([seat, action])
    return {"format": "menagerie-record/1", "game": "arknova", "options": {},
            "seats": [{"seat": 0, "bot": "random"}, {"seat": 1, "bot": "random"}],
            "actions": actions, "seed": seed}


def test_an_imported_arknova_game_break_by_break(server, browser, console, artifacts):
    reg = server.api("POST", "/api/auth/register", {"username": unique("ark"),
                                                    "password": PASSWORD})
    gid = server.api("POST", "/api/games/import", arknova_record(), reg["token"])["id"]
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "arknova")
        open_replay(page, server, gid, "&v=0")
        marks = page.evaluate("() => window.menagerie.replay.marks")
        assert marks and all(m["kind"] == "break" for m in marks)
        for v in range(1, 25):
            page.keyboard.press("ArrowRight")
            wait_at(page, v)
            assert page.locator("#zoo-map svg").count() > 0
        for m in marks:
            page.keyboard.press("PageDown")
            wait_at(page, m["version"])
            assert page.evaluate("() => window.menagerie.state.view.public.break.count") \
                >= m["number"] - 1
        page.select_option("#replay-as", "1")
        page.wait_for_selector("#player #hand")
        page.screenshot(path=str(artifacts / "replay-arknova-1920x1080.png"))
        page.click("#rp-last")
        page.wait_for_selector("#final-screen:not([hidden]) .final-card")
    finally:
        ctx.close()


def test_leaderboard_page(server, browser, console):
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "leaderboard")
        page.goto(server.url("/"))
        page.click("#leaderboard-link")
        page.wait_for_url(re.compile(r".*/leaderboard\.html"))
        page.wait_for_selector(".lb-tab.active")
        tabs = page.eval_on_selector_all(".lb-tab", "els => els.map(e => e.dataset.game)")
        assert {"arknova", "zoocracy"} <= set(tabs)
        page.click('.lb-tab[data-game="zoocracy"]')
        page.wait_for_selector('.lb-tab.active[data-game="zoocracy"]')
        page.wait_for_selector("#lb-rows tr")
        assert page.url.endswith("game=zoocracy")
    finally:
        ctx.close()
