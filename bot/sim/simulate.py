"""``python -m bot simulate``: many headless games, the game log, a one-line summary."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.rules.gamelog import log_lines
from bot.rules.registry import engine_for
from bot.sim.runner import play_game


def player_names(kind: str, n: int) -> list[str]:
    return [f"cpu{i + 1}" for i in range(n)]


def simulate(
    *,
    game: str,
    players: int,
    games: int,
    seed: int,
    ai: Sequence[str],
    expansions: Sequence[str] = (),
    log_path: Path | None = None,
    out: TextIO,
) -> dict[str, Any]:
    """Play ``games`` games (game i uses seed ``seed + i``); write the log; print a summary."""
    engine = engine_for(game)
    options = {"expansions": list(expansions)} if game == "royale" else {}
    names = player_names(game, players)
    wins = dict.fromkeys(ai, 0.0)
    seats = dict.fromkeys(ai, 0)
    points = dict.fromkeys(ai, 0)
    for i in range(players):
        seats[ai[i % len(ai)]] += 1
    scores: list[int] = []
    best = -(10**9)
    shared = 0
    events_written = 0
    fh = log_path.open("w", encoding="utf-8") if log_path else None
    timings: dict[str, list[float]] = {}
    started = time.perf_counter()
    try:
        for g in range(games):
            played = play_game(engine, names, seed + g, ai, options, keep_events=fh is not None,
                               timings=timings)
            scores.extend(played.totals)
            for i, t in enumerate(played.totals):
                points[ai[i % len(ai)]] += t
            best = max(best, *played.totals)
            if len(played.winners) > 1:
                shared += 1
            for w in played.winners:
                wins[ai[w % len(ai)]] += 1 / len(played.winners)
            if fh is not None:
                for line in log_lines(f"{game}-{seed + g}", played.events):
                    fh.write(line)
                events_written += len(played.events)
    finally:
        if fh is not None:
            fh.close()
    elapsed = time.perf_counter() - started
    share = ", ".join(
        f"{name} {100 * wins[name] / games:.1f}% of wins, "
        f"mean {points[name] / (seats[name] * games):.1f} ({seats[name]} seat(s))"
        for name in wins
    ) if games else "no games"
    opts = ",".join(expansions) or "none"
    mean = sum(scores) / len(scores) if scores else 0.0
    log_note = f"; log {log_path} ({events_written} events)" if log_path else ""
    decisions = {name: decision_times(timings[name]) for name in wins if name in timings}
    timing = ", ".join(
        f"{name} mean {d['mean_ms']:.2f} ms p99 {d['p99_ms']:.1f} ms"
        for name, d in decisions.items()
    )
    out.write(
        f"{game}: {games} games, {players} players, options {opts}, seed {seed}: "
        f"mean score {mean:.1f}, best {best if scores else 0}, shared wins {shared}; {share}; "
        f"decision time {timing or 'none'}; "
        f"{games / elapsed if elapsed > 0 else 0:.0f} games/s{log_note}\n"
    )
    return {"wins": wins, "mean": mean, "shared": shared, "games": games, "elapsed": elapsed,
            "decisions": decisions}


def decision_times(seconds: list[float]) -> dict[str, float]:
    """The count, mean and 99th percentile (nearest rank) of decision times, in milliseconds."""
    if not seconds:
        return {"count": 0, "mean_ms": 0.0, "p99_ms": 0.0}
    ordered = sorted(seconds)
    rank = max(0, math.ceil(0.99 * len(ordered)) - 1)
    return {"count": len(ordered), "mean_ms": 1000 * sum(ordered) / len(ordered),
            "p99_ms": 1000 * ordered[rank]}
