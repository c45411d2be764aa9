"""The bot token's request budget: Discord allows one bot 50 requests per second across all its
shards and clusters (interaction callbacks and the interaction webhook are outside that limit).

:class:`RequestBudget` spends this process's share of it (``GLOBAL_RATE_SHARE`` of the whole,
with a margin). When the budget is short, requests wait in order of urgency: a ping or a new
board first, then edits, then the deletion of an old ping; within one urgency, first come first
served. A burst (every timer of a busy bot firing in the same second) therefore queues here
instead of earning a storm of 429s from Discord.
"""

from __future__ import annotations

import asyncio
import bisect
import enum
import itertools
import math
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Final

DISCORD_GLOBAL_LIMIT: Final = 50
"""Requests per second one bot may make with its token, all processes together."""
MARGIN: Final = 0.9
"""The share of the limit the bot plans to use (other requests: syncs, fetches, retries)."""
BURST_S: Final = 0.1
"""The budget saved up at most, in seconds of its rate: any one second then sees at most
``rate * (1 + BURST_S)`` requests (below Discord's limit with :data:`MARGIN`)."""
QUANTUM_S: Final = 0.2
"""Waiters wake on multiples of this (together, not one timer each)."""


class Urgency(enum.IntEnum):
    """How soon a request must reach Discord (lower goes first)."""

    NOTIFY = 0
    """A ping, a new board, an announcement: someone waits for it."""
    EDIT = 1
    """An edit of a message that stands (the newest state wins anyway)."""
    TIDY = 2
    """Deleting an old ping: nobody waits for it."""


class RequestBudget:
    """A token bucket of ``rate`` requests per second (``burst`` at most at once), spent in
    order of urgency.
    """

    def __init__(self, rate: float, *, burst: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        """``rate`` requests per second; ``clock()`` in seconds (``time.monotonic``)."""
        if rate <= 0:
            raise ValueError("the request rate must be positive")
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, rate * BURST_S)
        self._clock = clock
        self._tokens = self.burst
        self._stamp: float | None = None
        self._waiting: list[tuple[int, int]] = []  # (urgency, arrival), in order
        self._order = itertools.count()
        self.spent = 0
        """Requests let through (for tests and metrics)."""
        self.waited = 0
        """Requests that had to wait for the budget."""

    @classmethod
    def for_share(cls, share: float) -> RequestBudget:
        """This process's budget when it holds ``share`` (0..1] of the bot's global limit."""
        return cls(DISCORD_GLOBAL_LIMIT * MARGIN * share)

    def _now(self) -> float:
        return self._clock() if self._clock is not None else time.monotonic()

    def _refill(self) -> None:
        now = self._now()
        if self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    @asynccontextmanager
    async def spend(self, urgency: Urgency) -> AsyncIterator[None]:
        """``async with budget.spend(Urgency.EDIT):`` around one bot-token request."""
        await self.acquire(urgency)
        yield

    async def acquire(self, urgency: Urgency) -> None:
        """Wait until one request of ``urgency`` may go: the queue is kept in order of
        urgency, and each waiter sleeps until its own turn should have come (only sleeps: no
        task waits on another).
        """
        self._refill()
        if not self._waiting and self._tokens >= 1:
            self._tokens -= 1
            self.spent += 1
            return
        entry = (int(urgency), next(self._order))
        bisect.insort(self._waiting, entry)
        self.waited += 1
        try:
            while True:
                self._refill()
                place = self._waiting.index(entry)
                if place + 1 <= self._tokens:  # a token for it and for everyone before it
                    self._waiting.remove(entry)
                    self._tokens -= 1
                    self.spent += 1
                    return
                wait = (place + 1 - self._tokens) / self.rate
                await asyncio.sleep(math.ceil(wait / QUANTUM_S) * QUANTUM_S)
        except BaseException:
            if entry in self._waiting:
                self._waiting.remove(entry)
            raise

    def __len__(self) -> int:
        """Requests waiting for the budget."""
        return len(self._waiting)
