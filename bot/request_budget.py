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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Final

DISCORD_GLOBAL_LIMIT: Final = 50
"""Requests per second one bot may make with its token, all processes together."""
MARGIN: Final = 0.85
"""The share of the limit the bot plans to use (other requests: syncs, fetches, retries; and
the slack of :data:`BURST_S` and :data:`QUANTUM_S`)."""
BURST_S: Final = 0.1
"""The budget saved up at most, in seconds of its rate: any one second then sees at most
``rate * (1 + BURST_S)`` requests (below Discord's limit with :data:`MARGIN`)."""
QUANTUM_S: Final = 0.05
"""How often the budget looks at its queue; a request goes at most this long after its turn
(so any one second sees at most ``rate * (1 + BURST_S + QUANTUM_S)`` requests)."""


def counts_against_global_limit(path: str, application_id: int) -> bool:
    """Whether a request to ``path`` counts against the bot's global limit: everything sent
    with the bot token does; an interaction callback (``/interactions/{id}/{token}/callback``)
    and the application's interaction webhook (``/webhooks/{application_id}/{token}...``:
    followups, and edits and deletes of ``@original`` and of followups) do not.
    """
    if path.startswith("/interactions/"):
        return False
    return not path.startswith(f"/webhooks/{application_id}/")


class Urgency(enum.IntEnum):
    """How soon a request must reach Discord (lower goes first)."""

    NOTIFY = 0
    """A ping, a new board, an announcement: someone waits for it."""
    EDIT = 1
    """An edit of a message that stands (the newest state wins anyway)."""
    TIDY = 2
    """Deleting an old ping: nobody waits for it."""


@dataclass(order=True, slots=True)
class _Ticket:
    urgency: int
    arrival: int
    granted: bool = field(default=False, compare=False)


class RequestBudget:
    """A token bucket of ``rate`` requests per second (``burst`` at most at once), spent in
    order of urgency.
    """

    def __init__(self, rate: float, *, burst: float | None = None,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """``rate`` requests per second; ``clock()`` in seconds (``time.monotonic``) and
        ``sleep`` (``asyncio.sleep``) to wait on it.
        """
        if rate <= 0:
            raise ValueError("the request rate must be positive")
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, rate * BURST_S)
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._stamp: float | None = None
        self._waiting: list[_Ticket] = []  # in order of urgency, then of arrival
        self._order = itertools.count()
        self.waited = 0  # requests that had to wait

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
        """Wait until one request of ``urgency`` may go.

        Waiting requests queue in order of urgency; whoever looks at the queue grants the
        tokens the budget has refilled to its head, in that order. Every wait is a sleep to
        the same few instants (a waiter far back sleeps until its turn should have come), so
        nothing waits on another task.
        """
        self._refill()
        if not self._waiting and self._tokens >= 1:
            self._tokens -= 1
            return
        ticket = _Ticket(int(urgency), next(self._order))
        bisect.insort(self._waiting, ticket)
        self.waited += 1
        try:
            while True:
                self._grant()
                if ticket.granted:
                    return
                place = self._waiting.index(ticket)
                wait = (place + 1 - self._tokens) / self.rate - QUANTUM_S
                await self._sleep_quanta(max(1, math.floor(wait / QUANTUM_S)))
        except BaseException:
            if ticket in self._waiting:
                self._waiting.remove(ticket)
            raise

    def _grant(self) -> None:
        """Give the refilled tokens to the head of the queue, most urgent first."""
        self._refill()
        while self._waiting and self._tokens >= 1:
            self._waiting.pop(0).granted = True
            self._tokens -= 1

    async def _sleep_quanta(self, quanta: int) -> None:
        """Sleep to the ``quanta``-th next multiple of :data:`QUANTUM_S` of the clock: every
        sleeper of the budget wakes on the same few instants.
        """
        now = self._now()
        target = (math.floor(now / QUANTUM_S + 1e-9) + quanta) * QUANTUM_S
        await self._sleep(max(0.0, target - now))

    def __len__(self) -> int:
        return len(self._waiting)
