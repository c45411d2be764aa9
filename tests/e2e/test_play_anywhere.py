"""Games played through the app a player installed on their own account: in a group DM and in
a server without the bot, where the app only answers interactions (tests/e2e/installs.py).
Whole games play there with no request to a channel route, at most five followups per
interaction, every hand-over a new message that mentions the next player, and restarts
mid-game; their results count in the place's own league; what cannot work there says so.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.service import Reach
from tests.e2e.installs import FOLLOWUP_CAP, Installs
from tests.e2e.table import (
    MENTION,
    Table,
    answers,
    custom_ids,
    private,
    refusals,
    refused,
    text_of,
    verb,
)
from tests.e2e.test_posing_game import Player

DECISIONS = {"pick", "pass", "fire", "save", "mtarget", "ttarget", "fill", "roll"}
"""The verbs of the boards' decisions (both kinds)."""


async def latest(table: Table, channel_id: int) -> Any:
    return await table.env.bot.service.db.games.latest_in_channel(channel_id)


def decides(message: Any) -> bool:
    return bool({verb(c) for c in custom_ids(message)} & DECISIONS)


async def play_with_restarts(players: Table, place: Any, bot_factory: Any,
                             decide: Callable[[], Awaitable[bool]], *,
                             restart_every: int) -> int:
    """Decide (``decide``) until the game ends, restarting the bot every ``restart_every``
    decisions; each hand-over must be a new message that mentions the next player. Returns
    the decisions.
    """
    decisions = 0
    while True:
        board = players.game_message()
        who = players.decider(board)
        if who is None or not decides(board):
            return decisions
        before = {m.id for m in place.history()}
        assert await decide()
        decisions += 1
        board = players.game_message()
        nxt = players.decider(board)
        if nxt is not None and nxt is not who and decides(board):  # handed over
            new = [m for m in place.history() if m.id not in before]
            assert any(f"<@{nxt.id}>" in text_of(m) for m in new), \
                [text_of(m)[:80] for m in new]
        if decisions % restart_every == 0:
            await players.env.bot.close()
            await players.env.restart_bot(bot_factory())


async def test_a_royale_game_of_three_in_a_group_dm(table: Table, bot_factory: Any) -> None:
    installs = Installs.of(table.env)
    group = installs.group_dm([table["alice"], table["bob"], table["carol"]], name="pandas")
    players = installs.table(group)
    mark = installs.mark()
    res = await players["alice"].slash(group, "royale new")
    assert res.acknowledged and not refused(res)
    for name in ("bob", "carol"):
        click = await players[name].click(group.history()[-1], label="Join")
        assert click.acknowledged and not refused(click)
    lobby = group.history()[-1]
    assert "Players (3/10)" in text_of(lobby)
    assert "thread" not in {verb(c) for c in custom_ids(lobby)}  # no thread through the app
    await players["alice"].click(lobby, label="Start")
    game = await latest(table, group.id)
    assert game.reach is Reach.PRIVATE and game.guild_id == group.id
    rng = random.Random(4)
    decisions = await play_with_restarts(players, group, bot_factory,
                                         lambda: players.play_decision(rng), restart_every=9)
    assert decisions >= 20
    final = group.history()[-1]
    said = text_of(final)
    assert said.startswith("### 🏁 Panda Royale is over!")
    assert all(f"<@{table[n].id}>" in said for n in ("alice", "bob", "carol"))
    assert installs.channel_requests(mark) == []
    assert max(len(f) for f in installs.followups(mark).values()) <= FOLLOWUP_CAP

    # the group DM's own league: its /stats, no server's leaderboard
    db = table.env.bot.service.db
    results = await db.results.of_game(game.id)
    assert {r.guild_id for r in results} == {group.id}
    stats = await players["bob"].slash(group, "stats")
    said = " ".join(text_of(a) for a in answers(stats))
    assert "Panda Royale" in said and "1" in said, said  # the one game played here
    board = await table["alice"].slash(table.channel, "leaderboard")
    assert "bob" not in text_of(board.response)
    replay = await players["carol"].slash(group, "royale replay")  # here: its last game
    assert f"game {game.id}" in text_of(private(replay)) and custom_ids(private(replay))
    with refusals(table.env):  # elsewhere, even by its players: not that server's game
        away = await table["carol"].slash(table.channel, "royale replay", game=game.id)
    assert refused(away) and f"no Panda Royale game {game.id} in this server" in text_of(
        private(away))
    exported = await table.env.bot.privacy.export(table["bob"].id)
    assert [g["reach"] for g in exported["games"]] == ["private"]
    assert [r["server_id"] for r in exported["results"]] == [group.id]
    await table.env.bot.privacy.forget(table["bob"].id)
    assert {r.player_id for r in await db.results.of_game(game.id)} == {
        str(table["alice"].id), str(table["carol"].id)}
    assert (await table.env.bot.privacy.export(table["bob"].id))["results"] == []


