"""Computer players by level: the lobby's menu of Easy / Normal / Hard players, their players, their
names, their results and leaderboard rows kept apart, and the rematch keeping them.
"""

from __future__ import annotations

import random
import threading

import pytest

from bot.errors import LobbyError
from bot.rules.registry import ROYALE
from bot.rules.royale.expert import ExpertPlayer
from bot.service import Person, Place
from bot.service.model import cpu_level, cpu_name
from tests.e2e.table import Table, components, private, refused, text_of, verb


async def _lobby_with_levels(table: Table, command: str) -> None:
    await table["alice"].slash(table.channel, command)
    for level in ("easy", "normal", "hard"):  # the lobby's menu of computer players
        res = await table.add_computer(table["alice"], table.channel.last_message, level)
        assert not refused(res)


async def test_lobby_seats_each_level_and_shows_it(table: Table) -> None:
    await _lobby_with_levels(table, "royale new")
    lobby = table.channel.last_message
    text = text_of(lobby)
    assert "2. 🤖 Bao (computer, easy)" in text
    assert "3. 🤖 Mochi (computer)" in text
    assert "4. 🤖 Dumpling (computer, hard)" in text
    menu = next(c for c in components(lobby) if verb(c.custom_id) == "cpu")
    assert [(o.value, o.label) for o in menu.options] == [
        ("easy", "Easy: plays at random"), ("normal", "Normal: plays a sound plan"),
        ("hard", "Hard: looks ahead, hard to beat")]
    res = await table.add_computer(table["bob"], lobby, "hard")
    assert "Only the host" in text_of(private(res))
    game = await table.env.bot.service.game_in_channel(table.channel.id)
    assert game is not None
    assert [p.player_id for p in game.players] == [str(table["alice"].id), "cpu:easy:1",
                                                   "cpu:2", "cpu:hard:3"]


async def test_each_level_plays_its_own_player_and_hard_runs_off_the_loop(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = ExpertPlayer.choose

    def spy(self: ExpertPlayer, state):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return real(self, state)

    monkeypatch.setattr(ExpertPlayer, "choose", spy)
    await _lobby_with_levels(table, "royale new")
    res = await table["alice"].click(table.channel.last_message, label="Start")
    assert res.acknowledged
    await table.play_to_end(random.Random(3))
    assert threads, "the Hard computer never decided"
    assert threading.main_thread().name not in threads  # every expert decision in a thread
    service = table.env.bot.service
    assert await service.db.games.all_open() == []
    results = await service.db.results.of_game(1)
    by_id = {r.player_id: r for r in results}
    assert set(by_id) >= {"cpu:easy:1", "cpu:2", "cpu:hard:3"}
    assert by_id["cpu:hard:3"].display_name == "Dumpling (computer, hard)"
    rows = await service.db.results.ratings(table.guild.id, "royale",
                                            ["cpu:easy:1", "cpu:2", "cpu:hard:3"])
    assert len(rows) == 3  # one rating per level, never pooled


async def test_posing_hard_is_the_optimal_player(table: Table) -> None:
    await table["alice"].slash(table.channel, "posing new")
    res = await table.add_computer(table["alice"], table.channel.last_message, "hard")
    assert not refused(res)
    game = await table.env.bot.service.game_in_channel(table.channel.id)
    assert game is not None and game.players[1].player_id == "cpu:hard:1"


async def test_unknown_level_and_rematch_keep_levels(table: Table) -> None:
    service = table.env.bot.service
    alice = Person(table["alice"].id, "alice")
    place = Place(table.guild.id, table.channel.id)
    game = await service.new_lobby(kind="royale", place=place, host=alice, settings={})
    with pytest.raises(LobbyError, match="Unknown level"):
        await service.add_computer(game.id, alice, "impossible")
    game = await service.add_computer(game.id, alice, "hard")
    game = await service.add_computer(game.id, alice, "easy")
    outcome = await service.start(game.id, alice)
    rng = random.Random(5)
    while outcome.game.status == "active":
        player = ROYALE.make_player("random", rng.randrange(1 << 30))
        outcome = await service.act(outcome.game.id, alice, outcome.game.version,
                                    lambda state, _seat, p=player: p.choose(state))
    again = await service.rematch(outcome.game.id, alice, place)
    assert [p.player_id for p in again.players[1:]] == ["cpu:hard:1", "cpu:easy:2"]


def test_levels_of_ids_and_names() -> None:
    assert cpu_level("cpu:3") == "normal"
    assert cpu_level("cpu:hard:3") == "hard"
    assert cpu_level("cpu:3", "easy") == "easy"
    assert cpu_name(1) == "Bao (computer)"
    assert cpu_name(2, "easy") == "Mochi (computer, easy)"
