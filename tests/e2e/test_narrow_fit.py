"""What fits where (Chromium at 390x844 and 1440x900, in English, Ukrainian and German):

- the final screen's score table on a phone: its column heads break between words only (never
  "Treas|ury" or "Zielschritt|e"), nothing in it is cut off or under 14 px, and it fits the card;
- the board panel's association table fits the phone's panel (the panel does not scroll sideways);
- a Zoocracy game that a resignation ended shows every party's real treasury (the result has none:
  the finished game's private parts have them), for its player, a spectator and in the replay;
- Zoocracy's parliament list keeps a party's row on one line: a 32-character name ends in "…" (its
  tooltip has it whole), its seats stay beside it;
- Zoocracy's score rows on a phone: the heads above the parties' numbers ("Мета", "Мандати") stand
  side by side, whole, each number under its head (the columns are as wide as their words);
- the lobby, a profile, the daily challenge's page and the rules pages leave no placeholder of a
  message unfilled (``window.menagerie.unfilled()``, as the game and replay pages).

Every game is set up through the API (a resignation ends one at once). Screenshots:
``test-artifacts/narrow-fit-*.png``.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import PHONE
from .helpers import PASSWORD, show_panel, unique
from .test_exits import LAPTOP, fill, page_at, words

pytestmark = pytest.mark.usefixtures("no_console_errors")

LANGS = ["en", "uk", "de"]
WIDTH = "document.documentElement.scrollWidth"

#: the words of the visible text under `sel` that a line break cuts in two (a character of the
#: word on another line than the word's first one), as [element's text, word]
SPLIT_WORDS = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).flatMap(cell => {
    const out = [];
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.parentElement.getClientRects().length) continue;  // a text of a hidden part
      for (const m of n.textContent.matchAll(/\\S+/g)) {
        const lines = new Set();
        for (let i = m.index; i < m.index + m[0].length; i++) {
          const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
          const box = r.getBoundingClientRect();
          if (box.height) lines.add(Math.round(box.top + box.height / 2));
        }
        if (lines.size > 1) out.push([cell.innerText, m[0]]);
      }
    }
    return out; })"""

#: the visible elements under `sel` whose own text is smaller than 14 CSS px (SVG aside)
SMALL_TEXT = """(sel) => [...document.querySelectorAll(sel)]
    .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .filter(e => !e.closest('svg') && e.getClientRects().length)
    .filter(e => parseFloat(getComputedStyle(e).fontSize) < 14)
    .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 30))"""

#: the cells under `sel` whose content is wider than the cell (cut off): [text, scroll, client]
CUT_OFF = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length
    && e.scrollWidth > e.clientWidth + 1).map(e => [e.innerText, e.scrollWidth, e.clientWidth])"""

FINAL_BOX = """() => { const card = document.querySelector('#final-screen .final-card');
    const table = card.querySelector('.final-table'); const c = card.getBoundingClientRect();
    const t = table.getBoundingClientRect();
    return { cardLeft: c.left, cardRight: c.right, cardScroll: card.scrollWidth, cardClient: card.clientWidth,
             tableLeft: t.left, tableRight: t.right, tableScroll: table.scrollWidth, tableClient: table.clientWidth }; }"""


def person(server, name: str | None = None) -> dict:
    return server.api("POST", "/api/auth/register", {"username": name or unique("nf"), "password": PASSWORD})


def long_name() -> str:
    """As long as a name may be (32 characters, app/credentials.py) and as wide (W)."""
    name = unique("W").ljust(32, "W")
    assert len(name) == 32
    return name


def two_seats(server, game: str, owner: dict, other: dict, seed: str, start: bool = True) -> int:
    gid = server.api("POST", "/api/games", {"game": game, "seats": 2}, owner["token"])["id"]
    server.set_seed(gid, seed)
    server.api("POST", f"/api/games/{gid}/join", {}, other["token"])
    if start:
        server.api("POST", f"/api/games/{gid}/start", {}, owner["token"])
    return gid


def answer(server, gid: int, reg: dict, pick) -> None:
    """Answer the seat's decision through the API with the first legal action ``pick`` accepts."""
    legal = server.api("GET", f"/api/games/{gid}/legal", None, reg["token"])
    action = next(a for a in legal["actions"] if pick(a))
    server.api("POST", f"/api/games/{gid}/actions", {"version": legal["version"], "action": action}, reg["token"])