async def test_a_posing_game_of_two_in_a_server_without_the_bot(table: Table,
                                                                bot_factory: Any) -> None:
    installs = Installs.of(table.env)
    server = installs.server_without_bot(["dora", "eve"])
    players = installs.table(server)
    mark = installs.mark()
    res = await players["dora"].slash(server.channel, "posing new")
    assert res.acknowledged and not refused(res)
    await players["eve"].click(server.history()[-1], label="Join")
    await players["dora"].click(server.history()[-1], label="Start")
    game = await latest(table, server.channel.id)
    assert game.reach is Reach.APP and game.guild_id == server.id
    player = Player(players, random.Random(8))
    decisions = await play_with_restarts(players, server, bot_factory, player.decide,
                                         restart_every=7)
    assert decisions >= 24
    assert text_of(server.history()[-1]).startswith("### 🏁")
    assert installs.channel_requests(mark) == []
    assert max(len(f) for f in installs.followups(mark).values()) <= FOLLOWUP_CAP
    results = await table.env.bot.service.db.results.of_game(game.id)
    assert {r.guild_id for r in results} == {server.id}


async def test_what_cannot_work_through_the_app_says_so(table: Table) -> None:
    installs = Installs.of(table.env)
    group = installs.group_dm([table["alice"], table["bob"]])
    server = installs.server_without_bot(["dora", "eve"])
    alice = installs.table(group)["alice"]
    with refusals(table.env):
        for options, words in (({"pace": "1d"}, "Slow games need the bot in the server"),
                               ({"thread": True}, "Threads need the bot in the server"),
                               ({"turn_timeout": 900}, "a turn lasts at most 600 seconds")):
            res = await alice.slash(group, "royale new", **options)
            assert refused(res) and words in text_of(private(res)), text_of(private(res))
        assert await latest(table, group.id) is None
        server.allow_external_apps(False)
        res = await installs.table(server)["dora"].slash(server.channel, "posing new")
        assert refused(res) and "turned off Use External Apps" in text_of(private(res))
        assert await latest(table, server.channel.id) is None


async def test_a_stalled_game_waits_and_its_board_command_wakes_it(table: Table,
                                                                   bot_factory: Any) -> None:
    """A turn times out while the last click's interaction lives (shown through it); the next
    turn's clock waits for an interaction; a restart arms nothing; /royale board answers with
    the board anew, plays the deadline that passed and pings whoever decides.
    """
    env = table.env
    installs = Installs.of(env)
    group = installs.group_dm([table["alice"], table["bob"]])
    players = installs.table(group)
    mark = installs.mark()
    await players["alice"].slash(group, "royale new", turn_timeout=60)
    await players["bob"].click(group.history()[-1], label="Join")
    await players["alice"].click(group.history()[-1], label="Start")
    service = env.bot.service
    assert service.pending_timers == 1
    game = await latest(table, group.id)
    await env.advance_time(61)  # the first decider runs out of time: shown through the start
    moved = await latest(table, group.id)
    assert moved.version > game.version
    assert "ran out of time" in text_of(players.game_message())
    assert service.pending_timers == 0  # one timeout per interaction: the next one waits
    await env.advance_time(600)
    assert (await latest(table, group.id)).version == moved.version

    await env.bot.close()
    await env.restart_bot(bot_factory())
    assert env.bot.service.pending_timers == 0  # nothing could show a deadline
    old_board = players.game_message()
    before = {m.id for m in group.history()}
    res = await players["bob"].slash(group, "royale board")
    assert res.acknowledged
    woken = await latest(table, group.id)
    assert woken.version > moved.version  # the deadline that passed is played now
    new = [m for m in group.history() if m.id not in before]
    board = players.game_message()
    assert board.id != old_board.id and decides(board)
    decider = players.decider(board)
    assert decider is not None
    assert any(MENTION.search(m.content or "") and f"<@{decider.id}>" in m.content
               for m in new), [m.content for m in new]
    assert "/royale board wakes it" in text_of(board)
    assert env.bot.service.pending_timers == 1  # its clock runs again
    assert installs.channel_requests(mark) == []
