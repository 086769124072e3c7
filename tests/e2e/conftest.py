"""Browser tests: a real server in a subprocess, system Chromium driven by Playwright (sync API).

These tests run in their own pytest process (``pytest tests/e2e``; ``make test`` does that after
the rest of the suite). When a run collects other tests too, the browser tests are deselected:
the sync Playwright API and the async tests of the app must not share an event loop.

Chromium: ``/usr/bin/chromium``. Locally the tests skip without it; under CI (``CI=true``) they
fail instead, so a missing browser can never pass as green.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
E2E_DIR = Path(__file__).resolve().parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
DESKTOP = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


# --------------------------------------------------------------------------- collection
def pytest_configure(config):
    config.addinivalue_line("markers", "browser: needs Chromium")
    config.addinivalue_line("markers", "e2e: end-to-end browser test (own pytest process)")


def _is_e2e(item) -> bool:
    try:
        return E2E_DIR in Path(str(item.fspath)).resolve().parents
    except OSError:  # pragma: no cover
        return False


def pytest_collection_modifyitems(config, items):
    mine = [i for i in items if _is_e2e(i)]
    for item in mine:
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.e2e)
    others = [i for i in items if not _is_e2e(i)]
    if mine and others:
        # mixed run: the browser tests belong to their own process (pytest tests/e2e)
        config.hook.pytest_deselected(items=mine)
        items[:] = others


def require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    if in_ci():
        pytest.fail(f"{CHROMIUM} is missing, and CI must run the browser tests")
    pytest.skip(f"{CHROMIUM} is missing (browser tests skipped)")


# --------------------------------------------------------------------------- the server
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, base: str, proc: subprocess.Popen, log: Path, db: Path | None = None) -> None:
        self.base = base
        self.proc = proc
        self.log = log
        self.db = db

    def set_seed(self, game_id: int, seed: str) -> None:
        """Test-only: give an open game of this throwaway server a chosen engine seed, so its
        deal (and its bots' choices, which draw from the seed and the version) is the same on
        every run. It writes the test server's own SQLite file before the game starts (the app
        reads the seed from its row when the game starts); the app itself has no way to choose
        a seed."""
        assert self.db is not None, "the server's database is not a local SQLite file"
        con = sqlite3.connect(self.db, timeout=60)
        try:
            with con:
                cur = con.execute("UPDATE games SET seed = ? WHERE id = ? AND status = 'open'",
                                  (seed, game_id))
            assert cur.rowcount == 1, f"game {game_id} is not an open game of this server"
        finally:
            con.close()

    def url(self, path: str = "/") -> str:
        return self.base + path

    def api(self, method: str, path: str, body=None, token: str | None = None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(req, timeout=60) as res:
            raw = res.read()
        return json.loads(raw) if raw else None

    def tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def _server_command(port: int) -> list[str]:
    exe = Path(sys.executable).with_name("menagerie")
    if not exe.exists():
        found = shutil.which("menagerie")
        exe = Path(found) if found else None
    if exe is not None:
        return [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-c", "import sys; from app.cli import main; sys.argv[0] = 'menagerie'; main()",
            "serve", "--host", "127.0.0.1", "--port", str(port)]


@pytest.fixture(scope="session")
def server():
    require_chromium()
    tmp = Path(tempfile.mkdtemp(prefix="menagerie-e2e-"))
    port = _free_port()
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'e2e.db'}",
        "MENAGERIE_ARGON2_TIME_COST": "1",
        "MENAGERIE_ARGON2_MEMORY_KIB": "1024",
        "MENAGERIE_ACCESS_LOG": "false",
        "MENAGERIE_BOT_DELAY": "0",
        # fresh accounts are ranked in the daily challenge (the threshold: tests/app)
        "MENAGERIE_DAILY_RANKED_MIN_ACCOUNT_DAYS": "0",
        "MENAGERIE_DAILY_RANKED_MIN_GAMES": "0",
        # the whole browser suite registers a few hundred accounts from 127.0.0.1 in minutes:
        # the per-address register/login bucket (tests/app/test_ratelimit.py) would refuse
        # them with 429 part way through the suite
        "MENAGERIE_RATE_AUTH_PER_MINUTE": "6000",
        "MENAGERIE_RATE_AUTH_BURST": "1000",
        "MENAGERIE_SQLITE_SYNCHRONOUS": "NORMAL",
        "MENAGERIE_STATIC_DIR": str(ROOT / "static"),
        # post-game analysis and hints at their smallest setting (tests/e2e/test_analysis.py)
        "MENAGERIE_ANALYSIS_PLAYOUTS": "1",
        "MENAGERIE_ANALYSIS_POLICY": "mix",  # the cheap look (the default's own tests: engine)
        "MENAGERIE_HINT_PLAYOUTS": "1",
        "MENAGERIE_ANALYSIS_FLUSH_SECONDS": "0.5",
        # a loaded machine makes them slower, not wrong: the analysis competes for the CPU
        # like the rest (niced, it starves beside any busy process), and a hint may take as
        # long as the test waits for it (the server's 20 s default answers 503 hint_timeout)
        "MENAGERIE_ANALYSIS_NICE": "0",
        "MENAGERIE_HINT_TIMEOUT": "300",
        # the daily challenge's deal comes from this secret and the date: the same secret on
        # every run (not one the server makes up), so a day's deal is the same run after run
        "MENAGERIE_DAILY_SECRET": "e2e-daily-secret-1",
        "PYTHONUNBUFFERED": "1",
    })
    env.pop("MENAGERIE_DATABASE_URL", None)
    log = tmp / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(_server_command(port), cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    srv = Server(f"http://127.0.0.1:{port}", proc, log, tmp / "e2e.db")
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with {proc.returncode}:\n{srv.tail()}")
        try:
            with urllib.request.urlopen(srv.url("/healthz"), timeout=2) as res:
                if res.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the server did not come up in 120 s:\n{srv.tail()}")
        time.sleep(0.2)
    yield srv
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
        proc.wait(timeout=5)
    # the server's log outlives the run (a failure under load is read afterwards: what the
    # server answered, and when); the database does not
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(log, ARTIFACTS / f"server-{port}.log")
    shutil.rmtree(tmp, ignore_errors=True)


# --------------------------------------------------------------------------- the browser
@pytest.fixture(scope="module")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    except Exception as exc:  # pragma: no cover - a broken browser install
        pw.stop()
        if in_ci():
            pytest.fail(f"Chromium does not start: {exc}")
        pytest.skip(f"Chromium does not start: {exc}")
    yield AutoConfirm(b)
    b.close()
    pw.stop()


#: Confirm turn (issue #30) is on by default: every turn a page ends waits for its "Confirm
#: turn". The pages of the browser suite confirm at once (this script clicks the button as soon
#: as it is there and usable), so the tests that play whole games play them as before; a test
#: about the confirm itself (or that counts clicks) sets ``window.__manualConfirm`` before its
#: page loads (``MANUAL_CONFIRM``, with ``page.add_init_script``) and clicks it itself.
AUTO_CONFIRM = """
(() => {
  const tick = () => {
    if (window.__manualConfirm) return;
    const m = window.menagerie;
    const b = document.getElementById("confirm-turn");
    if (m && m.state && !m.state.pending && b && !b.disabled) b.click();
  };
  new MutationObserver(tick).observe(document, { childList: true, subtree: true, attributes: true });
})();
"""
MANUAL_CONFIRM = "window.__manualConfirm = true;"


class AutoConfirm:
    """The browser, whose every new page confirms its turns at once (``AUTO_CONFIRM``)."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **kw):
        ctx = self._browser.new_context(**kw)
        ctx.add_init_script(AUTO_CONFIRM)
        return ctx

    def new_page(self, **kw):
        page = self._browser.new_page(**kw)
        page.context.add_init_script(AUTO_CONFIRM)
        return page


class ConsoleWatch:
    """Collects console errors and uncaught exceptions of every page it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page, label: str):
        page.on("console", lambda m: self.errors.append(f"[{label}] console.{m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"[{label}] uncaught: {e}"))
        return page

    def check(self) -> None:
        assert not self.errors, "browser console errors:\n" + "\n".join(self.errors)


@pytest.fixture
def console():
    """Every test that opens pages through this fails on any browser console error."""
    watch = ConsoleWatch()
    yield watch
    watch.check()


@pytest.fixture(scope="module")
def watch():
    """One watch for the pages a module keeps open across its tests (module-scoped pages)."""
    return ConsoleWatch()


@pytest.fixture
def no_console_errors(watch):
    """A test fails on a console error its module's watched pages logged while it ran (use
    with ``pytestmark = pytest.mark.usefixtures("no_console_errors")``)."""
    yield
    errors, watch.errors[:] = list(watch.errors), []
    assert not errors, "browser console errors:\n" + "\n".join(errors)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
