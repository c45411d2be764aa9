"""What real servers do to a game, through SimCord: moderators delete its messages, channels
disappear, the bot's permissions change, players leave, the bot is removed, the gateway drops.

SimCord's backend does each of these as Discord would and sends the gateway events Discord
sends (MESSAGE_DELETE with the guild messages intent, CHANNEL_DELETE, CHANNEL_UPDATE for a
permission overwrite, GUILD_DELETE; GUILD_MEMBER_REMOVE only with the members intent). A
gateway outage is what discord.py tells the bot (``on_disconnect`` / ``on_resumed``), and a
click that reaches the bot late is an interaction whose id was minted before the outage.
"""

from __future__ import annotations

import random
import re
from typing import Any

import aiohttp
import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.rules.registry import kind_of
from tests.e2e.table import (
    MENTION,
    Table,
    click_together,
    components,
    custom_ids,
    pictures_of,
    private,
    refusals,
    text_of,
    verb,
)
from tests.e2e.test_phone import named_table, open_royale
from tests.e2e.test_royale_guards import play_until, started
from ui.cards import TEXT_LIMIT
from ui.items import bot_of

LINK = re.compile(r"https://discord.com/channels/\d+/(\d+)/(\d+)")


async def latest(table: Table) -> Any:
    return await table.env.bot.service.db.games.latest_in_channel(table.channel.id)


async def actors(table: Table) -> list[str]:
    game = await latest(table)
    return [a.actor for a in await table.env.bot.service.db.games.action_log(game.id)]


def standing_pings(table: Table) -> list[discord.Message]:
    return [m for m in table.channel.history()
            if m.content.startswith("<@") and "your turn" in m.content]


def check_live_ping(table: Table) -> None:
    """The game waits on a person: exactly one ping stands, it mentions them and links to the
    live board."""
    board = table.game_message()
    who = table.decider(board)
    if who is None or text_of(board).startswith("### 🏁"):  # the game is over
        return
    pings = standing_pings(table)
    assert len(pings) == 1, [p.content for p in pings]
    assert MENTION.search(pings[0].content).group(1) == str(who.id)  # type: ignore[union-attr]
    link = LINK.search(pings[0].content)
    assert link is not None and int(link.group(2)) == board.id, (pings[0].content, board.id)


def deny(table: Table, channel: Any, *permissions: str) -> None:
    """Take ``permissions`` from the bot in ``channel`` (an overwrite; CHANNEL_UPDATE)."""
    value = discord.Permissions(**dict.fromkeys(permissions, True)).value
    table.env.backend.set_overwrite(channel.id, Overwrite(
        target_id=table.env.backend.bot_user.id, type=OverwriteType.MEMBER, deny=value))


def allow_again(table: Table, channel: Any) -> None:
    table.env.backend.delete_overwrite(channel.id, table.env.backend.bot_user.id)


def requests_to(table: Table, channel_id: int, since: int) -> list[str]:
    return [f"{r.method} {r.path}" for r in table.env.http_requests[since:]
            if f"/channels/{channel_id}" in r.path]


# ---------------------------------------------------------------------------- deletions


async def test_a_deleted_board_comes_back_at_once_and_a_second_deletion_pauses(
        table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=30)
    rng = random.Random(4)
    await play_until(table, "pick", rng)
    board = table.game_message()
    env.backend.delete_message(table.channel.id, board.id)
    await env.settle()
    new = table.game_message()
    assert new.id != board.id and any(verb(c) == "pick" for c in custom_ids(new))
    check_live_ping(table)  # the ping was posted again, linking to the new board
    await env.advance_time(20)  # nobody's time ran out meanwhile
    assert not any(a.startswith("timeout:") for a in await actors(table))
    assert await table.play_decision(rng)  # and the game goes on from the new board
    check_live_ping(table)

    # a moderator who keeps deleting it: the bot says so once and pauses, no loop
    posts = len(env.http_requests)
    env.backend.delete_message(table.channel.id, table.game_message().id)
    await env.settle()
    note = table.channel.history()[-1]
    assert "keeps being deleted" in note.content and "/royale board" in note.content
    assert (await latest(table)).paused == "deleted"
    assert sum(1 for r in env.http_requests[posts:] if r.method == "POST") == 1  # the note
    await env.advance_time(300)  # paused: no deadline runs
    assert not any(a.startswith("timeout:") for a in await actors(table))
    res = await table["carol"].slash(table.channel, "royale board")  # anyone in the channel
    assert "bottom of the channel" in private(res).content
    assert (await latest(table)).paused is None
    check_live_ping(table)
    assert await table.play_decision(rng)


