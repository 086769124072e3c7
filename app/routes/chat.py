"""(being written) routes for chat."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
