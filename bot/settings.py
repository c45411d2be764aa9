"""Settings from the environment or a ``.env`` file (pydantic-settings).

The Discord token and ``DATABASE_URL`` (it may hold a password) are
:class:`~pydantic.SecretStr`: they never appear in a repr or a log line.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token; required to go live."
    )
    database_path: Path = Field(default=Path("panda_royale.db"))
    database_url: SecretStr | None = Field(
        default=None, description="postgresql://user:pass@host/db: PostgreSQL instead of SQLite."
    )
    dev_guild_id: int | None = Field(default=None)
    log_level: str = Field(default="INFO")
    discord_api_base_url: str | None = Field(default=None)
    discord_gateway_url: str | None = Field(default=None)
    default_turn_timeout: int = Field(default=120, ge=15, le=3600)

    @field_validator("log_level")
    @classmethod
    def _level(cls, v: str) -> str:
        v = v.strip().upper()
        if v not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return v

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, v: SecretStr | None) -> SecretStr | None:
        if v is not None and not v.get_secret_value().startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must be a postgresql:// URL (or unset for SQLite)")
        return v

    @field_validator("dev_guild_id", "discord_api_base_url", "discord_gateway_url",
                     "database_url", mode="before")
    @classmethod
    def _blank_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    @property
    def database_target(self) -> str | Path:
        """Where the games live: ``DATABASE_URL`` (PostgreSQL) if set, else ``DATABASE_PATH``."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None
