"""A domain Refusal reaches the client as the edge's status and the error body."""

import httpx
from fastapi import FastAPI

from app import errors
from app.refusal import Refusal


def _client() -> httpx.AsyncClient:
    """The edge alone (no app lifespan), over httpx's ASGI transport as the other app tests
    (Starlette's sync TestClient on httpx is deprecated)."""
    api = FastAPI()
    errors.install(api)

    @api.get("/missing")
    def missing():
        raise Refusal("not_found", "No such game.", game_id="g1")

    @api.get("/odd")
    def odd():
        raise Refusal("some_rule_broken", "That is against the rules.")

    @api.get("/old")
    def old():
        raise errors.ApiError(409, "stale_version", "Someone moved first.", version=3)

    return httpx.AsyncClient(transport=httpx.ASGITransport(app=api), base_url="http://test")


async def test_refusal_status_from_the_edge_table_and_body_with_params():
    async with _client() as client:
        r = await client.get("/missing")
    assert r.status_code == 404
    assert r.json() == {"error": {"code": "not_found", "message": "No such game.",
                                  "game_id": "g1"}}


async def test_unnamed_code_is_a_422_never_a_500():
    async with _client() as client:
        r = await client.get("/odd")
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "some_rule_broken"


async def test_api_error_is_a_refusal_and_keeps_its_status():
    assert issubclass(errors.ApiError, Refusal)
    async with _client() as client:
        r = await client.get("/old")
    assert r.status_code == 409
    assert r.json() == {"error": {"code": "stale_version", "message": "Someone moved first.",
                                  "version": 3}}
