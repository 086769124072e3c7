"""The daily challenge in the browser: a new player starts today's solo challenge (a 1-seat zoo:
the solo mode of issue #18) from the lobby's "Today's challenge" card, plays the whole game
through the page (the same clicking player as test_bot_game.py: a legal answer of the decision
bar or the map's placement preview, preferring answers that move the game on) to the final
screen, 27 turns; back in the lobby the
card shows the result, the place and the player on today's leaderboard; daily.html lists it;
another player can neither watch the game nor see its deal while the day runs. Screenshots of
the card at 1440×900 and 390×844 go to test-artifacts/.

Today's deal comes from the server's secret and the date, so it differs from run to run: the
clicking player copes with any deal (MAX_ANSWERS bounds a game that would not end). The e2e server
has a fixed daily secret (conftest), so the deal is the same for every run on the same date."""

from __future__ import annotations

import random
import re
import time
import urllib.error

import pytest

from .helpers import (
    PASSWORD,
    WAIT,
    click_progress,
    register,
    sign_in,
    unique,
    wait_running,
    wait_settled,
)
from .test_bot_game import STATUS

#: a guard against a game that never ends, counted in the page's answers (not in seconds: a loaded
#: machine is slower, not longer); a solo game of 27 turns takes a few hundred
MAX_ANSWERS = 2000
KIND = "solo"  # the duel against mcts is the same code with a bot's thinking on top
DESK = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def card_state(page) -> dict:
    return page.evaluate("""() => { const k = document.querySelector('#daily .daily-kind[data-kind="solo"]');
      if (!k) return null; const st = k.querySelector('.dk-state');
      return { state: st ? st.dataset.state : null, text: st ? st.textContent : '',
               rows: [...k.querySelectorAll('.daily-board tbody tr')].map(r => r.dataset.user),
               mine: [...k.querySelectorAll('.daily-board tr.mine')].length,
               game: (k.querySelector('[data-daily-game]') || {dataset: {}}).dataset.dailyGame || null }; }""")


@pytest.mark.timeout(2400)
def test_play_todays_solo_challenge_to_the_end(server, browser, console, artifacts):
    ctx = browser.new_context(viewport=DESK)
    page = console.watch(ctx.new_page(), "daily")
    page.set_default_timeout(WAIT)
    name = unique("day")
    register(page, server, name)
    # the card: today's solo challenge, not started; its start button deals the game, opens it
    page.wait_for_selector(f'#daily:not([hidden]) .daily-kind[data-kind="{KIND}"] [data-daily-start="{KIND}"]')
    assert card_state(page)["state"] == "none"
    page.screenshot(path=str(artifacts / "daily-lobby-1440x900.png"))
    page.click(f'[data-daily-start="{KIND}"]')
    page.wait_for_url(re.compile(r".*/game\.html\?id=\d+"))
    gid = int(re.search(r"id=(\d+)", page.url).group(1))
    wait_running(page)
    wait_settled(page)

    # while the day runs nobody else sees the game, and nothing in the API has its seed
    other = server.api("POST", "/api/auth/register", {"username": unique("peek"), "password": PASSWORD})
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/history", f"/api/games/{gid}/record"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.api("GET", path, None, other["token"])
        assert refused.value.code == 403
    assert gid not in [g["id"] for g in server.api("GET", "/api/games?status=running")]

    # the whole game, through the page
    rng = random.Random(18)
    started = time.monotonic()
    answered: dict[str, int] = {}
    while True:
        now = page.evaluate(STATUS)
        if now["over"]:
            break
        assert sum(answered.values()) < MAX_ANSWERS, \
            f"the daily game is not over after {MAX_ANSWERS} answers: break {now['breaks']}, answers {answered}"
        if not now["mine"]:
            page.wait_for_function(f"() => ({STATUS})().mine || ({STATUS})().over", timeout=120_000)
            continue
        what = click_progress(page, rng)
        answered[what] = answered.get(what, 0) + 1
    print(f"\nthe daily solo game took {time.monotonic() - started:.0f} s; answers: {answered}")
    page.wait_for_selector("#final-screen:not([hidden]) .final-card", timeout=WAIT)
    page.screenshot(path=str(artifacts / "daily-final-1440x900.png"))

    # back in the lobby: the result, the place, and the player on today's leaderboard
    page.goto(server.url("/"))
    page.wait_for_function("""() => { const s = document.querySelector('#daily .daily-kind[data-kind="solo"] .dk-state');
                              return s && s.dataset.state === 'finished'; }""")
    state = card_state(page)
    assert name in state["rows"] and state["mine"] == 1, state
    assert str(gid) == state["game"]
    today = server.api("GET", "/api/daily")["day"]
    board = server.api("GET", f"/api/daily/{today}/{KIND}/leaderboard")
    mine = next(e for e in board["entries"] if e["user"]["username"] == name)
    assert mine["game_id"] is None  # not for others while the day runs
    assert isinstance(mine["score"], (int, float)) and mine["time_used"] > 0
    assert f"place {mine['rank']}" in state["text"], state["text"]
    page.locator("#daily").screenshot(path=str(artifacts / "daily-card-1440x900.png"))
    # replaying is for later: starting again resumes the same game
    again = page.evaluate("""async () => { const r = await fetch('/api/daily/solo/start', {method: 'POST',
        headers: {'X-CSRF-Token': decodeURIComponent((document.cookie.match(/menagerie_csrf=([^;]+)/) || [])[1] || '')}});
        return [r.status, (await r.json()).game.id]; }""")
    assert again == [200, gid]

    # the day's page lists the player, with a link to their own game
    page.goto(server.url(f"/daily.html?day={today}&kind={KIND}"))
    page.wait_for_selector(f'#day-board tr[data-user="{name}"] a[data-replay="{gid}"]')
    ctx.close()

    # the card on a phone, signed in as the same player
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    p = console.watch(phone.new_page(), "daily-phone")
    p.set_default_timeout(WAIT)
    login = server.api("POST", "/api/auth/login", {"username": name, "password": PASSWORD})
    p.goto(server.url("/"))
    sign_in(p, server, login["user"], login["token"])
    p.goto(server.url("/"))
    p.wait_for_selector('#daily .daily-kind .dk-state[data-state="finished"]')
    wide = p.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], "nothing on the lobby scrolls sideways on a phone"
    p.locator("#daily").screenshot(path=str(artifacts / "daily-card-390x844.png"))
    phone.close()


def test_the_days_page_and_the_card_signed_out_on_a_phone(server, browser, console, artifacts):
    """Signed out, the card offers the challenges (and asks to sign in); daily.html shows the
    day's board and the past days; nothing scrolls sideways at 390 px."""
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    p = console.watch(phone.new_page(), "daily-signed-out")
    p.set_default_timeout(WAIT)
    try:
        p.goto(server.url("/"))
        p.wait_for_selector('#daily:not([hidden]) .daily-kind[data-kind="duel"] .dk-signin')
        assert p.locator("[data-daily-start]").count() == 0
        assert p.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        p.click("#daily-past")
        p.wait_for_url(re.compile(r".*/daily\.html$"))
        p.wait_for_selector("#day-board table, #day-board .empty-note")
        p.wait_for_selector("#past-list li")
        assert p.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        p.screenshot(path=str(artifacts / "daily-page-390x844.png"), full_page=True)
    finally:
        phone.close()
