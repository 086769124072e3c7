"""The table in Ukrainian and German: a browser whose language is Ukrainian gets the lobby, the
board, the decision bar, the log and the cards in Ukrainian (and the server's error sentences);
the switch in the header turns the same table into German. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import contextlib
import json
import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import DESKTOP, ROOT
from .helpers import (
    ALONE,
    PASSWORD,
    WAIT,
    click_any_legal,
    game_id,
    unique,
    wait_running,
    wait_settled,
)

# the page owes an answer, or the game is over
MINE_OR_OVER = ("() => { const s = window.menagerie.state; return !!(s.view && s.view.public.over)"
                f" || (!s.pending && s.legalVersion === s.version && s.legal.length > 0 && {ALONE}); }}")

#: English words of the table's texts that no translated page may show
ENGLISH = re.compile(r"\b(Your|Waiting|Break|Display|Seat|Appeal|Conservation|Reputation|Loading|"
                     r"Animals|Build|Sponsors|Association|Log|Board|Zoo map|Money|strength|"
                     r"Done|Cancel|folder|Sign in|Rules|Cards)\b")
CYRILLIC = re.compile("[а-яіїєґ]", re.I)


def names(lang: str) -> dict[str, str]:
    path = ROOT / "engine" / "arknova" / "data" / "i18n" / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8"))["cards"]


def visible_text(page) -> str:
    """What a person reads on the table (header, score track, panels, decision bar)."""
    return page.evaluate("""() => ['.topbar', '#scoretrack', '#panels', '#decision']
        .map(s => document.querySelector(s)).filter(Boolean).map(e => e.innerText).join('\\n')""")


def english_left(text: str, allowed: tuple[str, ...]) -> list[str]:
    for word in allowed:
        text = text.replace(word, "")
    return sorted(set(ENGLISH.findall(text)))


def play_a_little(page, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        page.wait_for_function(MINE_OR_OVER)  # the bot's move first, then mine
        if page.evaluate("() => !!window.menagerie.state.view.public.over"):
            break
        assert click_any_legal(page, rng) != "wait"
    wait_settled(page)


def hand_card(page) -> tuple[str, str]:
    """(id, shown name) of the first card in the player's hand."""
    page.wait_for_selector("#hand .card[data-id]")
    return page.eval_on_selector("#hand .card[data-id]",
                                 "e => [e.dataset.id, e.querySelector('.card-name').textContent]")


