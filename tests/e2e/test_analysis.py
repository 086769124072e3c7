"""Post-game analysis on the replay page (issue #19), in Chromium: an Ark Nova game played by two
greedy bots is imported; its replay page offers "Request analysis", shows the progress while the
server's worker process analyses it (the e2e server runs it at 1 playout), then the chart (one
line per seat, the replay's version marked), the accuracy per seat and the biggest mistakes; a
click on a mistake moves the board to that version and draws the better answer on it. Then a
game with hints: the new-game form's checkbox, the badge, the Hint button drawing its answer.
Any browser console error fails the test.

Screenshots: ``test-artifacts/analysis-1440x900.png``, ``analysis-390x844.png``,
``hint-1440x900.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.arkrecord import greedy_record

from .helpers import PASSWORD, WAIT, sign_in, unique

LAPTOP = {"width": 1440, "height": 900}
STATIC = Path(__file__).resolve().parents[2] / "static"
PHONE = {"width": 390, "height": 844}
HINT = 300_000  # ms: a hint on a loaded machine (the e2e server allows it as long)
ANALYSIS = 600_000  # ms: the analysis of a whole game, on a loaded machine (a bound for a failure)


@pytest.fixture(scope="module")
def imported(server):
    name = unique("an")
    reg = server.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})
    game = server.api("POST", "/api/games/import", greedy_record(), reg["token"])
    return game["id"], reg


def open_signed_in(page, server, reg, path: str) -> None:
    page.goto(server.url("/"))
    sign_in(page, server, reg["user"], reg["token"])
    page.goto(server.url(path))


def test_request_analysis_then_see_a_mistake_on_the_board(server, browser, console, artifacts,
                                                         imported):
    gid, reg = imported
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = console.watch(ctx.new_page(), "analysis")
        open_signed_in(page, server, reg, f"/replay.html?id={gid}")
        page.wait_for_selector("#analysis:not([hidden]) #an-request", timeout=WAIT)
        # the end's final screen covers the page: its button leads to the analysis box
        page.wait_for_selector("#final-screen:not([hidden]) #final-analysis", timeout=WAIT)
        page.click("#final-analysis")
        assert page.is_hidden("#final-screen")
        page.click("#an-request")
        # the progress bar while it runs (polled every 2 s), then the report
        page.wait_for_selector("#an-progress, #an-chart", timeout=WAIT)
        page.wait_for_selector("#an-chart", timeout=ANALYSIS)
        assert page.locator("#an-chart polyline.an-line").count() == 2
        assert page.locator("#an-accuracy li").count() == 2
        assert "%" in page.inner_text("#an-accuracy")
        # what the accuracy counts: the seat's mean win chance given away, as its tooltip
        tip = page.locator("#an-accuracy li").first.get_attribute("title") or ""
        assert re.search(r"Win chance given away per decision, on average: \d+(\.\d)? percentage", tip), tip
        # no stray word "null"; the chart's axes say what they measure, with their ends
        assert "null" not in page.inner_text("#analysis")
        names = page.eval_on_selector_all("#analysis .an-axis-name", "els => els.map(e => e.textContent)")
        assert names == ["expected margin (VP)", "moves"]
        last = server.api("GET", f"/api/games/{gid}")["version"]
        assert page.inner_text("#analysis .an-xaxis").split()[-1] == str(last)
        report = server.api("GET", f"/api/games/{gid}/analysis")["report"]
        assert report["complete"] and report["mistakes"], "greedy makes a few mistakes"
        first = report["mistakes"][0]
        button = page.locator("#an-mistakes button").first
        text = button.inner_text()
        assert "VP" in text and first["text"]["best"]["text"].split(" (")[0] in text
        # the chart marks the version shown
        x_before = page.get_attribute("#an-chart .an-now", "x1")
        button.click()
        page.wait_for_function(f"() => Number(document.body.dataset.version) === {first['version']}"
                               " && Number(document.body.dataset.suggested) > 0", timeout=WAIT)
        assert page.get_attribute("#an-chart .an-now", "x1") != x_before
        assert button.get_attribute("aria-current") == "true"
        best = first["best"]
        marked = page.locator(".suggested")
        assert marked.count() > 0
        # the better answer is what is drawn: its card, its action card or its placement
        if best.get("type") == "place":
            assert page.locator("#zoo-map .ghost-outline").count() == 1
        elif best.get("card") in ("animals", "build", "cards", "association", "sponsors"):
            assert page.locator(f'.slot.suggested[data-card="{best["card"]}"]').count() == 1
        else:
            ids = [best.get("card")] + list(best.get("cards") or [])
            assert any(page.locator(f'.suggested[data-id="{c}"]').count() for c in ids if c)
        # the replay bar says what is drawn, and that the mistake's seat decides here (not who
        # made the move before)
        assert first["text"]["best"]["text"].split(" (")[0] in page.inner_text("#an-better")
        where = page.evaluate("document.getElementById('an-better').parentElement.textContent")
        assert "decides here and chose" in where and " moved" not in where, where
        # the seat of the mistake is the one shown (its hand and zoo)
        assert page.evaluate("() => window.menagerie.state.seat") == first["seat"]
        page.screenshot(path=str(artifacts / "analysis-1440x900.png"))
        # stepping away takes the drawing off; back again draws it again
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => Number(document.body.dataset.version) === {first['version'] + 1}",
                               timeout=WAIT)
        assert page.locator(".suggested").count() == 0
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => Number(document.body.dataset.suggested) > 0", timeout=WAIT)
    finally:
        ctx.close()


def test_analysis_on_a_phone(server, browser, console, artifacts, imported):
    gid, reg = imported
    server_report = server.api("GET", f"/api/games/{gid}/analysis")
    if server_report["status"] != "done":
        pytest.skip("needs the analysis of the test above")
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = console.watch(ctx.new_page(), "analysis-phone")
        page.goto(server.url(f"/replay.html?id={gid}"))  # anybody may read it
        page.wait_for_selector("#an-chart", timeout=WAIT)
        page.wait_for_selector("#final-screen:not([hidden]) .final-card", timeout=WAIT)
        page.click("#final-screen .final-head button")
        box = page.locator("#an-chart").bounding_box()
        assert box and box["width"] <= PHONE["width"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator("#an-mistakes button").first.click()
        page.wait_for_function("() => Number(document.body.dataset.suggested) > 0", timeout=WAIT)
        page.screenshot(path=str(artifacts / "analysis-390x844.png"))
    finally:
        ctx.close()


def new_hints_game(page, server, name: str, seed: str = "e2e-hints-1") -> int:
    """Register ``name`` and create a game with hints on against a bot (the form's hints box
    is off until checked), dealt from ``seed`` (the same game every run); returns the game's
    id, on its page."""
    from .helpers import game_id, register

    register(page, server, name)
    page.click("#new-game-btn")
    page.wait_for_selector("#ng-hints")
    assert not page.is_checked("#ng-hints")  # off unless chosen
    page.check("#ng-hints")
    page.check('input[data-bot-seat="1"]')
    page.click("#create-game")
    page.wait_for_url(re.compile(r".*/game\.html\?id=\d+"))
    server.set_seed(game_id(page), seed)
    return game_id(page)


def test_hints_agreed_at_creation_and_the_hint_drawn(server, browser, console, artifacts):
    from .helpers import start_from_table, wait_my_turn

    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = console.watch(ctx.new_page(), "hints")
        gid = new_hints_game(page, server, unique("hn"))
        assert server.api("GET", f"/api/games/{gid}")["hints"] is True
        # shown before anybody joins or plays: the waiting room and the table say so
        page.wait_for_selector("#hints-note", timeout=WAIT)
        start_from_table(page)
        page.wait_for_selector("#status-line .badge.hints", timeout=WAIT)
        wait_my_turn(page)
        page.click("#hint-btn")
        page.wait_for_selector("#hint-box", timeout=HINT)
        page.wait_for_function("() => Number(document.body.dataset.hintMarks) > 0", timeout=WAIT)
        assert page.inner_text("#hint-box").strip()
        hinted = page.evaluate("() => [...document.querySelectorAll('.suggested')]"
                               ".map((el) => el.dataset.id || el.dataset.card || '')")
        legal = page.evaluate("() => window.menagerie.state.legal")
        # what is drawn is one of the legal answers' cards
        named = {c for a in legal for c in ([a.get("card")] + list(a.get("cards") or [])) if c}
        assert hinted and set(hinted) <= named | {""}
        page.screenshot(path=str(artifacts / "hint-1440x900.png"))
        # the lobby marks the game
        page.goto(server.url("/"))
        page.wait_for_selector(f'[data-game="{gid}"] .badge.hints', timeout=WAIT)
    finally:
        ctx.close()


#: JS: this page owes a decision now, and only this page (a bot answers a simultaneous
#: decision first: see helpers.ALONE), with the answers of the newest version
OWES = ("() => { const s = window.menagerie.state; return !!s.view && !s.pending"
        " && s.legalVersion === s.version && s.legal.length > 0"
        " && (s.waitingFor || []).every(x => x === s.seat)"
        " && document.querySelector('#decision.mine') !== null; }")


def hint_button_works(page) -> None:
    """The Hint button is on the bar, usable, and labelled."""
    button = page.locator("#decision #hint-btn")
    assert button.count() == 1, "the Hint button is gone from the bar"
    assert button.is_visible() and button.is_enabled()
    assert button.inner_text().strip()


def test_the_hint_button_stays_through_moves_and_redraws(server, browser, console, artifacts):
    """The decision bar is drawn anew after every move, every WebSocket update, and inside a
    decision (a card picked for the opening keep, the collapse button, a chained move's next
    question): the Hint button is part of each drawing and works after each, and a hint asked
    for stays shown while the bar redraws at its version."""
    import random

    from .helpers import click_progress, start_from_table, version

    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = console.watch(ctx.new_page(), "hint-redraws")
        gid = new_hints_game(page, server, unique("hr"))
        start_from_table(page)
        page.wait_for_function(OWES, timeout=WAIT)
        # the opening keep: each card picked redraws the bar from inside it
        hint_button_works(page)
        for cid in page.eval_on_selector_all(
                "#decision .tray-card[aria-pressed]", "els => els.map(e => e.dataset.id)")[:2]:
            page.click(f'#decision .tray-card[data-id="{cid}"]')
            page.wait_for_selector(f'#decision .tray-card[data-id="{cid}"][aria-pressed="true"]')
            hint_button_works(page)
        # asked: the proposal stays on the bar through redraws at its version
        page.click("#hint-btn")
        page.wait_for_selector("#decision #hint-box", timeout=HINT)
        said = page.inner_text("#hint-box").strip()
        assert said and "object" not in said and "{" not in said, said
        for cid in page.eval_on_selector_all('#decision .tray-card[aria-pressed="true"]',
                                              "els => els.map(e => e.dataset.id)"):
            page.click(f'#decision .tray-card[data-id="{cid}"]')  # picked off again
            page.wait_for_selector(f'#decision .tray-card[data-id="{cid}"][aria-pressed="false"]')
            hint_button_works(page)
            assert page.locator("#decision #hint-box").count() == 1
        assert page.evaluate("() => Number(document.body.dataset.hintMarks)") > 0
        rng = random.Random(11)
        kinds, moves, chained = [], 0, 0
        while moves < 8:
            before = version(page)
            kinds.append(click_progress(page, rng))
            moves += 1
            # the next question: the bot's moves arrive over the WebSocket first, or it is the
            # next step of my own move (a building, then its placement: no bot in between)
            page.wait_for_function(f"() => window.menagerie.state.version > {before}", timeout=WAIT)
            page.wait_for_function(OWES, timeout=WAIT * 2)
            if server.api("GET", f"/api/games/{gid}")["version"] == before + 1:
                chained += 1
            hint_button_works(page)
            assert page.locator("#decision #hint-box").count() == 0  # the old version's is gone
            # a redraw from inside the bar, as its own controls make one (a stepper, an
            # animal picked, a placement browsed)
            page.evaluate("() => window.menagerie.ui.bar.render()")
            hint_button_works(page)
            if moves == 4:
                page.screenshot(path=str(artifacts / "hint-moves-1440x900.png"))
        assert chained, f"no decision inside a chained move was met ({kinds})"
        # and it still works: a proposal at the current version
        page.click("#hint-btn")
        page.wait_for_selector("#decision #hint-box", timeout=HINT)
        said = page.inner_text("#hint-box").strip()
        # in words: the compared answer's label too (no "[object Object]", no "{label}")
        assert said and "object" not in said and "{" not in said, said
        # the number of sampled games in the right form ("1 sampled game", "8 ... games")
        # and in the game's unit (Zoocracy scores in goal steps)
        reasons = page.evaluate(
            "async () => { const m = await import('/js/hintbutton.js');"
            " const r = (n, game) => m.reasonText({key: 'analysis.reason.better', params: {gain:"
            " 1.3, alternative: 'X', playouts: n}}, null, null, game);"
            " return [r(1, 'arknova'), r(8, 'arknova'), r(8, 'zoocracy'), r(0, 'zoocracy')]; }")
        assert reasons == ["About 1.3 VP better than X in 1 sampled game.",
                           "About 1.3 VP better than X in 8 sampled games.",
                           "About 1.3 goal steps better than X in 8 sampled games.",
                           "About 1.3 goal steps better than X at a quick look."], reasons
        page.screenshot(path=str(artifacts / "hint-after-moves-1440x900.png"))
        page.set_viewport_size(PHONE)
        page.wait_for_function("() => document.documentElement.scrollWidth <= 390", timeout=WAIT)
        hint_button_works(page)
        # a phone's bar folds away and opens again (a redraw each): the button and the proposal
        # are part of both drawings
        if page.locator("#decision .bar-collapse").is_visible():
            page.click("#decision .bar-collapse")
            page.wait_for_selector("#decision.collapsed")
            hint_button_works(page)
            page.click("#decision .bar-collapse")
            page.wait_for_selector("#decision:not(.collapsed)")
            hint_button_works(page)
            assert page.locator("#decision #hint-box").count() == 1
        box = page.locator("#hint-btn").bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]
        page.screenshot(path=str(artifacts / "hint-after-moves-390x844.png"))
    finally:
        ctx.close()


def zoocracy_labels(seats: int) -> list[dict]:
    """One label of each kind (key, and the vote's yes/no) of Zoocracy's answers, from real
    decisions of a game of ``seats``, with the engine's English text."""
    import engine
    from engine.bots.labels import describe
    from engine.core import rng as _rng

    game = engine.get_game("zoocracy")
    found: dict[tuple, dict] = {}
    for n in range(4):
        state = game.setup(seats, {}, f"e2e-labels-{n}")
        chooser = {"rng": n}
        for _ in range(600):
            waiting = sorted(game.waiting_for(state))
            if not waiting:
                break
            legal = game.legal_actions(state, waiting[0])
            for a in legal:
                lab = describe(game, state, waiting[0], a)
                found.setdefault((lab["key"], lab["params"].get("yes")), lab)
            state, _ = game.apply(state, waiting[0], legal[_rng.randbelow(chooser, len(legal))])
    return list(found.values())


LABEL_TEXTS = ("async (labels) => { const m = await import(new URL('js/analysis.js', location.href).href);"
               " return labels.map((l) => m.labelText(l, window.menagerie.ui)); }")


@pytest.mark.parametrize("lang", ["uk", "de", "en"])
def test_zoocracy_labels_in_the_readers_language(server, browser, console, lang):
    """A Zoocracy game with hints, read in Ukrainian, German and English: every kind of label
    an analysis or a hint shows (one of each, from real decisions) is in the page's language,
    enclosures by their names in it, parties by their players, never the engine's English with
    its "party 2"; and the Hint button's proposal is in words."""
    import json

    from .helpers import wait_my_turn

    name = unique(f"zl{lang}")
    reg = server.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})
    game = server.api("POST", "/api/games", {"game": "zoocracy", "seats": 3, "bots": [1, 2],
                                             "hints": True}, reg["token"])
    server.set_seed(game["id"], "e2e-zoocracy-labels-1")  # the same deal every run
    server.api("POST", f"/api/games/{game['id']}/start", None, reg["token"])
    cat = json.loads((STATIC / "i18n" / f"{lang}.json").read_text())
    labels = zoocracy_labels(3)
    assert len(labels) >= 15
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = console.watch(ctx.new_page(), f"zc-labels-{lang}")
        page.goto(server.url("/"))
        sign_in(page, server, reg["user"], reg["token"])
        page.evaluate("(l) => localStorage.setItem('menagerie.lang', l)", lang)
        page.goto(server.url(f"/game.html?id={game['id']}"))
        page.wait_for_function("() => window.menagerie && window.menagerie.ui"
                               " && window.menagerie.state.view", timeout=WAIT)
        assert page.evaluate("document.documentElement.lang") == lang
        texts = page.evaluate(LABEL_TEXTS, labels)
        enclosures = {k.rsplit(".", 1)[1]: v for k, v in cat.items()
                      if k.startswith("zoocracy.enclosure.")}
        for lab, text in zip(labels, texts):
            p = lab["params"]
            assert text and "{" not in text and "party " not in text, (lab, text)
            if lang != "en":
                assert text != lab["text"], f"{lab['key']} shows the engine's English: {text}"
            for k in ("enclosure", "from", "to"):
                if p.get(k):
                    assert enclosures[p[k]] in text and p[k] not in text, (lab, text)
            if p.get("office"):
                assert cat[f"zc.office.{p['office']}"] in text, (lab, text)
            if p.get("party") == 0:  # the reader's own party: by the player's name
                assert name in text, (lab, text)
        # the Hint button's proposal in this language
        wait_my_turn(page, timeout=WAIT * 2)
        page.click("#hint-btn")
        page.wait_for_selector("#decision #hint-box", timeout=HINT)
        said = page.inner_text("#hint-box").strip()
        assert said and "{" not in said and "object" not in said and "party " not in said, said
        assert said.startswith(cat["hints.proposal"].split("{")[0].strip()), said
    finally:
        ctx.close()
