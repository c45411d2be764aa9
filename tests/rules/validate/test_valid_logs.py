"""Logs written by the simulator validate with no problem, whatever the options and seats."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.rules.gamelog import log_objects
from bot.rules.registry import kind_of
from bot.rules.validate import validate_lines, validate_objects
from bot.sim.runner import play_game

from .conftest import MakeLog
from .logs import ALL_OPTIONS, games_of, objects

SUBSETS = [c for n in range(len(ALL_OPTIONS) + 1) for c in combinations(ALL_OPTIONS, n)]


def _assert_valid(lines: list[str], kind: str, games: int) -> None:
    report = validate_lines(lines)
    assert report.problems == ()
    assert [g.problems for g in report.games] == [()] * games
    assert report.ok and len(report.games) == games
    assert all(g.kind == kind for g in report.games)
    assert [g.game for g in report.games] == list(games_of(objects(lines)))
    assert report.summary() == (
        f"validated {games} game{'s' if games > 1 else ''} "
        f"({'royale' if kind == 'royale' else 'royale 0, posing'} {games}"
        f"{', posing 0' if kind == 'royale' else ''}): all valid"
    )


@pytest.mark.parametrize("options", SUBSETS, ids=lambda o: "+".join(o) or "base")
@pytest.mark.parametrize("players", [2, 10])
def test_royale_simulator_logs_are_valid(sim_log: MakeLog, players: int,
                                         options: tuple[str, ...]) -> None:
    lines = sim_log("royale", players, games=2, seed=7, ai=("random",), expansions=options)
    _assert_valid(lines, "royale", 2)


@pytest.mark.parametrize("players", [3, 4])
def test_royale_heuristic_players_with_every_option(sim_log: MakeLog, players: int) -> None:
    lines = sim_log("royale", players, games=3, seed=20, ai=("heuristic",),
                    expansions=ALL_OPTIONS)
    _assert_valid(lines, "royale", 3)


@pytest.mark.parametrize(("players", "ai"), [(1, "random"), (4, "random"), (1, "heuristic")])
def test_posing_simulator_logs_are_valid(sim_log: MakeLog, players: int, ai: str) -> None:
    lines = sim_log("posing", players, games=2, seed=3, ai=(ai,))
    _assert_valid(lines, "posing", 2)


def test_mixed_file_counts_each_kind(sim_log: MakeLog) -> None:
    lines = (sim_log("royale", 4, games=2, seed=7, expansions=ALL_OPTIONS)
             + sim_log("posing", 4, games=2, seed=3))
    report = validate_objects(objects(lines))
    assert report.ok
    assert report.by_kind == {"royale": 2, "posing": 2}
    assert report.summary() == "validated 4 games (royale 2, posing 2): all valid"


def test_interleaved_games_are_grouped_by_game_id(sim_log: MakeLog) -> None:
    objs = objects(sim_log("royale", 2, games=2, seed=7))
    a, b = games_of(objs).values()
    mixed = [o for pair in zip(a, b, strict=False) for o in pair]
    mixed += a[len(b):] + b[len(a):]
    report = validate_objects(mixed)
    assert report.ok and [g.game for g in report.games] == [a[0]["game"], b[0]["game"]]


@pytest.mark.parametrize("kind", ["royale", "posing"])
def test_discord_style_ids_and_extra_keys_are_fine(kind: str) -> None:
    # A Discord game: the game id as text, Discord user ids and computer seats "cpu:N".
    players = ["284765012345678901", "cpu:1", "90210"]
    options = {"expansions": list(ALL_OPTIONS)} if kind == "royale" else {}
    played = play_game(kind_of(kind), players, 99, ["random"], options)
    objs = list(log_objects("1234", played.events))
    for o in objs:
        o["at"] = "2026-01-01T00:00:00Z"  # unknown extra keys are allowed (docs/game-log.md)
    report = validate_objects(objs)
    assert report.ok, report.games[0].problems
    assert report.games[0].game == "1234"


def test_a_log_without_the_optional_aside_key_still_validates(sim_log: MakeLog) -> None:
    objs = objects(sim_log("royale", 4, games=1, seed=7, expansions=ALL_OPTIONS))
    del objs[0]["aside"]
    for o in objs:
        if o["event"] == "cannon":
            del o["value"]
    assert validate_objects(objs).ok