def test_the_table_in_ukrainian_and_german(server, browser, console, artifacts):
    # bypass_csp: the helpers wait with string predicates, which a strict CSP would refuse
    ctx = browser.new_context(viewport=DESKTOP, locale="uk-UA", bypass_csp=True)
    try:
        # the server's error sentence in Ukrainian (a page of its own: the browser logs the 401)
        probe = ctx.new_page()
        probe.goto(server.url("/"))
        probe.wait_for_selector("#auth-form")
        probe.fill("#auth-user", unique("nobody"))
        probe.fill("#auth-pass", "not-the-password")
        probe.click("#login-btn")
        probe.wait_for_function("document.querySelector('#auth-error').textContent.length > 0")
        assert probe.inner_text("#auth-error") == "Неправильне ім’я користувача або пароль."
        probe.close()
        # the lobby speaks Ukrainian
        page = console.watch(ctx.new_page(), "uk")
        page.set_default_timeout(WAIT)
        page.goto(server.url("/"))
        page.wait_for_selector("#auth-form")
        assert page.evaluate("document.documentElement.lang") == "uk"
        assert page.inner_text("#new-game-btn") == "Нова гра"
        assert page.input_value("#lang-switch") == "uk"
        name = unique("olena")
        page.fill("#auth-user", name)
        page.fill("#auth-pass", PASSWORD)
        page.click("#register-btn")
        page.wait_for_selector("#logout")
        assert "Ви увійшли як" in page.inner_text("#auth")
        # a game against a bot, started from the table
        page.click("#new-game-btn")
        page.wait_for_selector("#ng-seats")
        assert "2 гравці" in page.inner_text("#ng-seats")
        page.check('input[data-bot-seat="1"]')
        page.click("#create-game")
        page.wait_for_url(re.compile(r".*/game\.html\?id=\d+"))
        server.set_seed(game_id(page), "e2e-i18n-ark-1")
        page.wait_for_selector("#start-btn:not([disabled])")
        assert page.inner_text("#waiting-room h2") == "Чекаємо на гравців"
        page.click("#start-btn")
        wait_running(page)
        play_a_little(page, 10, random.Random(11))

        board = page.inner_text("#board")
        assert "Вітрина" in board and "Асоціація" in board and "Природоохоронні проєкти" in board
        assert CYRILLIC.search(page.inner_text("#decision .ask"))
        log = wait_log(page, "стартові карти")
        assert "стартові карти" in log, log[:500]
        assert "Ви використовуєте дію «" in log or "використовує дію «" in log, log[:500]
        cid, shown = hand_card(page)
        assert shown == names("uk")[cid], (
            f"card {cid} shows {shown!r}: the catalog must carry the card names "
            "(GET /api/catalog/arknova -> i18n, from app.i18n.data_translations)")
        ability = page.query_selector("#hand .card .ability b")
        if ability:
            assert CYRILLIC.search(ability.inner_text())
        left = english_left(visible_text(page), (name, "Menagerie", "Ark Nova"))
        assert not left, f"English on the Ukrainian table: {left}"
        page.screenshot(path=str(artifacts / "i18n-uk-table-1920x1080.png"))

        # the switch in the header: the same table in German (the choice is remembered)
        gid = page.evaluate("window.menagerie.state.id")
        page.select_option("#lang-switch", "de")
        page.wait_for_load_state("load")
        wait_running(page)
        wait_settled(page)
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.evaluate("localStorage.getItem('menagerie.lang')") == "de"
        board = page.inner_text("#board")
        assert "Auslage" in board and "Verband" in board and "Artenschutzprojekte" in board
        log = wait_log(page, "Startkarten", "Aktion „")
        assert "Startkarten" in log and "Aktion „" in log, log[:500]
        cid, shown = hand_card(page)
        assert shown == names("de")[cid]
        left = english_left(visible_text(page), (name, "Menagerie", "Ark Nova"))
        assert not left, f"English on the German table: {left}"
        page.screenshot(path=str(artifacts / "i18n-de-table-1920x1080.png"))

        # a card in the gallery, in German
        page.goto(server.url(f"/cards.html?game=arknova&q={cid}"))
        page.wait_for_selector(f'#cards .card[data-id="{cid}"]')
        assert page.inner_text(f'#cards .card[data-id="{cid}"] .card-name') == names("de")[cid]
        assert "von" in page.inner_text("#count")
        page.screenshot(path=str(artifacts / "i18n-de-cards-1920x1080.png"))
        assert gid
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,word", [("uk", "Галерея карт"), ("de", "Kartengalerie")])
def test_lobby_follows_the_browser_language(server, browser, console, lang, word):
    ctx = browser.new_context(viewport=DESKTOP, locale={"uk": "uk-UA", "de": "de-DE"}[lang])
    try:
        page = console.watch(ctx.new_page(), f"lobby-{lang}")
        page.goto(server.url("/"))
        page.wait_for_selector("#auth-form")
        assert page.inner_text(".top-links") .startswith(word)
        assert page.evaluate("document.documentElement.lang") == lang
    finally:
        ctx.close()


# --------------------------------------------------------------------------- the Zoocracy table
#: English words of the Zoocracy table's texts (labels, buttons, tooltips, log) that no
#: translated page may show
ZC_ENGLISH = re.compile(
    r"\b(Goal track|Goals?|Seats?|Cards|Food|Party|Parties|Parliament|Government|Coalition|"
    r"President|Presidential|Treasury|Campaign|Round|Events?|Waiting|Your|You|you|Seat order|"
    r"Next election|majority|face down|Bid|Vote|Pass|Done|Log|Cancel|enclosure|food|seats|Deck|"
    r"discard|Secret|Public|Phases|Progress|caretaker|Hide|Answers|Sending|answered|"
    r"waiting|secret|bid|placed|took|drew|begins|elected|Nobody|nobody|Paid|Free|"
    r"Manipulated|Blockaded|ready|used|deciding|Final result|Game over)\b")

ZC_MINE_OR_OVER = ("() => { const s = window.menagerie.state;"
                   " if (s.view && s.view.public.over) return true;"
                   " return !s.pending && s.legalVersion === s.version && s.legal.length > 0"
                   " && document.querySelector('#decision.mine') !== null"
                   f" && {ALONE}; }}")


def table_words(page) -> str:
    """The table's text and the tooltips and labels of its elements (title, aria-label)."""
    return page.evaluate("""() => {
        const parts = ['.topbar', '#scoretrack', '#panels', '#decision'].map(s => document.querySelector(s)).filter(Boolean);
        const out = parts.map(e => e.innerText);
        for (const p of parts) for (const e of p.querySelectorAll('[title], [aria-label]')) {
            out.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '');
        }
        for (const e of document.querySelectorAll('svg title')) out.push(e.textContent);
        return out.join('\\n');
    }""")


def zc_english_left(page, allowed: tuple[str, ...]) -> list[str]:
    text = table_words(page)
    for word in allowed:
        text = text.replace(word, "")
    return sorted(set(ZC_ENGLISH.findall(text)))