def open_final(page) -> None:
    shown = "#final-screen:not([hidden]) .final-table tbody tr"
    page.wait_for_selector(shown)
    # a game a resignation ended draws its final screen again once every seat's private part
    # has come (zoocracy/ui.js, openPrivates): read it after that, not in between
    page.wait_for_load_state("networkidle")
    page.wait_for_selector(shown)


# --------------------------------------------------------------------------- 1. final table heads
@pytest.fixture(scope="module")
def resigned_zoocracy(server):
    """A Zoocracy game of a 32-character name and a short one that the second resigned at once."""
    ada, bob = person(server, long_name()), person(server)
    gid = two_seats(server, "zoocracy", ada, bob, "e2e-narrow-final")
    server.api("POST", f"/api/games/{gid}/resign", {}, bob["token"])
    return gid, ada, bob


@pytest.mark.parametrize("lang", LANGS)
def test_the_final_table_heads_break_between_words_on_a_phone(server, browser, watch, artifacts,
                                                              resigned_zoocracy, lang):
    gid, ada, _ = resigned_zoocracy
    w = words(lang)
    for viewport in (PHONE, LAPTOP):
        size = f"{viewport['width']}x{viewport['height']}"
        with page_at(browser, watch, server, ada, lang, viewport, f"/game.html?id={gid}", f"final-{lang}-{size}") as page:
            open_final(page)
            page.screenshot(path=str(artifacts / f"narrow-fit-final-{lang}-{size}.png"))
            heads = page.eval_on_selector_all(".final-table thead th",
                                              "els => els.filter(e => e.getClientRects().length).map(e => e.innerText.trim())")
            split = page.evaluate(SPLIT_WORDS, "#final-screen .final-table thead th")
            assert split == [], f"{size}: heads broken inside a word: {split}"
            cut = page.evaluate(CUT_OFF, "#final-screen .final-table thead th")
            assert cut == [], f"{size}: heads cut off: {cut}"
            box = page.evaluate(FINAL_BOX)
            assert box["tableLeft"] >= box["cardLeft"] and box["tableRight"] <= box["cardRight"], box
            assert box["tableScroll"] <= box["tableClient"] + 1 and box["cardScroll"] <= box["cardClient"] + 1, box
            assert page.evaluate(WIDTH) <= viewport["width"]
            # the long name ends in "…" within its column; its tooltip has it whole
            assert page.get_attribute(".final-table tr[data-seat='0'] .seat-name", "title") == ada["user"]["username"]
            if viewport is PHONE:
                # the short words of the parties' rows ("Goals", "Food"); the names are tooltips
                assert heads[2:5] == [w["zc.parties.goals"], w["zc.parties.food"], w["zc.parties.seats"]], heads
                titles = page.eval_on_selector_all(".final-table thead th", "els => els.map(e => e.title)")
                assert titles[2:4] == [w["zc.parties.goals_title"], w["zc.me.treasury"]], titles
                small = page.evaluate(SMALL_TEXT, "#final-screen *")
                assert small == [], f"text under 14 px on the phone's final screen: {small}"
            else:
                assert heads[2:6] == [w["zc.parties.goals_title"], w["zc.me.treasury"], w["zc.parties.seats"],
                                      w["zc.final.at_the_end"]], heads


