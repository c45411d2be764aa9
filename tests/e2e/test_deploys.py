"""What an ordinary deploy does to games, through SimCord: the bot process dies (its tasks stop,
nothing of a shutdown runs), Discord carries on without it, and a new process starts on the
same database, its gateway's READY coming when it comes.

Discord holds every message across the restart (SimCord's backend outlives the bot). A restart
here is :func:`kill_and_restart`; a crash at a chosen point of the old process's work is a
coroutine of it that raises ``CancelledError`` there, as a killed task would stop.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import discord
import pytest
import simcord

from bot.client import PandaBot, create_bot
from bot.service import Person, Place
from bot.settings import Settings
from cogs.upkeep import Upkeep
from tests.e2e.table import MENTION, Table, components, refused, text_of, verb
from tests.e2e.test_real_servers import check_live_ping, standing_pings
from tests.e2e.test_royale_game import open_lobby
from tests.e2e.test_royale_guards import play_until, started
from tests.services import privacy_of
from ui.items import bot_of

BotFactory = Callable[[], PandaBot]


async def kill_and_restart(table: Table, bot_factory: BotFactory, *, down_s: float = 0.0,
                           ready_late_s: float = 0.0,
                           while_down: Callable[[], None] | None = None) -> PandaBot:
    """The bot dies; ``down_s`` seconds later (``while_down`` happens meanwhile) a new one
    starts on the same database, and its gateway's READY comes ``ready_late_s`` seconds after
    its start-up. (A gateway event of ``while_down`` reaches no session: discord.py discards
    events about servers it has not been told of yet.)"""
    env = table.env
    old = env.bot
    new = bot_factory()
    start_up = new.setup_hook

    async def late_start_up() -> None:
        if while_down is not None:
            while_down()
        env.backend.advance_clock(down_s)
        await start_up()
        env.backend.advance_clock(ready_late_s)

    new.setup_hook = late_start_up  # type: ignore[method-assign]
    await env.restart_bot(new)
    await env.settle()
    await bot_of(new).boards.settle()
    await old.close()
    return new


def upkeep_of(bot: PandaBot) -> Upkeep:
    """The bot's Upkeep cog (its extension's module is loaded apart from ``cogs.upkeep``)."""
    upkeep = bot.get_cog("Upkeep")
    assert upkeep is not None and type(upkeep).__qualname__ == "Upkeep"
    return cast(Upkeep, upkeep)


async def latest(table: Table) -> Any:
    return await table.env.bot.service.db.games.latest_in_channel(table.channel.id)


async def actors(table: Table) -> list[str]:
    game = await latest(table)
    return [a.actor for a in await table.env.bot.service.db.games.action_log(game.id)]


def crash_in(bot: PandaBot, owner: Any, name: str) -> list[str]:
    """The next call of ``owner.name`` in ``bot``'s process is where it dies: the call stops
    there, as a killed task would. The list returned names the call once it died there."""
    real = getattr(owner, name)
    died: list[str] = []

    async def dying(*args: Any, **kwargs: Any) -> Any:
        setattr(owner, name, real)
        died.append(name)
        raise asyncio.CancelledError

    setattr(owner, name, dying)
    return died


# ---------------------------------------------------------------------------- deadlines


@pytest.mark.both_backends
@pytest.mark.parametrize("ready_late_s", [0.0, 20.0])
async def test_a_restart_longer_than_two_timeouts_plays_nobodys_turn(
        table: Table, bot_factory: BotFactory, ready_late_s: float) -> None:
    """Down 40 s with a 15 s turn timeout (and READY 20 s late): after the restart the waiting
    person still has the time they had left, acts on the live board, and the deadlines of
    the game go on as before."""
    env = table.env
    await started(table, ["alice", "bob", "carol"], turn_timeout=15)
    rng = random.Random(4)
    await play_until(table, "pick", rng)
    before = await actors(table)
    await kill_and_restart(table, bot_factory, down_s=40, ready_late_s=ready_late_s)
    assert await actors(table) == before, "the timer played a turn because of the downtime"
    await env.advance_time(12)  # within the 15 s the turn had left
    assert await actors(table) == before
    check_live_ping(table)
    assert await table.play_decision(rng, trade_rate=0.0)  # the live board takes the click
    assert len(await actors(table)) > len(before)
    game = await latest(table)
    waiting = len(await actors(table))
    await env.advance_time(16)  # the next person's whole turn: the computer plays it
    assert len(await actors(table)) > waiting and any(
        a.startswith("timeout:") for a in (await actors(table))[waiting:])
    assert (await latest(table)).version > game.version


async def test_a_restart_gives_back_the_time_left_not_a_whole_turn(
        table: Table, bot_factory: BotFactory) -> None:
    """20 s of a 30 s turn gone, then 60 s down: 10 s are left after the restart."""
    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=30)
    await play_until(table, "pick", random.Random(6))
    before = await actors(table)
    await env.advance_time(20)
    await env.bot.service.heard()  # the heartbeat, as it writes every few seconds
    await kill_and_restart(table, bot_factory, down_s=60)
    await env.advance_time(8)
    assert await actors(table) == before
    await env.advance_time(4)
    assert (await actors(table))[len(before)].startswith("timeout:")


async def test_deadlines_hold_per_shard_while_its_gateway_is_down(tmp_path: Path) -> None:
    """Two shards in one process: while shard 1 is down its game's deadline holds and it gets
    back the time lost when the shard resumes; shard 0's game times out meanwhile."""
    settings = Settings(_env_file=None, database_path=tmp_path / "bot.db",  # type: ignore[call-arg]
                        discord_token=None, shard_count="2")
    bot = create_bot(settings)
    async with simcord.run(bot) as env:
        await bot.tree.sync()
        games, guilds = {}, {}
        for shard in (0, 1):
            guild = guilds[shard] = env.create_guild(f"shard {shard}", shard_id=shard)
            channel = guild.create_text_channel("games")
            alice = guild.add_member(env.create_user(f"alice{shard}"))
            bob = guild.add_member(env.create_user(f"bob{shard}"))
            res = await alice.slash(channel, "royale new", turn_timeout=20)
            assert not refused(res)
            await bob.click(channel.last_message, label="Join")
            await alice.click(channel.last_message, label="Start")
            games[shard] = (await bot.service.db.games.open_in_channel(channel.id)).id
        bot.dispatch("shard_disconnect", 1)  # as discord.py says it
        await env.advance_time(30)
        logs = {s: await bot.service.db.games.action_log(g) for s, g in games.items()}
        assert any(a.actor.startswith("timeout:") for a in logs[0])
        assert not any(a.actor.startswith("timeout:") for a in logs[1])
        # the session of shard 1 resumed (the gateway's RESUMED, routed to that shard)
        env.backend.emit("RESUMED", {"guild_id": str(guilds[1].id), "__shard_id__": 1})
        await env.advance_time(15)
        assert not any(a.actor.startswith("timeout:")
                       for a in await bot.service.db.games.action_log(games[1]))
        await env.advance_time(10)
        assert any(a.actor.startswith("timeout:")
                   for a in await bot.service.db.games.action_log(games[1]))


