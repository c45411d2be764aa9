"""Damaged logs are caught by the replay: the engine rebuilds the game and the first event that
differs from the logged one is named."""

from __future__ import annotations

import pytest

from bot.rules.validate import validate_lines, validate_objects

from .conftest import MakeLog
from .logs import (
    ALL_OPTIONS,
    Obj,
    Tamper,
    box_filled_twice,
    deleter,
    die_value_changed,
    fill_points_changed,
    first_of_kind_deleted,
    fresh,
    games_of,
    has_features,
    lines_of,
    objects,
    picked_dice_swapped,
    picks_swapped,
    pity_to_wrong_player,
    score_column_changed,
    total_changed,
    trade_added,
    trade_removed,
    winners_changed,
)

ROYALE: list[Tamper] = [
    score_column_changed,
    total_changed,
    die_value_changed,
    picks_swapped,
    picked_dice_swapped,
    trade_removed,
    trade_added,
    pity_to_wrong_player,
    winners_changed,
    deleter("score"),
    deleter("token"),
    deleter("pity"),
    deleter("captain"),
    deleter("draft_pool"),
    deleter("pick"),
    deleter("draft_return"),
    first_of_kind_deleted("mischief"),
    first_of_kind_deleted("cannon"),
    first_of_kind_deleted("mischief_dealt"),
    first_of_kind_deleted("game_end"),
]
POSING: list[Tamper] = [
    fill_points_changed,
    box_filled_twice,
    deleter("fill", None),
    deleter("roll", None),
    first_of_kind_deleted("game_end"),
]


@pytest.fixture(scope="module")
def royale_game(sim_log: MakeLog) -> list[Obj]:
    """A 4-player game with every option in which all the tampers find what they need."""
    for game in games_of(objects(sim_log("royale", 4, games=6, seed=1, ai=("random",),
                                         expansions=ALL_OPTIONS))).values():
        if has_features(game):
            return game
    raise AssertionError("no simulated game has trades, mischief, Cannons and lost Mercenaries")


@pytest.fixture(scope="module")
def posing_game(sim_log: MakeLog) -> list[Obj]:
    return next(iter(games_of(objects(sim_log("posing", 3, games=1, seed=5))).values()))


def _check(game: list[Obj], tamper: Tamper) -> None:
    assert validate_objects(game).ok  # the untouched game is valid
    damaged = tamper(fresh(game))
    assert damaged != game
    at = next((i for i, (a, b) in enumerate(zip(game, damaged, strict=False)) if a != b),
              len(damaged))  # the first event the tamper changed
    problems = validate_objects(damaged).games[0].problems
    assert all(p.startswith("event ") for p in problems), problems
    # the replay stops at the first event the engine does not write, at the tamper or after it
    (replayed,) = [p for p in problems if ": replay: " in p]
    assert int(replayed.split()[1].rstrip(":")) >= at, problems


@pytest.mark.parametrize("tamper", ROYALE, ids=[t.__name__ for t in ROYALE])
def test_royale_tampering_is_caught(royale_game: list[Obj], tamper: Tamper) -> None:
    _check(royale_game, tamper)


@pytest.mark.parametrize("tamper", POSING, ids=[t.__name__ for t in POSING])
def test_posing_tampering_is_caught(posing_game: list[Obj], tamper: Tamper) -> None:
    _check(posing_game, tamper)


def test_the_replay_names_the_first_differing_event(royale_game: list[Obj]) -> None:
    damaged = die_value_changed(fresh(royale_game))
    at = next(i for i, (a, b) in enumerate(zip(royale_game, damaged, strict=True)) if a != b)
    problems = validate_objects(damaged).games[0].problems
    assert len(problems) == 1
    assert problems[0].startswith(f"event {at}: replay: score ")
    assert ".value: the engine has" in problems[0]


def test_a_tampered_game_does_not_spoil_the_others(royale_game: list[Obj],
                                                   posing_game: list[Obj]) -> None:
    other = [{**o, "game": "other"} for o in royale_game]
    report = validate_objects([*winners_changed(fresh(royale_game)), *other, *posing_game])
    assert [g.ok for g in report.games] == [False, True, True]
    assert report.summary() == "validated 3 games (royale 2, posing 1): 1 invalid"
    assert report.lines()[0].startswith(f"game {royale_game[0]['game']} (royale): event ")


# --------------------------------------------------------------------------- malformed lines


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('{"event": "pick", "round": 2,', "malformed JSON"),
        ("not json at all", "malformed JSON"),
        ('{"event": "pick"} trailing', "malformed JSON"),
        ("[1, 2, 3]", "not a JSON object"),
        ('{"event": "pick", "round": 2}', 'no "game" key'),
    ],
    ids=["truncated", "garbage", "trailing", "array", "no-game"],
)
def test_malformed_lines_are_reported(posing_game: list[Obj], bad: str, message: str) -> None:
    lines = lines_of(posing_game)
    lines.insert(3, bad + "\n")
    report = validate_lines(lines)
    assert not report.ok
    assert len(report.problems) == 1
    assert report.problems[0].startswith("line 4: ") and message in report.problems[0]
    assert report.games[0].ok  # the game's own lines are all there
    assert report.summary().endswith("1 problem outside any game")


def test_a_corrupted_line_of_a_game_makes_the_game_invalid(posing_game: list[Obj]) -> None:
    lines = lines_of(posing_game)
    lines[5] = lines[5][: len(lines[5]) // 2] + "\n"  # cut in half
    report = validate_lines(lines)
    assert report.problems[0].startswith("line 6: malformed JSON")
    assert not report.games[0].ok
    assert "(line 7)" in report.games[0].problems[0]  # problems name the file's lines


def test_blank_lines_are_skipped(posing_game: list[Obj]) -> None:
    lines = lines_of(posing_game)
    lines.insert(2, "\n")
    lines.append("   \n")
    assert validate_lines(lines).ok


def test_wrong_types_are_reported_without_crashing(royale_game: list[Obj]) -> None:
    damaged = fresh(royale_game)
    i = next(i for i, o in enumerate(damaged) if o["event"] == "token")
    damaged[i]["rerolls"] = True  # a boolean where a number belongs
    damaged[i + 1]["round"] = "2"
    g = validate_objects(damaged).games[0]
    assert any("'rerolls' must be a whole number" in p for p in g.problems)
    assert any("'round' must be a whole number" in p for p in g.problems)
    assert any(f"event {i}: replay: " in p for p in g.problems)


def test_the_setup_bag_and_aside_are_the_engine_s(royale_game: list[Obj]) -> None:
    """A bag die of another colour and a missing aside die: the engine's setup from the seed
    differs."""
    damaged = fresh(royale_game)
    first = damaged[0]["bag"][0]
    other = "blue" if first["color"] != "blue" else "purple"
    damaged[0]["bag"][0] = {**first, "color": other}
    assert validate_objects(damaged).games[0].problems == (
        f"event 0: replay: setup differs from the engine's setup: bag[0].color: the engine has "
        f"{first['color']!r}, the log {other!r}",)
    damaged = fresh(royale_game)
    aside = damaged[0]["aside"]
    aside.pop()
    problems = validate_objects(damaged).games[0].problems
    assert problems == (f"event 0: replay: setup differs from the engine's setup: aside has "
                        f"{len(aside)} items, the engine {len(aside) + 1}",)