async def test_every_live_ping_links_to_the_live_board(table: Table) -> None:
    """Whole game; now and then a moderator deletes the standing ping: after each decision
    exactly one ping stands, for the player the board waits on, linking to that board."""
    env = table.env
    await started(table, ["alice", "bob", "carol"])
    rng = random.Random(12)
    checked = 0
    for _ in range(400):
        pings = standing_pings(table)
        if pings and rng.random() < 0.25:
            env.backend.delete_message(table.channel.id, pings[0].id)
            await env.settle()
        if not await table.play_decision(rng, trade_rate=0.4):
            break
        check_live_ping(table)
        checked += 1
    assert checked > 30
    assert text_of(table.channel.history()[-1]).startswith("### 🏁")


async def test_the_board_command_brings_a_buried_board_down(table: Table) -> None:
    await started(table, ["alice", "bob"])
    rng = random.Random(5)
    await play_until(table, "pick", rng)
    old = table.game_message()
    for i in range(12):  # chat buries the board
        await table["dave"].send(table.channel, f"chat {i}")
    res = await table["erin"].slash(table.channel, "royale board")  # not a player
    assert "bottom of the channel" in private(res).content
    history = table.channel.history()
    new = table.game_message()
    assert new.id != old.id and new.id in [m.id for m in history[-2:]]
    closed = next(m for m in history if m.id == old.id)
    assert not custom_ids(closed) and str(new.id) in text_of(closed)  # links to the new one
    check_live_ping(table)
    assert await table.play_decision(rng)


# ---------------------------------------------------------------------------- places that go


async def test_a_deleted_channel_ends_its_game_and_frees_its_hosts_slots(table: Table) -> None:
    env = table.env
    alice = table["alice"]
    await started(table, ["alice", "bob"], turn_timeout=15)
    game = await latest(table)
    lobbies = [table.guild.create_text_channel(f"lobby-{i}") for i in range(2)]
    for channel in lobbies:
        res = await alice.slash(channel, "royale new")
        assert res.acknowledged and not res.followups
    since = len(env.http_requests)
    for channel in [table.channel, *lobbies]:
        env.backend.delete_channel(channel.id)
    await env.settle()
    await env.advance_time(200)  # the timers would have played the game to its end
    assert len(requests_to(table, table.channel.id, since)) <= 5
    db = env.bot.service.db
    ended = await db.games.get(game.id)
    assert ended is not None and ended.status == "abandoned" and ended.deadline_ms is None
    assert await db.results.of_game(game.id) == []
    assert await db.results.leaderboard(table.guild.id, "royale", since_ms=None, limit=10, offset=0,
                                        include_bots=True) == []
    assert env.bot.service.pending_timers == 0
    # the lobbies in the deleted channels no longer count against their host
    fresh = table.guild.create_text_channel("fresh")
    res = await alice.slash(fresh, "royale new")
    assert res.acknowledged and res.response is not None and not res.response.ephemeral


async def test_the_bot_removed_from_the_server_ends_its_games(table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=15)
    game = await latest(table)
    since = len(env.http_requests)
    env.backend.remove_guild(table.guild.id)
    await env.settle()
    await env.advance_time(200)
    assert requests_to(table, table.channel.id, since) == []
    db = env.bot.service.db
    ended = await db.games.get(game.id)
    assert ended is not None and ended.status == "abandoned"
    assert await db.results.of_game(game.id) == [] and env.bot.service.pending_timers == 0


# ---------------------------------------------------------------------------- permissions