# ---------------------------------------------------------------------------- pings


@pytest.mark.both_backends
async def test_restarts_every_few_clicks_leave_one_ping_naming_who_must_act(
        table: Table, bot_factory: BotFactory) -> None:
    """A 4-player Mayhem game (about 60 clicks), the bot killed and started again every 12
    clicks (and once right after a move was committed, before its board and ping): whenever
    the bot has gone quiet, one ping stands, for the person the live board waits on; none once
    the game is over."""
    env = table.env
    players = ["alice", "bob", "carol", "dave"]
    await open_lobby(table, players, mischief=True, cannon=True, mercenary=True)
    await table[players[0]].click(table.game_message(), label="Start")
    rng = random.Random(46)
    clicks = restarts = 0
    while True:
        if clicks and clicks % 12 == 0:
            await kill_and_restart(table, bot_factory, down_s=rng.choice((0, 5, 90)))
            restarts += 1
            check_live_ping(table)
        if clicks == 25:  # the next click's move is committed, then the process dies
            died = crash_in(env.bot, bot_of(env.bot).boards.presenter("royale"), "show")
            msg = table.game_message()
            who = table.decider(msg)
            pick = next(c for c in components(msg) if c.custom_id
                        and verb(c.custom_id) in ("pick", "pass", "fire", "save"))
            done = len(await actors(table))
            await who.click(msg, custom_id=pick.custom_id)
            assert died == ["show"] and len(await actors(table)) > done  # committed, unshown
            await kill_and_restart(table, bot_factory)
            restarts += 1
            check_live_ping(table)
            clicks += 1
            continue
        if not await table.play_decision(rng, trade_rate=0.3):
            break
        clicks += 1
        await bot_of(env.bot).boards.settle()
        check_live_ping(table)
    assert restarts >= 4 and text_of(table.channel.history()[-1]).startswith("### 🏁")
    await bot_of(env.bot).boards.settle()
    assert standing_pings(table) == []
    assert await env.bot.service.db.shown.all_pings() == []


