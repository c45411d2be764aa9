"""Slow games: a turn within hours or days, one reminder before each deadline and never in the
waiting player's quiet hours, restarts between moves, the host's pause, /reminders, /mygames.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import discord
import pytest

from bot.service.quiet_hours import QuietHours, reminder_lead
from tests.e2e.table import Table, custom_ids, private, refusals, refused, text_of, verb
from tests.e2e.test_posing_game import Player, latest_game, open_posing, part, start_posing

DAY_S = 86_400
DECISIONS = {"pick", "pass", "fire", "save", "mtarget", "ttarget"}
"""The verbs of a Panda Royale board's decisions."""
BERLIN = QuietHours("Europe/Berlin", dt.time(22), dt.time(7))
NEW_YORK = QuietHours("America/New_York", dt.time(23), dt.time(8))


def now_ms(table: Table) -> int:
    return int(table.env.now().timestamp() * 1000)


def reminders_to(table: Table, user_id: int, after_ms: int) -> list[discord.Message]:
    """The reminders (new messages that mention ``user_id``) posted after ``after_ms``."""
    return [m for m in table.channel.history()
            if "⏰" in (m.content or "") and f"<@{user_id}>" in m.content
            and m.created_at.timestamp() * 1000 > after_ms]


async def set_quiet_hours(table: Table) -> None:
    res = await table["alice"].slash(table.channel, "reminders", zone="Europe/Berlin",
                                     quiet="22:00-07:00")
    assert "quiet hours 22:00-07:00" in text_of(private(res))
    res = await table["bob"].slash(table.channel, "reminders", zone="America/New_York",
                                   quiet="23-8")
    assert "America/New_York" in text_of(private(res))


