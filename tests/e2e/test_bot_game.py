"""A game against a bot, played through the page by always clicking a legal answer, until a
few breaks have passed; screenshots of the table at 1920×1080 and 390×844."""

from __future__ import annotations

import random
import time

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import (click_any_legal, create_game, decision_kind, my_turn, register,
                      start_from_table, unique, version, view, wait_running, wait_settled,
                      wait_version)

BREAKS = 2
TIME_LIMIT = 300  # seconds


@pytest.fixture(scope="module")
def bot_table(server, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    yield ctx, page
    ctx.close()


def test_play_against_a_bot_until_breaks(server, browser, bot_table, console, artifacts):
    ctx, page = bot_table
    console.watch(page, "player")
    register(page, server, unique("solo"))
    gid = create_game(page, seats=2, bots=(1,))
    start_from_table(page)
    rng = random.Random(2024)
    started = time.monotonic()
    answered = {}
    shot_mid = False
    keyboard_done = False
    while True:
        v = view(page)["public"]
        if v["break"]["count"] >= BREAKS or v.get("over"):
            break
        assert time.monotonic() - started < TIME_LIMIT, f"only {v['break']['count']} breaks after {TIME_LIMIT} s"
        if not keyboard_done and my_turn(page) and decision_kind(page) == "turn":
            # keyboard only: Tab to the skip link, Enter jumps to the decision bar, Tab to the
            # first answer, Enter answers
            page.focus(".skip-link")
            page.keyboard.press("Enter")
            page.keyboard.press("Tab")
            page.wait_for_function("() => document.activeElement && document.activeElement.closest('#decision .bar-controls')")
            before = version(page)
            page.keyboard.press("Enter")
            wait_version(page, before + 1)
            keyboard_done = True
            continue
        what = click_any_legal(page, rng)
        answered[what] = answered.get(what, 0) + 1
        if what == "wait":
            page.wait_for_timeout(50)
        if not shot_mid and v["break"]["count"] >= 1:
            page.screenshot(path=str(artifacts / "bot-game-after-first-break-1920x1080.png"))
            shot_mid = True
    wait_settled(page)
    public = view(page)["public"]
    assert public["break"]["count"] >= BREAKS or public["over"]
    assert keyboard_done
    assert sum(n for k, n in answered.items() if k != "wait") > 5
    # the bot moved too
    assert public["players"][1]["turns"] > 0
    assert "Break 1 begins" in page.inner_text("#log")
    page.screenshot(path=str(artifacts / "game-1920x1080.png"))

    # the same table on a phone: panels side by side, the decision bar fixed at the bottom
    phone = browser.new_context(viewport=PHONE, storage_state=ctx.storage_state(), is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    try:
        p2 = console.watch(phone.new_page(), "phone")
        p2.goto(server.url(f"/game.html?id={gid}"))
        wait_running(p2)
        wait_settled(p2)
        bar = p2.locator("#decision").bounding_box()
        assert bar and abs(bar["y"] + bar["height"] - PHONE["height"]) < 2, "the decision bar is at the bottom"
        p2.screenshot(path=str(artifacts / "game-390x844.png"))
        p2.click("#panel-tabs [data-panel='panel-board']")
        p2.wait_for_timeout(400)
        p2.screenshot(path=str(artifacts / "game-board-390x844.png"))
        p2.click("#panel-tabs [data-panel='panel-hand']")
        p2.wait_for_timeout(400)
        p2.screenshot(path=str(artifacts / "game-hand-390x844.png"))
        # no text under 14 px in the panels of a phone
        small = p2.evaluate("""() => [...document.querySelectorAll('#panels *, #decision *, .topbar *')]
            .filter(e => e.childNodes.length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .filter(e => !e.closest('svg'))
            .filter(e => e.getClientRects().length)
            .filter(e => parseFloat(getComputedStyle(e).fontSize) < 14)
            .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 30))""")
        assert not small, f"text under 14 px on a phone: {small[:60]}"
    finally:
        phone.close()