def play_zoocracy(page, answers: int, rng: random.Random) -> None:
    """Answer `answers` of the human seat's decisions by clicking answers of the bar."""
    for _ in range(answers):
        page.wait_for_function(ZC_MINE_OR_OVER, timeout=WAIT)
        if page.evaluate("() => !!window.menagerie.state.view.public.over"):
            return
        before = page.evaluate("() => window.menagerie.state.version")
        keys = page.eval_on_selector_all("#decision .answer:not([disabled])", "els => els.map(e => e.dataset.answer)")
        assert keys, "my decision, but no answer in the bar"
        page.click(f"#decision .answer[data-answer='{rng.choice(keys)}']")
        page.wait_for_function("(v) => window.menagerie.state.version > v", arg=before, timeout=WAIT)
    wait_settled(page)


def wait_log(page, *texts: str) -> str:
    """The log's text once it holds every one of ``texts`` (or as it is after WAIT ms)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("(xs) => { const el = document.getElementById('log');"
                               " return !!el && xs.every(x => el.innerText.includes(x)); }",
                               arg=list(texts), timeout=WAIT)
    return page.inner_text("#log")


def test_the_zoocracy_table_in_ukrainian_and_german(server, browser, console, artifacts):
    ctx = browser.new_context(viewport=DESKTOP, locale="uk-UA", bypass_csp=True)
    try:
        page = console.watch(ctx.new_page(), "zoocracy-uk")
        page.set_default_timeout(WAIT)
        page.goto(server.url("/"))
        page.wait_for_selector("#auth-form")
        name = unique("mykola")
        page.fill("#auth-user", name)
        page.fill("#auth-pass", PASSWORD)
        page.click("#register-btn")
        page.wait_for_selector("#logout")
        page.click("#new-game-btn")
        page.wait_for_selector("#ng-game")
        page.select_option("#ng-game", "zoocracy")
        page.select_option("#ng-seats", "3")
        for seat in (1, 2):
            page.check(f'input[data-bot-seat="{seat}"]')
        page.click("#create-game")
        page.wait_for_url(re.compile(r".*/game\.html\?id=\d+"))
        server.set_seed(game_id(page), "e2e-i18n-zoocracy-1")
        page.wait_for_selector("#start-btn:not([disabled])")
        page.click("#start-btn")
        wait_running(page)
        assert page.evaluate("() => document.body.classList.contains('zoocracy-game')")
        # the first question (a secret bid) and its dialog, then a few more answers
        page.wait_for_function(ZC_MINE_OR_OVER)
        wait_settled(page)
        assert CYRILLIC.search(page.inner_text("#decision .ask"))
        assert page.locator('#decision [aria-label="на одну більше"]').count() == 1
        left = zc_english_left(page, (name,))
        assert not left, f"English on the Ukrainian Zoocracy table: {left}"
        play_zoocracy(page, 6, random.Random(7))
        board = page.inner_text("#board")
        assert "Парламент" in board and "Уряд" in board
        assert "трек мети" in page.inner_text("#scoretrack").lower()
        assert "Будинок левів" in page.inner_text("#zoo-map")
        log = wait_log(page, "Ви робите таємну ставку.", "Ставки розкрито")
        assert "Ви робите таємну ставку." in log and "Ставки розкрито" in log, log[-1500:]
        hand = page.evaluate("() => window.menagerie.state.view.private.hand")
        if hand:
            shown = page.inner_text(f'#hand .zc-card[data-card="{hand[0]}"] .zc-card-name')
            assert CYRILLIC.search(shown), shown
        left = zc_english_left(page, (name,))
        assert not left, f"English on the Ukrainian Zoocracy table: {left}"
        page.screenshot(path=str(artifacts / "i18n-uk-zoocracy-1920x1080.png"))

        # the same table in German
        page.select_option("#lang-switch", "de")
        page.wait_for_load_state("load")
        wait_running(page)
        wait_settled(page)
        assert page.evaluate("document.documentElement.lang") == "de"
        board = page.inner_text("#board")
        assert "Parlament" in board and "Regierung" in board
        assert "zielleiste" in page.inner_text("#scoretrack").lower()
        # the history is read after the page is drawn (a bot's newest line may come first, over
        # the socket): wait for it rather than read the log at once (soak 2026-12-03)
        log = wait_log(page, "Du gibst ein geheimes Gebot ab.", "Gebote aufgedeckt")
        assert "Du gibst ein geheimes Gebot ab." in log and "Gebote aufgedeckt" in log, log[-1500:]
        left = zc_english_left(page, (name,))
        assert not left, f"English on the German Zoocracy table: {left}"
        play_zoocracy(page, 4, random.Random(8))
        left = zc_english_left(page, (name,))
        assert not left, f"English on the German Zoocracy table: {left}"
        page.screenshot(path=str(artifacts / "i18n-de-zoocracy-1920x1080.png"))
    finally:
        ctx.close()
