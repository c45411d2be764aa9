"""The difficulty levels: each kind's registry entry says which of its players each level is."""

from __future__ import annotations

import pytest

from bot.rules.levels import LEVELS
from bot.rules.registry import GAME_KINDS, KINDS, kind_of
from bot.sim.runner import AI_NAMES


def test_three_levels_for_every_game() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert all(set(kind.levels) == set(LEVELS) for kind in KINDS.values())
    assert kind_of("royale").levels == {"easy": "random", "normal": "heuristic",
                                        "hard": "expert"}
    assert kind_of("posing").levels == {"easy": "random", "normal": "heuristic",
                                        "hard": "optimal"}


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_every_name_makes_a_player(kind: str) -> None:
    entry = kind_of(kind)
    assert entry.player_names == (*LEVELS, *entry.levels.values())
    for name in entry.player_names:
        assert callable(entry.make_player(name, 1).choose)
    for level in LEVELS:
        by_level = type(entry.make_player(level, 1))
        assert by_level is type(entry.make_player(entry.levels[level], 1))
        assert by_level is type(entry.make_player(f" {level.title()} ", 1))


def test_names() -> None:
    assert set(AI_NAMES) == {*LEVELS, "random", "heuristic", "expert", "optimal"}
    with pytest.raises(ValueError):
        kind_of("royale").make_player("optimal", 1)
