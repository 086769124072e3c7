"""Zoocracy in the browser: a 3-player game created from the lobby with two bot seats, played
through the page to the winner screen (the human seat answers every one of its decisions by
clicking the page's own controls), while an anonymous spectator watches public data only.

Screenshots: ``test-artifacts/zoocracy-1920x1080.png`` (mid-game), ``zoocracy-390x844.png``
(the same table on a phone), ``zoocracy-board-390x844.png``, ``zoocracy-hand-390x844.png``,
``zoocracy-final-1920x1080.png`` (the winner screen).

The deal and the bots' choices come from a fixed seed (ZOOCRACY_SEED), the human seat's from a
fixed generator: every run plays the same game.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import DESKTOP, PHONE
from .helpers import ALONE, PASSWORD, WAIT, _stable, game_id, show_panel, unique

#: a guard against a game that never ends, counted in the page's answers (not in seconds: a loaded
#: machine is slower, not longer)
MAX_ANSWERS = 2000
ZOOCRACY_SEED = "e2e-zoocracy-1"

OVER = "() => { const s = window.menagerie.state; return !!(s.view && s.view.public.over); }"
MINE_OR_OVER = ("() => { const s = window.menagerie.state;"
                " if (s.view && s.view.public.over) return true;"
                " return !s.pending && s.legalVersion === s.version && s.legal.length > 0"
                " && document.querySelector('#decision.mine') !== null"
                " && document.querySelector('#decision .answer:not([disabled])') !== null"
                f" && {ALONE}; }}")


# --------------------------------------------------------------------------- small page helpers
def wait_running(page, timeout: float = WAIT) -> None:
    page.wait_for_function("() => !!(window.menagerie && window.menagerie.state.view"
                           " && window.menagerie.state.version >= 0)", timeout=timeout)


def wait_version(page, v: int, timeout: float = WAIT) -> None:
    page.wait_for_function("(v) => window.menagerie.state.version >= v", arg=v, timeout=timeout)


def version(page) -> int:
    return page.evaluate("() => window.menagerie.state.version")


def public(page) -> dict:
    return page.evaluate("() => window.menagerie.state.view.public")


def kind(page) -> str | None:
    return page.evaluate("() => { const v = window.menagerie.state.view;"
                         " const d = (v.private && v.private.decision) || v.public.decision;"
                         " return d ? d.kind : null; }")


def register(page, server, name: str) -> None:
    """Register in place on the lobby (checked through the stored user, whatever the language)."""
    page.goto(server.url("/"))
    page.fill("#auth-user", name)
    page.fill("#auth-pass", PASSWORD)
    page.click("#register-btn")
    page.wait_for_selector("#logout")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('menagerie.user') || 'null').username") == name


def create_zoocracy(page, seats: int, bots: tuple[int, ...]) -> int:
    page.click("#new-game-btn")
    page.wait_for_selector("#ng-game")
    page.select_option("#ng-game", "zoocracy")
    page.select_option("#ng-seats", str(seats))
    for seat in bots:
        page.check(f'input[data-bot-seat="{seat}"]')
    if bots:  # the fixed seed's bot moves were written against greedy (the default is fast)
        page.select_option("#ng-bot", "greedy")
    page.click("#create-game")
    page.wait_for_url(re.compile(r".*/game\.html\?id=\d+"))
    return game_id(page)


def answers(page) -> list[tuple[str, str]]:
    """The answer buttons of the decision bar as (type, answer key)."""
    return page.eval_on_selector_all("#decision .answer:not([disabled])",
                                     "els => els.map(e => [e.dataset.type, e.dataset.answer || ''])")


def click_answer(page, key: str, scope: str = "#decision") -> None:
    """A real click on the bar button that sends this answer (found again if the bar redrew).
    A marker on an enclosure where the player holds food asks first: the first click arms the
    button with the warning in words, the second sends."""
    sel = f"{scope} .answer[data-answer='{key}']"
    if page.get_attribute(sel, "data-warn") and not page.get_attribute(sel, "data-armed"):
        page.click(sel)
        page.wait_for_selector(f"{sel}[data-armed]")
        assert "Click again to confirm" in page.inner_text(sel)
        assert "food" in (page.get_attribute(sel, "title") or "")
    page.click(sel)


def legal_keys(page) -> set[str]:
    return {_stable(a) for a in page.evaluate("() => window.menagerie.state.legal")}


FOCUSED = ("(v) => window.menagerie.state.version > v"
           " || document.querySelector('#decision .zc-focus-row .answer') !== null")


def pick_focused(page, rng: random.Random, before: int) -> None:
    """After a click on the table: it answered at once, or its answers came up in the bar."""
    page.wait_for_function(FOCUSED, arg=before)
    if version(page) == before:
        keys = page.eval_on_selector_all("#decision .zc-focus-row .answer", "els => els.map(e => e.dataset.answer)")
        click_answer(page, rng.choice(keys), "#decision .zc-focus-row")


# --------------------------------------------------------------------------- the human seat
def answer_once(page, rng: random.Random, seen: dict) -> str:
    """Answer the current decision through the page; returns what was done."""
    snap = page.evaluate("""() => { const s = window.menagerie.state; const v = s.view;
      const d = v && ((v.private && v.private.decision) || v.public.decision);
      return { version: s.version, kind: d ? d.kind : null, legal: s.legal,
               settled: !s.pending && s.legalVersion === s.version }; }""")
    if not snap["settled"] or not snap["legal"]:
        return "wait"  # the page moved on (a forced pass sent itself): the caller waits again
    if snap["kind"] == "window" and len(snap["legal"]) == 1 and snap["legal"][0]["type"] == "pass":
        # no card of this phase can be played: the page passes by itself, no click
        wait_version(page, snap["version"] + 1)
        seen["forced_pass"] = seen.get("forced_pass", 0) + 1
        return "window:forced_pass"
    k = kind(page)
    before = version(page)
    btns = answers(page)
    assert btns, (f"my decision ({k}) but no answer button: "
                  + str(page.evaluate("() => { const s = window.menagerie.state; return {"
                                      " pending: s.pending, version: s.version, legal: s.legal,"
                                      " bar: document.querySelector('#decision').innerHTML"
                                      ".slice(0, 2000) }; }")))
    keys = legal_keys(page)
    # every button of the bar sends a legal answer (the bid button: the amount it shows)
    for _t, key in btns:
        assert key in keys, f"the bar offers {key}, which /legal does not list"
    types = [t for t, _ in btns]
    what = f"{k}:?"
    if k == "bid":
        # the secret bid dialog: who has answered is shown, never what
        if not seen.get("bid_dialog"):
            bar = page.inner_text("#decision")
            assert "answered" in bar or "waiting for" in bar, bar
            seen["bid_dialog"] = True
        for _ in range(rng.randrange(0, 5)):
            plus = page.locator('#decision [aria-label="bid one more"]')
            if plus.is_disabled():
                break
            plus.click()
        confirm = page.locator("#decision .zc-bid-confirm")
        assert confirm.get_attribute("data-answer") in keys
        confirm.click()
        what = "bid"
    elif k == "campaign_turn" and "place" in types and rng.random() < 0.7:
        legal_encs = page.eval_on_selector_all("#zoo-map .zc-enc.legal", "els => els.map(e => e.dataset.enclosure)")
        if legal_encs and rng.random() < 0.4:
            # click an enclosure on the board: it answers, or its answers come up in the bar
            page.click(f'#zoo-map .zc-enc.legal[data-enclosure="{rng.choice(legal_encs)}"]')
            pick_focused(page, rng, before)
            what = "campaign_turn:board"
        else:
            click_answer(page, rng.choice([key for t, key in btns if t == "place"]))
            what = "campaign_turn:place"
    elif k == "proposal" and "members_done" in types and rng.random() < 0.75:
        click_answer(page, btns[types.index("members_done")][1])
        what = "proposal:members_done"
    elif k in ("window", "discard") and page.locator("#player .zc-hand .zc-card.legal").count() and rng.random() < 0.5:
        # a hand card that can be played now: clicking it answers
        cards = page.eval_on_selector_all("#player .zc-hand .zc-card.legal", "els => els.map(e => e.dataset.card)")
        page.locator(f'#player .zc-hand .zc-card.legal[data-card="{rng.choice(cards)}"]').first.click()
        pick_focused(page, rng, before)
        what = f"{k}:hand"
    else:
        t, key = rng.choice(btns)
        click_answer(page, key)
        what = f"{k}:{t}"
    wait_version(page, before + 1)
    return what


# --------------------------------------------------------------------------- the test
@pytest.fixture(scope="module")
def zoo_table(server, browser):
    contexts = []

    def context(**kw):
        ctx = browser.new_context(**kw)
        contexts.append(ctx)
        return ctx

    yield context
    for ctx in contexts:
        ctx.close()


@pytest.mark.timeout(1800)  # a whole game: generous for a loaded 2-core machine
def test_zoocracy_against_two_bots_to_the_winner(server, browser, zoo_table, console, artifacts):
    ctx = zoo_table(viewport=DESKTOP)
    page = console.watch(ctx.new_page(), "player")
    page.set_default_timeout(WAIT)
    register(page, server, unique("zoo"))
    gid = create_zoocracy(page, seats=3, bots=(1, 2))
    server.set_seed(gid, ZOOCRACY_SEED)
    page.wait_for_selector("#start-btn:not([disabled])", timeout=WAIT)
    page.click("#start-btn")
    wait_running(page)
    assert page.evaluate("() => document.body.classList.contains('zoocracy-game')")
    assert page.evaluate("() => window.menagerie.state.seat") == 0
    pub = public(page)
    assert pub["seats"] == 3 and pub["round"] == 1
    # the table: seven enclosures, the goal track, the hemicycle, the hand from the catalog
    assert page.locator("#zoo-map .zc-enc").count() == len(pub["board"]) == 7
    assert page.locator("#scoretrack .zc-goal-svg").count() == 1
    assert page.locator("#board .zc-hemicycle").count() == 1
    hand = page.evaluate("() => window.menagerie.state.view.private.hand")
    assert page.locator("#player .zc-hand .zc-card").count() == len(hand) == 2

    # an anonymous spectator at the same table
    sctx = zoo_table(viewport={"width": 1280, "height": 900})
    spy = console.watch(sctx.new_page(), "spectator")
    spy.set_default_timeout(WAIT)
    spy.goto(server.url(f"/game.html?id={gid}"))
    wait_running(spy)
    assert spy.evaluate("() => window.menagerie.state.seat") is None
    assert spy.evaluate("() => window.menagerie.state.view.private") is None
    assert "Spectator" in spy.inner_text("#me") or spy.locator("#me .badge.spectator").count()

    rng = random.Random(1789)
    done: dict[str, int] = {}
    seen: dict[str, bool] = {}
    shot = False
    spied_bid = False
    while True:
        try:
            page.wait_for_function(MINE_OR_OVER, timeout=60_000)
        except PlaywrightTimeout:
            # the page's state, the server's (a stale page or a silent bot?) and its log
            seen = page.evaluate("() => { const s = window.menagerie.state; return {"
                                 " pending: s.pending, version: s.version, legalVersion:"
                                 " s.legalVersion, legal: s.legal, bar: document.querySelector("
                                 "'#decision').innerHTML.slice(0, 2000) }; }")
            told = page.evaluate("(id) => fetch('/api/games/' + id).then((r) => r.json())"
                                 ".then((g) => ({version: g.version, status: g.status,"
                                 " waiting_for: g.waiting_for}), (e) => String(e))", gid)
            raise AssertionError(f"no decision of mine became answerable in 60 s: page {seen};"
                                 f" server {told}; server log:\n{server.tail(40)}") from None
        assert sum(done.values()) < MAX_ANSWERS, f"the game is not over after {MAX_ANSWERS} answers: {done}"
        pub = public(page)
        if pub["over"]:
            break
        k = kind(page)
        if k == "bid" and not spied_bid:
            # the spectator sees who has bid, not what; the bids are not in any public view
            wait_version(spy, version(page))
            sp = spy.evaluate("() => window.menagerie.state.view.public.decision")
            assert sp["kind"] == "bid" and "bids" not in sp
            assert 0 in sp["waiting"]
            bar = spy.inner_text("#decision")
            assert "bidding" in bar or "Waiting" in bar, bar
            spied_bid = True
        if not shot and k == "campaign_turn" and pub["round"] >= 3 and sum(pub["parliament"]) > 0:
            page.screenshot(path=str(artifacts / "zoocracy-1920x1080.png"))
            phone_shots(browser, ctx, server, gid, console, artifacts)
            shot = True
        what = answer_once(page, rng, seen)
        done[what] = done.get(what, 0) + 1

    # ---- the winner screen, from the result
    page.wait_for_selector("#final-screen:not([hidden]) .zc-final", timeout=WAIT)
    page.wait_for_function("() => !!window.menagerie.state.result")
    result = page.evaluate("() => window.menagerie.state.result")
    winners = result["details"]["winners"]
    headline = page.inner_text("#final-title")
    if len(winners) > 1:
        assert headline.startswith("Shared win")
    elif winners == [0]:
        assert headline == "You win!"
    else:
        assert headline.endswith("wins")
    rows = page.locator("#final-screen .final-table tbody tr")
    assert rows.count() == 3
    assert [int(x) for x in page.eval_on_selector_all("#final-screen .final-table tbody tr", "els => els.map(e => e.dataset.seat)")] == result["ranking"]
    page.screenshot(path=str(artifacts / "zoocracy-final-1920x1080.png"))
    if not shot:  # the game ended before round 3 had a campaign: shoot the end table
        page.click("#final-screen .final-head .btn")
        page.screenshot(path=str(artifacts / "zoocracy-1920x1080.png"))
        phone_shots(browser, ctx, server, gid, console, artifacts)

    # the human answered all kinds of questions through the page, bots played too
    assert sum(done.values()) >= 10, done
    assert any(k.startswith("campaign") for k in done), done
    assert seen.get("bid_dialog")
    # every sentence of the whole game had its placeholders filled (i18n.js records the others)
    assert page.evaluate("() => window.menagerie.unfilled()") == []
    # a reload restores the finished table and its whole log (one sentence per event)
    page.reload()
    wait_running(page)
    page.wait_for_selector("#final-screen:not([hidden]) .zc-final")
    assert page.inner_text("#final-title") == headline
    page.wait_for_function("() => document.querySelectorAll('#log .log-line').length > 20")
    log = page.inner_text("#log")
    assert "Your secret bid" in log and "Parliament elected" in log and "Game over" in log, log[:2000]

    # ---- the spectator followed to the end and saw public data only
    spy.wait_for_function(OVER, timeout=WAIT)
    spy.wait_for_selector("#final-screen:not([hidden]) .zc-final", timeout=WAIT)
    assert spy.evaluate("() => window.menagerie.state.view.private") is None
    assert spy.locator("#player .zc-hand .zc-card").count() == 0, "a spectator sees no hand"
    assert "holds" in spy.inner_text("#player")
    spy_log = spy.inner_text("#log")
    assert "Parliament elected" in spy_log
    assert "secret bid:" not in spy_log and "Your vote" not in spy_log and "You drew" not in spy_log
    # the same winner on the spectator's screen (which has no "you")
    spy_title = spy.inner_text("#final-title")
    assert spy_title == headline if winners != [0] else spy_title.endswith(" wins")
    assert spy.evaluate("() => window.menagerie.unfilled()") == []


def phone_shots(browser, ctx, server, gid, console, artifacts) -> None:
    """The same table on a phone: score track on top, swipeable panels, the bar at the bottom."""
    phone = browser.new_context(viewport=PHONE, storage_state=ctx.storage_state(), is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    try:
        p2 = console.watch(phone.new_page(), "phone")
        p2.set_default_timeout(WAIT)
        p2.goto(server.url(f"/game.html?id={gid}"))
        wait_running(p2)
        p2.wait_for_function("() => { const s = window.menagerie.state;"
                             " return !!s.view && !s.pending && s.legalVersion === s.version; }")
        bar = p2.locator("#decision").bounding_box()
        assert bar and abs(bar["y"] + bar["height"] - PHONE["height"]) < 2, "the decision bar is at the bottom"
        p2.screenshot(path=str(artifacts / "zoocracy-390x844.png"))
        show_panel(p2, "panel-board")
        p2.screenshot(path=str(artifacts / "zoocracy-board-390x844.png"))
        show_panel(p2, "panel-hand")
        p2.screenshot(path=str(artifacts / "zoocracy-hand-390x844.png"))
        small = p2.evaluate("""() => [...document.querySelectorAll('#panels *, #decision *, .topbar *, #scoretrack *')]
            .filter(e => e.childNodes.length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .filter(e => !e.closest('svg'))
            .filter(e => e.getClientRects().length)
            .filter(e => parseFloat(getComputedStyle(e).fontSize) < 14)
            .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 30))""")
        assert not small, f"text under 14 px on a phone: {small[:40]}"
    finally:
        phone.close()
