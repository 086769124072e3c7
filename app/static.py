"""Serving the browser client from ``static/``: the files, the single-page fallback, and the
service worker ``/sw.js`` with its cache version (see :func:`service_worker`)."""

from __future__ import annotations

import hashlib
import json
import mimetypes
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

mimetypes.add_type("application/manifest+json", ".webmanifest")

#: the service worker's source in ``static/``; ``/sw.js`` is it with the placeholders filled
SW_SOURCE = "sw.js"
#: files of ``static/`` that are not part of the client the service worker keeps
NOT_PRECACHED = {SW_SOURCE, "README.md"}


def client_files(static_dir: Path) -> list[str]:
    """Every file of the client, as paths relative to ``static/`` (sorted)."""
    return sorted(p.relative_to(static_dir).as_posix() for p in static_dir.rglob("*")
                  if p.is_file() and not p.name.startswith("."))


def service_worker(static_dir: Path) -> bytes:
    """``static/sw.js`` with ``__VERSION__`` (the first 16 hex digits of a SHA-256 over every
    client file's path and content, the worker's own source included) and ``__PRECACHE__`` (the
    list of files to keep) filled in. Any change of a static file changes the version, so a
    deploy installs a new worker, which fills a new cache and deletes the old ones."""
    digest = hashlib.sha256()
    files = client_files(static_dir)
    for name in files:
        digest.update(name.encode() + b"\0" + (static_dir / name).read_bytes() + b"\0")
    precache = ["./"] + [name for name in files if name not in NOT_PRECACHED]
    source = (static_dir / SW_SOURCE).read_text(encoding="utf-8")
    return (source.replace("__VERSION__", digest.hexdigest()[:16])
            .replace('"__PRECACHE__"', json.dumps(precache)).encode())


class ClientFiles(StaticFiles):
    """Static files with a single-page-app fallback.

    A GET for a path that is not a file and has no extension (``/games/12``) gets
    ``index.html``, so the client's URLs can be shared and reloaded. ``sw.js`` is rendered by
    :func:`service_worker` (once per process: a deploy restarts the server) and never cached by
    the browser's HTTP cache, so a new version is seen on the next page load.
    """

    _worker: bytes | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":  # no such socket
            await send({"type": "websocket.close", "code": 4404})
            return
        await super().__call__(scope, receive, send)

    async def get_response(self, path, scope):
        if path == SW_SOURCE and self.directory is not None and \
                (Path(self.directory) / SW_SOURCE).is_file():
            if self._worker is None:
                self._worker = service_worker(Path(self.directory))
            return Response(self._worker, media_type="text/javascript", headers={
                "Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
        try:
            return await super().get_response(path, scope)
        except HTTPException as exc:
            last = path.rsplit("/", 1)[-1]
            if exc.status_code == 404 and "." not in last and not path.startswith("api"):
                return await super().get_response("index.html", scope)
            raise