async def test_without_send_messages_the_game_pauses_and_says_what_to_grant(
        table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=20)
    rng = random.Random(6)
    await play_until(table, "pick", rng)
    deny(table, table.channel, "send_messages")
    await env.settle()
    msg = table.game_message()
    who = table.decider(msg)
    pick = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    res = await who.click(msg, custom_id=pick.custom_id)
    told = [a for a in [*res.followups] if "Send Messages" in (a.content or "")]
    assert told and not told[0].ephemeral  # through the interaction, for every player
    game = await latest(table)
    assert game.paused == "send_messages" and game.deadline_ms is None
    before = await actors(table)
    await env.advance_time(120)
    assert await actors(table) == before  # paused: nobody's time runs out
    allow_again(table, table.channel)  # granted again: the game goes on by itself
    await env.settle()
    game = await latest(table)
    assert game.paused is None and game.deadline_ms is not None
    check_live_ping(table)
    assert await table.play_decision(rng)


async def test_without_embed_links_the_board_is_the_same_card(table: Table) -> None:
    """A Components V2 card needs no Embed Links: without it the round card keeps its
    picture and its buttons, and the game goes on."""
    env = table.env
    await started(table, ["alice", "bob"])
    rng = random.Random(7)
    await play_until(table, "pick", rng)
    deny(table, table.channel, "embed_links")
    await env.settle()
    assert await table.play_decision(rng)
    board = table.game_message()
    assert not board.embeds and pictures_of(board) == ["round-card.png"]
    assert table.decider(board) is not None
    assert {verb(c) for c in custom_ids(board)} & {"pick", "pass", "fire", "mtarget"}
    assert (await latest(table)).paused is None


LONG_NAMES = [f"Bartholomew Longname-Smithers {i:02}" for i in range(10)]
"""Ten names of 32 characters: a ten-player round card in words is then long."""


def _payloads(obj: Any) -> list[dict[str, Any]]:
    """The message payloads in a request's body (an interaction callback's is its data)."""
    if not isinstance(obj, dict):
        return []
    data = obj.get("data")
    inner = _payloads(data) if isinstance(data, dict) else []
    return ([obj] if "components" in obj else []) + inner