def test_the_zoo_final_table_heads_on_a_phone(server, browser, watch, artifacts):
    """The same table of Ark Nova (its heads: words and icons) keeps its words whole too."""
    ada, bob = person(server, long_name()), person(server)
    gid = two_seats(server, "arknova", ada, bob, "e2e-narrow-final-zoo")
    server.api("POST", f"/api/games/{gid}/resign", {}, bob["token"])
    for lang in LANGS:
        with page_at(browser, watch, server, ada, lang, PHONE, f"/game.html?id={gid}", f"zoo-final-{lang}") as page:
            open_final(page)
            assert page.evaluate(SPLIT_WORDS, "#final-screen .final-table thead th") == []
            assert page.evaluate(CUT_OFF, "#final-screen .final-table thead th") == []
            box = page.evaluate(FINAL_BOX)
            assert box["tableRight"] <= box["cardRight"] and box["cardScroll"] <= box["cardClient"] + 1, box
            assert page.evaluate(SMALL_TEXT, "#final-screen *") == []
            if lang == "de":
                page.screenshot(path=str(artifacts / "narrow-fit-zoo-final-de-390x844.png"))


# --------------------------------------------------------------------------- 2. association table
ASSOC_BOX = """() => { const p = document.getElementById('panel-board'); const t = p.querySelector('table.assoc');
    const cs = getComputedStyle(p); const pr = p.getBoundingClientRect(); const tr = t.getBoundingClientRect();
    return { panelLeft: pr.left + parseFloat(cs.paddingLeft), panelRight: pr.right - parseFloat(cs.paddingRight),
             panelScroll: p.scrollWidth, panelClient: p.clientWidth, tableLeft: tr.left, tableRight: tr.right,
             tableWidth: tr.width, tableScroll: t.scrollWidth, tableClient: t.clientWidth }; }"""


@pytest.fixture(scope="module")
def zoo_game(server):
    """A running Ark Nova game; both players kept their first offer (the first player's move)."""
    ada, bob = person(server), person(server)
    gid = two_seats(server, "arknova", ada, bob, "e2e-narrow-assoc")
    for reg in (ada, bob):
        answer(server, gid, reg, lambda a: True)
    return gid, ada, bob


@pytest.mark.parametrize("lang", LANGS)
def test_the_association_table_fits_the_phone_panel(server, browser, watch, artifacts, zoo_game, lang):
    gid, _, bob = zoo_game
    w = words(lang)
    names = [w["board.workers"], w["board.partner_zoos"], w["board.universities"], w["board.projects"]]
    for viewport in (PHONE, LAPTOP):
        size = f"{viewport['width']}x{viewport['height']}"
        with page_at(browser, watch, server, bob, lang, viewport, f"/game.html?id={gid}", f"assoc-{lang}-{size}") as page:
            page.wait_for_selector("table.assoc tbody tr")
            heads = page.eval_on_selector_all("table.assoc thead th", "els => els.map(e => [e.title, e.innerText.trim()])")
            if viewport is PHONE:
                show_panel(page, "panel-board")
                page.locator(".assoc-block").scroll_into_view_if_needed()
                box = page.evaluate(ASSOC_BOX)
                assert box["tableLeft"] >= box["panelLeft"] - 0.5 and box["tableRight"] <= box["panelRight"] + 0.5, \
                    f"the association table is {box['tableWidth']:.0f} px wide in the panel: {box}"
                assert box["tableScroll"] <= box["tableClient"] + 1, box
                assert box["panelScroll"] <= box["panelClient"], f"the board panel scrolls sideways: {box}"
                # the heads are icons (their names are the tooltips); every text stays 14 px or more
                assert [title for title, _ in heads[1:]] == names, heads
                assert [text for _, text in heads[1:]] == ["", "", "", ""], heads
                assert page.locator("table.assoc thead th svg").count() == 4
                small = page.evaluate(SMALL_TEXT, "#panel-board table.assoc *, #panel-board .tiles-block *")
                assert small == [], small
            else:
                assert [text for _, text in heads[1:]] == names, heads
                assert [title for title, _ in heads[1:]] == names, heads
                box = page.evaluate(ASSOC_BOX)
                assert box["tableScroll"] <= box["tableClient"] + 1, box
            page.locator(".assoc-block").screenshot(path=str(artifacts / f"narrow-fit-assoc-{lang}-{size}.png"))
            if viewport is PHONE:
                page.screenshot(path=str(artifacts / f"narrow-fit-board-{lang}-{size}.png"))


