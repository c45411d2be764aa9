"""The bot token's budget on its own: requests per second held under the rate, the most urgent
first, callers that give up leave no trace."""

from __future__ import annotations

import asyncio
import heapq
import random
from collections.abc import Awaitable

import pytest

from bot.request_budget import (
    DISCORD_GLOBAL_LIMIT,
    QUANTUM_S,
    RequestBudget,
    Urgency,
    counts_against_global_limit,
)


class VirtualTime:
    """Sleeps on a virtual clock: a sleeper wakes when the driver reaches its time, the
    earliest first; the clock jumps from one wake-up to the next."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._n = 0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._n += 1
        heapq.heappush(self._sleepers, (self.now + max(0.0, seconds), self._n, future))
        await future

    async def run(self, work: Awaitable[object]) -> None:
        """Run ``work`` to its end, moving the clock whenever every task sleeps."""
        task = asyncio.ensure_future(work)
        while not task.done():
            for _ in range(5):  # let every runnable task reach its next sleep
                await asyncio.sleep(0)
            if self._sleepers and not task.done():
                wake, _, _ = self._sleepers[0]
                self.now = wake
                while self._sleepers and self._sleepers[0][0] <= wake:
                    _, _, future = heapq.heappop(self._sleepers)
                    if not future.done():
                        future.set_result(None)
        task.result()


@pytest.fixture
def virtual() -> VirtualTime:
    return VirtualTime()


async def test_two_hundred_games_of_timeouts_in_one_second(virtual: VirtualTime) -> None:
    """200 games' turn timers fire together, three bot-token requests each (a member check,
    the board, the ping) and a deletion of the old ping: at most the rate (plus its small
    burst) go in any second, pings and boards before edits before deletions."""
    rate = RequestBudget.for_share(1.0).rate
    budget = RequestBudget(rate, clock=virtual, sleep=virtual.sleep)
    log: list[tuple[float, Urgency]] = []

    async def request(urgency: Urgency) -> None:
        await budget.acquire(urgency)
        log.append((virtual.now, urgency))

    rng = random.Random(5)
    wanted = [Urgency.EDIT, Urgency.NOTIFY, Urgency.NOTIFY, Urgency.TIDY] * 200
    rng.shuffle(wanted)
    await virtual.run(asyncio.gather(*(request(u) for u in wanted)))
    assert len(log) == 800 and len(budget) == 0
    last = max(t for t, _ in log)
    most = budget.rate * (1 + QUANTUM_S) + budget.burst
    assert most < DISCORD_GLOBAL_LIMIT
    for tenth in range(int(last * 10) + 1):  # every one-second window, a tenth apart
        start = tenth / 10
        in_window = sum(1 for t, _ in log if start <= t < start + 1)
        assert in_window <= most, (start, in_window)
    assert last >= 800 / budget.rate - 2  # the requests really were spread out
    # pings and boards first, then edits, then deletions (a quantum's slack)
    def latest(u: Urgency) -> float:
        return max(t for t, x in log if x is u)

    def earliest(u: Urgency) -> float:
        return min(t for t, x in log if x is u and t > 0)

    assert latest(Urgency.NOTIFY) <= earliest(Urgency.EDIT) + QUANTUM_S
    assert latest(Urgency.EDIT) <= earliest(Urgency.TIDY) + QUANTUM_S


async def test_a_caller_who_gives_up_leaves_the_queue(virtual: VirtualTime) -> None:
    budget = RequestBudget(5.0, clock=virtual, sleep=virtual.sleep)
    for _ in range(int(budget.burst)):
        await budget.acquire(Urgency.EDIT)
    waiting = asyncio.create_task(budget.acquire(Urgency.TIDY))
    for _ in range(3):
        await asyncio.sleep(0)
    assert len(budget) == 1
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert len(budget) == 0
    await virtual.run(budget.acquire(Urgency.NOTIFY))  # the next caller is not held up by it


def test_a_share_of_the_limit() -> None:
    assert RequestBudget.for_share(0.5).rate == pytest.approx(DISCORD_GLOBAL_LIMIT * 0.85 / 2)
    with pytest.raises(ValueError):
        RequestBudget(0)


@pytest.mark.parametrize(("path", "counted"), [
    ("/channels/7/messages", True),
    ("/channels/7/messages/8", True),
    ("/channels/7/messages/8/threads", True),
    ("/interactions/9/tok/callback", False),
    ("/webhooks/42/tok", False),  # a followup
    ("/webhooks/42/tok/messages/@original", False),
    ("/webhooks/42/tok/messages/8", False),
    ("/webhooks/43/tok", True),  # another application's webhook: not an interaction's
])
def test_which_requests_count_against_the_global_limit(path: str, counted: bool) -> None:
    assert counts_against_global_limit(path, 42) is counted
