"""The whole card anywhere at the table (issue #30, item 1), in Chromium.

A player against the greedy bot (a fixed seed: the same deal and the same bot moves every run)
plays until a zoo holds an animal. Then, on a 1440x900 desktop with a mouse, hovering a card of
the hand, of the display, an animal chip of a zoo map and a card named in the log shows that card
enlarged: its name, every ability in words and the glossary of its keywords, beside the card and
inside the window; moving away or Escape closes it. On a 390x844 phone with touch, a tap on the
same kinds of cards shows it centred, and a tap elsewhere closes it.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import PHONE
from .helpers import (
    ALONE,
    click_progress,
    create_game,
    decision_kind,
    register,
    show_panel,
    start_from_table,
    unique,
    wait_running,
    wait_settled,
)

pytestmark = pytest.mark.usefixtures("no_console_errors")

SEED = "e2e-card-zoom-1"
DESKTOP = {"width": 1440, "height": 900}

MINE = f"""() => {{ const s = window.menagerie.state; return !!s.view && !s.pending
  && s.legalVersion === s.version && s.legal.length > 0 && {ALONE}; }}"""

#: a zoo with an animal, and the log naming a card
READY = """() => { const s = window.menagerie.state; if (!s.view) return false;
  return s.view.public.players.some(p => (p.animals || []).length > 0)
      && !!document.querySelector('#log [data-card-ref]'); }"""

#: the hand holds a card
HAND = "() => ((window.menagerie.state.view.private || {}).hand || []).length > 0"

#: what the enlarged card says: its id, name, every ability text, the glossary terms, its box
ZOOM = """() => { const z = document.querySelector('#card-zoom');
  if (!z || z.hidden) return null;
  const r = z.getBoundingClientRect();
  return { id: z.dataset.id, name: z.querySelector('.zoom-card .card-name').textContent,
           texts: [...z.querySelectorAll('.zoom-card .ability-text')].map(e => e.textContent.trim()),
           terms: [...z.querySelectorAll('.zoom-glossary dt')].map(e => e.textContent),
           box: [r.left, r.top, r.right, r.bottom], modal: z.classList.contains('modal') }; }"""

#: what the catalog (in the page's language) says of a card: its name and ability keywords
CARD = """(id) => { const c = window.menagerie.state.byId.get(id);
  return { name: c.name, n: (c.abilities || []).length + (c.effects || []).length + (c.solo || []).length,
           keywords: [...(c.abilities || []), ...(c.effects || [])].map(a => a.keyword) }; }"""


@pytest.fixture(scope="module")
def game(server, browser, watch):
    ctx = browser.new_context(viewport=DESKTOP)
    page = watch.watch(ctx.new_page(), "desktop")
    page.set_default_timeout(45_000)
    register(page, server, unique("zoom"))
    gid = create_game(page, seats=2, bots=(1,))
    server.set_seed(gid, SEED)
    start_from_table(page)
    rng = random.Random(30)
    for _ in range(60):
        wait_settled(page)
        if page.evaluate(READY) and page.evaluate(MINE) and decision_kind(page) == "turn" and page.evaluate(HAND):
            break
        if not page.evaluate(MINE):
            page.wait_for_function(f"() => ({MINE})() || !!window.menagerie.state.view.public.over")
            continue
        click_progress(page, rng)
    else:
        pytest.fail("no zoo holds an animal after 60 answers")
    assert page.evaluate(READY)
    yield {"ctx": ctx, "page": page, "gid": gid}
    ctx.close()


def check_zoom(page, cid: str, *, modal: bool) -> dict:
    # one look at the enlarged card, once it shows this card (a redraw of the table under a still
    # pointer must not mix two looks)
    z = page.wait_for_function(f"() => {{ const z = ({ZOOM})(); return z && z.id === {cid!r} ? z : null; }}").json_value()
    card = page.evaluate(CARD, cid)
    assert z["name"] == card["name"]
    # every effect in words: one text per ability, none empty
    assert len(z["texts"]) == card["n"] and all(z["texts"]), z
    # every keyword explained in the glossary (by its name in the page's language)
    assert len([t for t in z["terms"] if t]) >= 1 + len(set(card["keywords"])), z["terms"]
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    left, top, right, bottom = z["box"]
    assert left >= 0 and top >= 0 and right <= vw and bottom <= vh, z["box"]
    assert z["modal"] is modal
    return z


def center(el) -> tuple[float, float]:
    b = el.bounding_box()
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def hover_shows(page, selector: str, shot=None) -> None:
    el = page.locator(selector).first
    el.scroll_into_view_if_needed()
    cid = el.evaluate("e => e.dataset.id || e.dataset.card || e.dataset.cardRef")
    # the pointer where a person points (a zoo map's hit layer lies over its animal chips)
    if "animal-chip" in selector:
        page.mouse.move(*center(el), steps=4)
    else:
        el.hover()  # waits until the element stands still (the log drawer slides in)
    z = check_zoom(page, cid, modal=False)
    # beside the card, not over it
    b = el.bounding_box()
    left, top, right, bottom = z["box"]
    overlap = not (right <= b["x"] or left >= b["x"] + b["width"] or bottom <= b["y"] or top >= b["y"] + b["height"])
    assert not overlap, (z["box"], b)
    if shot:
        page.screenshot(path=str(shot))
    # moving away closes it
    page.mouse.move(2, DESKTOP["height"] // 2)
    page.wait_for_selector("#card-zoom", state="hidden")


def test_hover_shows_the_whole_card(game, artifacts):
    page = game["page"]
    hover_shows(page, "#hand .card[data-id]", artifacts / "card-zoom-1440x900.png")
    hover_shows(page, "#board .folder .card[data-id]")
    seat = page.evaluate("window.menagerie.state.view.public.players.findIndex(p => (p.animals || []).length > 0)")
    page.click(f"#zoo-tabs .zoo-tab >> nth={seat}")
    page.wait_for_selector("#zoo-map .animal-chip[data-card]")
    hover_shows(page, "#zoo-map .animal-chip[data-card]")
    # a sponsor or an animal card of that zoo under the map
    page.evaluate("document.querySelectorAll('#zoo-info details.played').forEach(d => d.open = true)")
    hover_shows(page, "#zoo-info .played .card[data-id]")
    # the log: a card named in a line
    page.click("#decision .log-toggle")  # at 1440 px the log is a drawer
    page.wait_for_function("() => { const r = document.querySelector('#panel-log').getBoundingClientRect();"
                           " return r.right <= innerWidth + 1 && r.left < innerWidth; }")
    hover_shows(page, "#log [data-card-ref]")


def test_escape_closes_the_card(game):
    page = game["page"]
    el = page.locator("#hand .card[data-id]").first
    el.hover()
    page.wait_for_selector("#card-zoom:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#card-zoom", state="hidden")


def test_a_tap_shows_the_whole_card_on_a_phone(game, browser, watch, artifacts):
    ctx = browser.new_context(viewport=PHONE, storage_state=game["ctx"].storage_state(),
                              is_mobile=True, has_touch=True)
    try:
        page = watch.watch(ctx.new_page(), "phone")
        page.set_default_timeout(45_000)
        page.goto(game["page"].url)
        wait_running(page)
        wait_settled(page)
        page.wait_for_function(READY)

        def tap_shows(panel: str, selector: str, shot=None) -> None:
            show_panel(page, panel)
            # one element, named by its card: a locator of ``selector`` is resolved again at
            # each use, and the hand's first card that is not legal can change in between (the
            # legal answers arrive after the view), so the tap could land on another card than
            # the one the test waits for
            cid = page.locator(selector).first.evaluate(
                "e => e.dataset.id || e.dataset.card || e.dataset.cardRef")
            el = page.locator(f'{selector}:is([data-id="{cid}"], [data-card="{cid}"], [data-card-ref="{cid}"])').first
            # in the middle of the screen, clear of the decision bar fixed at the bottom
            el.evaluate("e => e.scrollIntoView({block: 'center', inline: 'nearest'})")
            page.wait_for_function("(e) => { const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
                                   " return !!at && (e.contains(at) || at.closest('.hits') !== null); }", arg=el.element_handle())
            # standing still (a tap during a smooth scroll only stops the scroll, as on a phone)
            page.wait_for_function("""async (e) => { const a = e.getBoundingClientRect();
              await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
              const b = e.getBoundingClientRect(); return a.top === b.top && a.left === b.left; }""",
                                   arg=el.element_handle())
            # what the page receives of the tap, so a tap that shows nothing says why
            page.evaluate("""() => { const seen = window.__tapSeen = [];
              for (const k of ['pointerover', 'pointerdown', 'pointerup', 'pointercancel', 'click', 'contextmenu', 'focusin'])
                document.addEventListener(k, (e) => {
                  const t = e.target; const card = t && t.closest && t.closest('.card[data-id]');
                  const ans = card && card.closest('button, a, .legal, [role=button]');
                  const st = window.menagerie.state;
                  seen.push(k + ':' + ((t && t.className) || (t && t.nodeName) || '') + (card ? ' card=' + card.dataset.id + ' cls=' + card.className
                    + ' answers=' + (ans ? ans.tagName + '.' + ans.className : '-') + ' known=' + !!(st.byId && st.byId.get && st.byId.get(card.dataset.id))
                    + ' connected=' + card.isConnected + ' type=' + e.pointerType : ''));
                }, true);
              const z = document.getElementById('card-zoom');
              if (z) new MutationObserver(() => seen.push('zoom=' + z.dataset.id + (z.hidden ? ' hidden' : ' shown') + ' n=' + document.querySelectorAll('#card-zoom').length))
                .observe(z, {attributes: true, attributeFilter: ['data-id', 'hidden']}); }""")
            page.touchscreen.tap(*center(el))
            try:
                page.wait_for_selector(f'#card-zoom[data-id="{cid}"]:not([hidden])', timeout=8_000)
            except PlaywrightTimeout:
                zoom = page.evaluate("() => { const z = document.getElementById('card-zoom');"
                                     " return z && [z.dataset.id, z.hidden]; }")
                raise AssertionError(f"a tap on {cid} ({selector}) showed no card (zoom: {zoom});"
                                     f" the page saw {page.evaluate('window.__tapSeen')}") from None
            check_zoom(page, cid, modal=True)
            if shot:
                page.screenshot(path=str(shot))
            # a tap elsewhere closes it
            page.touchscreen.tap(PHONE["width"] // 2, 8)
            page.wait_for_selector("#card-zoom", state="hidden")

        tap_shows("panel-hand", "#hand .card[data-id]:not(.legal)", artifacts / "card-zoom-390x844.png")
        tap_shows("panel-board", "#board .folder:not(.legal) .card[data-id]")
        seat = page.evaluate("window.menagerie.state.view.public.players.findIndex(p => (p.animals || []).length > 0)")
        show_panel(page, "panel-zoo")
        page.locator("#zoo-tabs .zoo-tab").nth(seat).tap()
        page.wait_for_selector("#zoo-map .animal-chip[data-card]")
        tap_shows("panel-zoo", "#zoo-map .animal-chip[data-card]")
        tap_shows("panel-log", "#log [data-card-ref]")
    finally:
        ctx.close()
