"""Quick match (issue #33, item 5): seeks and their pairing (see :mod:`.service`)."""

from .service import SeekService

__all__ = ["SeekService"]
