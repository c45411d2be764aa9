"""What a run of simulated games adds to ``simulate``'s summary: :class:`Tally`.

Tallies of consecutive chunks of games add up exactly, whatever process played them: wins are
counted in whole shares (:data:`SHARES`), points as integers, decision times as a count of the
decisions in each :data:`TICK` (:class:`DecisionTimes`: a few hundred numbers however many
decisions, not a list of every decision's time: megabytes to send and sort).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

SHARES = 2520
"""A win shared by k players counts SHARES // k for each (every k up to 10 divides it)."""
TICK = 1e-5
"""Decision times are counted in ticks of 10 microseconds: the p99 shown (to 0.1 ms) is the
end of the tick it falls in."""


@dataclass(slots=True)
class DecisionTimes:
    """How long some decisions took: count, total time, how many took each number of ticks."""

    count: int = 0
    seconds: float = 0.0
    ticks: Counter[int] = field(default_factory=Counter)

    @classmethod
    def of(cls, seconds: Iterable[float]) -> DecisionTimes:
        """The times of the decisions that took ``seconds`` each."""
        times = list(seconds)
        return cls(len(times), math.fsum(times), Counter([int(t / TICK) for t in times]))

    def add(self, other: DecisionTimes) -> None:
        self.count += other.count
        self.seconds += other.seconds
        self.ticks.update(other.ticks)

    def p99(self) -> float:
        """The 99th percentile (nearest rank) in seconds: the end of the tick it falls in."""
        if not self.count:
            return 0.0
        rank = max(1, math.ceil(0.99 * self.count))
        seen = 0
        for tick in sorted(self.ticks):
            seen += self.ticks[tick]
            if seen >= rank:
                return (tick + 1) * TICK
        raise AssertionError("unreachable: the ticks count every decision")


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
    timings: dict[str, DecisionTimes] = field(default_factory=dict)  # by computer player

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
        for name, times in other.timings.items():
            self.timings.setdefault(name, DecisionTimes()).add(times)

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


def decision_times(times: DecisionTimes) -> dict[str, float]:
    """Count, mean and 99th percentile (:meth:`DecisionTimes.p99`) of decision times, in ms."""
    if not times.count:
        return {"count": 0, "mean_ms": 0.0, "p99_ms": 0.0}
    return {"count": times.count, "mean_ms": 1000 * times.seconds / times.count,
            "p99_ms": 1000 * times.p99()}
