"""Two costs of SimCord that a real Discord has not, set aside by the benchmarks' world
(:class:`tools.benchbot.simworld.World`) so that the figures are the bot's: SimCord's virtual
clock, which stands still in a benchmark (:func:`wall_clock_sleep`), and its comparison of
callback records field by field (:func:`records_by_identity`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any


def wall_clock_sleep(env: Any) -> Callable[[float], Awaitable[None]]:
    """A sleep on the wall clock inside SimCord's ``env``, as a real event loop's timer runs.

    SimCord's virtual clock stands still in a benchmark: a short sleep of the bot only ends
    once SimCord has advanced it, which it does after settling the whole bot, so under load a
    click's deferral (:class:`ui.answers.Answer`, 25 ms) would wait for every other click to be
    done. The loop's own ``call_at`` (SimCord keeps it) wakes this one on time.
    """
    from simcord import _dpy_internals

    call_at = env._runtime.call_at

    async def sleep(seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        call_at(_dpy_internals.real_monotonic() + seconds, _wake, woken)
        await woken

    return sleep


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # a click answered by its move cancels its deferral
        woken.set_result(None)


@contextlib.contextmanager
def records_by_identity() -> Iterator[None]:
    """SimCord's records of the bot's pending callbacks compared by identity while the block
    runs.

    SimCord keeps a record of every callback the bot schedules in a list and removes it with
    ``list.remove`` when it runs, which compares records field by field (a dataclass's
    ``__eq__``, then their handles'): with 500 games' turn timers parked in that list, every
    callback of the bot costs about 500 such comparisons, about 60 % of the process's CPU at
    500 games. A record is only ever equal to itself, so the comparison by identity changes
    nothing else; a real Discord has no such cost.
    """
    from simcord import _runtime

    record = _runtime._CallbackRecord
    eq = record.__dict__.get("__eq__")
    if eq is not None:
        delattr(record, "__eq__")  # object's own comparison: identity, in C
    try:
        yield
    finally:
        if eq is not None:
            record.__eq__ = eq  # type: ignore[method-assign]
