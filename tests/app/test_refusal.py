"""A domain Refusal reaches the client as the edge's status and the error body."""

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import errors
from app.refusal import Refusal


def _client() -> TestClient:
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

    return TestClient(api)


def test_refusal_status_from_the_edge_table_and_body_with_params():
    r = _client().get("/missing")
    assert r.status_code == 404
    assert r.json() == {"error": {"code": "not_found", "message": "No such game.",
                                  "game_id": "g1"}}


def test_unnamed_code_is_a_422_never_a_500():
    r = _client().get("/odd")
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "some_rule_broken"


def test_api_error_is_a_refusal_and_keeps_its_status():
    assert issubclass(errors.ApiError, Refusal)
    r = _client().get("/old")
    assert r.status_code == 409
    assert r.json() == {"error": {"code": "stale_version", "message": "Someone moved first.",
                                  "version": 3}}
