"""(being written) routes for records."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