# --------------------------------------------------------------------------- 3. a resigned game's treasuries
def test_a_resigned_zoocracy_game_shows_the_treasuries(server, browser, watch, artifacts):
    ada, bob = person(server), person(server)
    gid = two_seats(server, "zoocracy", ada, bob, "e2e-narrow-treasury")
    # the secret bids for the presidency (2 and 9 food), then the answers that follow (a card
    # passed, else the first), until the bids are paid: the treasuries are no longer the start's
    answer(server, gid, ada, lambda a: a == {"type": "bid", "amount": 2})
    answer(server, gid, bob, lambda a: a == {"type": "bid", "amount": 9})
    regs = [ada, bob]

    def treasuries() -> list[int]:
        return [server.api("GET", f"/api/games/{gid}", None, r["token"])["view"]["private"]["food"] for r in regs]

    for _ in range(12):
        if treasuries() != [20, 20]:
            break
        seat = min(server.api("GET", f"/api/games/{gid}")["waiting_for"])
        legal = server.api("GET", f"/api/games/{gid}/legal", None, regs[seat]["token"])["actions"]
        answer(server, gid, regs[seat], lambda a, passes={"type": "pass"} in legal: a == {"type": "pass"} or not passes)
    server.api("POST", f"/api/games/{gid}/resign", {}, bob["token"])
    result = server.api("GET", f"/api/games/{gid}")["result"]
    assert result["resigned"] == [1] and "treasury" not in result["details"], result
    opened = server.api("GET", f"/api/games/{gid}/history")["privates"]
    food = [opened[str(q)]["food"] for q in range(2)]
    assert food != [20, 20], f"the bids took no food: {food}"
    label = words("en")["zc.me.treasury"]
    for who, viewport in (("ada", LAPTOP), ("ada", PHONE), ("spectator", LAPTOP), ("replay", LAPTOP)):
        size = f"{viewport['width']}x{viewport['height']}"
        # ada's game page; signed out, a spectator's game page and the replay at its last version
        path = f"/replay.html?id={gid}" if who == "replay" else f"/game.html?id={gid}"
        tag = f"treasury-{size}" if who == "ada" else f"treasury-{who}"
        with page_at(browser, watch, server, ada if who == "ada" else None, "en", viewport, path,
                     tag) as page:
            open_final(page)
            col = page.eval_on_selector_all(".final-table thead th", "(els, label) => els.findIndex(e => e.title === label"
                                            " || e.innerText.trim() === label)", label) + 1
            assert col == 4, page.inner_text(".final-table thead")
            # the other seats' treasuries come with the finished game's private parts (a request)
            page.wait_for_load_state("networkidle")
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(
                    "(c) => [...document.querySelectorAll('.final-table tbody tr')].every(r => r.cells[c - 1].innerText.trim() !== '–')",
                    arg=col, timeout=5_000)
            shown = page.eval_on_selector_all(
                ".final-table tbody tr", f"rows => rows.map(r => [Number(r.dataset.seat), r.cells[{col - 1}].innerText.trim()])")
            assert sorted(shown) == [[0, str(food[0])], [1, str(food[1])]], (who, size, shown)
            page.screenshot(path=str(artifacts / f"narrow-fit-treasury-{who}-{size}.png"))


