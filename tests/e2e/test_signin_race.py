"""A 401 that answers a request of an earlier sign-in does not sign the new one out.

Seen in a soak run (test_pages, 2026-12-03): after "log out everywhere" and a new login,
the lobby never showed "log out" again. A request the page sent under the old login (or
signed out) and that came back 401 only after the new login landed cleared the new login
(`auth.clear()` in static/js/api.js), and the lobby drew the sign-in form again. The page now
counts its sign-ins (`auth.epoch`) and a 401 signs out only the sign-in it was sent under.

The test holds one request of the first login, signs out everywhere and in again, then lets
that request come back 401: the lobby stays signed in. It also checks the other half: a 401
for the current sign-in still signs the page out.
"""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import PASSWORD, register, unique

PROBE = "/api/games?mine=1&probe="
UNAUTHORIZED = '{"error": {"code": "unauthorized", "message": "Sign in first."}}'

# the page's own api module (the same instance as the lobby's: one module per URL)
SEND = """(tag) => { window.__probe = import(new URL('js/api.js', document.baseURI).href)
  .then((m) => m.api.get('PROBE' + tag)).then(() => 'ok', (e) => e.status); }""".replace(
    "PROBE", PROBE)


def wait_held(page, held: list, n: int) -> None:
    """Until the route has held ``n`` requests (the page's event loop runs meanwhile)."""
    for _ in range(600):
        if len(held) >= n:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{n - len(held)} probe request(s) never reached the route")


def test_a_late_401_of_an_earlier_login_keeps_the_new_one(server, browser, console):
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = console.watch(ctx.new_page(), "signin-race")
        name = unique("race")
        register(page, server, name)
        page.wait_for_selector("#logout")
        held = []
        page.route(f"**{PROBE}*", lambda route: held.append(route))

        # a request of the first login, held on its way
        page.evaluate(SEND, "old")
        wait_held(page, held, 1)

        # log out everywhere, and in again
        page.click("#logout-everywhere")
        page.wait_for_selector("#auth-form")
        page.fill("#auth-user", name)
        page.fill("#auth-pass", PASSWORD)
        page.click("#login-btn")
        page.wait_for_selector("#logout")

        # the old request comes back 401 now: the page has it (the promise settled) ...
        held[0].fulfill(status=401, content_type="application/json", body=UNAUTHORIZED)
        assert page.evaluate("() => window.__probe") == 401
        # ... and the new login stands
        assert page.evaluate("() => localStorage.getItem('menagerie.user')") is not None
        assert page.is_visible("#logout") and not page.is_visible("#auth-form")

        # a 401 for the sign-in the page is on still signs it out
        page.evaluate(SEND, "now")
        wait_held(page, held, 2)
        held[1].fulfill(status=401, content_type="application/json", body=UNAUTHORIZED)
        assert page.evaluate("() => window.__probe") == 401
        page.wait_for_selector("#auth-form")
        assert page.evaluate("() => localStorage.getItem('menagerie.user')") is None
        # the browser logs every 401 as a failed load: the two the test answered, and any of
        # the lobby's own requests (its 8-second refresh, the feed) sent while signed out;
        # nothing else may be in the console
        answered = [e for e in console.errors if "status of 401" in e]
        assert len(answered) >= 2
        console.errors[:] = [e for e in console.errors if e not in answered]
    finally:
        ctx.close()
