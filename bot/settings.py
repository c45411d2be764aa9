"""Settings from the environment or a ``.env`` file (pydantic-settings).

The Discord token and ``DATABASE_URL`` (it may hold a password) are
:class:`~pydantic.SecretStr`: they never appear in a repr or a log line. A bad value is refused
with one sentence per setting (:func:`describe_errors`), never pydantic's raw output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.problems import Problem
from bot.shards import MAX_SHARDS, ShardPlan, format_shard_ids, parse_shard_ids

LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
DEFAULT_HEALTH_FILE: Final = Path("/tmp/panda-royale.health")

# What each setting must be, in words (the environment variable is the field's name upper-cased).
REQUIREMENTS: Final[dict[str, str]] = {
    "discord_token": ("must be the bot token from https://discord.com/developers/applications "
                      "(Bot > Reset Token): three parts separated by dots, no spaces"),
    "database_path": "must be the path of the SQLite database file, e.g. panda_royale.db",
    "dev_guild_id": ("must be a server (guild) id, a whole number like 123456789012345678 "
                     "(right-click the server > Copy Server ID), or empty"),
    "log_level": f"must be one of {', '.join(reversed(LOG_LEVELS))}",
    "discord_api_base_url": ("must be an http:// or https:// URL such as "
                             "http://127.0.0.1:8080/api/v10, or empty"),
    "discord_gateway_url": ("must be a ws:// or wss:// URL such as ws://127.0.0.1:8080/gateway, "
                            "or empty"),
    "default_turn_timeout": "must be a whole number of seconds from 15 to 3600",
    "discord_application_id": ("must be the application id, a whole number like "
                               "123456789012345678 (General Information > Application ID), "
                               "or empty"),
    "health_file": "must be the path of the heartbeat file, e.g. /tmp/panda-royale.health",
    "database_url": ("must be a PostgreSQL URL such as postgresql://user:pass@host/db, or empty "
                     "for the SQLite file of DATABASE_PATH"),
    "shard_count": (f"must be the total number of shards, a whole number from 1 to {MAX_SHARDS}, "
                    "or empty for an unsharded bot"),
    "shard_ids": ("must be this cluster's shards below SHARD_COUNT, a range or a list such as "
                  "0-3 or 0,2 (SHARD_COUNT must be set too), or empty for every shard"),
    "metrics_port": ("must be a TCP port from 1 to 65535 for the Prometheus metrics, or empty "
                     "for no metrics"),
    "members_intent": "must be true or false (the privileged Server Members intent)",
    "global_rate_share": ("must be a number above 0 and at most 1: this cluster's share of "
                          "the bot's 50 requests per second (e.g. 0.5 for one of two clusters)"),
    "lobby_ttl": ("must be a whole number of seconds from 60 to 604800 (a lobby nobody starts "
                  "closes that long after its last change)"),
    "guild_open_games": "must be a whole number from 1 to 1000 (open games per server)",
    "guild_retention_days": ("must be a whole number of days from 0 to 3650 (how long a server's "
                             "data is kept after the bot is removed from it)"),
}
SECRET_FIELDS: Final = frozenset({"discord_token", "database_url"})
URL_SCHEMES: Final = {"discord_api_base_url": ("http://", "https://"),
                      "discord_gateway_url": ("ws://", "wss://")}


def _blank(v: object) -> object:
    return None if isinstance(v, str) and not v.strip() else v


def _snowflake(v: object) -> object:
    """A Discord id: a positive whole number (blank means none)."""
    v = _blank(v)
    if v is None:
        return None
    text = str(v).strip()
    if not text.isdigit() or int(text) <= 0:
        raise ValueError("not a Discord id")
    return int(text)


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("panda_royale.db")
    database_url: SecretStr | None = None  # PostgreSQL instead of the SQLite file
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base_url: str | None = None
    discord_gateway_url: str | None = None
    default_turn_timeout: int = Field(default=120, ge=15, le=3600)
    discord_application_id: int | None = None  # read from the token when not set
    health_file: Path = DEFAULT_HEALTH_FILE
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS)
    shard_ids: str | None = None
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    global_rate_share: float = Field(default=1.0, gt=0, le=1)
    members_intent: bool = False  # a player who leaves gets the computer at once
    lobby_ttl: int = Field(default=3600, ge=60, le=7 * 24 * 3600)
    guild_open_games: int = Field(default=25, ge=1, le=1000)
    guild_retention_days: int = Field(default=30, ge=0, le=3650)

    @field_validator("log_level")
    @classmethod
    def _level(cls, v: str) -> str:
        v = v.strip().upper()
        if v not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return v

    @field_validator("discord_token", mode="before")
    @classmethod
    def _token(cls, v: object) -> object:
        v = _blank(v)
        if isinstance(v, str):
            v = v.strip()
            if any(c.isspace() or not c.isprintable() for c in v) or v.count(".") != 2:
                raise ValueError("not a bot token")
        return v

    @field_validator("dev_guild_id", "discord_application_id", mode="before")
    @classmethod
    def _ids(cls, v: object) -> object:
        return _snowflake(v)

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, v: SecretStr | None) -> SecretStr | None:
        if v is not None and not v.get_secret_value().startswith(("postgresql://", "postgres://")):
            raise ValueError("not a postgresql:// URL")
        return v

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is None:
            return None
        ids = parse_shard_ids(v)
        count = info.data.get("shard_count")
        if count is None or any(i >= count for i in ids):
            raise ValueError("shard ids need SHARD_COUNT and must be below it")
        return format_shard_ids(ids)

    @field_validator("discord_api_base_url", "discord_gateway_url", "database_url",
                     "shard_count", "shard_ids", "metrics_port", mode="before")
    @classmethod
    def _blank_none(cls, v: object) -> object:
        return _blank(v)

    @field_validator("discord_api_base_url", "discord_gateway_url")
    @classmethod
    def _url(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is not None and not v.strip().lower().startswith(URL_SCHEMES[str(info.field_name)]):
            raise ValueError("not a URL of the expected scheme")
        return v.strip() if v else v

    @field_validator("database_path", "health_file", mode="before")
    @classmethod
    def _path(cls, v: object) -> object:
        if isinstance(v, str) and (not v.strip() or "\0" in v):
            raise ValueError("not a path")
        return v

    @property
    def database_target(self) -> str | Path:
        """Where the games live: ``DATABASE_URL`` (PostgreSQL) if set, else ``DATABASE_PATH``."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    @property
    def shard_plan(self) -> ShardPlan:
        """This process's shards (unsharded unless ``SHARD_COUNT`` is set)."""
        if self.shard_count is None:
            return ShardPlan()
        ids = parse_shard_ids(self.shard_ids) if self.shard_ids else ()
        return ShardPlan(self.shard_count, ids)

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None


def describe_errors(error: ValidationError) -> list[str]:
    """One sentence per bad setting: its name, what it must be, the value given (never the
    token's), and where to fix it.
    """
    lines: list[str] = []
    seen: set[str] = set()
    for item in error.errors():
        field = str(item["loc"][0]) if item.get("loc") else "?"
        if field in seen:
            continue
        seen.add(field)
        need = REQUIREMENTS.get(field, "has a value the bot cannot use")
        got = "" if field in SECRET_FIELDS else f" (got {_shown(item.get('input'))})"
        lines.append(f"{field.upper()} {need}{got}; fix it in .env or the environment")
    return lines


def _shown(value: Any) -> str:
    text = repr(value if isinstance(value, str) else str(value))
    return text if len(text) <= 60 else text[:57] + "...'"


def load_settings() -> Settings:
    """Read the settings; :class:`SettingsProblem` (one line per bad setting) if any is bad."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsProblem(describe_errors(exc)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingsProblem([f"The .env file cannot be read ({reason}): it must be a UTF-8 "
                               "text file of NAME=value lines (see .env.example)"]) from exc


class SettingsProblem(Problem):
    """Some settings have values the bot cannot use; ``lines`` say which and why."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines
