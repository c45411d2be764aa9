"""``python -m bot simulate``: many headless games, the game log, a one-line summary.

Every game is played through the game's engine (:func:`bot.sim.runner.play_game`), and its log
lines are written by the one serialiser, :func:`bot.rules.gamelog.log_lines`, through an
ordinary buffered file. The games are played in chunks of consecutive seeds
(:func:`play_chunk`); each chunk gives its log text and a :class:`Tally` of its games, which
add up exactly.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.runner import play_game

SHARES = 2520
"""A win shared by k players counts SHARES // k for each (every k up to 10 divides it): the
wins of chunks add up exactly, whatever the order."""


def player_names(kind: str, n: int) -> list[str]:
    """The seats' player ids of a simulated game: cpu1, cpu2, ..."""
    return [f"cpu{i + 1}" for i in range(n)]


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of one ``simulate`` run shares."""

    game: str
    players: int
    ai: tuple[str, ...]
    expansions: tuple[str, ...] = ()
    log: bool = False

    @property
    def names(self) -> list[str]:
        """The computer players' names, each once, in the order given."""
        return list(dict.fromkeys(self.ai))

    @property
    def seat_ai(self) -> list[str]:
        return [self.ai[i % len(self.ai)] for i in range(self.players)]


@dataclass(slots=True)
class Tally:
    """What a run of games adds to the summary; two tallies add up exactly."""

    games: int = 0
    score_sum: int = 0
    score_count: int = 0
    best: int | None = None
    shared: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # in 1 / SHARES of a win
    points: dict[str, int] = field(default_factory=dict)
    events: int = 0
    cpu: float = 0.0  # CPU seconds of the process that played the games
    timings: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.score_sum += other.score_sum
        self.score_count += other.score_count
        if other.best is not None:
            self.best = other.best if self.best is None else max(self.best, other.best)
        self.shared += other.shared
        for name, units in other.wins.items():
            self.wins[name] = self.wins.get(name, 0) + units
        for name, points in other.points.items():
            self.points[name] = self.points.get(name, 0) + points
        self.events += other.events
        self.cpu += other.cpu
        for name, seconds in other.timings.items():
            self.timings.setdefault(name, []).extend(seconds)


def play_chunk(setup: Setup, seeds: range) -> tuple[Tally, str]:
    """Play the games of ``seeds`` (in order): their tally and their log text ("" without
    the log).
    """
    cpu_started = time.process_time()
    kind = kind_of(setup.game)
    options = {"expansions": list(setup.expansions)} if setup.game == "royale" else {}
    names = player_names(setup.game, setup.players)
    seat_ai = setup.seat_ai
    tally = Tally(wins=dict.fromkeys(setup.ai, 0), points=dict.fromkeys(setup.ai, 0))
    wins, points = tally.wins, tally.points
    lines: list[str] = []
    for g in seeds:
        played = play_game(kind, names, g, setup.ai, options, keep_events=setup.log,
                           timings=tally.timings)
        if setup.log:
            lines.extend(log_lines(f"{setup.game}-{g}", played.events))
        totals, winners = played.totals, played.winners
        tally.score_sum += sum(totals)
        tally.score_count += len(totals)
        top = max(totals)
        tally.best = top if tally.best is None else max(tally.best, top)
        if len(winners) > 1:
            tally.shared += 1
        for seat, points_won in enumerate(totals):
            points[seat_ai[seat]] += points_won
        share = SHARES // len(winners)
        for w in winners:
            wins[seat_ai[w]] += share
    tally.games = len(seeds)
    tally.events = len(lines)
    tally.cpu = time.process_time() - cpu_started
    return tally, "".join(lines)


def chunks(seed: int, games: int, size: int) -> Iterator[range]:
    """The seeds ``seed .. seed + games - 1`` in consecutive ranges of ``size`` (the last
    may be shorter).
    """
    end = seed + games
    for start in range(seed, end, size):
        yield range(start, min(start + size, end))


CHUNK = 250
"""Games per chunk: a chunk's log (about 90 KB a 10-player game) is written in one go."""


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
    setup = Setup(game, players, tuple(ai), tuple(expansions), log_path is not None)
    kind = kind_of(game)
    options = {"expansions": list(expansions)} if game == "royale" else {}
    kind.engine.new_game(player_names(game, players), seed, options)  # checks the set-up
    total = Tally(wins=dict.fromkeys(setup.ai, 0), points=dict.fromkeys(setup.ai, 0))
    started = time.perf_counter()
    results = (play_chunk(setup, seeds) for seeds in chunks(seed, games, CHUNK))
    if log_path is None:
        for tally, _ in results:
            total.add(tally)
    else:
        with log_path.open("w", encoding="utf-8", newline="") as fh:
            write_chunks(total, results, fh)
    elapsed = time.perf_counter() - started
    summary = summary_line(setup, seed, games, total, elapsed=elapsed, log_path=log_path)
    out.write(summary + "\n")
    return {"wins": {name: units / SHARES for name, units in total.wins.items()},
            "mean": total.score_sum / total.score_count if total.score_count else 0.0,
            "shared": total.shared, "games": games, "elapsed": elapsed,
            "decisions": {name: decision_times(total.timings[name])
                          for name in setup.names if name in total.timings}}


def write_chunks(total: Tally, results: Iterable[tuple[Tally, str]], fh: TextIO) -> None:
    """Add each chunk's tally to ``total`` and write its log text to ``fh``, in order."""
    for tally, text in results:
        fh.write(text)
        total.add(tally)


def rate_note(*, logged: bool, cpu_rate: float) -> str:
    """What the games/s figure of :func:`simulate` measures (and the same per CPU second)."""
    log = "log writing included" if logged else "no log"
    return (f"wall-clock rate of the game loop, {log}, start-up not counted; "
            f"{cpu_rate:.0f} games per CPU second of the same loop")


def summary_line(setup: Setup, seed: int, games: int, total: Tally, *, elapsed: float,
                 log_path: Path | None) -> str:
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
    log_note = f"; log {log_path} ({total.events} events)" if log_path is not None else ""
    timing = ", ".join(
        f"{name} mean {d['mean_ms']:.2f} ms p99 {d['p99_ms']:.1f} ms"
        for name in setup.names if name in total.timings
        for d in [decision_times(total.timings[name])]
    )
    return (
        f"{setup.game}: {games} games, {setup.players} players, options {opts}, seed {seed}: "
        f"mean score {mean:.1f}, best {best}, shared wins {total.shared}; {share}; "
        f"{rate:.0f} games/s ({rate_note(logged=setup.log, cpu_rate=cpu_rate)}){log_note}"
        f"{'; decision time ' + timing if timing else ''}"
    )


def decision_times(seconds: list[float]) -> dict[str, float]:
    """The count, mean and 99th percentile (nearest rank) of decision times, in milliseconds."""
    if not seconds:
        return {"count": 0, "mean_ms": 0.0, "p99_ms": 0.0}
    ordered = sorted(seconds)
    rank = max(0, math.ceil(0.99 * len(ordered)) - 1)
    return {"count": len(ordered), "mean_ms": 1000 * sum(ordered) / len(ordered),
            "p99_ms": 1000 * ordered[rank]}
