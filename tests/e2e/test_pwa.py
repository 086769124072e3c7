"""The installable app in Chromium: the manifest passes Chromium's installability check, the
service worker (/sw.js) takes control, serves the static client from its versioned cache, and
never keeps an API answer; a push message handed to the worker shows the game's notification.

Not here: a real ``pushManager.subscribe()``. Headless Chromium reaches no browser vendor's
push service from this machine (no network), so the subscription itself is tested on the server
side (tests/app/test_push.py, with a local push endpoint that decrypts what the server sends);
here the push event is delivered to the worker through DevTools (``ServiceWorker``
domain), which is what the browser does when its push service hands one over.
"""

from __future__ import annotations

import re

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, require_chromium
from .helpers import PASSWORD, WAIT, unique

STATIC = "/css/menagerie.css"


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    """A browser with a profile on disk: Chromium refuses to install from an off-the-record
    profile (Playwright's ordinary contexts are), so the installability check needs this."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM,
            args=CHROMIUM_ARGS, headless=True, viewport={"width": 1200, "height": 900},
            service_workers="allow")
    except Exception:
        pw.stop()
        raise
    yield ctx
    ctx.close()
    pw.stop()


def test_installable_cached_client_and_never_cached_api(server, profile, console):
    ctx = profile
    page = None
    try:
        page = console.watch(ctx.new_page(), "pwa")
        page.goto(server.url("/"))
        cdp = ctx.new_cdp_session(page)

        # the worker is installed, active, and controls the page (clients.claim)
        state = page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        assert state in ("activating", "activated")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT)
        page.wait_for_function("navigator.serviceWorker.controller.state === 'activated'",
                               timeout=WAIT)

        # Chromium's own installability check: no errors (manifest, icons, start URL, scope)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest")
        assert manifest.get("errors", []) == [], manifest.get("errors")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors

        # one versioned cache holding the static client (16 hex digits of its content hash)
        caches = page.evaluate("caches.keys()")
        assert len(caches) == 1 and re.fullmatch(r"menagerie-static-[0-9a-f]{16}", caches[0])
        kept = page.evaluate("""async name => (await (await caches.open(name)).keys())
                                .map(r => new URL(r.url).pathname)""", caches[0])
        assert STATIC in kept and "/game.html" in kept and "/js/api.js" in kept and "/" in kept
        assert "/manifest.webmanifest" in kept and "/icons/icon-512.png" in kept
        assert not [p for p in kept if p.startswith("/api") or p == "/sw.js"], kept

        # a second load: the static files come from the worker's cache
        seen = {}
        page.on("response", lambda r: seen.setdefault(r.url.split("?")[0], r.from_service_worker))
        page.reload()
        page.wait_for_selector("#auth")
        assert seen.get(server.url(STATIC)) is True, seen
        assert seen.get(server.url("/js/lobby.js")) is True, seen

        # an API answer is fetched anew each time and never stored
        reg = server.api("POST", "/api/auth/register",
                         {"username": unique("pwa"), "password": PASSWORD})
        ask = "fetch('/api/games?status=open').then(r => r.json()).then(d => d.map(g => g.id))"
        before = page.evaluate(ask)
        made = server.api("POST", "/api/games", {"game": "zoocracy", "seats": 2}, reg["token"])
        after = page.evaluate(ask)
        assert made["id"] not in before and after[0] == made["id"]  # a changed answer
        api_url = server.url("/api/games")
        assert seen.get(api_url) is False  # the network's answer, not the worker's
        kept = page.evaluate("""async name => (await (await caches.open(name)).keys())
                                .map(r => new URL(r.url).pathname)""", caches[0])
        assert not [p for p in kept if p.startswith("/api")], kept

        # the worker itself: rendered by the server, never from the HTTP cache
        head = page.evaluate("""fetch('/sw.js').then(async r => [r.headers.get('cache-control'),
                                r.headers.get('content-type'), await r.text()])""")
        assert head[0] == "no-cache" and head[1].startswith("text/javascript")
        assert "__VERSION__" not in head[2] and caches[0].removeprefix("menagerie-static-") in head[2]
    finally:
        if page is not None:
            page.close()


def test_a_push_message_shows_the_games_notification(server, profile, console):
    """The push reaches an active worker that controls the page, and the worker shows the
    notification the message describes; the test waits for states, never for a time: the worker
    activated and in control, DevTools' id of its registration, then the worker's own word
    (``push_shown``, posted once ``showNotification`` resolved).

    Not checked: ``registration.getNotifications()``. Under load, headless Chromium resolves
    ``showNotification`` and then lists no notification at all, not even to the worker asking
    right after (about one run in four beside a CPU hog, with no ``notificationclose``): that list
    is the browser's, not something the worker or the server decides."""
    from .helpers import wait_until

    ctx = profile
    page = None
    try:
        ctx.grant_permissions(["notifications"], origin=server.url(""))
        page = console.watch(ctx.new_page(), "push")
        page.goto(server.url("/"))
        # the worker is active (not just activating) and controls the page
        page.wait_for_function("() => navigator.serviceWorker.controller !== null"
                               " && navigator.serviceWorker.controller.state === 'activated'",
                               timeout=WAIT)
        assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 1
        assert page.evaluate("Notification.permission") == "granted"
        # what the worker tells its pages
        page.evaluate("""() => { window.pushShown = [];
            navigator.serviceWorker.addEventListener('message', (e) => {
              if (e.data && e.data.type === 'push_shown') window.pushShown.push(e.data); });
            navigator.serviceWorker.startMessages(); }""")
        # the registration id DevTools knows the worker by
        cdp = ctx.new_cdp_session(page)
        registrations = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda e: registrations.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        wait_until("DevTools names the worker's registration",
                   lambda: registrations or page.evaluate("0"), timeout=WAIT / 1000)
        ids = {r["registrationId"] for r in registrations if not r.get("isDeleted")}
        assert len(ids) == 1, registrations
        data = ('{"type": "your_turn", "title": "Your turn — Menagerie", '
                '"body": "It is your turn in Zoocracy #7.", "url": "game.html?id=7", '
                '"tag": "menagerie-turn-7"}')
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": server.url(""), "registrationId": ids.pop(), "data": data})
        page.wait_for_function("() => window.pushShown.length > 0", timeout=WAIT)
        assert page.evaluate("window.pushShown") == [
            {"type": "push_shown", "title": "Your turn — Menagerie",
             "body": "It is your turn in Zoocracy #7.", "tag": "menagerie-turn-7",
             "url": "game.html?id=7"}]
    finally:
        if page is not None:
            page.close()


