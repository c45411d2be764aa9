"""Game logs written by the simulator (``tools.sim.simulate``), made once per test session."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tools.sim.simulate import simulate

Obj = dict[str, Any]
MakeLog = Callable[..., list[str]]


@pytest.fixture(scope="session")
def sim_log(tmp_path_factory: pytest.TempPathFactory) -> MakeLog:
    """``sim_log(game, players, games, seed, ai, expansions)``: the simulator's log lines."""
    cache: dict[tuple[Any, ...], list[str]] = {}
    folder = tmp_path_factory.mktemp("logs")

    def make(game: str, players: int, games: int = 1, seed: int = 1,
             ai: Sequence[str] = ("random",), expansions: Sequence[str] = ()) -> list[str]:
        key = (game, players, games, seed, tuple(ai), tuple(expansions))
        if key not in cache:
            path = folder / f"log-{len(cache)}.jsonl"
            simulate(game=game, players=players, games=games, seed=seed, ai=list(ai),
                     expansions=list(expansions), log_path=path, out=io.StringIO())
            cache[key] = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
        return list(cache[key])

    return make
