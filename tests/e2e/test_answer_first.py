"""Commands that write answer within Discord's 3 seconds whatever the database does, in few
round trips; a command whose answer fails leaves nothing half-made; a click's lateness is
judged by Discord's clock, not this machine's."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import discord
import pytest

from tests.e2e.table import (
    Table,
    click_together,
    components,
    private,
    refusals,
    refused,
    text_of,
    verb,
)
from tests.e2e.test_royale_guards import play_until
from tests.roundtrips import round_trips

POSTGRESQL = pytest.mark.parametrize("e2e_database", ["postgresql"], indirect=True)


async def latest(table: Table) -> Any:
    return await table.env.bot.service.db.games.latest_in_channel(table.channel.id)


async def actors(table: Table) -> list[str]:
    game = await latest(table)
    return [a.actor for a in await table.env.bot.service.db.games.action_log(game.id)]


def lobby_of(table: Table) -> discord.Message | None:
    for msg in reversed(table.channel.history()):
        if any(verb(c.custom_id) == "join" for c in components(msg) if c.custom_id):
            return msg
    return None


@POSTGRESQL
async def test_the_writing_commands_take_few_round_trips(table: Table,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = table["alice"], table["bob"]
    with round_trips(monkeypatch) as trips:
        assert not refused(await alice.slash(table.channel, "royale new"))
        new = list(trips.sent)
        trips.clear()
        await bob.slash(table.channel, "royale join")
        join = list(trips.sent)
        trips.clear()
        await alice.slash(table.channel, "royale start")
        start = list(trips.sent)
    # new: BEGIN, the two limits' locks, one read (the channel, the counts, the server's
    # defaults), the game, its seat, COMMIT; then the lobby's message
    assert len(new) <= 7, new
    assert len(join) <= 6, join  # the lobby; BEGIN, the version, the seats, COMMIT
    assert len(start) <= 4, start  # the lobby; the start; the first ping, then its message
    assert (await latest(table)).status == "active"


@POSTGRESQL
async def test_with_a_database_that_answers_in_1_5_s_new_join_and_start_answer_in_time(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    env = table.env
    alice, bob = table["alice"], table["bob"]
    with round_trips(monkeypatch, delay=1.5):
        new = await alice.slash(table.channel, "royale new")
        await env.advance_time(30)
        assert new.acknowledged and new.response is not None  # a deferral, within 3 s
        lobby = lobby_of(table)
        assert lobby is not None and "alice" in text_of(lobby)
        assert "Your game is open" in private(new).content
        join = await bob.slash(table.channel, "royale join")
        await env.advance_time(30)
        assert join.acknowledged and "You joined" in private(join).content
        assert "bob" in text_of(lobby_of(table))
        start = await alice.slash(table.channel, "royale start")
        await env.advance_time(30)
        assert start.acknowledged and "The game is on" in private(start).content
    game = await latest(table)
    assert game.status == "active" and game.message_id is not None
    board = next(m for m in table.channel.history() if m.id == game.message_id)
    assert any(verb(c.custom_id) == "pick" for c in components(board) if c.custom_id)


async def test_a_new_lobby_whose_answer_fails_is_posted_in_the_channel(table: Table) -> None:
    table.env.inject_error("POST", "/interactions/*/*/callback", status=404, code=10062,
                           message="Unknown interaction")
    await table["alice"].slash(table.channel, "royale new")
    game = await latest(table)
    lobby = lobby_of(table)
    assert game.status == "lobby" and lobby is not None and game.message_id == lobby.id
    res = await table["bob"].click(lobby, label="Join")
    assert not refused(res)


async def test_a_lobby_that_can_be_shown_nowhere_is_cancelled(table: Table) -> None:
    env = table.env
    env.inject_error("POST", "/interactions/*/*/callback", status=404, code=10062,
                     message="Unknown interaction")
    env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    with refusals(env):  # the command is refused: its lobby could not be shown
        await table["alice"].slash(table.channel, "royale new")
    game = await latest(table)
    assert game.status == "cancelled"
    assert await env.bot.service.db.games.open_in_channel(table.channel.id) is None


async def test_a_start_whose_answer_fails_still_shows_the_board(table: Table) -> None:
    await table["alice"].slash(table.channel, "royale new")
    await table["bob"].click(lobby_of(table), label="Join")  # type: ignore[arg-type]
    table.env.inject_error("POST", "/interactions/*/*/callback", status=404, code=10062,
                           message="Unknown interaction")
    await table["alice"].slash(table.channel, "royale start")
    game = await latest(table)
    assert game.status == "active"
    msg = table.game_message()
    assert msg.id == game.message_id and table.decider(msg) is not None
    assert any(verb(c.custom_id) == "pick" for c in components(msg) if c.custom_id)


@pytest.mark.parametrize("skew_s", [5.0, -5.0])
async def test_a_skewed_clock_neither_drops_clicks_nor_takes_a_late_one(
        table: Table, monkeypatch: pytest.MonkeyPatch, skew_s: float) -> None:
    """This machine's clock 5 s fast or slow against Discord's: every click made in time
    counts; one delivered 40 s late (after an outage) is not applied."""
    env = table.env
    monkeypatch.setattr("ui.late.host_now",
                        lambda: discord.utils.utcnow() + dt.timedelta(seconds=skew_s))
    # Nothing learnt yet and 5 s off: the first command is asked to Discord first (deferred),
    # and done; the lobby is in the channel either way.
    new = await table["alice"].slash(table.channel, "royale new")
    assert new.acknowledged and lobby_of(table) is not None
    for name, label in (("bob", "Join"), ("alice", "Start")):
        res = await table[name].click(lobby_of(table) or table.game_message(), label=label)
        assert res.acknowledged and not refused(res)
    assert (await latest(table)).status == "active"
    rng = random.Random(31)
    for _ in range(6):
        before = len(await actors(table))
        assert await table.play_decision(rng, trade_rate=0.0)
        assert len(await actors(table)) > before
    await play_until(table, "pick", rng)
    msg = table.game_message()
    who = table.decider(msg)
    pick = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    before = await actors(table)
    env.bot.dispatch("disconnect")
    await env.advance_time(40)
    minted = discord.utils.time_snowflake(discord.utils.utcnow() - dt.timedelta(seconds=40))
    (late,) = await click_together(env, [(who, msg, pick.custom_id)], mint=minted)
    assert not late.acknowledged and await actors(table) == before
    env.backend.emit("RESUMED", {})
    await env.settle()
    assert await table.play_decision(rng, trade_rate=0.0)  # a click in time counts again
    assert len(await actors(table)) > len(before)
