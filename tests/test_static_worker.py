"""The service worker's version and file list (app/static.py), and the manifest on every page.
The browser side (installability, the cache, API never cached) is tests/e2e/test_pwa.py."""

from __future__ import annotations

import json
import re

from app.settings import REPO_ROOT
from app.static import service_worker

STATIC = REPO_ROOT / "static"


def _parts(script: bytes) -> tuple[str, list[str]]:
    text = script.decode()
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', text).group(1)
    files = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text, re.S).group(1))
    return version, files


def test_the_version_follows_every_static_file(tmp_path):
    (tmp_path / "sw.js").write_text('const VERSION = "__VERSION__";\n'
                                    'const PRECACHE = "__PRECACHE__";\n')
    (tmp_path / "README.md").write_text("notes")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("one")
    first, files = _parts(service_worker(tmp_path))
    assert files == ["./", "js/a.js"]  # neither the worker nor the README
    assert _parts(service_worker(tmp_path))[0] == first  # the same files: the same version
    (tmp_path / "js" / "a.js").write_text("two")
    second = _parts(service_worker(tmp_path))[0]
    assert second != first
    (tmp_path / "js" / "b.js").write_text("")  # a new file changes it too
    assert _parts(service_worker(tmp_path))[0] not in (first, second)


def test_the_real_worker_keeps_the_client_and_every_page_links_the_manifest():
    _, files = _parts(service_worker(STATIC))
    assert {"./", "index.html", "game.html", "manifest.webmanifest", "icons/icon-192.png",
            "icons/icon-512.png", "icons/icon-maskable-512.png", "js/api.js"} <= set(files)
    assert not [f for f in files if f.startswith("api") or f == "sw.js"]
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    sizes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file()
    for page in STATIC.glob("*.html"):
        assert '<link rel="manifest" href="manifest.webmanifest">' in page.read_text(), page
