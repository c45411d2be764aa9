"""Settings from the environment or a ``.env`` file (pydantic-settings).

The Discord token is a :class:`~pydantic.SecretStr`: it never appears in a repr or a log line.
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

    @field_validator("dev_guild_id", "discord_api_base_url", "discord_gateway_url", mode="before")
    @classmethod
    def _blank_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None
