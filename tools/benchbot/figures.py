"""Figures of the bot benchmarks: distributions and the results of each run."""

from __future__ import annotations

import math
import resource
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

# ---------------------------------------------------------------------- figures

# Where traced memory that is not the bot's own is filed.
SIMCORD = "simcord (simulated Discord)"
HARNESS = "benchmark harness (not the bot)"
NOT_THE_BOT = (SIMCORD, HARNESS)


@dataclass
class Dist:
    """A latency distribution (seconds in, milliseconds out)."""

    name: str
    samples: list[float]

    @property
    def n(self) -> int:
        return len(self.samples)

    def pct(self, p: float) -> float:
        """The p-th percentile (nearest rank), in ms."""
        if not self.samples:
            return math.nan
        s = sorted(self.samples)
        return s[max(0, math.ceil(p / 100 * len(s)) - 1)] * 1000

    @property
    def median(self) -> float:
        return statistics.median(self.samples) * 1000 if self.samples else math.nan

    @property
    def p99(self) -> float:
        return self.pct(99)

    def line(self) -> str:
        if not self.samples:
            return f"  {self.name:<44} (no samples)"
        return (f"  {self.name:<44} n={self.n:<5} median {self.median:6.2f} ms  "
                f"p90 {self.pct(90):6.2f}  p99 {self.p99:6.2f}  "
                f"max {max(self.samples) * 1000:6.2f}")


@dataclass
class LatencyRun:
    """The latency figures of one configuration."""

    label: str
    games: int
    click: Dist
    click_answer: Dist
    answer: Dist
    answer_plain: Dist
    answer_sheet: Dist
    last: Dist
    by_verb: dict[str, Dist] = field(default_factory=dict)
    burst: Dist | None = None
    burst_size: int = 0
    sheet_draw: Dist | None = None

    def report(self, out: TextIO) -> None:
        out.write(f"\n{self.label}\n")
        for d in (self.answer, self.answer_plain, self.answer_sheet, self.last):
            out.write(d.line() + "\n")
        for d in self.by_verb.values():
            out.write("  " + d.line() + "\n")
        if self.sheet_draw is not None:
            out.write(self.sheet_draw.line() + "\n")
        if self.burst is not None:
            out.write(self.burst.line() + "\n")
        out.write(self.click.line() + "\n")
        out.write(self.click_answer.line() + "\n")


@dataclass
class MemoryRun:
    games: int
    rss_before_kb: int
    rss_after_kb: int
    peak_rss_kb: int
    traced_games: int
    traced: Counter[str]
    top: list[tuple[str, int, int]]
    caches: dict[str, int]
    held_per_game: float = math.nan
    held_types: Counter[str] = field(default_factory=Counter)

    @property
    def rss_per_game_kb(self) -> float:
        return (self.rss_after_kb - self.rss_before_kb) / self.games

    @property
    def bot_traced_per_game(self) -> float:
        """Traced bytes per game a real bot process would hold (all but SimCord's own)."""
        ours = sum(v for k, v in self.traced.items() if k not in NOT_THE_BOT)
        return ours / self.traced_games

    def report(self, out: TextIO) -> None:
        growth = self.rss_after_kb - self.rss_before_kb
        out.write(f"\nMemory with {self.games} games in progress\n")
        out.write(f"  process memory (RSS) before {self.rss_before_kb / 1024:.1f} MiB, after "
                  f"{self.rss_after_kb / 1024:.1f} MiB: +{growth / 1024:.1f} MiB, "
                  f"{self.rss_per_game_kb:.1f} KiB per game (peak RSS of the process "
                  f"{self.peak_rss_kb / 1024:.1f} MiB)\n")
        out.write("  RSS includes SimCord's side (its copy of every channel, member, message, "
                  "upload and request log)\n")
        total = sum(self.traced.values())
        out.write(f"  tracemalloc, {self.traced_games} games: +{total / 1024:.0f} KiB "
                  f"= {total / self.traced_games / 1024:.1f} KiB per game, by package (the "
                  "innermost frame outside the stdlib):\n")
        for k, v in self.traced.most_common():
            out.write(f"    {v / self.traced_games / 1024:8.2f} KiB/game  {k}\n")
        out.write("  the bot's share (not SimCord, not the harness): "
                  f"{self.bot_traced_per_game / 1024:.1f} KiB per game of Python objects "
                  "(SQLite's page cache shows in RSS only)\n")
        out.write("  top allocating lines of the bot's share (per game):\n")
        for where, size, count in self.top:
            out.write(f"    {size / self.traced_games / 1024:8.2f} KiB "
                      f"{count / self.traced_games:7.1f} blocks  {where}\n")
        out.write(f"  held by the bot (deep size of what the bot object reaches, SimCord's objects "
                  f"excluded): {self.held_per_game / 1024:.1f} KiB per game; by type: "
                  + ", ".join(f"{k} {v / 1024:.1f}" for k, v in self.held_types.items()) + "\n")
        out.write("  caches: " + ", ".join(f"{k}={v}" for k, v in self.caches.items()) + "\n")


@dataclass
class StartupRun:
    games: int
    active: int
    restarts: list[float]
    setup_hook: list[float]
    load_features: list[float]
    restore_in_hook: list[float]
    restore_alone: list[float]
    open_games_query: list[float]
    timers: int
    first_click: float

    def report(self, out: TextIO) -> None:
        def ms(xs: Sequence[float]) -> str:
            return (f"median {statistics.median(xs) * 1000:7.1f} ms (min {min(xs) * 1000:.1f}, "
                    f"max {max(xs) * 1000:.1f}, n={len(xs)})")

        out.write(f"\nStart-up with {self.games} games in progress ({self.active} active)\n")
        out.write(f"  restart until ready:                  {ms(self.restarts)}\n")
        out.write(f"    the bot's setup (setup_hook):      {ms(self.setup_hook)}\n")
        out.write(f"      loading the commands (cogs):      {ms(self.load_features)}\n")
        out.write(f"      restoring the open games:         {ms(self.restore_in_hook)}\n")
        rest = statistics.median(self.restarts) - statistics.median(self.setup_hook)
        out.write(f"    the other ~{rest * 1000:.0f} ms are SimCord's (detaching the old bot, "
                  "READY and GUILD_CREATE payloads, settling)\n")
        out.write(f"  restoring the open games alone:       {ms(self.restore_alone)}\n")
        out.write(f"    of which the database query:        {ms(self.open_games_query)}\n")
        out.write(f"  turn timers after restart: {self.timers}; first decision after the "
                  f"restart answered in {self.first_click * 1000:.1f} ms (cold caches)\n")


@dataclass
class Results:
    latency: list[LatencyRun] = field(default_factory=list)
    rest: list[Any] = field(default_factory=list)  # tools.benchbot.rest.RestRun
    scale: list[Any] = field(default_factory=list)  # tools.benchbot.scale.ScaleRun
    memory: MemoryRun | None = None
    startup: StartupRun | None = None
    new_lobby: Any = None  # tools.benchbot.lobbies.NewLobbyRun
    finished: Any = None  # tools.benchbot.finished.FinishedRun
    ratelimit: list[Any] = field(default_factory=list)  # tools.benchbot.ratelimit runs
    profile: str = ""
    errors_logged: int = 0


# ---------------------------------------------------------------------- helpers


def rss_kb() -> int:
    """The process's current resident set size (VmRSS), in KiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return peak_rss_kb()


def peak_rss_kb() -> int:
    """The process's peak resident memory so far, in KiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak
