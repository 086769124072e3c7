"""A phone of 390 x 844 (issue #14, item 9): no page scrolls sideways; placing a building keeps
the map in sight, with a one-line bar that speaks of taps; keep 4 of 8 shows all eight cards; the
money is in the top bar. The game is dealt from a fixed seed, and the page keeps its cards after
the bot did (helpers.wait_to_answer), so every run places the same building on the same map."""

from __future__ import annotations

import time

import pytest

from .conftest import PHONE
from .helpers import (
    PASSWORD,
    create_game,
    keep_cards,
    legal,
    register,
    show_panel,
    start_from_table,
    unique,
    use_action,
    version,
    wait_to_answer,
    wait_version,
)

pytestmark = pytest.mark.usefixtures("no_console_errors")

WIDTH = "document.documentElement.scrollWidth"

TOOLS_BOX = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; }"""
#: the element a tap at the middle of `sel` reaches (the element itself when nothing covers it)
TAP_REACHES = """sel => { const e = document.querySelector(sel); const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === e || e.contains(hit)); }"""
#: [scrollWidth, clientWidth] of the status line and the tools
HEADER_WIDTHS = """() => ['#status-line', '#game-tools'].map(s => { const e = document.querySelector(s);
    return [s, e.scrollWidth, e.clientWidth]; })"""


@pytest.fixture(scope="module")
def phone(server, browser, watch):
    ctx = browser.new_context(viewport=PHONE)
    page = watch.watch(ctx.new_page(), "phone")
    page.set_default_timeout(20_000)
    yield page
    ctx.close()


@pytest.mark.parametrize("path", ["/", "/rules.html?game=arknova", "/rules.html?game=zoocracy",
                                  "/cards.html?game=arknova", "/cards.html?game=zoocracy",
                                  "/leaderboard.html"])
def test_no_page_scrolls_sideways(phone, server, path):
    phone.goto(server.url(path))
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate(WIDTH) <= PHONE["width"], f"{path} is {phone.evaluate(WIDTH)} px wide"


def test_the_leaderboard_with_the_longest_names_fits(phone, server):
    """The leaderboard's width does not depend on what earlier tests left: two players with
    32-character names (the longest allowed) finish a rated game here, by a resignation."""
    stem = unique("lb")
    names = [(stem + "_" + side).ljust(32, side[0]) for side in ("winner", "loser")]
    regs = [server.api("POST", "/api/auth/register", {"username": n, "password": PASSWORD})
            for n in names]
    gid = server.api("POST", "/api/games", {"game": "arknova", "seats": 2}, regs[0]["token"])["id"]
    server.set_seed(gid, "e2e-phone-leaderboard")
    server.api("POST", f"/api/games/{gid}/join", {}, regs[1]["token"])
    server.api("POST", f"/api/games/{gid}/start", {}, regs[0]["token"])
    server.api("POST", f"/api/games/{gid}/resign", {}, regs[1]["token"])
    for _ in range(240):  # the outbox rates the finished game after the commit
        if server.api("GET", f"/api/users/{names[0]}/ratings").get("ratings"):
            break
        time.sleep(0.25)
    else:
        raise AssertionError("the resigned game was never rated")
    phone.goto(server.url("/leaderboard.html"))
    phone.wait_for_selector(f"text={names[0]}")
    assert phone.evaluate(WIDTH) <= PHONE["width"], \
        f"the leaderboard is {phone.evaluate(WIDTH)} px wide with a 32-character name"


def test_a_game_on_a_phone(phone, server):
    page = phone
    register(page, server, unique("tap"))
    page.click("#new-game-btn")
    page.wait_for_selector("#ng-seats")
    assert page.evaluate(WIDTH) <= PHONE["width"], "the new-game form is wider than the phone"
    page.click("#new-game-btn")  # close it again; create_game opens it
    gid = create_game(page, seats=2, bots=(1,))
    server.set_seed(gid, "e2e-phone-1")  # the same deal every run
    start_from_table(page)
    assert wait_to_answer(page)

    # keep 4 of 8: all eight cards in sight, none cut off at the sides
    rects = page.eval_on_selector_all(
        "#decision .tray-card[aria-pressed]",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })")
    assert len(rects) == 8
    for left, right, top, bottom in rects:
        assert left >= 0 and right <= PHONE["width"] and top >= 0 and bottom <= PHONE["height"], rects
    assert page.evaluate(WIDTH) <= PHONE["width"]
    cat = server.api("GET", "/api/catalog/arknova")
    catalog = {c["id"]: c for group in cat["cards"].values() if isinstance(group, list) for c in group}
    keep_cards(page, catalog)
    assert wait_to_answer(page)

    # the money is in the top bar, whose line keeps to its width (Undo, when there, is its arrow)
    money = page.evaluate("window.menagerie.state.view.public.players[window.menagerie.state.seat].money")
    assert page.inner_text("#status-line .money-stat").strip() == str(money)
    for sel, scroll, client in page.evaluate(HEADER_WIDTHS):
        assert scroll <= client, f"{sel} scrolls sideways at 390 px ({scroll} > {client})"

    # placing a building: the map stays in sight above a one-line bar that speaks of taps
    use_action(page, "build")
    page.wait_for_selector("#decision .answer.building:not([disabled])")
    page.click("#decision .answer.building")
    page.wait_for_selector("#decision .row-label[data-placement]", state="attached")
    ask = page.inner_text("#ask")
    assert "Tap" in ask and "R turns" not in ask and "(R)" not in page.inner_text("#decision"), ask
    bar = page.evaluate("document.getElementById('decision').getBoundingClientRect().height")
    assert bar <= 110, f"the bar takes {bar} px while placing"  # a short sentence, one row of buttons
    assert page.evaluate("new Set([...document.querySelectorAll('#decision .bar-controls .btn')]"
                         ".filter(b => b.offsetParent).map(b => Math.round(b.getBoundingClientRect().top))).size") == 1
    hidden = page.evaluate(
        """() => { const bar = document.getElementById('decision').getBoundingClientRect().top;
             const cells = new Set(window.menagerie.state.legal.filter(a => a.type === 'place')
               .flatMap(a => a.cells.map(c => c[0] + ',' + c[1])));
             return [...cells].filter(k => { const [x, y] = k.split(',');
               const r = document.querySelector(`#zoo-map .hits polygon[data-x="${x}"][data-y="${y}"]`).getBoundingClientRect();
               return r.top < 0 || r.bottom > bar || r.left < 0 || r.right > innerWidth; }); }""")
    assert not hidden, f"legal spaces out of sight while placing: {hidden}"
    assert page.evaluate(WIDTH) <= PHONE["width"]
    # the bar's Place button places the preview
    places = [a for a in legal(page) if a["type"] == "place"]
    x, y = places[len(places) // 2]["cells"][0]
    page.locator(f'#zoo-map .hits polygon[data-x="{x}"][data-y="{y}"]').hover()
    before = version(page)
    page.click("#decision .place-here")
    wait_version(page, before + 1)
    assert page.evaluate(WIDTH) <= PHONE["width"]


def test_the_final_table_fits(phone, server):
    """A finished game (imported record of two random bots): the final table needs no sideways
    scrolling on the phone, and the page neither."""
    from .test_replay import arknova_record

    reg = server.api("POST", "/api/auth/register", {"username": unique("fin"), "password": "zebra-crossing-42"})
    gid = server.api("POST", "/api/games/import", arknova_record("phone-final"), reg["token"])["id"]
    phone.goto(server.url(f"/game.html?id={gid}"))
    phone.wait_for_selector("#final-screen:not([hidden]) .final-table")
    table = phone.evaluate("(() => { const t = document.querySelector('.final-table');"
                           " const r = t.getBoundingClientRect(); return [t.scrollWidth, t.clientWidth, r.right]; })()")
    assert table[0] <= table[1] and table[2] <= PHONE["width"], table
    assert phone.evaluate(WIDTH) <= PHONE["width"]
    # no break note pops up for breaks that were over before the page opened
    assert phone.locator("#break-note:not([hidden])").count() == 0


@pytest.mark.parametrize("lang,timed", [("en", False), ("uk", True), ("de", True)],
                         ids=["en", "uk-timed", "de-timed"])
def test_the_header_folds_its_tools_into_a_menu(server, browser, watch, artifacts, lang, timed):
    """In a running game at 390x844 the header's status line keeps to its width (no sideways
    scrolling) and the tools (resign, next game, bell) wait behind a "⋯" button whose drop-down
    shows them inside the screen; it stays open while the game moves on, and closes on Escape,
    a tap elsewhere, a second tap and a chosen tool. At 1440x900 the tools are in the header's
    line and there is no "⋯". A timed game's clocks take a line of their own, all in sight."""
    from .test_exits import open_page, player, started_game, words

    w = words(lang)
    ada, bob = player(server), player(server)
    gid = started_game(server, ada, bob, f"e2e-phone-tools-{lang}",
                       {"mode": "move", "seconds": 86400} if timed else None)
    ctx, page = open_page(browser, watch, server, ada, lang, PHONE, f"/game.html?id={gid}", f"tools-{lang}")
    try:
        page.wait_for_function("() => window.menagerie && window.menagerie.state.status === 'running'")
        toggle = page.wait_for_selector("#tools-toggle")
        page.wait_for_selector("#resign-btn", state="hidden")
        for sel, scroll, client in page.evaluate(HEADER_WIDTHS):
            assert scroll <= client, f"{sel} scrolls sideways at 390 px ({scroll} > {client})"
        page.screenshot(path=str(artifacts / f"header-menu-closed-{lang}-390x844.png"))
        assert_whose_in_full(page, "", f"{lang} 390, timed: {timed}")
        assert page.evaluate(WIDTH) <= PHONE["width"]
        assert toggle.get_attribute("aria-expanded") == "false"
        assert toggle.get_attribute("aria-label") == w["game.tools"]
        assert toggle.get_attribute("title") == w["game.tools_title"]
        box = page.evaluate(TOOLS_BOX, "#tools-toggle")
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert box["right"] <= PHONE["width"] and box["top"] >= 0, box
        # the "⋯" sits in the first line: the header is no taller than its three lines were
        assert page.evaluate(TOOLS_BOX, "#status-line")["top"] < 60
        height = page.evaluate(TOOLS_BOX, ".topbar")["height"]
        print(f"header {height} px at 390 ({lang}, timed: {timed})")
        assert height <= (150 if timed else 115), height  # the clocks' own line: about 30 px more
        if timed:
            chips = page.eval_on_selector_all("#status-line .clock-chip", "els => els.map(e => e.getBoundingClientRect().right)")
            assert len(chips) == 2 and max(chips) <= PHONE["width"], chips

        # open: the tools as rows of a drop-down under the header, Resign inside the screen
        toggle.click()
        page.wait_for_selector("#tools-menu", state="visible")
        assert toggle.get_attribute("aria-expanded") == "true"
        resign = page.evaluate(TOOLS_BOX, "#resign-btn")
        header = page.evaluate(TOOLS_BOX, ".topbar")
        assert resign["left"] >= 0 and resign["right"] <= PHONE["width"], resign
        assert resign["top"] >= header["bottom"] - 1 and resign["bottom"] <= PHONE["height"], (resign, header)
        assert resign["height"] >= 44, resign
        assert page.evaluate(TAP_REACHES, "#resign-btn"), "something covers the menu's Resign"
        assert w["exits.resign"] in page.inner_text("#resign-btn")
        assert page.is_visible("#next-game-btn")
        assert w["next.button"] in page.inner_text("#next-game-btn")
        assert page.evaluate(WIDTH) <= PHONE["width"]
        page.screenshot(path=str(artifacts / f"header-menu-open-{lang}-390x844.png"))

        # the game moves on (the other player keeps his cards): the header is drawn again, the
        # menu stays open
        before = page.evaluate("window.menagerie.state.version")
        legal = server.api("GET", f"/api/games/{gid}/legal", None, bob["token"])
        server.api("POST", f"/api/games/{gid}/actions",
                   {"version": legal["version"], "action": legal["actions"][0]}, bob["token"])
        page.wait_for_function("v => window.menagerie.state.version > v", arg=before)
        page.wait_for_selector("#resign-btn", state="visible")
        assert toggle.get_attribute("aria-expanded") == "true"
        assert_whose_in_full(page, w["status.your_move"], f"{lang} 390, timed: {timed}, after the other's keep")

        # Escape closes it (the focus back on the "⋯")
        page.keyboard.press("Escape")
        page.wait_for_selector("#resign-btn", state="hidden")
        assert toggle.get_attribute("aria-expanded") == "false"
        assert page.evaluate("document.activeElement.id") == "tools-toggle"
        # a second tap closes it
        toggle.click()
        page.wait_for_selector("#resign-btn", state="visible")
        toggle.click()
        page.wait_for_selector("#resign-btn", state="hidden")
        assert toggle.get_attribute("aria-expanded") == "false"
        # a tap elsewhere (the game's title) closes it
        toggle.click()
        page.wait_for_selector("#resign-btn", state="visible")
        page.click("#game-title")
        page.wait_for_selector("#resign-btn", state="hidden")
        # a chosen tool closes it: Resign asks first; "keep playing" changes nothing
        toggle.click()
        page.click("#resign-btn")
        page.wait_for_selector("#resign-dialog[open]")
        assert toggle.get_attribute("aria-expanded") == "false"
        page.click("#resign-dialog-no")
        page.wait_for_selector("#resign-dialog", state="detached")
        assert page.evaluate("window.menagerie.state.status") == "running"

        # a laptop: the tools in the header's line, no "⋯"
        page.set_viewport_size({"width": 1440, "height": 900})
        page.wait_for_selector("#tools-toggle", state="hidden")
        page.wait_for_selector("#resign-btn", state="visible")
        resign = page.evaluate(TOOLS_BOX, "#resign-btn")
        assert resign["bottom"] <= page.evaluate(TOOLS_BOX, ".topbar")["bottom"], resign
        assert page.evaluate(TAP_REACHES, "#resign-btn")
        page.screenshot(path=str(artifacts / f"header-tools-{lang}-1440x900.png"))
    finally:
        ctx.close()