def test_the_bell_asks_for_the_key_and_fails_quietly_without_a_push_service(server, profile,
                                                                            console):
    """Signed in with notifications allowed but push never asked for in this browser, the page
    offers the bell (and touches no Push API before: a private window logs an error for any
    use of it); the bell fetches the server's key and calls pushManager.subscribe(). Here
    Chromium's push service is out of reach, so no subscription comes of it (the call waits);
    the page works on without a console error."""
    from .helpers import sign_in

    reg = server.api("POST", "/api/auth/register",
                     {"username": unique("bell"), "password": PASSWORD})
    profile.grant_permissions(["notifications"], origin=server.url(""))
    page = console.watch(profile.new_page(), "bell")
    try:
        page.goto(server.url("/"))
        sign_in(page, server, reg["user"], reg["token"])
        page.reload()
        page.wait_for_selector("#notify-btn", timeout=WAIT)
        with page.expect_response(lambda r: "/api/push/key" in r.url, timeout=WAIT) as got:
            page.click("#notify-btn")
        assert got.value.status == 200 and len(got.value.json()["key"]) == 87
        # the same call the page makes never completes here (Chromium waits for its push
        # service): after 5 s it has neither subscribed nor failed
        outcome = page.evaluate("""Promise.race([
            navigator.serviceWorker.ready.then(r => r.pushManager.getSubscription()),
            new Promise(done => setTimeout(() => done("pending"), 5000))])""")
        assert outcome in ("pending", None)  # no subscription: nothing to fake here
        page.wait_for_selector("#auth")
    finally:
        page.close()
