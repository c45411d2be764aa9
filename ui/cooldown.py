"""Public answers under a cooldown: a channel gets at most one public answer of a kind every
few seconds (the rest are answered privately), so a crowd sending ``/leaderboard`` twenty times
a second puts one message in the channel, not a thousand, and never meets Discord's per-channel
limit (5 messages per 5 s).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

PUBLIC_EVERY_S: Final = 10.0
"""Seconds between two public answers of one kind in one channel."""


class PublicCooldown:
    """When a channel may next get a public answer; entries last one window only."""

    def __init__(self, clock: Callable[[], float], every_s: float = PUBLIC_EVERY_S) -> None:
        """``clock()`` is now in seconds."""
        self._clock = clock
        self.every_s = every_s
        self._last: dict[int, float] = {}

    def public(self, channel_id: int) -> bool:
        """Whether this answer may be public (and if so, the window starts now)."""
        now = self._clock()
        self._prune(now)
        if channel_id in self._last:
            return False
        self._last[channel_id] = now
        return True

    def _prune(self, now: float) -> None:
        stale = [c for c, t in self._last.items() if now - t >= self.every_s]
        for channel in stale:
            del self._last[channel]

    def __len__(self) -> int:
        """Channels inside their window."""
        return len(self._last)
