"""``./dev simulate``: many headless games, the game log, a one-line summary.

The games are played in chunks of consecutive seeds over ``jobs`` processes
(:mod:`tools.sim.chunks`): the log is the same byte for byte whatever ``jobs`` is, and so is the
summary (but its speed).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.rules.registry import kind_of
from tools.sim.chunks import Setup, chunks, default_jobs, player_names, processes, run_chunks
from tools.sim.tally import SHARES, Tally, decision_times

__all__ = ["player_names", "rate_note", "simulate", "summary_line"]


def simulate(
    *,
    game: str,
    players: int,
    games: int,
    seed: int,
    ai: Sequence[str],
    expansions: Sequence[str] = (),
    log_path: Path | None = None,
    jobs: int | None = None,
    out: TextIO,
) -> dict[str, Any]:
    """Play ``games`` games (game i uses seed ``seed + i``) on ``jobs`` processes (default:
    :func:`~tools.sim.chunks.default_jobs`); write the log; print a summary.
    """
    setup = Setup(game, players, tuple(ai), tuple(expansions), log_path is not None)
    kind = kind_of(game)
    options = {"expansions": list(expansions)} if expansions else {}
    kind.engine.new_game(player_names(game, players), seed, options)  # checks the set-up
    used = processes(games, default_jobs() if jobs is None else jobs)
    seeds = chunks(seed, games, used)
    total = setup.tally()
    started = time.perf_counter()
    if log_path is None:
        for tally in run_chunks(setup, seeds, used):
            total.add(tally)
    else:
        with log_path.open("wb") as fh:
            for tally in run_chunks(setup, seeds, used, fh, log_path):
                total.add(tally)
    elapsed = time.perf_counter() - started
    out.write(summary_line(setup, seed, games, total, elapsed=elapsed, log_path=log_path,
                           processes=used) + "\n")
    return {"wins": {name: units / SHARES for name, units in total.wins.items()},
            "mean": total.score_sum / total.score_count if total.score_count else 0.0,
            "shared": total.shared, "games": games, "elapsed": elapsed, "processes": used,
            "decisions": {name: decision_times(total.timings[name])
                          for name in setup.names if name in total.timings}}


def rate_note(*, logged: bool, cpu_rate: float, processes: int = 1) -> str:
    """What the games/s figure of :func:`simulate` measures (and the same per CPU second)."""
    log = "log writing included" if logged else "no log"
    return (f"wall-clock rate of the game loop, {log}, start-up not counted; "
            f"{cpu_rate:.0f} games per CPU second of the same loop; "
            f"{processes} process{'es' if processes != 1 else ''}")


def summary_line(setup: Setup, seed: int, games: int, total: Tally, *, elapsed: float,
                 log_path: Path | None, processes: int = 1) -> str:
    """The one line ``simulate`` prints."""
    seats = dict.fromkeys(setup.ai, 0)
    for name in setup.seat_ai:
        seats[name] += 1
    share = ", ".join(
        f"{name} {100 * (total.wins[name] / SHARES) / games:.1f}% of wins, "
        f"mean {total.points[name] / (seats[name] * games):.1f} ({seats[name]} seat(s))"
        for name in setup.names
    ) if games else "no games"
    opts = ",".join(setup.expansions) or "none"
    mean = total.score_sum / total.score_count if total.score_count else 0.0
    best = total.best if total.best is not None else 0
    rate = games / elapsed if elapsed > 0 else 0
    cpu_rate = games / total.cpu if total.cpu > 0 else 0
    note = rate_note(logged=setup.log, cpu_rate=cpu_rate, processes=processes)
    log_note = f"; log {log_path} ({total.events} events)" if log_path is not None else ""
    timing = ", ".join(
        f"{name} mean {d['mean_ms']:.2f} ms p99 {d['p99_ms']:.1f} ms"
        for name in setup.names if name in total.timings
        for d in [decision_times(total.timings[name])]
    )
    return (
        f"{setup.game}: {games} games, {setup.players} players, options {opts}, seed {seed}: "
        f"mean score {mean:.1f}, best {best}, shared wins {total.shared}; {share}; "
        f"{rate:.0f} games/s ({note}){log_note}"
        f"{'; decision time ' + timing if timing else ''}"
    )
