"""(being written) routes for webhooks."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
