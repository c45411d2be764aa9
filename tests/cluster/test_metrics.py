"""The Prometheus endpoint: off without METRICS_PORT; with it, scraped over HTTP, the games in
progress, the interactions received and the answer latency of this cluster."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

import simcord
from prometheus_client.parser import text_string_to_metric_families

from bot.client import create_bot
from bot.settings import Settings
from tests.e2e.table import Table


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def scrape(port: int) -> dict[str, float]:
    """``GET /metrics`` over HTTP: each sample by name and labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()) if k != "le")
            if "le" not in s.labels or s.labels["le"] == "+Inf":
                samples[f"{s.name}{{{labels}}}"] = s.value
    return samples


def bot_settings(tmp_path: Path, **env: object) -> Settings:
    return Settings(_env_file=None, database_path=tmp_path / "bot.db",  # type: ignore[call-arg]
                    discord_token=None, **env)


async def test_no_metrics_without_metrics_port(tmp_path: Path) -> None:
    bot = create_bot(bot_settings(tmp_path))
    async with simcord.run(bot):
        assert bot.metrics is None
    await bot.close()  # its database connection with it, before the test's loop closes


async def test_metrics_are_scraped_over_http(tmp_path: Path) -> None:
    port = free_port()
    bot = create_bot(bot_settings(tmp_path, metrics_port=str(port), shard_count="2",
                                  shard_ids="1"))
    async with simcord.run(bot) as env:
        await bot.tree.sync()
        guild = env.create_guild("Pandas", shard_id=1)
        channel = guild.create_text_channel("games")
        members = {n: guild.add_member(env.create_user(n)) for n in ("alice", "bob")}
        table = Table(env, guild, channel, members, {m.id: m for m in members.values()})
        before = scrape(port)
        assert before['panda_games_in_progress{cluster=1}'] == 0
        await members["alice"].slash(channel, "royale new")
        await members["bob"].click(channel.last_message, label="Join")
        await members["alice"].click(channel.last_message, label="Start")
        await env.advance_time(16)  # the next count of the games in progress
        after = scrape(port)
        assert after['panda_games_in_progress{cluster=1}'] == 1
        assert after['panda_interactions_total{cluster=1,type=command}'] == 1
        assert after['panda_interactions_total{cluster=1,type=component}'] == 2
        assert after['panda_answer_latency_seconds_count{cluster=1}'] == 3
        assert after['panda_answer_latency_seconds_sum{cluster=1}'] > 0
        assert table.decider(table.game_message()) is not None
    await bot.close()
    assert bot.metrics is not None and bot.metrics._server is None  # closed with the bot
