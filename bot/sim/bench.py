"""``python -m bot bench``: full games per second of the engines on one core."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, TextIO

from bot.rules.registry import kind_of
from bot.sim.runner import play_game

ALL_OPTIONS = ("mischief", "cannon", "mercenary")


def games_per_second(
    game: str, players: int, ai: Sequence[str], options: dict[str, Any], games: int, seed: int
) -> float:
    """Play ``games`` games without keeping events (the engine alone); games per CPU second
    of this process (one core: the engine is single-threaded), best of three runs.
    """
    kind = kind_of(game)
    names = [f"p{i}" for i in range(players)]
    play_game(kind, names, seed - 1, ai, options, keep_events=False)  # warm caches
    best = 0.0
    for _ in range(3):
        started = time.process_time()
        for g in range(games):
            play_game(kind, names, seed + g, ai, options, keep_events=False)
        best = max(best, games / max(time.process_time() - started, 1e-9))
    return best


def run_bench(*, games: int, seed: int, out: TextIO, only: str | None = None) -> list[str]:
    """Print one line per configuration; return the lines."""
    configs: list[tuple[str, int, str, tuple[str, ...]]] = []
    if only in (None, "royale"):
        option_sets: tuple[tuple[str, ...], ...] = ((), ALL_OPTIONS)
        for opts in option_sets:
            for ai in ("random", "heuristic"):
                for n in (4, 10):
                    configs.append(("royale", n, ai, opts))
    if only in (None, "posing"):
        for ai in ("random", "heuristic"):
            for n in (1, 4):
                configs.append(("posing", n, ai, ()))
    lines = []
    for game, n, ai, opts in configs:
        # Slow configurations get fewer games so the whole bench stays short.
        count = max(20, games // (n if ai == "heuristic" else 1) // 3)
        options: dict[str, Any] = {"expansions": list(opts)} if game == "royale" else {}
        gps = games_per_second(game, n, [ai], options, count, seed)
        label = f"{game} {n:>2} players {ai:<9} options {','.join(opts) or 'none':<25}"
        line = f"{label} {gps:>9.0f} games/s  ({count} games)"
        out.write(line + "\n")
        out.flush()
        lines.append(line)
    return lines
