"""(being written) routes for ratings."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
