"""A thread per game: the lobby stays in the channel, the game plays in a thread opened from
the lobby message, the channel gets one result message; without the permissions or past the
server's thread limit the game plays in the channel and the host is told once."""

from __future__ import annotations

import random
from typing import Any

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.e2e.table import Table, custom_ids, pictures_of, private, text_of
from tests.e2e.test_royale_game import open_lobby


def in_thread(table: Table) -> Table:
    (thread,) = table.channel.threads
    t = Table(table.env, table.guild, thread, table.members)
    t.by_id = table.by_id
    return t


async def start(table: Table, players: list[str], **options: object) -> Any:
    await open_lobby(table, players, **options)
    res = await table[players[0]].click(table.channel.last_message, label="Start")
    assert res.acknowledged
    return res


async def test_a_game_plays_in_its_thread_and_the_channel_gets_one_result(
        table: Table) -> None:
    await start(table, ["alice", "bob"], thread=True)
    thread = in_thread(table)
    assert thread.channel.name == "Panda Royale · game 1"
    lobby = table.channel.history()
    assert not any(custom_ids(m) for m in lobby)  # the lobby says where the game went
    assert any(f"<#{thread.channel.id}>" in text_of(m) for m in lobby)
    before = [m.id for m in table.channel.history()]
    decisions = await thread.play_to_end(random.Random(3))
    assert decisions > 15
    over = thread.channel.history()[-1]
    assert text_of(over).startswith("### 🏁 Panda Royale is over!")
    after = [m for m in table.channel.history() if m.id not in before]
    assert len(after) == 1 and "its thread" in text_of(after[0])  # one result message
    said = text_of(after[0])
    assert "wins with" in said or "Shared win" in said  # the standings
    assert f"/{thread.channel.id}/{over.id}" in said  # a link to the thread's announcement
    assert pictures_of(after[0]) == [] and not after[0].attachments  # the picture stays there
    game = await table.env.bot.service.db.games.latest_in_channel(thread.channel.id)
    assert game is not None and game.parent_channel_id == table.channel.id
    assert game.status == "finished"


async def test_a_restart_mid_game_resumes_in_the_thread(table: Table, bot_factory: Any
                                                        ) -> None:
    await start(table, ["alice", "bob"], thread=True)
    thread = in_thread(table)
    rng = random.Random(4)
    for _ in range(5):
        assert await thread.play_decision(rng, trade_rate=0.0)
    old = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old.close()
    for _ in range(5):
        assert await thread.play_decision(rng, trade_rate=0.0)
    assert not any(custom_ids(m) for m in table.channel.history())  # nothing in the channel


async def test_without_the_thread_permissions_the_game_plays_in_the_channel(
        table: Table) -> None:
    deny = discord.Permissions(create_public_threads=True).value
    table.env.backend.set_overwrite(table.channel.id, Overwrite(
        target_id=table.env.backend.bot_user.id, type=OverwriteType.MEMBER, deny=deny))
    await table.env.settle()
    res = await start(table, ["alice", "bob"], thread=True)
    assert "Create Public Threads" in text_of(private(res))  # the host, told once
    assert table.channel.threads == []
    assert await table.play_decision(random.Random(5))  # the game goes on in the channel


async def test_past_the_servers_thread_limit_the_game_plays_in_the_channel(
        table: Table) -> None:
    table.env.inject_error("POST", "/channels/*/messages/*/threads", status=400, code=160006,
                           message="Maximum number of active threads reached")
    res = await start(table, ["alice", "bob"], thread=True)
    assert "active threads" in text_of(private(res))
    assert await table.play_decision(random.Random(6))


async def test_the_servers_choice_of_threads(table: Table) -> None:
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[role])
    res = await admin.slash(table.channel, "settings threads", on=True)
    assert "thread" in text_of(private(res))
    await start(table, ["alice", "bob"])  # no option: the server's choice
    assert len(table.channel.threads) == 1
    res = await admin.slash(table.channel, "settings threads")
    assert "play in a thread" in text_of(private(res))
