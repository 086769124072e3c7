"""(being written) routes for rematch."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
