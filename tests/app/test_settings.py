"""Settings come from the environment or .env; the token never shows."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import point_at_endpoints
from bot.settings import Settings

TOKEN = "MTIz.fake-token-value.abc"


def test_env_file_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(key, raising=False)
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=data/x.db\nDEV_GUILD_ID=\n"
                   "LOG_LEVEL=debug\n")
    s = Settings(_env_file=env)  # type: ignore[call-arg]
    assert s.has_token and s.discord_token is not None
    assert s.discord_token.get_secret_value() == TOKEN
    assert s.database_path == Path("data/x.db")
    assert s.dev_guild_id is None and s.log_level == "DEBUG"
    monkeypatch.setenv("DEV_GUILD_ID", "42")
    assert Settings(_env_file=env).dev_guild_id == 42  # type: ignore[call-arg]


def test_token_never_in_repr_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    s = Settings(_env_file=None, discord_token=TOKEN)  # type: ignore[call-arg]
    assert TOKEN not in repr(s) and TOKEN not in str(s.model_dump())
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("bot").info("settings: %s", s)
    assert TOKEN not in caplog.text


def test_blank_token_means_no_token() -> None:
    s = Settings(_env_file=None, discord_token="  ")  # type: ignore[call-arg]
    assert not s.has_token


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError):
        Settings(_env_file=None, log_level="LOUD")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Settings(_env_file=None, default_turn_timeout=5)  # type: ignore[call-arg]


def test_endpoints_point_discord_py_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Route, "BASE", Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
    s = Settings(_env_file=None, discord_api_base_url="http://127.0.0.1:9/api/v10/",  # type: ignore[call-arg]
                 discord_gateway_url="ws://127.0.0.1:9/gateway")
    point_at_endpoints(s)
    assert Route.BASE == "http://127.0.0.1:9/api/v10"
    assert Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"


def test_database_url_selects_postgres_and_stays_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql://panda:hunter2@db/panda"
    monkeypatch.setenv("DATABASE_URL", url)
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.database_target == url
    assert "hunter2" not in repr(s)
    monkeypatch.setenv("DATABASE_URL", "")
    assert Settings(_env_file=None).database_target == s.database_path  # type: ignore[call-arg]
    monkeypatch.setenv("DATABASE_URL", "mysql://x")
    with pytest.raises(ValueError, match="postgresql://"):
        Settings(_env_file=None)  # type: ignore[call-arg]
