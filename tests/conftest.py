"""Shared test configuration.

PostgreSQL tests read ``TEST_POSTGRES_URL`` (e.g.
``postgresql+asyncpg://menagerie:menagerie@127.0.0.1:5432/menagerie_test``; ``make test`` sets
it). Without it they are skipped on a developer machine, but fail under CI (``CI=true``) so that
a broken database setup can never pass as green.
"""

from __future__ import annotations

import os

import pytest


def postgres_url() -> str | None:
    return os.environ.get("TEST_POSTGRES_URL") or None


def require_postgres() -> str:
    url = postgres_url()
    if url:
        return url
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail("TEST_POSTGRES_URL is not set, and CI must run the PostgreSQL tests")
    pytest.skip("TEST_POSTGRES_URL is not set (PostgreSQL tests skipped)")