async def test_a_ping_posted_but_never_recorded_is_found_and_deleted(
        table: Table, bot_factory: BotFactory) -> None:
    """The process dies after Discord took a ping and before the bot wrote down its message:
    after the restart that ping is found in the channel and deleted, and one ping stands."""
    await started(table, ["alice", "bob", "carol"])
    rng = random.Random(7)
    await play_until(table, "pick", rng)
    service = table.env.bot.service
    died = crash_in(table.env.bot, service, "ping_posted")
    assert await table.play_decision(rng, trade_rate=0.0)
    assert died == ["ping_posted"]
    assert len(standing_pings(table)) == 2  # the old one and the unrecorded one
    await kill_and_restart(table, bot_factory)
    check_live_ping(table)


async def test_a_ping_for_someone_who_already_acted_is_replaced_after_a_restart(
        table: Table, bot_factory: BotFactory) -> None:
    """The process dies after a move was committed and its board shown, before the next
    player was pinged: the standing ping names someone who no longer must act. After the
    restart it is gone and the next player is pinged."""
    await started(table, ["alice", "bob", "carol"])
    rng = random.Random(8)
    await play_until(table, "pick", rng)
    before = MENTION.search(standing_pings(table)[0].content).group(1)  # type: ignore[union-attr]
    died = crash_in(table.env.bot, bot_of(table.env.bot).boards, "ping")
    assert await table.play_decision(rng, trade_rate=0.0)
    assert died == ["ping"]
    await kill_and_restart(table, bot_factory)
    check_live_ping(table)
    assert MENTION.search(standing_pings(table)[0].content).group(1) != before  # type: ignore[union-attr]


# ---------------------------------------------------------------------------- lobbies


async def lobby_message(table: Table) -> discord.Message:
    msg = table.channel.history()[-1]
    assert any(verb(c.custom_id) == "join" for c in components(msg) if c.custom_id), \
        text_of(msg)
    return msg


async def delete_and_wait(table: Table, message_id: int) -> None:
    table.env.backend.delete_message(table.channel.id, message_id)
    await table.env.settle()
    await table.env.advance_time(10)


@pytest.mark.parametrize("where", ["new", "rematch", "restart"])
async def test_a_deleted_lobby_comes_back(table: Table, bot_factory: BotFactory,
                                          where: str) -> None:
    if where == "rematch":
        await started(table, ["alice", "bob"])
        await table.play_to_end(random.Random(3))
        res = await table["bob"].click(table.channel.history()[-1], label="Rematch")
        assert res.acknowledged and not refused(res)
    else:
        res = await table["alice"].slash(table.channel, "royale new")
        assert not refused(res)
    if where == "restart":
        await kill_and_restart(table, bot_factory)
    lobby = await lobby_message(table)
    game = await latest(table)
    await delete_and_wait(table, lobby.id)
    again = await lobby_message(table)
    assert again.id != lobby.id
    assert (await latest(table)).id == game.id
    assert (await latest(table)).message_id == again.id
    res = await table["carol"].click(again, label="Join")
    assert res.acknowledged and not refused(res)
    assert "carol" in text_of(await lobby_message(table))


async def test_a_deleted_round_board_from_before_a_restart_comes_back(
        table: Table, bot_factory: BotFactory) -> None:
    await started(table, ["alice", "bob"])
    rng = random.Random(9)
    await play_until(table, "pick", rng)
    await kill_and_restart(table, bot_factory)
    board = table.game_message()
    await delete_and_wait(table, board.id)
    assert table.game_message().id != board.id
    check_live_ping(table)
    assert await table.play_decision(rng)


