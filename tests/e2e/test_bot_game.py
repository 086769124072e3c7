"""A whole game against a bot, played through the page from the home page to the final score
screen: register, create a 2-player game with a bot seat, start, then always answer by clicking
a legal answer of the decision bar or the placement preview on the map (preferring answers that
move the game on: animals, buildings, sponsors, projects). Screenshots of the table during the
game and of the final screen at 1920×1080 and 390×844 go to test-artifacts/.

The deal and the bot's choices come from a fixed seed (BOT_GAME_SEED: the bot draws from the
seed and the version it answers), and the page's answers from a fixed generator, so the game
is the same on every run: one in which a building is placed, F mirrors a preview and animals
are played."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import DESKTOP, PHONE
from .helpers import (
    ALONE,
    MAP_TEXT_SIZES,
    WAIT,
    click_progress,
    create_game,
    map_text_sizes,
    register,
    show_panel,
    start_from_table,
    try_mirror,
    unique,
    version,
    view,
    wait_running,
    wait_settled,
    wait_version,
)

#: a guard against a game that never ends, counted in the page's answers (not in seconds: a loaded
#: machine is slower, not longer); the seed's game takes a few hundred
MAX_ANSWERS = 3000
BOT_GAME_SEED = "e2e-bot-game-1"

# every text of the zoo map drawn at 14 CSS px or more (the map fits its fonts after a resize)
MAP_FITTED = f"() => {{ const t = ({MAP_TEXT_SIZES})(); return t.length > 0 && t.every(x => x.px >= 14 - 0.01); }}"

# one look at the page: is the game over, does the page owe an answer, to what, how many breaks
STATUS = """() => { const s = window.menagerie.state; const v = s.view; if (!v) return {over: false, mine: false};
  const d = (v.private && v.private.decision) || v.public.decision;
  return { over: !!v.public.over, breaks: v.public.break.count, kind: d ? d.kind : null,
           mine: !s.pending && s.legalVersion === s.version && s.legal.length > 0 && ALONE }; }"""
STATUS = STATUS.replace("ALONE", ALONE)

SMALL_TEXT = """(root) => [...document.querySelectorAll(root)]
    .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .filter(e => !e.closest('svg'))
    .filter(e => e.getClientRects().length)
    .filter(e => parseFloat(getComputedStyle(e).fontSize) < 14)
    .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 30))"""


@pytest.fixture(scope="module")
def game(server, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(WAIT)
    state = {"ctx": ctx, "page": page, "gid": None, "seconds": None, "answered": {}}
    yield state
    ctx.close()


def phone_page(browser, server, ctx, console, gid, label):
    phone = browser.new_context(viewport=PHONE, storage_state=ctx.storage_state(), is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    p = console.watch(phone.new_page(), label)
    p.set_default_timeout(WAIT)
    p.goto(server.url(f"/game.html?id={gid}"))
    wait_running(p)
    wait_settled(p)
    return phone, p


def check_phone_table(browser, server, ctx, console, gid, artifacts):
    """The running table on a phone: panels side by side, the bar fixed at the bottom, no HTML
    text under 14 px."""
    phone, p2 = phone_page(browser, server, ctx, console, gid, "phone")
    try:
        bar = p2.locator("#decision").bounding_box()
        assert bar and abs(bar["y"] + bar["height"] - PHONE["height"]) < 2, "the decision bar is at the bottom"
        p2.screenshot(path=str(artifacts / "game-390x844.png"))
        show_panel(p2, "panel-board")
        p2.screenshot(path=str(artifacts / "game-board-390x844.png"))
        show_panel(p2, "panel-hand")
        p2.screenshot(path=str(artifacts / "game-hand-390x844.png"))
        small = p2.evaluate(SMALL_TEXT, "#panels *, #decision *, .topbar *")
        assert not small, f"text under 14 px on a phone: {small[:60]}"
    finally:
        phone.close()


# a whole game against the fast level: 150 s on a loaded 2-core machine (against greedy, which does
# not end a game against a rival who does not race: 466 s, three times the answers)
@pytest.mark.timeout(1800)
def test_play_a_whole_game_against_a_bot(server, browser, game, console, artifacts):
    page = game["page"]
    console.watch(page, "player")
    register(page, server, unique("solo"))
    # the level the form offers first (fast): the one a new player meets, and one that ends the
    # game against a rival who does not race (greedy's games here took 2-3 times as many answers)
    gid = game["gid"] = create_game(page, seats=2, bots=(1,), level=None)
    assert [x["bot"] for x in server.api("GET", f"/api/games/{gid}")["seats"]] == [None, "fast"]
    server.set_seed(gid, BOT_GAME_SEED)
    start_from_table(page)
    rng = random.Random(2024)
    started = time.monotonic()
    answered = game["answered"]
    shot_mid = phone_checked = keyboard_done = False
    mirror = set()
    while True:
        now = page.evaluate(STATUS)
        if now["over"]:
            break
        assert sum(answered.values()) < MAX_ANSWERS, (
            f"the game is not over after {MAX_ANSWERS} answers: break {now['breaks']}, answers {answered}")
        if not now["mine"]:
            # the bot's move (or the page's fetch of its answers): wait for the page to owe one
            page.wait_for_function(f"() => ({STATUS})().mine || ({STATUS})().over", timeout=60_000)
            continue
        if not keyboard_done and now["kind"] == "turn":
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
        if not shot_mid and now["breaks"] >= 1:
            page.screenshot(path=str(artifacts / "bot-game-after-first-break-1920x1080.png"))
            shot_mid = True
        if not phone_checked and now["breaks"] >= 2:
            page.screenshot(path=str(artifacts / "game-1920x1080.png"))
            check_phone_table(browser, server, game["ctx"], console, gid, artifacts)
            phone_checked = True
        if "mirrored" not in mirror and now["kind"] == "place":
            # F mirrors the preview (once it is seen to work, the game goes on without it)
            mirror.add(try_mirror(page))
        what = click_progress(page, rng)
        answered[what] = answered.get(what, 0) + 1
    game["seconds"] = round(time.monotonic() - started, 1)
    print(f"\nthe whole game took {game['seconds']} s; answers: {answered}; F: {mirror}")
    public = view(page)["public"]
    assert public["over"]
    assert keyboard_done and shot_mid and phone_checked
    assert answered.get("place", 0) >= 1, "a building was placed on the map"
    assert "mirrored" in mirror, "F showed the mirror image of the preview"
    assert answered.get("animal", 0) >= 1, "an animal was played"
    assert public["players"][1]["turns"] > 0, "the bot moved too"
    assert "Game over" in page.inner_text("#log")


def test_final_screen(game, console, artifacts):
    page = game["page"]
    console.watch(page, "final")
    assert game["seconds"] is not None, "the game was not finished"
    page.wait_for_selector("#final-screen:not([hidden]) .final-card", timeout=WAIT)
    page.wait_for_function("() => window.menagerie.state.status === 'finished'")
    st = page.evaluate("() => ({result: window.menagerie.state.result, seat: window.menagerie.state.seat,"
                       " players: window.menagerie.state.view.public.players})")
    # the winner's headline
    head = page.inner_text("#final-title")
    scores = [p["vp"] for p in st["players"]]
    if st["result"] and st["result"].get("scores"):
        scores = [int(x) for x in (st["result"]["scores"].values() if isinstance(st["result"]["scores"], dict)
                                   else st["result"]["scores"])]
    best = max(scores)
    winners = [i for i, v in enumerate(scores) if v == best]
    if len(winners) == 1 and winners[0] == st["seat"]:
        assert head == "You win!" or "win" in head.lower(), head
    else:
        assert "win" in head.lower(), head
    # the score table: a row per zoo, winner first, the VP of each
    rows = page.locator("#final-screen .final-table tbody tr")
    assert rows.count() == 2
    first_vp = int(rows.nth(0).locator("td").nth(2).inner_text())
    second_vp = int(rows.nth(1).locator("td").nth(2).inner_text())
    assert first_vp == best and first_vp >= second_vp
    assert sorted([first_vp, second_vp]) == sorted(scores)
    assert page.locator("#final-screen .final-table tbody tr.winner").count() == len(winners)
    # the chart: appeal and conservation per break, one line per zoo from the start to the end
    charts = page.locator("#final-screen svg.history")
    assert charts.count() == 2
    for i in range(2):
        lines = charts.nth(i).locator("path")
        assert lines.count() == 2, "a line per zoo"
        for j in range(2):
            d = lines.nth(j).get_attribute("d")
            points = d.count("L") + 1
            assert points == len(st["players"][j]["history"]) + 2, "start, every break, the end"
    page.screenshot(path=str(artifacts / "final-1920x1080.png"))
    # every sentence of the whole game had its placeholders filled (i18n.js records the others)
    assert page.evaluate("() => window.menagerie.unfilled()") == []
    # the zoo map behind it: every label at least 14 px on a desktop as well
    sizes = map_text_sizes(page)
    assert sizes and min(x["px"] for x in sizes) >= 14 - 0.01, sorted(sizes, key=lambda x: x["px"])[:5]
    # closing it shows the finished board; the bar brings it back
    page.click("#final-screen .final-head button")
    page.wait_for_selector("#final-screen", state="hidden")
    page.click("#decision .bar-tools button.btn:not(.ghost)")
    page.wait_for_selector("#final-screen:not([hidden]) .final-card")


def test_final_screen_on_a_phone(server, browser, game, console, artifacts):
    assert game["seconds"] is not None, "the game was not finished"
    phone, p = phone_page(browser, server, game["ctx"], console, game["gid"], "final-phone")
    try:
        p.wait_for_selector("#final-screen:not([hidden]) .final-card", timeout=WAIT)
        p.wait_for_selector("#final-screen svg.history text")
        card = p.locator("#final-screen .final-card").bounding_box()
        assert card and card["width"] <= PHONE["width"] + 1, "the final screen fits the phone's width"
        small = p.evaluate(SMALL_TEXT, "#final-screen *")
        assert not small, f"text under 14 px on the phone's final screen: {small[:40]}"
        fits = p.evaluate("() => { const c = document.querySelector('#final-screen .final-card');"
                          " return c.scrollWidth <= c.clientWidth + 1; }")
        assert fits, "nothing on the final screen is cut off at the side"
        # the charts' texts too (the SVG's scale included), and the break numbers do not overlap
        chart = p.evaluate("""() => [...document.querySelectorAll('#final-screen svg.history text')]
            .filter(e => e.getClientRects().length && getComputedStyle(e).display !== 'none')
            .map(e => { const r = e.getBoundingClientRect(); const box = e.ownerSVGElement.getBoundingClientRect();
                        return {text: e.textContent, px: parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a,
                                inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5,
                                left: r.left, right: r.right, top: r.top, axis: e.getAttribute('text-anchor') === 'middle'
                                && e.classList.contains('axis')}; })""")
        assert chart and all(x["px"] >= 14 - 0.01 for x in chart), [x for x in chart if x["px"] < 14 - 0.01]
        assert all(x["inside"] for x in chart), [x["text"] for x in chart if not x["inside"]]
        ticks = sorted((x for x in chart if x["axis"]), key=lambda x: (round(x["top"]), x["left"]))
        for a, b in zip(ticks, ticks[1:]):
            assert round(a["top"]) != round(b["top"]) or a["right"] <= b["left"] + 0.5, f"{a['text']} overlaps {b['text']}"
        p.screenshot(path=str(artifacts / "final-390x844.png"))
        # back to the board: every text on both zoo maps is at least 14 px on the phone
        p.click("#final-screen .final-head button")
        p.wait_for_selector("#final-screen", state="hidden")
        show_panel(p, "panel-zoo")
        for seat in (0, 1):
            p.locator("#zoo-tabs .zoo-tab").nth(seat).click()
            p.wait_for_function("(seat) => window.menagerie.ui.viewSeat === seat", arg=seat)
            try:  # the map measures its scale and draws its texts bigger: wait for that
                p.wait_for_function(MAP_FITTED)
            except PlaywrightTimeout:
                pass  # the assertion below names the small ones
            sizes = map_text_sizes(p)
            assert sizes, "the zoo map has labels"
            small = [x for x in sizes if x["px"] < 14 - 0.01 or x["height"] < 14 - 0.5]
            assert not small, f"map labels under 14 px on a phone (zoo {seat + 1}): {small[:20]}"
            # no label pokes out of the map
            box = p.locator("#zoo-map svg").bounding_box()
            out = p.evaluate("""(b) => [...document.querySelectorAll('#zoo-map svg text')].map(e => e.getBoundingClientRect())
                .filter(r => r.width && (r.left < b.x - 1 || r.right > b.x + b.width + 1)).length""", box)
            assert out == 0, "a map label sticks out of the map"
            p.screenshot(path=str(artifacts / f"final-zoo{seat + 1}-390x844.png"))
        # a tap on a building shows its details (full names), in text of at least 14 px
        building = p.locator("#zoo-map .buildings .building").first
        cell = building.get_attribute("data-id")
        spot = p.evaluate("""(id) => { const b = window.menagerie.ui.zoo.player.buildings.find(q => String(q.id) === id);
            return b.cells[0]; }""", cell)
        p.locator(f'#zoo-map .hits polygon[data-x="{spot[0]}"][data-y="{spot[1]}"]').tap()
        p.wait_for_selector("#zoo-map .zoo-detail:not([hidden])")
        assert not p.evaluate(SMALL_TEXT, "#zoo-map .zoo-detail *")
        p.screenshot(path=str(artifacts / "final-zoo-detail-390x844.png"))
    finally:
        phone.close()
