"""Configuration from environment variables (pydantic-settings).

Every variable is ``MENAGERIE_<NAME>``, except the database address, which is read from
``DATABASE_URL`` (or ``MENAGERIE_DATABASE_URL``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


def _default_static() -> Path:
    """``static/`` beside the app package (a checkout), else in the current directory."""
    beside = REPO_ROOT / "static"
    return beside if beside.is_dir() else Path.cwd() / "static"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MENAGERIE_", extra="ignore",
                                      populate_by_name=True)

    database_url: str = Field(
        "sqlite+aiosqlite:///./menagerie.db",
        validation_alias=AliasChoices("DATABASE_URL", "MENAGERIE_DATABASE_URL"),
        description="SQLAlchemy async URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://...",
    )
    #: store a full state snapshot every N versions (and always at start and at the end)
    snapshot_every: int = Field(50, ge=1)
    #: largest request body accepted (bytes); bigger ones get 413 too_large
    max_body_bytes: int = Field(64 * 1024, ge=1024)
    #: a WebSocket client further behind than this many versions gets one full state message
    sync_window: int = Field(200, ge=1)
    #: encoded state messages kept in memory per game for the WebSocket fan-out
    frame_cache: int = Field(32, ge=1)
    #: lifetime of login tokens
    token_ttl_days: int = Field(30, ge=1)
    #: mark the login cookie Secure (set it when served over HTTPS)
    cookie_secure: bool = False
    #: argon2 cost parameters (lower them only for tests)
    argon2_time_cost: int = Field(3, ge=1)
    argon2_memory_kib: int = Field(64 * 1024, ge=8)
    #: seconds a bot waits before each move (0 = play at once)
    bot_delay: float = Field(0.0, ge=0)
    #: safety cap on consecutive bot moves driven by one trigger
    bot_max_moves: int = Field(100_000, ge=1)
    #: SQLite durability: FULL survives power loss, NORMAL survives process crashes only
    sqlite_synchronous: str = "FULL"
    #: connection pool size (PostgreSQL)
    pool_size: int = Field(10, ge=1)
    pool_max_overflow: int = Field(20, ge=0)
    #: the browser client served at / (skipped when the folder does not exist)
    static_dir: Path = Field(default_factory=lambda: _default_static())
    log_level: str = "INFO"
    #: log one JSON line per HTTP request
    access_log: bool = True
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)

    @field_validator("sqlite_synchronous")
    @classmethod
    def _sync_mode(cls, value: str) -> str:
        value = value.upper()
        if value not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError("must be OFF, NORMAL, FULL or EXTRA")
        return value

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")


@lru_cache
def get_settings() -> Settings:
    return Settings()
