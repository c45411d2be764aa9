"""Damaged logs are caught: by the replay, and by the rules checks on their own."""

from __future__ import annotations

import pytest

from bot.rules.validate import GameReport, validate_lines, validate_objects

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

ROYALE: list[tuple[Tamper, str]] = [
    # (tamper, a few words the rules check's problem must contain)
    (score_column_changed, "purple column is"),
    (total_changed, "columns add up to"),
    (die_value_changed, "column is"),
    (picks_swapped, "picks in turn 1"),
    (picked_dice_swapped, "does not hold"),
    (trade_removed, "does not hold"),
    (trade_added, "does not hold"),
    (pity_to_wrong_player, "lowest round totals"),
    (winners_changed, "the winners are"),
    (deleter("score"), "no score event"),
    (deleter("token"), "round"),
    (deleter("pity"), "no pity event"),
    (deleter("captain"), "no captain event"),
    (deleter("draft_pool"), "without a draft pool"),
    (deleter("pick"), "picks, not"),
    (deleter("draft_return"), "no draft_return"),
    (first_of_kind_deleted("mischief"), "mischief actions by"),
    (first_of_kind_deleted("cannon"), "no cannon decision"),
    (first_of_kind_deleted("mischief_dealt"), "no mischief_dealt"),
    (first_of_kind_deleted("game_end"), "ends before game_end"),
]
POSING: list[tuple[Tamper, str]] = [
    (fill_points_changed, "scores"),
    (box_filled_twice, "a second time"),
    (deleter("fill", None), "turn"),
    (deleter("roll", None), "roll"),
    (first_of_kind_deleted("game_end"), "ends before game_end"),
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


def _check(game: list[Obj], tamper: Tamper, words: str) -> None:
    assert validate_objects(game).ok  # the untouched game is valid
    damaged = tamper(fresh(game))
    assert damaged != game
    both = validate_objects(damaged).games[0]
    replay_only = validate_objects(damaged, rules=False).games[0]
    rules_only = validate_objects(damaged, replay=False).games[0]
    assert not both.ok
    assert any("replay:" in p for p in replay_only.problems), replay_only.problems
    assert any(words in p for p in rules_only.problems), rules_only.problems
    assert not any("replay:" in p for p in rules_only.problems)
    assert _every_problem_names_an_event(both)


def _every_problem_names_an_event(g: GameReport) -> bool:
    return all(p.startswith(("event ", "... and", "rules: not checked")) for p in g.problems)


@pytest.mark.parametrize(("tamper", "words"), ROYALE, ids=[t.__name__ for t, _ in ROYALE])
def test_royale_tampering_is_caught(royale_game: list[Obj], tamper: Tamper, words: str) -> None:
    _check(royale_game, tamper, words)


@pytest.mark.parametrize(("tamper", "words"), POSING, ids=[t.__name__ for t, _ in POSING])
def test_posing_tampering_is_caught(posing_game: list[Obj], tamper: Tamper, words: str) -> None:
    _check(posing_game, tamper, words)


def test_the_replay_names_the_first_differing_event(royale_game: list[Obj]) -> None:
    damaged = die_value_changed(fresh(royale_game))
    at = next(i for i, (a, b) in enumerate(zip(royale_game, damaged, strict=True)) if a != b)
    problems = validate_objects(damaged, rules=False).games[0].problems
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
    assert "rules: not checked, some events are malformed" in g.problems


def test_the_setup_bag_and_aside_are_the_components_tables(royale_game: list[Obj]) -> None:
    """A bag die of another colour and a missing aside die are both reported, each with how
    the dice differ from the components table."""
    damaged = fresh(royale_game)
    setup = damaged[0]
    first = setup["bag"][0]
    other = "blue" if first["color"] != "blue" else "purple"
    setup["bag"][0] = {**first, "color": other}
    dropped = setup["aside"].pop()
    problems = validate_objects(damaged, replay=False).games[0].problems
    bag = [p for p in problems if "the bag holds" in p]
    assert len(bag) == 1, problems
    assert f"{first['color']} d{first['sides']} {first['kind']} instead of" in bag[0]
    aside = [p for p in problems if "the dice set aside are not" in p]
    assert len(aside) == 1, problems
    assert f"{dropped['color']} d{dropped['sides']} {dropped['kind']} instead of" in aside[0]
    assert validate_objects(royale_game, replay=False).ok
