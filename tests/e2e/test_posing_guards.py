"""The Posing Pandas turn message under misuse and over time: strangers, out-of-turn and
stale clicks, turn timeouts, restarts, /posing status, cancel, the private score card."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from tests.e2e.table import (
    Table,
    answers,
    click_together,
    custom_ids,
    pictures_of,
    private,
    refusals,
    refused,
    text_of,
)
from tests.e2e.test_posing_game import (
    PNG_MAGIC,
    Player,
    box_select,
    latest_game,
    part,
    roll_button,
    start_posing,
)


async def late_click(env: Any, actor: Any, msg: Any, custom_id: str,
                     values: list[str] | None = None) -> Any:
    """A click made on ``msg`` as it was (a snapshot), reaching the bot after the message
    changed: Discord sends the message as the click saw it. SimCord's own click() only offers
    the components the message has now."""
    from simcord import actors as sa
    from simcord import interactions as si
    from simcord.enums import ComponentType, InteractionType
    from simcord.results import InteractionResult

    backend = env.backend
    stored = sa._visible_message(actor, msg)
    kind = ComponentType.BUTTON if values is None else ComponentType.STRING_SELECT
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    record, payload = si.base_payload(
        backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
        guild_id=actor.guild.id, user_id=actor.id, data=data)
    payload["message"] = dict(sa.serializers.message_payload(backend, stored))
    payload["message"]["components"] = [row.to_dict() for row in msg.components]
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return InteractionResult(env, record)


def routes(env: Any, since: int) -> list[str]:
    """The REST requests made since index ``since``, as "METHOD first-path-part"."""
    return [f"{r.method} {r.path.split('/')[1]}" for r in env.http_requests[since:]]


async def actions(table: Table) -> list[Any]:
    game = await latest_game(table)
    return await table.env.bot.service.db.games.action_log(game.id)


async def test_stranger_and_out_of_turn_clicks_are_refused(table: Table) -> None:
    await start_posing(table, ["alice", "bob"])
    alice, bob, erin = table["alice"], table["bob"], table["erin"]
    msg = table.game_message()
    assert table.decider(msg) is alice
    toggle = part(msg, "hold")[0].custom_id
    roll = roll_button(msg).custom_id
    fill = box_select(msg)
    before = await actions(table)

    res = await erin.click(msg, custom_id=toggle)
    assert "not playing in this game" in text_of(private(res))
    res = await erin.click(msg, custom_id=roll)
    assert "not playing in this game" in text_of(private(res))
    res = await bob.click(msg, custom_id=toggle)
    assert "alice's turn, not yours" in text_of(private(res))
    res = await bob.click(msg, custom_id=roll)
    assert "alice's turn, not yours" in text_of(private(res))
    res = await bob.select(msg, [fill.options[0].value], custom_id=fill.custom_id)
    assert "alice's turn, not yours" in text_of(private(res))

    after = table.game_message()
    assert after.id == msg.id and text_of(after) == text_of(msg)
    assert custom_ids(after) == custom_ids(msg)  # not even a toggle was drawn
    assert await actions(table) == before


async def test_two_rolls_at_once_apply_once(table: Table) -> None:
    await start_posing(table, ["alice"])
    alice = table["alice"]
    msg = table.game_message()
    roll = roll_button(msg).custom_id
    before = len(await actions(table))
    results = await click_together(table.env, [(alice, msg, roll), (alice, msg, roll)])
    assert all(r.acknowledged for r in results)
    turned_down = [r for r in results if refused(r)]
    assert len(turned_down) == 1
    (note,) = turned_down[0].followups
    assert note.ephemeral and "already decided" in text_of(note)
    log = await actions(table)
    assert [a.action["type"] for a in log[before:]] == ["roll"]
    game = await latest_game(table)
    assert table.env.bot.service.state_of(game).rolls == 2
    # the message shows the game as it is: one roll left
    assert "(1 left)" in roll_button(table.game_message()).label


async def test_an_old_version_is_refused_with_nothing_applied(table: Table) -> None:
    await start_posing(table, ["alice"])
    alice = table["alice"]
    msg = table.game_message()
    old_toggle = part(msg, "hold")[2].custom_id
    old_fill = box_select(msg)
    await alice.click(msg, custom_id=roll_button(msg).custom_id)
    before = await actions(table)
    shown = table.game_message()
    # a toggle, a roll and a fill of the moment before the roll, arriving late
    for cid, values in ((old_toggle, None), (roll_button(msg).custom_id, None),
                        (old_fill.custom_id, [old_fill.options[0].value])):
        res = await late_click(table.env, alice, msg, cid, values)
        assert res.acknowledged
        assert [text_of(f) for f in res.followups] == \
            ["That was already decided: here is the game as it is now."]
        assert await actions(table) == before
        now = table.game_message()
        assert now.id == shown.id and custom_ids(now) == custom_ids(shown)
    res = await alice.select(shown, [old_fill.options[0].value],
                             custom_id=box_select(shown).custom_id)
    assert res.acknowledged and not refused(res)  # the current select works
    assert (await actions(table))[-1].action["type"] == "fill"


async def test_turn_timeout_is_played_by_the_computer(table: Table) -> None:
    await start_posing(table, ["alice", "bob"], turn_timeout=30)
    alice, bob = table["alice"], table["bob"]
    env = table.env
    msg = table.game_message()
    assert table.decider(msg) is alice
    await env.advance_time(29)
    assert text_of(table.game_message()) == text_of(msg)
    assert await actions(table) == []
    since = len(env.http_requests)
    await env.advance_time(2)
    # is alice still in the server? (yes); her message is closed, alice's ping goes, and
    # bob's turn is posted, its card pinging him (the ping is deleted before the hand-over)
    # (through the webhook of the game's last interaction, still fresh: outside the budget)
    assert routes(env, since) == ["GET guilds", "PATCH channels", "DELETE webhooks",
                                  "POST webhooks"]
    log = await actions(table)
    assert log and all(a.actor == "timeout:p1" for a in log)  # alice, in seat 1
    assert log[-1].action["type"] == "fill"  # the computer played alice's whole turn

    history = table.channel.history()
    assert len(history) == 2
    assert not custom_ids(history[0])  # alice's message is closed
    now = table.game_message()
    assert now.id == history[1].id and table.decider(now) is bob
    assert "alice ran out of time" in text_of(now)

    # bob's own time runs from his message; the game goes on for him as usual
    await env.advance_time(20)
    player = Player(table, random.Random(5), roll_rate=0.0)
    assert await player.decide()
    assert table.decider(table.game_message()) is alice


async def test_solo_timeout_edits_the_same_message(table: Table) -> None:
    await start_posing(table, ["alice"], turn_timeout=15)
    msg = table.game_message()
    since = len(table.env.http_requests)
    await table.env.advance_time(16)
    assert routes(table.env, since) == ["GET guilds", "PATCH channels"]  # still a member?
    assert len(table.channel.history()) == 2  # the turn message and the ping of its start
    now = table.game_message()
    assert now.id == msg.id and "ran out of time" in text_of(now)
    assert "turn 2/11" in text_of(now) and table.decider(now) is table["alice"]
    game = await latest_game(table)
    assert len(table.env.bot.service.state_of(game).filled[0]) == 1


@pytest.mark.both_backends
async def test_restart_mid_turn_old_buttons_still_work(table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    await start_posing(table, ["alice", "bob"])
    alice = table["alice"]
    msg = table.game_message()
    await alice.click(msg, custom_id=part(msg, "hold")[0].custom_id)
    msg = table.game_message()
    await alice.click(msg, custom_id=part(msg, "hold")[2].custom_id)
    msg = table.game_message()
    faces = table.env.bot.service.state_of(await latest_game(table)).dice

    old_bot = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old_bot.close()
    assert table.env.bot is not old_bot

    since = len(table.env.http_requests)
    res = await alice.click(msg, custom_id=part(msg, "hold")[4].custom_id)
    assert res.acknowledged and not refused(res), [text_of(a) for a in answers(res)]
    assert routes(table.env, since) == ["POST interactions"]  # answered by the edit itself
    msg = table.game_message()
    assert [c.style is discord.ButtonStyle.success for c in part(msg, "hold")] == \
        [True, False, True, False, True]
    res = await alice.click(msg, custom_id=roll_button(msg).custom_id)
    assert res.acknowledged and not refused(res), [text_of(a) for a in answers(res)]
    log = await actions(table)
    assert log[-1].action == {"type": "roll", "seat": 0, "hold": [0, 2, 4]}
    dice = table.env.bot.service.state_of(await latest_game(table)).dice
    assert [dice[i] for i in (0, 2, 4)] == [faces[i] for i in (0, 2, 4)]
    # and the game goes on to the end with the restarted bot
    await Player(table, random.Random(9)).play_to_end()
    game = await latest_game(table)
    assert game.status == "finished"


async def test_status_shows_the_game_privately(table: Table) -> None:
    alice, erin = table["alice"], table["erin"]
    with refusals(table.env):
        res = await alice.slash(table.channel, "posing status")
    assert "no Posing Pandas game" in text_of(private(res))
    await start_posing(table, ["alice", "bob"])
    msg = table.game_message()
    res = await erin.slash(table.channel, "posing status")
    assert res.acknowledged and private(res)
    said = text_of(res.response)  # the turn's card, privately, without its buttons
    assert "Jump to the game" in said and str(msg.id) in said
    assert said.startswith("**Posing Pandas** · turn 1/11 · roll 1 of 3")
    assert f"🎲 <@{table['alice'].id}>, hold dice and roll again" in said
    assert pictures_of(res.response) == ["posing-card.png"]  # the score card with the dice
    assert custom_ids(res.response) == []
    assert len(table.channel.history()) == 2  # nothing posted but the start's ping


async def test_the_score_card_button_answers_privately(table: Table) -> None:
    await start_posing(table, ["alice", "bob"])
    msg = table.game_message()
    card = part(msg, "pcard")[0]
    res = await table["erin"].click(msg, custom_id=card.custom_id)
    assert res.acknowledged and private(res)
    (att,) = (res.followups[0] if res.followups else res.response).attachments
    assert att.filename == "posing-card.png" and (await att.read()).startswith(PNG_MAGIC)
    assert text_of(table.game_message()) == text_of(msg)


async def test_cancel_mid_game_writes_no_results(table: Table) -> None:
    alice, bob = table["alice"], table["bob"]
    await start_posing(table, ["alice", "bob"])
    msg = table.game_message()
    await alice.click(msg, custom_id=roll_button(msg).custom_id)
    with refusals(table.env):
        res = await bob.slash(table.channel, "posing cancel")
    assert "host" in text_of(private(res))
    res = await alice.slash(table.channel, "posing cancel")
    assert res.acknowledged and not refused(res) and "cancelled" in text_of(res.response)
    game = await latest_game(table)
    assert game.status == "cancelled"
    assert await table.env.bot.service.db.results.of_game(game.id) == []
    assert not custom_ids(table.channel.history()[0])  # the game message lost its buttons
    with refusals(table.env):
        res = await alice.slash(table.channel, "posing status")
    assert "no Posing Pandas game" in text_of(private(res))
    # a new game can be opened in the channel
    res = await alice.slash(table.channel, "posing new")
    assert res.acknowledged and not refused(res)


async def test_slash_start_and_lobby_rules(table: Table) -> None:
    alice, bob = table["alice"], table["bob"]
    res = await alice.slash(table.channel, "posing new", turn_timeout=45)
    assert "45 s a decision, then the computer plays it" in text_of(res.response)
    with refusals(table.env):
        res = await alice.slash(table.channel, "royale new")
    assert "Posing Pandas game is already open" in text_of(private(res))
    res = await bob.slash(table.channel, "posing join")
    assert "joined" in text_of(private(res))
    with refusals(table.env):
        res = await bob.slash(table.channel, "posing start")
    assert "Only the host" in text_of(private(res))
    res = await alice.slash(table.channel, "posing start")
    assert "The game is on" in text_of(private(res))
    msg = table.game_message()
    assert table.decider(msg) is alice and part(msg, "roll")
    game = await latest_game(table)
    assert game.settings == {"turn_timeout": 45}
    assert game.deadline_ms is not None  # the decision's live countdown, 45 s from now
    assert game.deadline_ms - table.env.bot.service.clock() == 45_000
    assert f"⏱ <t:{game.deadline_ms // 1000}:R>" in text_of(msg)


@pytest.mark.both_backends
async def test_restart_after_a_crash_between_commits(table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    """alice's fill was committed but the bot died before the computer player took its turn:
    at start-up the computer plays, and alice is called back in a new message."""
    from bot.rules.posing.actions import Fill
    from bot.service import Outcome

    await start_posing(table, ["alice"], cpus=1)
    alice = table["alice"]
    service = table.env.bot.service
    game = await latest_game(table)
    outcome = Outcome(game, service.state_of(game))
    async with service.lock(game.channel_id):
        await service._commit(outcome, Fill(0, "set_of_3"), "player")  # a crash: no computer yet
    assert outcome.game.deadline_ms is None
    msg = table.game_message()

    old_bot = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old_bot.close()

    log = await actions(table)
    assert [a.actor for a in log] == ["p1"] + ["cpu:1"] * (len(log) - 1)  # alice: seat 1
    assert log[-1].action["type"] == "fill"
    history = table.channel.history()
    turns = [m for m in history if text_of(m).startswith("**Posing Pandas** · ")]
    assert len(turns) == 2 and turns[0].id == msg.id and not custom_ids(turns[0])
    now = table.game_message()
    assert now.id == turns[1].id
    assert table.decider(now) is alice and "restarted" in text_of(now)
    assert "-# 🤖 **Bao (computer)** filled" in text_of(now)
