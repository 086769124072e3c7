"""The table's layout at a glance (issue #30, item 3 of its list), in Chromium, measured with the
boxes the browser drew.

- 1440x900 (en): at the keep step and at a turn, the decision bar takes at most 25 % of the
  height, and the player's action cards and hand are in sight without scrolling (above the bar).
- 390x844 with touch, in en, uk and de: the bar takes at most 40 % of the height at the keep step
  and at a turn; no card name or action name is cut (its box hides part of it) or broken inside a
  word (a word of it drawn on two lines; a line may break at a space or a hyphen)
- 1440x900: each zoo's score row says how far it is from the end (0 VP) and marks who leads.
- the Chat button covers no card, action card, answer, bonus tile, map or score row.; the Chat button covers no card or action button.

Games against the greedy bot from a fixed seed.
"""

from __future__ import annotations

import json

import pytest

from .helpers import (
    create_game,
    keep_cards,
    register,
    show_panel,
    start_from_table,
    unique,
    wait_my_turn,
)

pytestmark = pytest.mark.usefixtures("no_console_errors")

SEED = "e2e-layout-1"
LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}

BAR = "() => document.querySelector('#decision').getBoundingClientRect().height"

#: names that must be whole: [text, cut?, words drawn on two lines]
NAMES = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length && e.textContent.trim())
  .map(e => {
    const cut = e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
    const broken = [];
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent;
      const re = /[^\\s\\-\u2010]+/g; let m;  // a line may break at a space or a hyphen
      while ((m = re.exec(text))) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    return [e.textContent.trim(), cut, broken];
  })"""

CARD_NAMES = "#decision .card-name, #hand .card-name, #board .folder .card-name, #board .projects .card-name"
ACTION_NAMES = "#decision .use-card, #decision .x-token .xt-name, #player .slot-card > span:not([aria-hidden])"


#: what the Chat button covers of the table: cards, action cards, answers, bonus tiles, the map
CHAT_COVERS = """() => { const b = document.querySelector('#chat-toggle'); if (!b) return ['no chat button'];
  const c = b.getBoundingClientRect();
  return [...document.querySelectorAll('#panels .card, #panels .slot, #decision button, #board .tile-space, #zoo-map svg, #scoretrack .score-row')]
    .filter(e => { const r = e.getBoundingClientRect();
      return r.width && r.height && r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top; })
    .map(e => e.tagName + '.' + String(e.className.baseVal ?? e.className)); }"""


def bad_names(page, selector: str) -> list:
    return [n for n in page.evaluate(NAMES, selector) if n[1] or n[2]]


def catalog(server) -> dict:
    cat = server.api("GET", "/api/catalog/arknova")
    return {c["id"]: c for group in cat["cards"].values() if isinstance(group, list) for c in group}


def new_game(browser, server, viewport, lang, touch=False):
    ctx = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
    page = ctx.new_page()
    page.set_default_timeout(45_000)
    page.goto(server.url("/"))
    page.evaluate("(l) => localStorage.setItem('menagerie.lang', l)", lang)
    register(page, server, unique(f"lay{lang}"))
    gid = create_game(page, seats=2, bots=(1,))
    server.set_seed(gid, SEED)
    start_from_table(page)
    wait_my_turn(page)
    return ctx, page


def test_laptop_bar_and_hand_in_sight(server, browser, watch, artifacts):
    ctx, page = new_game(browser, server, LAPTOP, "en")
    try:
        watch.watch(page, "laptop")
        bar = page.evaluate(BAR)
        page.screenshot(path=str(artifacts / "layout-keep-1440x900.png"))
        assert bar <= 0.25 * LAPTOP["height"], f"the bar is {bar} px at the keep step"
        keep_cards(page, catalog(server))
        wait_my_turn(page)
        page.evaluate("window.scrollTo(0, 0)")
        bar = page.evaluate(BAR)
        page.screenshot(path=str(artifacts / "layout-turn-1440x900.png"))
        assert bar <= 0.25 * LAPTOP["height"], f"the bar is {bar} px at a turn"
        assert page.evaluate(CHAT_COVERS) == []
        # the score: how far each zoo is from the end (0 VP), and who leads
        rows = page.evaluate("""() => [...document.querySelectorAll('#scoretrack .score-row')].map(r =>
          [r.querySelector('.vp-to-go').textContent.trim(), r.classList.contains('leads')])""")
        vps = page.evaluate("window.menagerie.state.view.public.players.map(p => p.vp)")
        assert rows == [[f"({-v} to the end)" if v < 0 else "(ends the game)", v == max(vps)] for v in vps]
        limit = LAPTOP["height"] - bar
        for sel in ("#player .slots", "#hand"):
            box = page.locator(sel).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= limit, (sel, box, limit)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "uk", "de"])
def test_phone_bar_and_whole_names(server, browser, watch, artifacts, lang):
    ctx, page = new_game(browser, server, PHONE, lang, touch=True)
    try:
        watch.watch(page, f"phone-{lang}")
        bar = page.evaluate(BAR)
        page.screenshot(path=str(artifacts / f"layout-keep-390x844-{lang}.png"))
        assert bar <= 0.40 * PHONE["height"], f"the bar is {bar} px at the keep step"
        bad = bad_names(page, "#decision .card-name")
        assert not bad, json.dumps(bad, ensure_ascii=False)
        keep_cards(page, catalog(server))
        wait_my_turn(page)
        bar = page.evaluate(BAR)
        page.screenshot(path=str(artifacts / f"layout-turn-390x844-{lang}.png"))
        assert bar <= 0.40 * PHONE["height"], f"the bar is {bar} px at a turn"
        assert page.evaluate(CHAT_COVERS) == []
        bad = bad_names(page, ACTION_NAMES)
        for panel in ("panel-hand", "panel-board"):
            show_panel(page, panel)
            bad += bad_names(page, CARD_NAMES)
        assert not bad, json.dumps(bad, ensure_ascii=False)
    finally:
        ctx.close()
