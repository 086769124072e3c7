"""The new-game form for a newcomer (issue #14, item 11): signed out, "New game" asks to sign
in; signed in, the bot ticks stay as the player set them when the player count changes."""

from __future__ import annotations

import pytest

from .helpers import register, unique

pytestmark = pytest.mark.usefixtures("no_console_errors")


@pytest.fixture
def page(browser, watch):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = watch.watch(ctx.new_page(), "newgame")
    p.set_default_timeout(20_000)
    yield p
    ctx.close()


def test_signed_out_new_game_asks_to_sign_in(page, server):
    page.goto(server.url("/"))
    page.wait_for_selector("#new-game-btn")
    page.click("#new-game-btn")
    page.wait_for_selector("#new-game .sign-in-first")
    assert "Sign in" in page.inner_text("#new-game")
    assert page.locator("#create-game").count() == 0
    # signing in turns it into the form
    page.fill("#auth-user", unique("late"))
    page.fill("#auth-pass", "zebra-crossing-42")
    page.click("#register-btn")
    page.wait_for_selector("#new-game #ng-seats")


def test_bot_ticks_follow_the_players_choice(page, server):
    register(page, server, unique("ticks"))
    page.click("#new-game-btn")
    page.wait_for_selector("#ng-seats")
    page.select_option("#ng-seats", "4")
    page.check('input[data-bot-seat="1"]')
    page.check('input[data-bot-seat="3"]')
    page.select_option("#ng-seats", "3")
    assert page.is_checked('input[data-bot-seat="1"]')
    assert not page.is_checked('input[data-bot-seat="2"]')
    page.select_option("#ng-seats", "4")
    assert page.is_checked('input[data-bot-seat="1"]') and page.is_checked('input[data-bot-seat="3"]')
    # the bot kind: the learned fast level is preselected (it beats greedy: docs/bots.md)
    assert page.input_value("#ng-bot") == "fast"
    page.select_option("#ng-bot", "greedy")  # as tests/e2e/helpers.create_game does
    assert page.input_value("#ng-bot") == "greedy"