async def test_a_slow_game_over_days_with_restarts(table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    await set_quiet_hours(table)
    quiet = {table["alice"].id: BERLIN, table["bob"].id: NEW_YORK}
    await open_posing(table, ["alice", "bob"], pace="1d")
    assert "slow game: a turn within a day" in text_of(table.channel.last_message)
    await table["alice"].click(table.channel.last_message, label="Start")
    rng = random.Random(7)
    player = Player(table, random.Random(3))
    start = now_ms(table)
    reminded = waited = restarts = timeouts = checked_missed = 0
    for step in range(400):
        msg = table.game_message()
        who = table.decider(msg)
        if who is None or not part(msg, "fill"):
            break
        game = await latest_game(table)
        assert game.deadline_ms is not None
        waiting_since = now_ms(table)
        assert not quiet[who.id].contains(game.deadline_ms)  # never timed out while quiet
        lead = reminder_lead(DAY_S * 1000)
        remind_at = game.deadline_ms - lead
        choice = rng.random()
        if choice < 0.25:  # past the reminder: exactly one, when they are awake
            await table.env.advance_time((remind_at - now_ms(table)) / 1000 + 60)
            got = reminders_to(table, who.id, waiting_since)
            assert len(got) == 1, (step, [m.content for m in got])
            at = int(got[0].created_at.timestamp() * 1000)
            assert not quiet[who.id].contains(at) and at < game.deadline_ms
            assert f"/{game.channel_id}/" in got[0].content  # it links to the board
            reminded += 1
        elif choice < 0.3 and timeouts < 2:  # past the deadline: the computer plays it
            await table.env.advance_time((remind_at - now_ms(table)) / 1000 + 60)
            assert len(reminders_to(table, who.id, waiting_since)) == 1
            await table.env.advance_time((game.deadline_ms - now_ms(table)) / 1000 + 5)
            after = await latest_game(table)
            assert after.version > game.version
            log = await table.env.bot.service.db.games.action_log(game.id)
            assert log[-1].actor.startswith("timeout:")
            timeouts += 1
            continue
        else:  # a move within hours: no reminder yet
            hours = rng.uniform(0.1, (remind_at - now_ms(table)) / 3_600_000 - 0.1)
            await table.env.advance_time(max(hours, 0.01) * 3600)
            assert reminders_to(table, who.id, waiting_since) == []
            waited += 1
        if step % 6 == 5:  # a deploy between moves, the bot down for 3 hours
            old = table.env.bot
            await old.close()
            await table.env.advance_time(3 * 3600)
            await table.env.restart_bot(bot_factory())
            restarts += 1
            moved = await latest_game(table)
            assert moved.version == game.version  # no deadline fired while the bot was away
            assert moved.deadline_ms is not None and moved.deadline_ms >= game.deadline_ms
            msg = table.game_message()
            who = table.decider(msg)
        assert await player.decide()
        nxt = table.decider(table.game_message())
        if step > 4 and nxt is not None and nxt is not who \
                and (await latest_game(table)).status == "active":  # handed over: what they missed
            res = await nxt.slash(table.channel, "posing status")
            missed = text_of(private(res)).partition("Since your last move:")[2]
            assert "filled" in missed, text_of(private(res))
            checked_missed += 1
    game = await latest_game(table)
    assert game.status == "finished"
    assert now_ms(table) - start > 3 * DAY_S * 1000  # played over days
    assert reminded >= 3 and waited >= 3 and restarts >= 3 and timeouts >= 1
    assert checked_missed >= 5


async def test_the_host_pauses_and_resumes_a_slow_game(table: Table) -> None:
    await start_posing(table, ["alice", "bob"], pace="4h")
    with refusals(table.env):
        res = await table["bob"].slash(table.channel, "posing pause")
    assert "Only the host" in text_of(private(res))
    res = await table["alice"].slash(table.channel, "posing pause")
    assert not refused(res) and "paused" in text_of(res.response)
    game = await latest_game(table)
    assert game.paused == "host" and game.deadline_ms is None
    assert "paused by the host" in text_of(table.game_message())
    before = len(table.channel.history())
    await table.env.advance_time(3 * DAY_S)  # nothing fires: no reminder, no timeout
    assert (await latest_game(table)).version == game.version
    assert len(table.channel.history()) == before
    who = table.decider(table.game_message())
    res = await who.click(table.game_message(), custom_id=part(table.game_message(),
                                                               "roll")[0].custom_id)
    assert refused(res) and "paused this game" in text_of(private(res))
    res = await table["alice"].slash(table.channel, "posing resume")
    assert not refused(res)
    game = await latest_game(table)
    assert game.paused is None and game.deadline_ms is not None
    assert game.deadline_ms - now_ms(table) >= 4 * 3600 * 1000 - 60_000  # a whole turn


async def test_a_live_game_cannot_be_paused_and_pace_excludes_timeout(table: Table) -> None:
    with refusals(table.env):
        res = await table["alice"].slash(table.channel, "posing new", pace="1d",
                                         turn_timeout=60)
    assert "not both" in text_of(private(res))
    await start_posing(table, ["alice", "bob"])
    with refusals(table.env):
        res = await table["alice"].slash(table.channel, "posing pause")
    assert "Only a slow game" in text_of(private(res))


@pytest.mark.parametrize(("options", "said"), [
    ({"zone": "Mars/Base"}, "Unknown time zone 'Mars/Base'"),
    ({"quiet": "20:00-10:00"}, "at most 12 hours a day: 20:00-10:00 is longer"),
    ({"quiet": "late"}, "Write quiet hours as 22:00-07:00."),
])
async def test_reminders_refuse_what_cannot_work(table: Table, options: dict[str, Any],
                                                said: str) -> None:
    with refusals(table.env):
        res = await table["alice"].slash(table.channel, "reminders", **options)
    assert said in text_of(private(res))
    assert await table.env.bot.people.reminders(_person(table, "alice")) is None


async def test_reminders_in_a_direct_message_and_by_direct_message(table: Table) -> None:
    alice = table["alice"]
    user = alice.user
    res = await user.slash("reminders", zone="Asia/Tokyo", dm=True)
    assert "by direct message" in text_of(private(res))
    zones = await user.autocomplete("reminders", "zone", "tokyo")
    assert [c["value"] for c in zones] == ["Asia/Tokyo"]
    await start_posing(table, ["alice", "bob"], pace="4h")
    game = await latest_game(table)
    assert table.decider(table.game_message()) is alice
    await table.env.advance_time((game.deadline_ms - now_ms(table)) / 1000 - 30 * 60)
    dm = [m for m in user.dm_channel.history() if "⏰" in (m.content or "")]
    assert len(dm) == 1 and f"/{game.channel_id}/" in dm[0].content
    assert reminders_to(table, alice.id, 0) == []  # not in the channel as well
    res = await user.slash("reminders", quiet="off", dm=False)
    assert "no quiet hours" in text_of(private(res)) and "in the game's channel" in \
        text_of(private(res))


def _person(table: Table, name: str) -> Any:
    from bot.service import Person

    return Person(table[name].id, name)


async def test_mygames_lists_the_games_waiting_for_you_across_servers(table: Table) -> None:
    env, alice, bob = table.env, table["alice"], table["bob"]
    await start_posing(table, ["alice", "bob"], pace="1d")  # alice's turn, then bob's
    player = Player(table, random.Random(1))
    while table.decider(table.game_message()) is alice:
        assert await player.decide()
    here = await latest_game(table)
    other = env.create_guild("Elsewhere")
    there = other.create_text_channel("slow-games")
    alice_there, bob_there = other.add_member(alice.user), other.add_member(bob.user)
    res = await alice_there.slash(there, "royale new", pace="3d")
    assert "slow game: a turn within 3 days" in text_of(there.last_message)
    await bob_there.click(there.last_message, label="Join")
    await alice_there.click(there.last_message, label="Start")
    elsewhere = Table(env, other, there, {"alice": alice_there, "bob": bob_there},
                      {alice.id: alice_there, bob.id: bob_there})
    rng = random.Random(4)
    while _waits_on(env, await env.bot.service.db.games.latest_in_channel(there.id)) \
            != alice.id:
        assert await elsewhere.play_decision(rng)
    away = await env.bot.service.db.games.latest_in_channel(there.id)
    await env.advance_time(5 * 3600)

    res = await alice.user.slash("mygames")  # in a direct message with the bot
    words = text_of(private(res))
    waiting, _, others = words.partition("Your other games")
    assert _waits_on(env, here) == bob.id and _waits_on(env, away) == alice.id
    shown = "Panda Royale · Elsewhere"
    assert "Waiting for you" in waiting and shown in waiting
    assert f"/{other.id}/{there.id}/{away.message_id}" in waiting
    assert "your turn in Panda Royale" in waiting and "waiting since <t:" in waiting
    assert "Posing Pandas · Pandas" in others and f"/{here.channel_id}/" in others
    assert "not your turn" in others and shown not in others

    res = await bob.slash(table.channel, "mygames")  # in a server
    waiting, _, others = text_of(private(res)).partition("Your other games")
    assert "Posing Pandas · Pandas" in waiting and "waiting since" in waiting
    assert shown in others

    res = await table["carol"].slash(table.channel, "mygames")
    assert "No game waits for you, and you're in no open game" in text_of(private(res))


def _waits_on(env: Any, game: Any) -> int | None:
    """The Discord id of the person ``game`` waits on (None: nobody)."""
    from bot.rules.registry import kind_of

    state = env.bot.service.state_of(game)
    seat = kind_of(game.kind).engine.current_seat(state)
    return None if seat is None else int(game.players[seat].player_id)


async def _waiting_slow_games(table: Table, count: int, first_channel: int) -> None:
    """``count`` slow games in play, each in a channel of its own, waiting on its host."""
    from bot.service import Limits, Person, Place

    service = table.env.bot.service
    service.limits = Limits(per_server=10_000)  # one server holds them all
    bob = Person(table["bob"].id, "bob")
    for i in range(count):
        host = Person(first_channel + i, f"host {i}")  # three open games at most per host
        place = Place(table.guild.id, first_channel + i)
        game = await service.new_lobby(kind="posing", place=place, host=host,
                                       settings={"turn_timeout": 86_400})
        await service.join(game.id, bob)
        await service.start(game.id, host)


async def _held_after_restart(table: Table, bot_factory: Any) -> dict[str, int]:  # type: ignore[no-untyped-def]
    old = table.env.bot
    await old.close()
    await table.env.restart_bot(bot_factory())
    await table.env.advance_time(11 * 60)  # boards touched at start-up rest too
    bot = table.env.bot
    return {**{f"service {k}": v for k, v in bot.service.memory().items()},
            **{f"boards {k}": v for k, v in bot.boards.sizes().items()}}


async def test_waiting_slow_games_cost_no_memory(table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    await _waiting_slow_games(table, 10, 9_000_000)
    ten = await _held_after_restart(table, bot_factory)
    await _waiting_slow_games(table, 990, 9_100_000)
    thousand = await _held_after_restart(table, bot_factory)
    assert ten == thousand, (ten, thousand)
    assert thousand["service deadlines"] == 0 and thousand["service cached games"] == 0


async def test_a_waiting_slow_game_is_armed_when_its_reminder_comes_within_reach(
        table: Table) -> None:
    await _waiting_slow_games(table, 10, 9_000_000)
    service = table.env.bot.service
    assert service.pending_timers == 0 and service.memory()["cached games"] == 0
    await table.env.advance_time(17 * 3600)  # reminders are due 18 hours in
    assert service.pending_timers == 0
    await table.env.advance_time(50 * 60)
    assert service.pending_timers == 10


async def test_a_slow_game_of_four_goes_through_its_interactions(table: Table) -> None:
    """A slow game of four over days: at most 0.1 bot-token request per decision, its
    reminders (each posted, then deleted once answered) counted apart."""
    from bot.request_budget import counts_against_global_limit

    env = table.env
    names = ["alice", "bob", "carol", "dave"]
    await open_posing(table, names, pace="1d")
    await table["alice"].click(table.channel.last_message, label="Start")
    start = len(env.http_requests)
    player = Player(table, random.Random(9))
    decisions = reminders = 0
    for step in range(2000):
        msg = table.game_message()
        who = table.decider(msg)
        if who is None or not part(msg, "fill"):
            break
        game = await latest_game(table)
        wait = (game.deadline_ms - now_ms(table)) / 1000 - 3 * 3600 if step % 4 == 3 else 1800
        await env.advance_time(wait)  # every fourth move after its reminder
        reminders += len(reminders_to(table, who.id, 0)) if step % 4 == 3 else 0
        assert await player.decide()
        decisions += 1
    assert (await latest_game(table)).status == "finished"
    app = env.backend.application_id
    counted = [r for r in env.http_requests[start:]
               if counts_against_global_limit(r.path, app)]
    posted = [r for r in counted if r.method == "POST" and "⏰" in str(
        (r.json or {}).get("content") if isinstance(r.json, dict) else "")]
    assert len(posted) == reminders >= decisions // 8
    assert (len(counted) - 2 * reminders) / decisions <= 0.1, [
        f"{r.method} {r.path}" for r in counted]


async def test_a_slow_royale_game_moves_its_board_down_at_each_hand_over(table: Table) -> None:
    """A slow Panda Royale game of four over days: each hand-over posts the board anew at the
    bottom, mentioning the next player, and deletes the clicked one through the click, so at
    most 0.1 bot-token request per decision (reminders apart) and one live board in the
    channel.
    """
    from bot.request_budget import counts_against_global_limit
    from tests.e2e.test_royale_game import open_lobby

    env = table.env
    names = ["alice", "bob", "carol", "dave"]
    await open_lobby(table, names, pace="1d")
    await table["alice"].click(table.game_message(), label="Start")
    start = len(env.http_requests)
    rng = random.Random(11)
    decisions = reminders = hand_overs = 0
    while True:
        msg = table.game_message()
        who = table.decider(msg)
        if who is None or not {verb(c) for c in custom_ids(msg)} & DECISIONS:
            break
        game = await latest_game(table)
        after_reminder = decisions % 4 == 3
        wait = (game.deadline_ms - now_ms(table)) / 1000 - 3 * 3600 if after_reminder else 1800
        await env.advance_time(wait)
        if after_reminder:
            reminders += len(reminders_to(table, who.id, 0))
        assert await table.play_decision(rng)
        decisions += 1
        nxt_msg = table.game_message()
        nxt = table.decider(nxt_msg)
        if nxt is not None and nxt is not who:  # handed over: a new board that names them
            assert nxt_msg.id != msg.id and nxt_msg.id == table.channel.history()[-1].id
            assert f"<@{nxt.id}>" in text_of(nxt_msg)
            hand_overs += 1
        boards = [m for m in table.channel.history()
                  if {verb(c) for c in custom_ids(m)} & DECISIONS]
        assert len(boards) <= 1, [text_of(m)[:60] for m in boards]
    assert (await latest_game(table)).status == "finished"
    assert hand_overs >= decisions // 3
    app = env.backend.application_id
    counted = [r for r in env.http_requests[start:]
               if counts_against_global_limit(r.path, app)]
    assert reminders >= decisions // 8
    assert (len(counted) - 2 * reminders) / decisions <= 0.1, [
        f"{r.method} {r.path}" for r in counted]