#: whose turn it is (the status line's `.whose`) read in full: no ellipsis, nothing clipped or
#: scrolled away, its box inside the screen ({} when there is no such element)
WHOSE = """() => { const e = document.querySelector('#status-line .whose'); if (!e) return {};
    const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
    return {text: e.textContent.trim(), scroll: e.scrollWidth, client: e.clientWidth,
            clipped: cs.textOverflow !== 'clip' && e.scrollWidth > e.clientWidth,
            hidden: cs.overflowX !== 'visible' && e.scrollWidth > e.clientWidth,
            left: r.left, right: r.right, width: innerWidth}; }"""


def assert_whose_in_full(page, expected: str, where: str) -> None:
    got = page.evaluate(WHOSE)
    assert got, f"no whose-turn text in the status line ({where})"
    assert expected in got["text"], (where, got)
    assert got["scroll"] <= got["client"], f"whose turn is cut ({where}): {got}"
    assert not got["clipped"] and not got["hidden"], f"whose turn is cut ({where}): {got}"
    assert got["left"] >= 0 and got["right"] <= got["width"], f"whose turn is off the screen ({where}): {got}"


@pytest.mark.parametrize("lang", ["en", "uk", "de"])
def test_whose_turn_reads_in_full(server, browser, watch, artifacts, lang):
    """Whose turn it is is the status line's most important word: at 390 px, in a bot game after
    the opening keep, it is never cut short (no ellipsis) in any language; the other items make
    room (a second row; the break track is its numbers only). A spectator reads "<name> to play"
    in full. At 1440x900 it is read in full too."""
    from .test_exits import LAPTOP, fill, open_page, words

    w = words(lang)
    name = unique("whose")
    owner = server.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})
    watcher = server.api("POST", "/api/auth/register", {"username": unique("look"), "password": PASSWORD})
    gid = server.api("POST", "/api/games", {"game": "arknova", "seats": 2, "bots": [1], "bot": "greedy"},
                     owner["token"])["id"]
    server.set_seed(gid, "e2e-phone-1")
    server.api("POST", f"/api/games/{gid}/start", {}, owner["token"])
    ctx, page = open_page(browser, watch, server, owner, lang, PHONE, f"/game.html?id={gid}", f"whose-{lang}")
    sctx = None
    try:
        page.wait_for_function("() => window.menagerie && window.menagerie.state.view")
        assert wait_to_answer(page)
        cat = server.api("GET", "/api/catalog/arknova")
        catalog = {c["id"]: c for group in cat["cards"].values() if isinstance(group, list) for c in group}
        keep_cards(page, catalog)
        assert wait_to_answer(page)
        page.wait_for_function("t => (document.querySelector('#status-line .whose') || {}).textContent?.includes(t)",
                               arg=w["status.your_move"])
        page.screenshot(path=str(artifacts / f"whose-{lang}-390x844.png"))
        assert_whose_in_full(page, w["status.your_move"], f"{lang} 390")
        assert page.evaluate(WIDTH) <= PHONE["width"]

        sctx, spec = open_page(browser, watch, server, watcher, lang, PHONE, f"/game.html?id={gid}", f"whose-spec-{lang}")
        to_play = fill(w["status.to_play"], name=name)
        spec.wait_for_function("t => (document.querySelector('#status-line .whose') || {}).textContent?.includes(t)",
                               arg=to_play)
        spec.screenshot(path=str(artifacts / f"whose-spectator-{lang}-390x844.png"))
        assert_whose_in_full(spec, to_play, f"{lang} 390, a spectator")
        assert spec.evaluate(WIDTH) <= PHONE["width"]

        # a laptop (a page opened at its size)
        lctx, wide = open_page(browser, watch, server, owner, lang, LAPTOP, f"/game.html?id={gid}", f"whose-wide-{lang}")
        try:
            wide.wait_for_function("t => (document.querySelector('#status-line .whose') || {}).textContent?.includes(t)",
                                   arg=w["status.your_move"])
            wide.screenshot(path=str(artifacts / f"whose-{lang}-1440x900.png"))
            assert_whose_in_full(wide, w["status.your_move"], f"{lang} 1440")
        finally:
            lctx.close()
    finally:
        if sctx:
            sctx.close()
        ctx.close()


