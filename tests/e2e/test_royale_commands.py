"""The /royale commands and the lobby buttons, one by one."""

from __future__ import annotations

import json
import random

from tests.e2e.table import (
    Table,
    components,
    custom_ids,
    pictures_of,
    private,
    refusals,
    refused,
    text_of,
    verb,
)
from tests.e2e.test_royale_game import open_lobby
from tests.e2e.test_royale_guards import play_until, started


async def test_one_game_per_channel(table: Table) -> None:
    await table["alice"].slash(table.channel, "royale new")
    with refusals(table.env):
        res = await table["bob"].slash(table.channel, "royale new")
    assert "already open in this channel" in text_of(private(res))


async def test_lobby_buttons(table: Table) -> None:
    await table["alice"].slash(table.channel, "royale new", cannon=True, turn_timeout=45)
    lobby = table.channel.last_message
    said = text_of(lobby)
    assert said.startswith("## Panda Royale · new game")
    assert "Mayhem: Cannon" in said and "45 s a decision" in said
    assert "Players (1/10):" in said and "Needs at least 2 players to start." in said
    res = await table["alice"].click(lobby, label="Start")
    assert "at least 2 players" in text_of(private(res))
    res = await table["bob"].click(lobby, label="Join")
    assert not refused(res)
    res = await table["bob"].click(table.channel.last_message, label="Join")
    assert "already in this game" in text_of(private(res))
    menu = next(c for c in components(table.channel.last_message) if verb(c.custom_id) == "cpu")
    assert [o.value for o in menu.options] == ["easy", "normal", "hard"]
    res = await table.add_computer(table["bob"], table.channel.last_message, "normal")
    assert "Only the host" in text_of(private(res))
    res = await table.add_computer(table["alice"], table.channel.last_message, "normal")
    assert not refused(res)
    assert "3. 🤖 " in text_of(table.channel.last_message)
    assert "(computer)" in text_of(table.channel.last_message)
    res = await table["alice"].click(table.channel.last_message, label="Leave")
    assert "You're the host" in text_of(private(res))
    res = await table["bob"].click(table.channel.last_message, label="Leave")
    assert "bob" not in text_of(table.channel.last_message)
    res = await table["bob"].click(table.channel.last_message, label="Start")
    assert "Only the host" in text_of(private(res))
    res = await table["alice"].click(table.channel.last_message, label="Start")
    assert not refused(res)  # alice and a computer player
    msg = table.game_message()
    assert table.decider(msg) is table["alice"]


async def test_lobby_fills_up_at_ten(table: Table) -> None:
    await table["alice"].slash(table.channel, "royale new")
    for _ in range(9):
        res = await table.add_computer(table["alice"], table.channel.last_message, "normal")
        assert not refused(res)
    lobby = table.channel.last_message
    assert "Players (10/10)" in text_of(lobby)
    join = next(c for c in components(lobby) if verb(c.custom_id) == "join")
    assert join.disabled
    assert "cpu" not in [verb(c) for c in custom_ids(lobby)]  # no seat left for a computer
    with refusals(table.env):
        res = await table["bob"].slash(table.channel, "royale join")
    assert "full" in text_of(private(res))


async def test_join_and_leave_commands_edit_the_lobby(table: Table) -> None:
    await table["alice"].slash(table.channel, "royale new")
    res = await table["bob"].slash(table.channel, "royale join")
    assert "You joined" in text_of(private(res))
    assert "2. bob" in text_of(table.channel.history()[0])
    res = await table["bob"].slash(table.channel, "royale leave")
    assert private(res)
    assert "bob" not in text_of(table.channel.history()[0])
    with refusals(table.env):
        res = await table["carol"].slash(table.channel, "royale leave")
    assert "not in this game" in text_of(private(res))


async def test_commands_without_a_game(table: Table) -> None:
    for cmd in ("royale join", "royale start", "royale status", "royale hand",
                "royale cancel", "royale log"):
        with refusals(table.env):
            res = await table["alice"].slash(table.channel, cmd)
        said = text_of(private(res))
        assert "no Panda Royale game" in said or "No Panda Royale" in said, (cmd, said)


async def test_status_hand_rules_and_log(table: Table) -> None:
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(21))
    msg = table.game_message()
    res = await table["carol"].slash(table.channel, "royale status")
    said = text_of(private(res))  # the round's card, privately, without its buttons
    assert said.startswith("**Panda Royale** · Round ")
    assert "Jump to the game" in said and str(msg.id) in said
    assert pictures_of(res.response) == ["round-card.png"] and custom_ids(res.response) == []
    res = await table["alice"].slash(table.channel, "royale hand")
    said = text_of(private(res))
    assert said.startswith("### Your dice · round ") and "Yellow d6" in said
    res = await table["carol"].slash(table.channel, "royale hand")
    assert "not playing" in text_of(private(res))
    mine = next(c for c in components(msg) if verb(c.custom_id) == "hand")
    res = await table["bob"].click(msg, custom_id=mine.custom_id)
    assert text_of(private(res)).startswith("### Your dice · round ")
    res = await table["carol"].slash(table.channel, "royale rules")
    said = text_of(private(res))
    assert said.startswith("## Panda Royale: the rules we play") and "**Mayhem: Mischief**" in said
    res = await table["carol"].slash(table.channel, "royale log")
    assert private(res)
    files = [f for r in [res.response, *res.followups] if r for f in r.attachments]
    assert files and files[0].filename.endswith(".jsonl")
    lines = (await files[0].read()).decode().splitlines()
    objs = [json.loads(line) for line in lines]
    assert objs[0]["event"] == "setup" and objs[0]["game_kind"] == "royale"
    assert all("game" in o and "event" in o for o in objs)


async def test_cancel_by_host_or_manager_only(table: Table) -> None:
    await started(table, ["alice", "bob"])
    with refusals(table.env):
        res = await table["bob"].slash(table.channel, "royale cancel")
    assert "Only the host" in text_of(private(res))
    res = await table["alice"].slash(table.channel, "royale cancel")
    assert not refused(res) and "cancelled" in text_of(res.response)
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game.status == "cancelled"
    assert await db.results.of_game(game.id) == []
    # the old game's buttons answer politely
    old = [m for m in table.channel.history() if components(m)]
    assert all(not any(verb(c.custom_id) == "pick" for c in components(m)) for m in old)


async def test_timers_are_rebuilt_at_start_up(table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    await open_lobby(table, ["alice", "bob"], turn_timeout=60)
    await table["alice"].click(table.game_message(), label="Start")
    await table.env.advance_time(30)
    old = table.env.bot
    await old.close()  # a graceful restart: the old process stops, then the new one starts
    await table.env.restart_bot(bot_factory())
    assert table.env.bot.service.pending_timers == 1
    await table.env.advance_time(29)
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert not any(a.actor.startswith("timeout:") for a in await db.games.action_log(game.id))
    await table.env.advance_time(2)
    assert any(a.actor.startswith("timeout:") for a in await db.games.action_log(game.id))