# ---------------------------------------------------------------------------- removed servers


async def test_a_server_that_removed_the_bot_while_it_was_down_gets_nothing(
        table: Table, bot_factory: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    """A game in play and three lobbies alice hosts, in a server that removes the bot while
    it is down: after the restart no request goes to its channels, no timer fires, the games
    are abandoned, the departure is recorded, and alice may host elsewhere at once."""
    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=15)
    await play_until(table, "pick", random.Random(10))
    for name in ("lobby-a", "lobby-b"):
        channel = table.guild.create_text_channel(name)
        assert not refused(await table["alice"].slash(channel, "royale new"))
    elsewhere = env.create_guild("Elsewhere")
    there = elsewhere.create_text_channel("games")
    alice_there = elsewhere.add_member(env.create_user("alice2"))
    service = env.bot.service
    alice = Person(table["alice"].id, "alice")
    games = await service.db.games.open_in_guild(table.guild.id)
    assert len(games) == 3
    since = len(env.http_requests)
    caplog.set_level(logging.INFO)
    await kill_and_restart(table, bot_factory, down_s=30,
                           while_down=lambda: env.backend.remove_guild(table.guild.id))
    await env.advance_time(200)
    sent = [f"{r.method} {r.path}" for r in env.http_requests[since:]]
    assert not [r for r in sent if "/channels/" in r], sent
    service = env.bot.service
    for game in games:
        ended = await service.db.games.get(game.id)
        assert ended is not None and ended.status == "abandoned"
        assert ended.end_reason == "bot removed from the server while it was away"
        assert [a for a in await service.db.games.action_log(game.id)
                if a.actor.startswith("timeout:")] == []
    assert service.pending_timers == 0
    assert table.guild.id in {d.guild_id for d in await privacy_of(service).departures()}
    assert any("removed the bot while it was away" in r.getMessage() for r in caplog.records)
    game = await service.new_lobby(kind="royale", place=Place(elsewhere.id, there.id),
                                   host=alice, settings={})
    assert game.status == "lobby"
    assert alice_there.id != alice.id


async def test_a_server_unavailable_in_ready_keeps_its_games(
        table: Table, bot_factory: BotFactory) -> None:
    """A server Discord lists as unavailable in READY (an outage on its side) is not a
    removal: its game goes on."""
    await started(table, ["alice", "bob"])
    game = await latest(table)
    bot = table.env.bot
    state = bot._connection
    state._remove_guild(state._get_guild(table.guild.id))
    state._add_guild_from_data({"id": str(table.guild.id), "unavailable": True})
    assert bot.get_guild(table.guild.id).unavailable  # type: ignore[union-attr]
    await upkeep_of(bot).on_ready()
    assert (await bot.service.db.games.get(game.id)).status == "active"  # type: ignore[union-attr]


async def test_a_second_clusters_servers_are_none_of_this_ones_business(tmp_path: Path) -> None:
    """Cluster of shard 0 of 2: a game in a server of shard 1 (the other cluster's) is not in
    this cluster's READY, and stays as it is."""
    settings = Settings(_env_file=None, database_path=tmp_path / "bot.db",  # type: ignore[call-arg]
                        discord_token=None, shard_count="2", shard_ids="0")
    bot = create_bot(settings)
    async with simcord.run(bot) as env:
        other = env.create_guild("Other cluster", shard_id=1)
        mine = env.create_guild("Mine", shard_id=0)
        alice = Person(1, "alice")
        theirs = await bot.service.new_lobby(
            kind="royale", place=Place(other.id, 77), host=alice, settings={})
        ours = await bot.service.new_lobby(
            kind="royale", place=Place(mine.id, 78), host=alice, settings={})
        await upkeep_of(bot).on_shard_ready(0)
        assert (await bot.service.db.games.get(theirs.id)).status == "lobby"  # type: ignore[union-attr]
        assert (await bot.service.db.games.get(ours.id)).status == "lobby"  # type: ignore[union-attr]
        env.backend.remove_guild(mine.id)
        await env.settle()
        await upkeep_of(bot).on_shard_ready(0)
        assert (await bot.service.db.games.get(theirs.id)).status == "lobby"  # type: ignore[union-attr]
        assert (await bot.service.db.games.get(ours.id)).status == "abandoned"  # type: ignore[union-attr]