#: what sticks out on the right of the screen (the first few, for the message)
STICKS_OUT = """() => [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length
    && e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest('#panels > .panel, #panels > * *'))
    .slice(0, 6).map(e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')}`
      + ` (right ${Math.round(e.getBoundingClientRect().right)})`)"""
#: the boxes that scroll sideways inside themselves though they should not: [what, scroll, client]
SIDEWAYS = """sels => sels.flatMap(s => [...document.querySelectorAll(s)]).filter(e => e.getClientRects().length
    && e.scrollWidth > e.clientWidth + 1).map(e => [e.id || e.className, e.scrollWidth, e.clientWidth])"""
#: the board panel is left out: its association table is wider than a phone with short names too
OWN_BOXES = ["#panel-zoo", "#panel-hand", "#panel-log", "#since-panel", ".chat-lines", ".final-card", ".decision-bar"]


def assert_fits(page, where: str) -> None:
    width = page.evaluate("innerWidth")
    got = page.evaluate(WIDTH)
    assert got <= width, f"{where} is {got} px wide at {width} px: {page.evaluate(STICKS_OUT)}"
    inside = page.evaluate(SIDEWAYS, OWN_BOXES)
    assert not inside, f"{where}: scrolls sideways inside at {width} px: {inside}"


def test_the_longest_names_fit_the_lobby_and_the_table(server, browser, watch, artifacts):
    """Two players whose names are as long as a name may be (32 characters, app/credentials.py)
    and as wide (W): no page scrolls sideways, on a phone (390x844) or a laptop (1440x900), for
    either player: the lobby (who is signed in, the game list), the waiting room, the running
    game (the header, the score rows, the zoo tabs, each panel, the log, the chat) and the final
    screen, and the game's replay. Where a name is cut short its tooltip has it whole."""
    from .test_exits import LAPTOP, open_page

    stem = unique("W")
    names = [(stem + "_" + side).ljust(32, "W") for side in ("ada", "bob")]
    assert all(len(n) == 32 for n in names), names
    ada, bob = regs = [server.api("POST", "/api/auth/register", {"username": n, "password": PASSWORD})
                       for n in names]

    def game(seed: str, start: bool = True) -> int:
        gid = server.api("POST", "/api/games", {"game": "arknova", "seats": 2}, ada["token"])["id"]
        server.set_seed(gid, seed)
        server.api("POST", f"/api/games/{gid}/join", {}, bob["token"])
        if start:
            server.api("POST", f"/api/games/{gid}/start", {}, ada["token"])
        return gid

    waiting = game("e2e-phone-names-open", start=False)
    running = game("e2e-phone-names")
    for reg in regs:  # both keep their first offer: the log names them; then it is Ada's move
        legal = server.api("GET", f"/api/games/{running}/legal", None, reg["token"])
        server.api("POST", f"/api/games/{running}/actions",
                   {"version": legal["version"], "action": legal["actions"][0]}, reg["token"])
    server.api("POST", f"/api/games/{running}/chat", {"channel": "players", "text": "good luck"}, bob["token"])
    over = game("e2e-phone-names-over")
    server.api("POST", f"/api/games/{over}/resign", {}, bob["token"])

    for who, reg in (("ada", ada), ("bob", bob)):
        for viewport in (PHONE, LAPTOP):
            size = f"{viewport['width']}x{viewport['height']}"
            ctx, page = open_page(browser, watch, server, reg, "en", viewport, "/", f"names-{who}-{size}")
            try:
                page.wait_for_selector("#my-profile")
                page.wait_for_selector(f'.game-item[data-game="{running}"]')
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(artifacts / f"long-names-lobby-{who}-{size}.png"), full_page=True)
                assert_fits(page, f"the lobby ({who})")

                page.goto(server.url(f"/game.html?id={waiting}"))
                page.wait_for_selector("#waiting-room:not([hidden]) .seat-list")
                assert_fits(page, f"the waiting room ({who})")

                page.goto(server.url(f"/game.html?id={running}"))
                page.wait_for_function("() => window.menagerie && window.menagerie.state.status === 'running'")
                page.wait_for_selector("#status-line .whose")
                page.wait_for_selector("#log .log-line")
                page.screenshot(path=str(artifacts / f"long-names-game-{who}-{size}.png"))
                assert_fits(page, f"the game ({who})")
                # the whole names are in reach: the tooltips of the header, score rows and tabs
                assert page.get_attribute("#me .seat-name", "title") == reg["user"]["username"]
                assert page.eval_on_selector_all(".score-row .seat-name", "els => els.map(e => e.title)") == names
                assert set(page.eval_on_selector_all(".zoo-tab .tab-name", "els => els.map(e => e.title)")) == set(names)
                if viewport is PHONE:
                    for panel in ("panel-zoo", "panel-board", "panel-hand", "panel-log"):
                        show_panel(page, panel)
                        assert_fits(page, f"the game's {panel} ({who})")
                page.click("#chat-toggle")
                page.wait_for_selector(".chat-line .chat-who")
                assert page.get_attribute(".chat-line .chat-who", "title") == names[1]
                page.screenshot(path=str(artifacts / f"long-names-chat-{who}-{size}.png"))
                assert_fits(page, f"the game with its chat open ({who})")

                page.goto(server.url(f"/game.html?id={over}"))
                page.wait_for_selector("#final-screen:not([hidden]) .final-table")
                page.wait_for_selector("#final-outcome")
                page.screenshot(path=str(artifacts / f"long-names-final-{who}-{size}.png"))
                assert_fits(page, f"the final screen ({who})")

                page.goto(server.url(f"/replay.html?id={over}"))
                page.wait_for_selector("#replay-where .seat-name")
                page.screenshot(path=str(artifacts / f"long-names-replay-{who}-{size}.png"))
                assert_fits(page, f"the replay ({who})")
            finally:
                ctx.close()


