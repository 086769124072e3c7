"""The lobby's notification preferences (issue #21) in a real browser: the form shows the
player's choices, saves them (PUT /api/me/notifications) and shows them again after a reload;
this test server has no SMTP settings, so the form says that no email is offered. Any browser
console error fails the test (refusals are tested through the API in test_notify.py)."""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import WAIT, register, unique


def _prefs(page) -> dict:
    return page.evaluate("""async () => (await fetch('/api/me/notifications',
        {headers: {Accept: 'application/json'}})).json()""")


def test_preferences_form_saves_and_reloads(server, browser, console, artifacts):
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "ana")
        page.set_default_timeout(WAIT)
        register(page, server, unique("ana"))
        page.wait_for_selector("#notifications:not([hidden]) #prefs-form")
        assert page.is_visible("#prefs-email-off")  # no SMTP host: no email offered
        assert page.is_checked("#prefs-kind-your_turn") and page.is_checked("#prefs-away")

        page.uncheck("#prefs-kind-chat_mention")
        page.uncheck("#prefs-channel-push")
        page.check("#prefs-quiet")
        page.fill("#prefs-quiet-start", "21:30")
        page.fill("#prefs-quiet-end", "06:45")
        page.fill("#prefs-tz", "Europe/Kyiv")
        page.select_option("#prefs-lang", "uk")
        page.fill("#prefs-throttle", "45")
        page.check("#prefs-digest")
        page.click("#prefs-save")
        page.wait_for_function("""() => [...document.querySelectorAll('#toasts *')]
            .some(e => e.textContent.length > 0)""")
        got = _prefs(page)
        p = got["preferences"]
        assert p["kinds"]["chat_mention"] is False and p["kinds"]["your_turn"] is True
        assert p["channels"]["push"] is False and p["channels"]["email"] is True
        assert p["quiet_hours"] == {"start": "21:30", "end": "06:45"}
        assert p["throttle_minutes"] == 45 and p["digest"] is True
        assert got["time_zone"] == "Europe/Kyiv" and got["lang"] == "uk"
        page.screenshot(path=str(artifacts / "notify-prefs.png"), full_page=True)

        page.reload()
        page.wait_for_selector("#prefs-form")
        assert not page.is_checked("#prefs-kind-chat_mention")
        assert page.is_checked("#prefs-quiet") and page.input_value("#prefs-quiet-start") == "21:30"
        assert page.input_value("#prefs-tz") == "Europe/Kyiv"

    finally:
        ctx.close()
