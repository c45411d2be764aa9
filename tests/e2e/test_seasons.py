"""Seasons and achievements through Discord (SimCord): ``/settings season``, games played by
people, the game-over message naming what was earned, ``/stats``, the season leaderboards, and
a season ending on the virtual clock: its podium posted once in the season channel, across a
restart of the bot, and the ratings reset as the server asked.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

import discord
import pytest

from tests.e2e.table import Table, private, text_of
from tests.e2e.test_royale_game import open_lobby
from tests.e2e.test_stats_help import card, figures
from tests.storage.storage_helpers import season_end

DAY_S = 24 * 3600


PODIUM = re.compile(r"^### 🏆 .+", re.M)
"""A podium card's heading (the season's name, in the server's language)."""


def podiums(channel: Any) -> list[Any]:
    return [m for m in channel.history() if PODIUM.match(text_of(m))]


def heading(msg: Any) -> str:
    """The first line of a card (its heading)."""
    return heading_line(text_of(msg))


def heading_line(said: str) -> str:
    return said.split("\n", 1)[0]


async def to_next_month(table: Table, extra_s: float = 120) -> None:
    """Advance the virtual clock past the next month's start (SimCord starts on 1 January).
    The season check wakes every hour of it: a month is some 750 wakeups, each a query."""
    table.env.settle_timeout = max(table.env.settle_timeout, 120.0)
    now = table.env.now()
    first = (now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
             + dt.timedelta(days=32)).replace(day=1)
    await table.env.advance_time((first - now).total_seconds() + extra_s)


async def a_game(table: Table, players: list[str], seed: int) -> Any:
    await open_lobby(table, players)
    await table[players[0]].click(table.game_message(), label="Start")
    await table.play_to_end(random.Random(seed))
    final = table.channel.history()[-1]
    assert text_of(final).startswith("### 🏁")
    return final


def admin(table: Table) -> Any:
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("admin"), roles=[role])


@pytest.mark.both_backends
async def test_a_season_ends_with_its_podium_once_across_a_restart(
        table: Table, bot_factory: Any) -> None:
    boss = admin(table)
    hall = table.guild.create_text_channel("hall-of-fame")
    res = await boss.slash(table.channel, "settings season")
    assert "no seasons" in private(res).content
    res = await boss.slash(table.channel, "settings season", length="monthly", channel=hall,
                           ratings="reset")
    text = private(res).content
    assert "monthly" in text and "January 2026" in text and f"<#{hall.id}>" in text
    assert "start again" in text and "⚠️" not in text

    first = await a_game(table, ["alice", "bob"], 3)
    earned = [line for line in text_of(first).split("\n") if line.startswith("🏅 ")]
    assert earned and any("First win" in line for line in earned)  # a person won: their first
    await a_game(table, ["alice", "bob"], 4)
    await a_game(table, ["carol", "bob"], 5)

    stats = await table["dave"].slash(table.channel, "stats", member=table["bob"])
    said = text_of(card(stats))
    (title,) = re.findall(r"^\*\*Achievements \((\d+) of (\d+)\)\*\*$", said, re.M)
    assert title[1] == "11" and int(title[0]) >= 1 and "\n🏅 **" in said
    board = text_of(card(await table["dave"].slash(table.channel, "leaderboard",
                                                   period="season")))
    assert heading_line(board).endswith("this season (January 2026)")
    assert re.search(r"\d wins? in 3 games", figures(board)["bob"]), board  # his three games
    db = table.env.bot.service.db
    assert await db.results.ratings(table.guild.id, "royale", [str(table["bob"].id)])

    await to_next_month(table)
    (podium,) = podiums(hall)
    said = text_of(podium)
    assert heading(podium) == "### 🏆 Season January 2026: the podium"
    assert said.split("\n")[1].startswith("Season January 2026 is over")
    (royale,) = said.split("\n**")[1:]  # one game kind played
    assert royale.startswith("Panda Royale**\n🥇")
    medals = [line[:1] for line in royale.split("\n")[1:] if not line.startswith("-# ")]
    assert medals == ["🥇", "🥈", "🥉"]  # alice, bob and carol
    assert "-# Ratings start again" in said
    assert podium.mentions == [] and not podiums(table.channel)
    assert await db.results.ratings(table.guild.id, "royale", [str(table["bob"].id)]) == {}

    old = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old.close()
    await table.env.advance_time(2 * 3600)
    assert len(podiums(hall)) == 1  # the restarted bot found it settled
    last = text_of(card(await table["dave"].slash(table.channel, "leaderboard",
                                                  period="last-season")))
    assert heading_line(last).endswith("last season (January 2026)") and "carol" in last
    now = text_of(card(await table["dave"].slash(table.channel, "leaderboard",
                                                 period="season")))
    assert heading_line(now).endswith("this season (February 2026)")
    assert "No finished games" in now


async def test_no_podium_where_the_bot_may_not_post_and_none_for_an_empty_season(
        table: Table) -> None:
    boss = admin(table)
    me = table.guild.me
    locked = table.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(send_messages=False)})
    res = await boss.slash(table.channel, "settings season", length="monthly", channel=locked)
    assert f"I can't post the podium in <#{locked.id}> yet: grant me Send Messages" in \
        private(res).content
    await a_game(table, ["alice", "bob"], 7)
    await to_next_month(table)
    assert podiums(locked) == [] and podiums(table.channel) == []
    end = await season_end(table.env.bot.service.db, table.guild.id, "2026-01")
    assert end is not None and end["outcome"] == "refused" and end["message_id"] is None
    # February: nobody plays; its end posts nothing (and is settled as empty).
    await to_next_month(table)
    end = await season_end(table.env.bot.service.db, table.guild.id, "2026-02")
    assert end is not None and end["outcome"] == "empty"
    # The command's channel is the podium's when none was chosen before.
    other = table.guild.create_text_channel("other")
    await boss.slash(table.channel, "settings season", length="off")
    res = await boss.slash(other, "settings season", length="quarterly")
    assert f"<#{locked.id}>" in private(res).content  # the channel chosen before stays


async def test_seasons_without_a_channel_use_the_command_s(table: Table) -> None:
    boss = admin(table)
    res = await boss.slash(table.channel, "settings season", length="quarterly")
    assert f"<#{table.channel.id}>" in private(res).content
    assert "Q1 2026" in private(res).content
    res = await table["alice"].slash(table.channel, "leaderboard", period="last-season")
    assert heading_line(text_of(card(res))).endswith("last season (Q4 2025)")
    await a_game(table, ["alice", "bob"], 8)
    await boss.slash(table.channel, "settings language", language="ja")  # the podium's too
    for month in ("February", "March"):
        await to_next_month(table, extra_s=5)
        assert podiums(table.channel) == [], month  # a quarter ends with March
    await to_next_month(table, extra_s=5)
    (podium,) = podiums(table.channel)
    assert heading(podium) == "### 🏆 シーズン 2026/Q1：表彰台"
    assert "\n**パンダロワイヤル**\n🥇" in text_of(podium)
    footer = text_of(podium).rsplit("\n-# ", 1)[1]
    assert "引き継" in footer  # ratings carry on
