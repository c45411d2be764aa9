"""Every configuration end to end: Panda Royale for 2 to 10 players with every subset of the
Mayhem options, played through Discord by players clicking what they see; each game's log is
checked by the replay validator and the leaderboard counts the game."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.rules.royale.dice import EXPANSIONS
from bot.rules.validate import validate_objects
from tests.e2e.table import Table, refused

SUBSETS = [c for k in range(4) for c in itertools.combinations(EXPANSIONS, k)]
CONFIGS = [(n, subset) for n in range(2, 11) for subset in SUBSETS]


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'+'.join(o) or 'base'}" for n, o in CONFIGS])
async def test_full_game(table: Table, players: int, options: tuple[str, ...]) -> None:
    humans = ["alice", "bob", "carol", "dave", "erin"][: min(players, 5)]
    host = table[humans[0]]
    flags = {name: True for name in options}
    res = await host.slash(table.channel, "royale new", **flags)
    assert res.acknowledged and not refused(res)
    lobby = table.channel.last_message
    for name in humans[1:]:
        await table[name].click(lobby, label="Join")
    for _ in range(players - len(humans)):  # the lobby's menu of computer players
        click = await table.add_computer(host, table.channel.last_message, "normal")
        assert click.acknowledged and not refused(click)
    await host.click(table.channel.last_message, label="Start")
    seed = players * 100 + len(options) * 7 + sum(map(len, options))
    await table.play_to_end(random.Random(seed), trade_rate=0.4)

    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    assert len(game.players) == players
    events = await db.games.events(game.id)
    report = validate_objects(events)
    assert report.ok, report.lines(verbose=True)  # replayed through game_end
    assert report.games[0].kind == "royale"
    board = await db.results.leaderboard(game.guild_id, "royale", limit=20, include_bots=True)
    assert {r.player_id for r in board} == set(game.player_ids)
    assert sum(r.wins for r in board) == len(events[-1]["winners"])


@pytest.mark.parametrize("players", [1, 4], ids=["posing-solo", "posing-4p"])
async def test_full_posing_game(table: Table, players: int) -> None:
    from tests.e2e.test_posing_game import Player, start_posing

    names = ["alice", "bob", "carol", "dave"][:players]
    await start_posing(table, names, seed=90 + players)
    await Player(table, random.Random(players)).play_to_end()
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    report = validate_objects(await db.games.events(game.id))
    assert report.ok, report.lines(verbose=True)
    assert report.games[0].kind == "posing"  # ok: replayed through game_end
    board = await db.results.leaderboard(game.guild_id, "posing", limit=20)
    assert {r.player_id for r in board} == set(game.player_ids)
    rated = await db.results.ratings(game.guild_id, "posing", game.player_ids)
    assert len(rated) == (0 if players == 1 else players)  # solo games are not rated
