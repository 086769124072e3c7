"""The table in Ukrainian and German: a browser whose language is Ukrainian gets the lobby, the
board, the decision bar, the log and the cards in Ukrainian (and the server's error sentences);
the switch in the header turns the same table into German. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from .conftest import DESKTOP, ROOT
from .helpers import PASSWORD, click_any_legal, unique, wait_running, wait_settled

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
        if click_any_legal(page, rng) == "wait":
            page.wait_for_timeout(100)
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
        page.set_default_timeout(20_000)
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
        page.wait_for_selector("#start-btn:not([disabled])")
        assert page.inner_text("#waiting-room h2") == "Чекаємо на гравців"
        page.click("#start-btn")
        wait_running(page)
        play_a_little(page, 10, random.Random(11))

        board = page.inner_text("#board")
        assert "Вітрина" in board and "Асоціація" in board and "Природоохоронні проєкти" in board
        assert CYRILLIC.search(page.inner_text("#decision .ask"))
        log = page.inner_text("#log")
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
        page.wait_for_selector("#log .log-line")
        board = page.inner_text("#board")
        assert "Auslage" in board and "Verband" in board and "Artenschutzprojekte" in board
        log = page.inner_text("#log")
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
