"""What the Discord layer holds of a game is dropped when the game ends:
a few dozen games played by people through SimCord, each ending its own way (finished, with a
rematch lobby cancelled; against the computer; Posing solo; a lobby cancelled or expired; a game
cancelled in play; its board and ping deleted; its channel deleted, heard or unheard; the bot
removed from the server; a resignation; a player who left the server), and after each one the
boards' entries (:meth:`ui.board.Boards.sizes`, with when each board was posted anew after a
deletion) and background chores, and the service's cache, locks and deadlines are all empty.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from tests.e2e.table import Table, components, private, refused, text_of, verb
from tests.e2e.test_posing_game import Player
from ui.items import bot_of

ROUNDS_OF_ENDINGS = 3
"""Each ending is played this many times (12 endings: 36 games)."""


def held(table: Table) -> dict[str, int]:
    """Every per-game structure of the bot, by name."""
    bot = table.env.bot
    boards = bot_of(bot).boards
    service = bot.service
    return {**{f"boards.{k}": v for k, v in boards.sizes().items()},
            "boards.chores": len(boards._chores),
            "boards.reposted_at": sum(b.reposted_at is not None
                                      for b in boards._boards.values()),
            **{f"service {name}": n for name, n in service.memory().items()}}


def in_channel(table: Table, channel: Any, guild: Any = None,
               members: dict[str, Any] | None = None) -> Table:
    """The same people at another table (channel), or in another server."""
    members = members or table.members
    return Table(table.env, guild or table.guild, channel, members,
                 {m.id: m for m in members.values()})


async def lobby(t: Table, host: str, *joining: str, kind: str = "royale",
                **options: object) -> None:
    res = await t[host].slash(t.channel, f"{kind} new", **options)
    assert res.acknowledged and not refused(res), res.response and res.response.content
    for name in joining:
        click = await t[name].click(t.channel.last_message, label="Join")
        assert click.acknowledged and not refused(click)


SEEN_IN_PLAY: dict[str, int] = {}
"""The most each structure held right after a game started (they do hold the games)."""


async def start(t: Table, host: str) -> None:
    res = await t[host].click(t.game_message(), label="Start")
    assert res.acknowledged and not refused(res)
    for key, value in held(t).items():
        SEEN_IN_PLAY[key] = max(SEEN_IN_PLAY.get(key, 0), value)


async def decide(t: Table, rng: random.Random, n: int) -> None:
    for _ in range(n):
        assert await t.play_decision(rng, trade_rate=0.3)


async def click_verb(t: Table, who: str, wanted: str) -> Any:
    """Click the newest button of verb ``wanted`` in the channel."""
    for msg in reversed(t.channel.history()):
        ids = [c.custom_id for c in components(msg)
               if verb(getattr(c, "custom_id", None)) == wanted]
        if ids:
            return await t[who].click(msg, custom_id=ids[0])
    raise AssertionError(f"no {wanted} button")


# ---------------------------------------------------------------------------- the endings


async def finished_with_a_rematch(t: Table, rng: random.Random) -> None:
    await lobby(t, "alice", "bob")
    await start(t, "alice")
    await t.play_to_end(rng)
    res = await click_verb(t, "bob", "rematch")  # a new lobby, then cancelled by its host
    assert res.acknowledged and not refused(res)
    res = await t["bob"].click(t.game_message(), label="Cancel")
    assert res.acknowledged and not refused(res)


async def against_the_computer(t: Table, rng: random.Random) -> None:
    await lobby(t, "carol")
    res = await t.add_computer(t["carol"], t.channel.last_message, "normal")
    assert res.acknowledged and not refused(res)
    await start(t, "carol")
    await t.play_to_end(rng)


async def posing_solo(t: Table, rng: random.Random) -> None:
    await lobby(t, "dave", kind="posing")
    await start(t, "dave")
    await Player(t, rng).play_to_end()


async def lobby_cancelled(t: Table, rng: random.Random) -> None:
    await lobby(t, "alice", "bob", "carol")
    res = await t["carol"].click(t.channel.last_message, label="Leave")
    assert res.acknowledged and not refused(res)
    res = await t["alice"].click(t.channel.last_message, label="Cancel")
    assert res.acknowledged and not refused(res)


async def lobby_expired(t: Table, rng: random.Random) -> None:
    await lobby(t, "erin", "dave")
    await t.env.advance_time(t.env.bot.service.limits.lobby_ttl_s + 5)
    assert "Nobody started this game" in text_of(t.game_message())


async def cancelled_in_play(t: Table, rng: random.Random) -> None:
    await lobby(t, "alice", "bob")
    await start(t, "alice")
    await decide(t, rng, 3)
    res = await t["alice"].slash(t.channel, "royale cancel")
    assert res.acknowledged and "cancelled" in text_of(res.response)


async def board_and_ping_deleted(t: Table, rng: random.Random) -> None:
    env = t.env
    await lobby(t, "bob", "carol", turn_timeout=60)
    await start(t, "bob")
    await decide(t, rng, 2)
    env.backend.delete_message(t.channel.id, t.game_message().id)  # posted anew
    await env.settle()
    assert held(t)["boards.reposted_at"] == 1  # when it was posted anew, kept while in play
    pings = [m for m in t.channel.history() if "your turn" in (m.content or "")]
    if pings:
        env.backend.delete_message(t.channel.id, pings[-1].id)
        await env.settle()
    await decide(t, rng, 2)
    res = await t["bob"].slash(t.channel, "royale cancel")
    assert res.acknowledged


async def channel_deleted(t: Table, rng: random.Random) -> None:
    await lobby(t, "alice", "dave", turn_timeout=15)
    await start(t, "alice")
    await decide(t, rng, 2)
    t.env.backend.delete_channel(t.channel.id)
    await t.env.settle()
    await t.env.advance_time(60)


async def channel_vanished_unheard(t: Table, rng: random.Random) -> None:
    """The channel goes while the bot hears nothing of it (deleted while it was offline, or out
    of its sight): Discord answers Unknown Channel when the turn's deadline plays for the
    late player, and the game ends there without coming back into memory.
    """
    env = t.env
    await lobby(t, "carol", "erin", turn_timeout=15)
    await start(t, "carol")
    await decide(t, rng, 2)
    faults = len(env.backend.faults)
    env.inject_error("*", f"/channels/{t.channel.id}/*", status=404, code=10003,
                     message="Unknown Channel", times=None)
    # the last click's interaction webhook: its messages are gone with the channel
    env.inject_error("*", "/webhooks/*", status=404, code=10003, message="Unknown Channel",
                     times=None)
    await env.advance_time(20)
    await env.settle()
    del env.backend.faults[faults + 1:]  # only this channel's requests fail from here
    await env.advance_time(60)
    game = await env.bot.service.db.games.latest_in_channel(t.channel.id)
    assert game.status == "abandoned", game.status


async def bot_removed(t: Table, rng: random.Random) -> None:
    env = t.env
    guild = env.create_guild(f"Elsewhere {rng.randrange(10**6)}")
    members = {n: guild.add_member(env.create_user(f"{n}-{guild.id}")) for n in ("ann", "ben")}
    there = in_channel(t, guild.create_text_channel("games"), guild, members)
    await lobby(there, "ann", "ben", turn_timeout=15)
    await start(there, "ann")
    await decide(there, rng, 2)
    env.backend.remove_guild(guild.id)
    await env.settle()
    await env.advance_time(60)


async def resigned(t: Table, rng: random.Random) -> None:
    await lobby(t, "erin", "alice")
    await start(t, "erin")
    await decide(t, rng, 2)
    res = await t["alice"].slash(t.channel, "royale resign")
    assert "You resigned" in private(res).content
    await t.play_to_end(rng)


async def a_player_left(t: Table, rng: random.Random) -> None:
    env = t.env
    guest = t.guild.add_member(env.create_user(f"guest-{rng.randrange(10**6)}"))
    members = {**t.members, "guest": guest}
    here = in_channel(t, t.channel, members=members)
    await lobby(here, "bob", "guest", turn_timeout=15)
    await start(here, "bob")
    t.guild.remove_member(guest)  # the bot hears it at the guest's timeout
    for _ in range(400):
        game = await env.bot.service.db.games.latest_in_channel(t.channel.id)
        if not game.is_open:
            break
        msg = here.game_message()
        if here.decider(msg) is here["bob"]:
            assert await here.play_decision(rng, trade_rate=0.0)
        else:
            await env.advance_time(16)
    else:
        raise AssertionError("the game did not end")
    assert [p.stand_in for p in game.players] == [None, "left"]


ENDINGS: tuple[Callable[[Table, random.Random], Awaitable[None]], ...] = (
    finished_with_a_rematch, against_the_computer, posing_solo, lobby_cancelled, lobby_expired,
    cancelled_in_play, board_and_ping_deleted, channel_deleted, channel_vanished_unheard,
    bot_removed, resigned, a_player_left,
)


async def test_the_discord_layer_drops_every_ended_game(table: Table) -> None:
    env = table.env
    rng = random.Random(25)
    empty = held(table)
    assert set(empty.values()) == {0}
    SEEN_IN_PLAY.clear()
    played = 0
    for round_no in range(ROUNDS_OF_ENDINGS):
        for ending in ENDINGS:
            channel = table.guild.create_text_channel(f"{ending.__name__}-{round_no}")
            await ending(in_channel(table, channel), rng)
            await env.settle()
            await bot_of(env.bot).boards.settle()
            left = {k: v for k, v in held(table).items() if v}
            assert not left, f"after {ending.__name__} (game {played + 1}): {left}"
            played += 1
    assert played == ROUNDS_OF_ENDINGS * len(ENDINGS) >= 30
    # the structures did hold the games while they were open
    for key in ("service cached games", "service deadlines", "boards.boards", "boards.pings",
                "boards.doors"):
        assert SEEN_IN_PLAY.get(key, 0) >= 1, (key, SEEN_IN_PLAY)
