"""The difficulty levels: one pure mapping from level to each game's player name."""

from __future__ import annotations

import pytest

from bot.rules.levels import LEVELS, PLAYERS_BY_LEVEL, player_for, player_names
from bot.rules.registry import GAME_KINDS, kind_of
from bot.sim.runner import AI_NAMES


def test_three_levels_for_every_game() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert set(PLAYERS_BY_LEVEL) == set(GAME_KINDS)
    assert PLAYERS_BY_LEVEL["royale"] == {"easy": "random", "normal": "heuristic",
                                          "hard": "expert"}
    assert PLAYERS_BY_LEVEL["posing"] == {"easy": "random", "normal": "heuristic",
                                          "hard": "optimal"}


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_every_name_makes_a_player(kind: str) -> None:
    engine = kind_of(kind)
    for name in player_names(kind):
        assert callable(engine.make_player(name, 1).choose)
    for level in LEVELS:
        by_level = type(engine.make_player(level, 1))
        assert by_level is type(engine.make_player(player_for(kind, level), 1))


def test_names() -> None:
    assert player_for("royale", "heuristic") == "heuristic"
    assert player_for("posing", " Hard ") == "optimal"
    assert set(AI_NAMES) == {*LEVELS, "random", "heuristic", "expert", "optimal"}
    with pytest.raises(ValueError):
        player_for("chess", "hard")
