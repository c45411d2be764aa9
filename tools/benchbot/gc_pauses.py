"""The garbage collector's pauses while a benchmark runs: how many passes, how long.

A pass of the oldest generation walks every object the process tracks, and in a benchmark's
process most of them are SimCord's (its copy of every channel, member, message and request),
so such a pass stops the bot, and every click waiting on it, for a long while at 500 games.
The figures say how much of a run's longest answers is that.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any


@dataclass
class GcPauses:
    """``with GcPauses() as pauses:`` records each pass of the collector inside the block."""

    passes: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Passes by the generation collected (0, 1, 2: a full pass)."""
    total_s: float = 0.0
    longest_s: float = 0.0
    longest_full_s: float = 0.0
    tracked: int = 0
    """Objects the collector tracked when the block ended."""
    _started: float = 0.0

    def _seen(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._started = now
            return
        took = now - self._started
        self.passes[info["generation"]] += 1
        self.total_s += took
        self.longest_s = max(self.longest_s, took)
        if info["generation"] == 2:
            self.longest_full_s = max(self.longest_full_s, took)

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        gc.callbacks.remove(self._seen)
        self.tracked = len(gc.get_objects())

    def line(self) -> str:
        """The figures in one line."""
        return (f"{sum(self.passes)} passes ({self.passes[2]} full), {self.total_s * 1000:.0f} "
                f"ms in all, the longest {self.longest_s * 1000:.0f} ms (full "
                f"{self.longest_full_s * 1000:.0f} ms); {self.tracked:,} objects tracked")


def freeze_world() -> int:
    """Collect, then freeze every object alive (``gc.freeze``): the collector's passes from
    now on walk only what is made after. Returns how many objects are frozen in all.

    The scale benchmark does this once its games are built and again between two paced rounds:
    most objects alive then are SimCord's (its copy of every channel, member and message, and
    of every request the bot made, which it keeps), which a real bot's process has not. The
    bot's own objects of that moment are frozen with them (the benchmark reports how many).
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
