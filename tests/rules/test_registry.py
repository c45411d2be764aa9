"""The registry is the one list of game kinds: its entries hold together, and it and the
validator (which the registry's entries reach) import in either order."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import subprocess
import sys
from typing import Any

import pytest

from bot.rules.registry import (
    GAME_KINDS,
    KINDS,
    POSING,
    ROYALE,
    GameKind,
    register,
    unregister,
)


@pytest.mark.parametrize("first", ["bot.rules.registry", "bot.rules.validate",
                                   "bot.rules.validate.royale_log", "bot.rules.validate.core"])
def test_the_registry_and_the_validator_import_in_any_order(first: str) -> None:
    code = (f"import {first}; from bot.rules.registry import KINDS; "
            "from bot.rules.validate import validate_objects; print(','.join(KINDS))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "royale,posing"


def test_the_names_are_a_live_view_of_the_kinds() -> None:
    assert list(GAME_KINDS) == list(KINDS) == ["royale", "posing"]
    assert KINDS["royale"] is ROYALE and KINDS["posing"] is POSING
    with pytest.raises(TypeError):
        KINDS["chess"] = ROYALE  # type: ignore[index]


@pytest.mark.parametrize("kind", [ROYALE, POSING], ids=lambda k: k.name)
def test_every_demo_is_where_its_entry_says(kind: GameKind[Any, Any]) -> None:
    demo = kind.demo
    assert demo is not None and kind.min_players <= demo.players <= kind.max_players
    module, _, function = demo.runner.partition(":")
    run = getattr(importlib.import_module(module), function)
    wanted = {"players", "seed", "ai", "out", *kind.rule_options}
    assert wanted <= set(inspect.signature(run).parameters)


class _RaceEngine:
    kind = "race"


def test_an_entry_that_does_not_hold_together_is_refused() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        register(ROYALE)
    with pytest.raises(ValueError, match="'race' has the engine of 'royale'"):
        register(dataclasses.replace(ROYALE, name="race"))
    with pytest.raises(ValueError, match="'race' seats 3 to 2 players"):
        register(dataclasses.replace(ROYALE, name="race", engine=_RaceEngine(),
                                     min_players=3, max_players=2))
    unregister("race")  # nothing was added: removing it changes nothing
    assert list(KINDS) == ["royale", "posing"]