def _walk(components_: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in components_ or []:
        out.append(c)
        out.extend(_walk([*(c.get("components") or []),
                          *([c["accessory"]] if c.get("accessory") else [])]))
    return out


def plain_cards(env: Any, since: int) -> list[list[str]]:
    """The round cards in words (no picture: the bot may not attach files) the bot sent or
    edited since ``since``: the text of each of their Text Displays, in order."""
    cards = []
    for r in env.http_requests[since:]:
        if r.method not in ("POST", "PATCH"):
            continue
        for p in _payloads(r.json):
            parts = _walk(p.get("components") or [])
            texts = [c.get("content") or "" for c in parts if c.get("type") == 10]
            if texts and texts[0].startswith("**Panda Royale** · Round") \
                    and not any(c.get("type") == 12 for c in parts):
                cards.append(texts)
    return cards


def scores_of(texts: list[str], first: str) -> list[str]:
    """The lines of a card in words that give each player's scores and dice (they start with
    the players' names, ``first``)."""
    block = next(t for t in texts if t.startswith(first))
    return block.split("\n")


async def test_ten_long_names_without_attach_files_fit_whole_lines(simcord_env: Any) -> None:
    table = await named_table(simcord_env, LONG_NAMES)
    await open_royale(table, list(table.members), cpus=0)
    deny(table, table.channel, "attach_files")
    await simcord_env.settle()
    first = len(simcord_env.http_requests)
    rng = random.Random(12)
    for _ in range(60):
        assert await table.play_decision(rng, trade_rate=0.3)
    cards = plain_cards(simcord_env, first)
    assert len(cards) > 20
    for texts in cards:
        assert sum(len(t) for t in texts) <= TEXT_LIMIT, sum(len(t) for t in texts)
        lines = scores_of(texts, "**Bartholomew")
        assert len(lines) == 10, lines  # each player's line
        for line in lines:  # each player's name and scores whole (their dice, if they fit)
            assert line.startswith("**Bartholomew"), line


async def test_ten_names_of_markdown_keep_every_dice_line(simcord_env: Any) -> None:
    table = await named_table(simcord_env, ["*" * 31 + str(i) for i in range(10)])
    await open_royale(table, list(table.members), cpus=0)
    deny(table, table.channel, "attach_files")
    await simcord_env.settle()
    first = len(simcord_env.http_requests)
    rng = random.Random(13)
    for _ in range(200):
        if not await table.play_decision(rng, trade_rate=0.3):
            break
    cards = plain_cards(simcord_env, first)
    assert len(cards) > 20
    trimmed = 0
    for texts in cards:
        assert sum(len(t) for t in texts) <= TEXT_LIMIT
        lines = scores_of(texts, "**\\*")  # the names' markdown escaped, each name whole
        assert sorted(x[:2 + 2 * 31 + 3] for x in lines) == [
            "**" + "\\*" * 31 + f"{i}**" for i in range(10)], lines
        trimmed += any(x.endswith(": …") for x in lines)
    assert trimmed  # some cards were too long with every die: the last players' dice went


async def test_without_attach_files_rounds_and_the_end_go_without_pictures(
        table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob"])
    before = {m.id for m in table.channel.history()}
    deny(table, table.channel, "attach_files")
    await env.settle()
    decisions = await table.play_to_end(random.Random(8))
    assert decisions > 10
    final = table.channel.history()[-1]
    said = text_of(final)
    assert said.startswith("### 🏁 Panda Royale is over!") and not final.attachments
    assert "wins with" in said or "Shared win" in said
    assert pictures_of(final) == []
    assert {verb(c) for c in custom_ids(final)} >= {"rematch", "review", "replay"}
    posted = [m for m in table.channel.history() if m.id not in before]
    assert len(posted) >= 9  # 8 rounds, the end
    assert all(not m.attachments and not pictures_of(m) for m in posted)


# ---------------------------------------------------------------------------- players


async def test_a_player_who_left_gets_the_computer_and_no_rating(table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob", "carol"], turn_timeout=15)
    bob = table["bob"]
    table.guild.remove_member(bob)  # no members intent: the bot hears it at bob's timeout
    await env.settle()
    rng = random.Random(9)
    mentions_after = None
    for _ in range(600):
        board = table.game_message()
        who = table.decider(board)
        if who is None:
            break
        if who is bob:
            await env.advance_time(16)
            if mentions_after is None:
                mentions_after = len(table.channel.history())
            continue
        if not await table.play_decision(rng, trade_rate=0.0):
            break
    pinged_later = [m for m in table.channel.history()[mentions_after or 0:]
                    if f"<@{bob.id}> your turn" in m.content]
    assert pinged_later == []  # pinged at most once more: before his first timeout
    told = [r for r in env.http_requests if isinstance(r.json, dict)
            and "bob left the server" in str(r.json)]
    assert told  # announced on the board
    game = await latest(table)
    assert game.status == "finished"
    results = await env.bot.service.db.results.of_game(game.id)
    assert str(bob.id) not in {r.player_id for r in results}
    assert {r.player_id for r in results} == {str(table["alice"].id), str(table["carol"].id)}


async def test_resign_hands_the_seat_to_the_computer(table: Table) -> None:
    await started(table, ["alice", "bob"])
    res = await table["bob"].slash(table.channel, "royale resign")
    assert "resigned" in private(res).content
    decisions = await table.play_to_end(random.Random(10))
    assert decisions > 5
    game = await latest(table)
    assert [p.stand_in for p in game.players] == [None, "resigned"]
    results = await table.env.bot.service.db.results.of_game(game.id)
    assert [r.player_id for r in results] == [str(table["alice"].id)]
    res = await table["alice"].slash(table.channel, "royale log")
    assert "Game 1" in private(res).content


# ---------------------------------------------------------------------------- outages


async def test_an_outage_costs_nobody_a_move_and_a_late_click_is_dropped(table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=30)
    rng = random.Random(11)
    await play_until(table, "pick", rng)
    msg = table.game_message()
    who = table.decider(msg)
    pick = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    before = await actors(table)
    await env.advance_time(10)
    env.bot.dispatch("disconnect")
    await env.advance_time(60)  # the gateway is down: the deadline (20 s away) holds
    assert await actors(table) == before
    # a click made during the outage reaches the bot when it is back: its user saw it fail
    minted = discord.utils.time_snowflake(discord.utils.utcnow()) - (50_000 << 22)
    (late,) = await click_together(env, [(who, msg, pick.custom_id)], mint=minted)
    assert not late.acknowledged and await actors(table) == before
    env.backend.emit("RESUMED", {})  # the session resumed (as the gateway says it)
    await env.settle()
    await env.advance_time(15)  # 20 s were left: still within them
    assert await actors(table) == before
    await env.advance_time(10)
    assert (await actors(table))[len(before):][0].startswith("timeout:")


async def test_a_connection_that_drops_mid_edit_is_redrawn_not_an_incident(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """discord.py raises the connection's own errors (aiohttp's, OSError), not an HTTP error,
    when the connection to Discord fails: the board is redrawn shortly, as for a refusal."""
    env = table.env
    await started(table, ["alice", "bob"])
    rng = random.Random(14)
    boards = bot_of(env.bot).boards
    edit = boards._edit_message  # the one request that edits a message, whichever its door
    calls: list[str] = []

    async def dropping(*args: Any, **kwargs: Any) -> Any:
        calls.append("edit")
        if len(calls) == 1:
            raise aiohttp.ServerDisconnectedError()
        return await edit(*args, **kwargs)

    boards._edit_message = dropping  # type: ignore[method-assign]
    first = len(env.http_requests)
    assert await table.play_decision(rng, trade_rate=0.0)
    assert "Something went wrong" not in " ".join(str(r.json)
                                                  for r in env.http_requests[first:])
    assert any("failed (ServerDisconnectedError" in r.getMessage() and "redrawing" in
               r.getMessage() for r in caplog.records)
    await env.advance_time(2)  # the first redraw
    await env.settle()
    assert len(calls) >= 2
    game = await latest(table)
    seat = kind_of(game.kind).engine.current_seat(env.bot.service.state_of(game))
    assert table.decider(table.game_message()).id == int(game.players[seat].player_id)


# ---------------------------------------------------------------------------- the log


async def test_the_log_is_of_the_last_game_played_not_an_empty_lobby(table: Table) -> None:
    await started(table, ["alice", "bob"])
    await table.play_to_end(random.Random(13))
    final = table.channel.history()[-1]
    res = await table["bob"].click(final, label="Rematch")
    assert res.acknowledged
    res = await table["bob"].slash(table.channel, "royale cancel")
    assert "cancelled" in text_of(res.response)
    res = await table["alice"].slash(table.channel, "royale log")
    answer = private(res)
    assert "Game 1 (finished)" in answer.content and answer.attachments


# ---------------------------------------------------------------------------- lobbies


async def test_a_lobby_nobody_starts_expires_and_frees_its_hosts_slot(table: Table) -> None:
    env = table.env
    alice = table["alice"]
    channels = [table.guild.create_text_channel(f"lobby-{i}") for i in range(3)]
    for channel in channels:
        res = await alice.slash(channel, "royale new")
        assert res.acknowledged and not res.response.ephemeral
    with refusals(env):
        res = await alice.slash(table.channel, "royale new")
    assert "already host 3 open games" in private(res).content
    await env.advance_time(30 * 60)
    await table["bob"].click(channels[0].last_message, label="Join")  # a change: 1 h from now
    await env.advance_time(31 * 60)  # the two untouched lobbies are an hour old
    closed = [c.last_message for c in channels[1:]]
    assert all("closed" in text_of(m) and not custom_ids(m) for m in closed), closed
    res = await alice.slash(table.channel, "royale new")  # two slots free again
    assert res.acknowledged and not res.response.ephemeral
    assert custom_ids(channels[0].last_message)  # the lobby bob joined is still open
    await env.advance_time(30 * 60)
    assert not custom_ids(channels[0].last_message)


async def test_leaving_a_started_game_points_to_resign(table: Table) -> None:
    await started(table, ["alice", "bob"])
    with refusals(table.env):
        res = await table["bob"].slash(table.channel, "royale leave")
    assert "/royale resign" in private(res).content


async def test_cancelling_mid_game_removes_the_ping_and_what_the_game_held(
        table: Table) -> None:
    env = table.env
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(14))
    assert standing_pings(table)
    res = await table["alice"].slash(table.channel, "royale cancel")
    assert "cancelled" in text_of(res.response)
    await env.settle()
    assert standing_pings(table) == []
    assert set(bot_of(env.bot).boards.sizes().values()) == {0}
    assert env.bot.service.memory()["cached games"] == 0 and env.bot.service.pending_timers == 0