def test_a_phone_page_grown_to_a_laptop_keeps_the_log_off_the_header(server, browser, watch, artifacts):
    """A game opened at 390x844, its log read through the panels' Log tab, the window then grown
    to 1440x900: the page is laid out as one opened at 1440x900 (the log drawer closed, off the
    header), not with the log lying over the header."""
    from .test_exits import LAPTOP, open_page, player, started_game

    ada, bob = player(server), player(server)
    gid = started_game(server, ada, bob, "e2e-phone-grown")
    ctx, page = open_page(browser, watch, server, ada, "en", PHONE, f"/game.html?id={gid}", "grown")
    wctx, wide = open_page(browser, watch, server, ada, "en", LAPTOP, f"/game.html?id={gid}", "grown-fresh")
    box = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return {left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top), bottom: Math.round(r.bottom)}; }"""
    # the log drawer slides in and out (a transition): its box once that is over
    settled = "() => document.getElementById('panel-log').getAnimations().length === 0"
    try:
        for p in (page, wide):
            p.wait_for_function("() => window.menagerie && window.menagerie.state.status === 'running'")
        show_panel(page, "panel-log")
        assert page.is_visible("#log")
        page.set_viewport_size(LAPTOP)
        page.wait_for_function("w => innerWidth === w", arg=LAPTOP["width"])
        page.wait_for_function(settled)
        wide.wait_for_function(settled)
        page.screenshot(path=str(artifacts / "grown-390-to-1440x900.png"))
        header, log = page.evaluate(box, ".topbar"), page.evaluate(box, "#panel-log")
        apart = (log["left"] >= header["right"] or log["right"] <= header["left"]
                 or log["top"] >= header["bottom"] or log["bottom"] <= header["top"])
        assert apart, f"after growing to 1440 px the log {log} lies over the header {header}"
        fresh = wide.evaluate(box, "#panel-log")
        assert log == fresh, f"the log after growing to 1440 px {log} is not where a page opened at 1440 px has it {fresh}"
    finally:
        wctx.close()
        ctx.close()
