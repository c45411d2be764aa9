"""The round message under misuse: strangers, stale and double clicks, timeouts, restarts,
channels where the bot may not post."""

from __future__ import annotations

import random

import discord
import pytest

from tests.e2e.table import (
    Table,
    answers,
    click_together,
    components,
    custom_ids,
    private,
    refusals,
    refused,
    text_of,
    token_of,
    verb,
)
from tests.e2e.test_royale_game import open_lobby


async def started(table: Table, players: list[str], **options: object) -> None:
    await open_lobby(table, players, **options)
    res = await table[players[0]].click(table.game_message(), label="Start")
    assert res.acknowledged


async def play_until(table: Table, wanted: str, rng: random.Random, limit: int = 200) -> None:
    """Decide (never trading) until the game message offers ``wanted``."""
    for _ in range(limit):
        msg = table.game_message()
        if any(verb(c.custom_id) == wanted for c in components(msg)):
            return
        assert await table.play_decision(rng, trade_rate=0.0)
    raise AssertionError(f"never reached {wanted}")


def first(msg: discord.Message, wanted: str) -> discord.ui.Item:  # type: ignore[type-arg]
    return next(c for c in components(msg) if verb(c.custom_id) == wanted)


async def test_stranger_and_out_of_turn_clicks_are_refused(table: Table) -> None:
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(1))
    msg = table.game_message()
    who = table.decider(msg)
    other = table["bob"] if who is table["alice"] else table["alice"]
    button = first(msg, "pick")
    res = await table["erin"].click(msg, custom_id=button.custom_id)
    assert "not playing in this game" in text_of(private(res))
    res = await other.click(msg, custom_id=button.custom_id)
    assert "turn, not yours" in text_of(private(res))
    after = table.game_message()
    assert after.id == msg.id and text_of(after) == text_of(msg)  # nothing applied
    assert custom_ids(after) == custom_ids(msg)


async def test_two_clicks_at_once_apply_once(table: Table) -> None:
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(3))
    msg = table.game_message()
    who = table.decider(msg)
    picks = [c for c in components(msg) if verb(c.custom_id) == "pick"]
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    before = len(await db.games.action_log(game.id))
    results = await click_together(table.env, [(who, msg, picks[0].custom_id),
                                               (who, msg, picks[1].custom_id)])
    assert all(r.acknowledged for r in results)
    turned_down = [r for r in results if refused(r)]
    assert len(turned_down) == 1
    log = await db.games.action_log(game.id)
    mine = [a for a in log[before:] if a.actor == token_of(game, who.id)]
    assert len(mine) == 1 and mine[0].action["type"] == "pick"


@pytest.mark.both_backends
async def test_turn_timeout_is_played_by_the_computer(table: Table) -> None:
    await started(table, ["alice", "bob"], turn_timeout=30)
    await play_until(table, "pick", random.Random(4))
    msg = table.game_message()
    waiting = table.decider(msg)
    await table.env.advance_time(29)
    assert text_of(table.game_message()) == text_of(msg)
    await table.env.advance_time(2)
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    log = await db.games.action_log(game.id)
    assert any(a.actor == f"timeout:{token_of(game, waiting.id)}" for a in log)
    seen = [text_of(m) for m in table.channel.history()[-2:]]
    assert any("ran out of time" in c for c in seen), seen


@pytest.mark.both_backends
async def test_restart_in_the_middle_of_a_trade(table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    await started(table, ["alice", "bob", "carol"])
    await play_until(table, "ttarget", random.Random(5))
    msg = table.game_message()
    trader = table.decider(msg)
    target = first(msg, "ttarget")
    res = await trader.select(msg, [target.options[0].value], custom_id=target.custom_id)
    assert res.acknowledged and not refused(res)
    old_bot = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old_bot.close()
    msg = table.game_message()
    die = first(msg, "tdie")
    res = await trader.select(msg, [die.options[0].value], custom_id=die.custom_id)
    assert res.acknowledged and not refused(res), [text_of(a) for a in answers(res)]
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    log = await db.games.action_log(game.id)
    assert log[-1].action["type"] == "trade" or any(a.action["type"] == "trade"
                                                    for a in log[-6:])
    # the game goes on to the end with the restarted bot
    await table.play_to_end(random.Random(6))
    game = await db.games.get(game.id)
    assert game.status == "finished"


async def test_channel_where_the_bot_may_not_post(table: Table) -> None:
    me = table.guild.me
    locked = table.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(send_messages=False)})
    with refusals(table.env):
        res = await table["alice"].slash(locked, "royale new")
    assert "Send Messages" in text_of(private(res))
    assert await table.env.bot.service.db.games.open_in_channel(locked.id) is None


async def test_post_refused_mid_game_carries_on_in_the_old_message(table: Table) -> None:
    await started(table, ["alice", "bob"])
    rng = random.Random(8)
    await play_until(table, "pick", rng)
    for path in ("/channels/*/messages", "/webhooks/*/*"):  # with the token or a followup
        table.env.inject_error("POST", path, status=403, code=50013,
                               message="Missing Permissions", times=None)
    msg_id = table.game_message().id
    for _ in range(6):  # finish the draft: the next round can't be posted
        msg = table.game_message()
        if msg.id != msg_id or not any(verb(c.custom_id) == "pick" for c in components(msg)):
            break
        assert await table.play_decision(rng, trade_rate=0.0)
    msg = table.game_message()
    assert msg.id == msg_id
    said = text_of(msg)  # the channel is told why, above the round it carries on with
    assert said.startswith("⚠️ I can't post in this channel") and "Send Messages" in said
    assert table.decider(msg) is not None  # and the game goes on in this message
