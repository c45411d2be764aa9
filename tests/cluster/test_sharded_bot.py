"""SHARD_COUNT / SHARD_IDS: the settings, the bot they make, and the one start-up sync."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
import simcord
from pydantic import ValidationError

from bot.client import PandaBot, ShardedPandaBot, create_bot
from bot.settings import Settings, describe_errors
from bot.shards import format_shard_ids, parse_shard_ids

DEV_GUILD = 4 << 22  # on shard 0 of 2


def settings(tmp_path: Path, **env: object) -> Settings:
    return Settings(_env_file=None, database_path=tmp_path / "bot.db",  # type: ignore[call-arg]
                    discord_token=None, **env)


@pytest.mark.parametrize(("text", "ids"), [("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)),
                                           (" 5, 0-1 ,1", (0, 1, 5)), ("7", (7,))])
def test_shard_ids_read_ranges_and_lists(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids
    assert parse_shard_ids(format_shard_ids(ids)) == ids


@pytest.mark.parametrize(("env", "field"), [
    ({"shard_count": "0"}, "SHARD_COUNT"), ({"shard_count": "two"}, "SHARD_COUNT"),
    ({"shard_ids": "1"}, "SHARD_IDS"),  # without SHARD_COUNT
    ({"shard_count": "2", "shard_ids": "2"}, "SHARD_IDS"),  # not below SHARD_COUNT
    ({"shard_count": "4", "shard_ids": "3-1"}, "SHARD_IDS"),
    ({"shard_count": "4", "shard_ids": "0;1"}, "SHARD_IDS"),
    ({"metrics_port": "70000"}, "METRICS_PORT"), ({"metrics_port": "x"}, "METRICS_PORT"),
])
def test_a_bad_shard_setting_is_one_clear_line(tmp_path: Path, env: dict[str, str],
                                               field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        settings(tmp_path, **env)
    lines = describe_errors(caught.value)
    assert len(lines) == 1 and lines[0].startswith(f"{field} must be"), lines


def test_the_settings_make_the_bot(tmp_path: Path) -> None:
    plain = create_bot(settings(tmp_path))
    assert type(plain) is PandaBot and not plain.plan.sharded
    sharded = create_bot(settings(tmp_path, shard_count="4", shard_ids="1-2"))
    assert isinstance(sharded, ShardedPandaBot)
    assert isinstance(sharded, discord.AutoShardedClient)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 2]
    assert sharded.plan.label == "1-2"
    every = create_bot(settings(tmp_path, shard_count="2"))
    assert every.shard_ids == [0, 1]  # type: ignore[attr-defined]


@pytest.mark.parametrize("shard", [0, 1])
async def test_only_the_cluster_with_shard_zero_syncs_the_dev_guild(tmp_path: Path,
                                                                   shard: int) -> None:
    bot = create_bot(settings(tmp_path, shard_count="2", shard_ids=str(shard),
                              dev_guild_id=str(DEV_GUILD)))
    async with simcord.run(bot, strict_sync=False) as env:
        env.create_guild("Dev", id=DEV_GUILD)
        syncs = [r for r in env.http_requests
                 if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(syncs) == (1 if shard == 0 else 0), syncs
        assert bot.shards.keys() == {shard}  # type: ignore[attr-defined]
    await bot.close()  # its database connection with it, before the test's loop closes
