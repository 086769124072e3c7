"""The daily challenge: one seeded deal per kind and UTC day (see ``service.py``,
``docs/daily.md``)."""

from .service import DailyService

__all__ = ["DailyService"]
