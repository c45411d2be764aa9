"""What a run of simulated games adds to ``simulate``'s summary: :class:`Tally`.

Tallies of consecutive chunks of games add up exactly, whatever process played them: wins are
counted in whole shares (:data:`SHARES`), points as integers, decision times kept whole.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field

SHARES = 2520
"""A win shared by k players counts SHARES // k for each (every k up to 10 divides it)."""


@dataclass(slots=True)
class Tally:
    """The games, scores, wins and decision times of some games; :meth:`add` sums two."""

    games: int = 0
    score_sum: int = 0
    score_count: int = 0
    best: int | None = None
    shared: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # in 1 / SHARES of a win
    points: dict[str, int] = field(default_factory=dict)
    events: int = 0
    cpu: float = 0.0  # CPU seconds of the process that played the games
    timings: dict[str, array[float]] = field(default_factory=dict)  # seconds a decision

    def add(self, other: Tally) -> None:
        """Add ``other``'s games to these."""
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
            self.timings.setdefault(name, array("d")).extend(seconds)

    def add_game(self, seat_ai: list[str], totals: list[int], winners: list[int]) -> None:
        """Count one finished game: each seat's points, and its share of the win."""
        self.games += 1
        self.score_sum += sum(totals)
        self.score_count += len(totals)
        top = max(totals)
        self.best = top if self.best is None else max(self.best, top)
        if len(winners) > 1:
            self.shared += 1
        points = self.points
        for seat, points_won in enumerate(totals):
            name = seat_ai[seat]
            points[name] = points.get(name, 0) + points_won
        share = SHARES // len(winners)
        wins = self.wins
        for w in winners:
            name = seat_ai[w]
            wins[name] = wins.get(name, 0) + share


def decision_times(seconds: array[float] | list[float]) -> dict[str, float]:
    """The count, mean and 99th percentile (nearest rank) of decision times, in milliseconds."""
    if not seconds:
        return {"count": 0, "mean_ms": 0.0, "p99_ms": 0.0}
    ordered = sorted(seconds)
    rank = max(0, math.ceil(0.99 * len(ordered)) - 1)
    return {"count": len(ordered), "mean_ms": 1000 * sum(ordered) / len(ordered),
            "p99_ms": 1000 * ordered[rank]}