# --------------------------------------------------------------------------- 4. parliament rows
PARL_ROWS = """() => [...document.querySelectorAll('.zc-parl-row')].map(r => {
    const box = r.getBoundingClientRect(); const name = r.querySelector('.zc-party-name');
    const kids = [...r.children].filter(c => c.getClientRects().length).map(c => c.getBoundingClientRect());
    return { text: r.innerText, height: box.height, right: box.right, scroll: r.scrollWidth, client: r.clientWidth,
             lineHeight: parseFloat(getComputedStyle(r).lineHeight) || parseFloat(getComputedStyle(r).fontSize) * 1.5,
             tops: kids.map(k => k.top), bottoms: kids.map(k => k.bottom), kidsRight: Math.max(...kids.map(k => k.right)),
             title: name.title, nameText: name.textContent, nameScroll: name.scrollWidth, nameClient: name.clientWidth }; })"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1440x900", "390x844"])
def test_a_long_name_in_the_parliament_ends_in_an_ellipsis(server, browser, watch, artifacts, viewport):
    ada, bob = person(server, long_name()), person(server)
    gid = two_seats(server, "zoocracy", ada, bob, "e2e-narrow-parliament")
    size = f"{viewport['width']}x{viewport['height']}"
    with page_at(browser, watch, server, ada, "en", viewport, f"/game.html?id={gid}", f"parliament-{size}") as page:
        page.wait_for_selector(".zc-parl-row")
        if viewport is PHONE:
            show_panel(page, "panel-board")
        page.locator(".zc-parl-legend").scroll_into_view_if_needed()
        rows = page.evaluate(PARL_ROWS)
        assert len(rows) == 2
        for row in rows:
            # one line: every part of the row beside the others, none under them
            assert max(row["tops"]) < min(row["bottoms"]), row
            assert row["height"] < 1.7 * row["lineHeight"], row
            assert row["scroll"] <= row["client"] + 1 and row["kidsRight"] <= row["right"] + 0.5, row
            assert "0 seats" in row["text"].replace("\n", " "), row
        mine = rows[0]
        assert ada["user"]["username"] in mine["title"] and mine["title"] == mine["nameText"], mine
        assert mine["nameScroll"] > mine["nameClient"], f"the long name is not cut short: {mine}"
        assert page.evaluate(WIDTH) <= viewport["width"]
        page.locator(".zc-parl-body").screenshot(path=str(artifacts / f"narrow-fit-parliament-{size}.png"))
        page.screenshot(path=str(artifacts / f"narrow-fit-parliament-page-{size}.png"))


# --------------------------------------------------------------------------- 5. placeholders on the other pages
@pytest.fixture(scope="module")
def someone(server):
    """A player with a running game (their move) and a finished one, for the lists to show."""
    ada, bob = person(server), person(server)
    running = two_seats(server, "arknova", ada, bob, "e2e-narrow-pages-running")
    over = two_seats(server, "zoocracy", ada, bob, "e2e-narrow-pages-over")
    server.api("POST", f"/api/games/{over}/resign", {}, bob["token"])
    return ada, running, over


UNFILLED = "() => window.menagerie.unfilled()"
HAS_UNFILLED = "() => !!(window.menagerie && typeof window.menagerie.unfilled === 'function')"


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_leaves_a_placeholder_unfilled(server, browser, watch, someone, lang):
    ada, running, over = someone
    w = words(lang)
    name = ada["user"]["username"]
    with page_at(browser, watch, server, ada, lang, LAPTOP, "/", f"pages-{lang}") as page:
        checked = []

        def check(where: str) -> None:
            page.wait_for_load_state("networkidle")
            assert page.evaluate(HAS_UNFILLED), f"{where} has no window.menagerie.unfilled()"
            assert page.evaluate(UNFILLED) == [], f"{where} ({lang})"
            body = page.inner_text("body")
            assert "{" not in body and "}" not in body, f"{where} ({lang}): {body[:400]}"
            checked.append(where)

        page.wait_for_selector(f'.game-item[data-game="{running}"]')
        page.wait_for_selector(f'.game-item[data-game="{over}"]')
        check("lobby")

        page.goto(server.url(f"/player.html?name={name}"))
        page.wait_for_selector("#profile-streak")
        assert page.inner_text("#profile-name") == name
        assert page.inner_text("#profile-streak") == fill(w["profile.streak"], current=0, best=0)
        check("profile")

        page.goto(server.url("/daily.html"))
        page.wait_for_function("() => document.querySelector('#day-title').textContent.trim() !== ''"
                               " && document.querySelector('#past-list').children.length > 0")
        check("daily")

        for game in ("arknova", "zoocracy"):
            page.goto(server.url(f"/rules.html?game={game}"))
            page.wait_for_function("() => document.querySelector('#rules').children.length > 0")
            title = fill(w["rules.title_of"], title=w[f"game.{game}.title"])
            page.wait_for_function("(t) => document.querySelector('#rules-title').textContent === t", arg=title)
            check(f"rules of {game}")
        assert checked == ["lobby", "profile", "daily", "rules of arknova", "rules of zoocracy"]


# --------------------------------------------------------------------------- 6. the parties' score rows
#: the parties' heads (a phone's line above the rows) and each row's numbers: boxes and widths
PARTY_HEADS = """() => {
    const box = (e) => { const r = e.getBoundingClientRect();
      return { text: e.innerText.trim(), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
               scroll: e.scrollWidth, client: e.clientWidth }; };
    const list = document.querySelector('.zc-parties'); const l = list.getBoundingClientRect();
    const head = document.querySelector('.zc-parties-head');
    const heads = head.getClientRects().length ? [...head.children].filter(c => c.getClientRects().length).map(box) : [];
    const rows = [...document.querySelectorAll('.zc-party-row')].map(r => ({
      row: box(r), cells: [...r.querySelectorAll(':scope > .num')].filter(c => c.getClientRects().length).map(c => {
        const b = c.querySelector('b'); return { ...box(c), num: box(b) }; }) }));
    return { heads, rows, listLeft: l.left, listRight: l.right, listScroll: list.scrollWidth, listClient: list.clientWidth }; }"""


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """The pairs of `boxes` that share some area (a half pixel of rounding aside)."""
    return [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5]


@pytest.fixture(scope="module")
def zoocracy_game(server):
    """A running Zoocracy game of a 32-character name and a short one (the presidency's bids)."""
    ada, bob = person(server, long_name()), person(server)
    gid = two_seats(server, "zoocracy", ada, bob, "e2e-narrow-parties")
    return gid, ada, bob


@pytest.mark.parametrize("lang", LANGS)
def test_the_party_score_heads_do_not_overlap_on_a_phone(server, browser, watch, artifacts, zoocracy_game, lang):
    """The heads above the parties' numbers ("Мета", "Мандати", "Карти", "Їжа") stand side by side,
    whole, each number under its head; the laptop's rows (their words inline) do not overlap."""
    gid, ada, _ = zoocracy_game
    w = words(lang)
    for viewport in (PHONE, LAPTOP):
        size = f"{viewport['width']}x{viewport['height']}"
        with page_at(browser, watch, server, ada, lang, viewport, f"/game.html?id={gid}", f"parties-{lang}-{size}") as page:
            page.wait_for_selector(".zc-party-row .num b")
            page.locator(".zc-parties").scroll_into_view_if_needed()
            got = page.evaluate(PARTY_HEADS)
            assert len(got["rows"]) == 2, got
            assert got["listScroll"] <= got["listClient"] + 1, got
            for row in got["rows"]:
                assert len(row["cells"]) == 4, row
                assert overlaps(row["cells"]) == [], f"{size}: a row's numbers overlap: {row}"
                assert all(c["left"] >= row["row"]["left"] - 0.5 and c["right"] <= row["row"]["right"] + 0.5
                           for c in row["cells"]), f"{size}: a number out of its row: {row}"
            assert page.evaluate(WIDTH) <= viewport["width"]
            if viewport is PHONE:
                heads = got["heads"]
                assert [x["text"] for x in heads] == [w["zc.parties.party"], w["zc.parties.goals"], w["zc.parties.seats"],
                                                      w["zc.parties.cards"], w["zc.parties.food"]], heads
                assert overlaps(heads) == [], f"heads overlap: {[(x['text'], x['left'], x['right']) for x in heads]}"
                cut = [x for x in heads if x["scroll"] > x["client"] + 1]
                assert cut == [], f"heads cut off: {cut}"
                assert all(x["left"] >= got["listLeft"] - 0.5 and x["right"] <= got["listRight"] + 0.5 for x in heads), got
                # each number stands under its head: their right edges meet (the columns align right)
                for row in got["rows"]:
                    for head, cell in zip(heads[1:], row["cells"], strict=True):
                        assert abs(cell["num"]["right"] - head["right"]) <= 1, (head, cell)
                small = page.evaluate(SMALL_TEXT, ".zc-parties *")
                assert small == [], f"text under 14 px in the parties' rows: {small}"
            page.locator(".zc-parties").screenshot(path=str(artifacts / f"narrow-fit-parties-{lang}-{size}.png"))
