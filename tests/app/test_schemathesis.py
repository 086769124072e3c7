"""Schemathesis against /openapi.json of a real server process: for every operation, inputs
generated from the schema (valid and invalid, signed in and not) never get a 5xx, and every
documented response matches its schema and content type. Bounded: a few dozen examples per
operation, on SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

from .conftest import PASSWORD, free_port

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("MENAGERIE_SCHEMATHESIS_EXAMPLES", "4"))


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    db = tmp_path_factory.mktemp("st") / "st.db"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}",
           "MENAGERIE_ARGON2_TIME_COST": "1", "MENAGERIE_ARGON2_MEMORY_KIB": "8",
           "MENAGERIE_STATIC_DIR": "/nonexistent", "MENAGERIE_LOG_LEVEL": "ERROR",
           "MENAGERIE_ACCESS_LOG": "false", "MENAGERIE_RATE_LIMITS": "false",
           "MENAGERIE_SQLITE_SYNCHRONOUS": "OFF"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.app.launcher", "--port", str(port),
                             "--migrate"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("server did not start: " + proc.stderr.read().decode()[-2000:])
        time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(10)


def _operations(base_url: str):
    schema = schemathesis.openapi.from_url(base_url + "/openapi.json")
    for result in schema.get_all_operations():
        yield result.ok()


def test_schema_fuzzing_never_gives_a_server_error(base_url):
    # a signed-in player with a running toy game, so ids and tokens are sometimes real
    r = httpx.post(base_url + "/api/auth/register", json={"username": "fuzzer",
                                                          "password": PASSWORD})
    token = r.json()["token"]
    other = httpx.post(base_url + "/api/auth/register",
                       json={"username": "fuzzer2", "password": PASSWORD}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    gid = httpx.post(base_url + "/api/games", headers=auth,
                     json={"game": "toy", "seats": 2}).json()["id"]
    httpx.post(base_url + f"/api/games/{gid}/join",
               headers={"Authorization": f"Bearer {other}"})
    httpx.post(base_url + f"/api/games/{gid}/start", headers=auth)
    checks = [not_a_server_error, response_schema_conformance, content_type_conformance]
    seen = 0
    for op in _operations(base_url):
        for mode, headers in ((GenerationMode.POSITIVE, auth), (GenerationMode.NEGATIVE, auth),
                              (GenerationMode.POSITIVE, {})):
            if True:
                path_parameters = {"game_id": str(gid)} if "{game_id}" in op.path and \
                    mode is GenerationMode.POSITIVE and headers else None

                @settings(max_examples=EXAMPLES, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))
                @given(case=op.as_strategy(generation_mode=mode, path_parameters=path_parameters))
                def run(case):
                    response = case.call(base_url=base_url, headers=headers, timeout=10)  # noqa: B023 (run at once)
                    case.validate_response(response, checks=checks)

                try:
                    run()
                except Unsatisfiable:  # nothing to make invalid (no parameters, no body)
                    assert mode is GenerationMode.NEGATIVE
                seen += 1
    assert seen >= 3 * 10  # every operation: valid and invalid inputs, with and without a token
    assert httpx.get(base_url + "/healthz").status_code == 200
