"""docker-compose.yml: PostgreSQL and two bot clusters, each with settings the bot accepts,
health checks, the data on a volume, and the shards split between the clusters."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
FILLED = {"DISCORD_TOKEN": "MTIz.abc.def", "POSTGRES_PASSWORD": "secret"}


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def interpolate(value: str) -> str:
    """Compose's ``${NAME:?message}`` with the values an operator would export."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: FILLED[m.group(1)], value)


def test_postgres_with_a_volume_and_pg_isready() -> None:
    services = compose()["services"]
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert any(v.startswith("pgdata:") for v in db["volumes"]) and "pgdata" in compose()["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])


def test_two_clusters_split_the_shards_with_settings_the_bot_accepts() -> None:
    services = compose()["services"]
    clusters = {name: s for name, s in services.items() if name.startswith("cluster-")}
    assert len(clusters) == 2
    fields = {name.upper() for name in Settings.model_fields}
    shards: list[int] = []
    for service in clusters.values():
        env = {k: interpolate(str(v)) for k, v in service["environment"].items()}
        assert set(env) <= fields, set(env) - fields
        settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
        plan = settings.shard_plan
        assert plan.count == 2 and settings.metrics_port is not None
        assert settings.database_url is not None
        assert "@db:5432/" in settings.database_url.get_secret_value()
        shards += plan.shard_ids
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]
        # the Dockerfile's last stage (the image), not its build stage
        assert service["build"] == "."
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
    assert sorted(shards) == [0, 1]  # every shard in exactly one cluster
