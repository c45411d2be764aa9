"""Costs of SimCord that a real Discord has not, set aside by the benchmarks' world
(:class:`tools.benchbot.simworld.World`) so that the figures are the bot's: SimCord's virtual
clock, which stands still in a benchmark (:func:`wall_clock_sleep`), its comparison of callback
records field by field (:func:`records_by_identity`), and its list of those records, which only
a settle clears of cancelled timers and whose records are reference cycles
(:func:`tidy_callback_records`).
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
    ``__eq__``, then their handles'): with every game's turn timer parked in that list, each
    callback of the bot costs a comparison per game, which at hundreds of games outweighs the
    bot's own work. A record is only ever equal to itself, so the comparison by identity changes
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


class _NewestFirstRemoval(list[Any]):
    """SimCord's list of callback records, whose ``remove`` looks from the newest end and lets
    the removed record go of its handles.

    A record is removed when its callback runs, and the callbacks that run are nearly always
    the ones just scheduled (the next step of a task), at the end of the list; ``list.remove``
    would first pass every parked record at its front (a turn timer per game).

    Each record and the wrapper SimCord schedules in place of the bot's callback hold each
    other (wrapper -> record -> handle -> wrapper): a reference cycle of about a dozen objects
    per callback the bot schedules (about 50 a decision), which only the garbage collector
    frees, three quarters of what it collects in a benchmark. Once removed, the record is read
    by nobody (its wrapper runs the callback next), so letting go of its handles breaks the
    cycle and reference counting frees it at once, as a real loop frees a handle that ran.
    """

    def remove(self, record: Any) -> None:
        for i in range(len(self) - 1, -1, -1):
            if self[i] is record:
                del self[i]
                record.handle = None
                record.real_handle = None
                return
        raise ValueError("record not in list")


def tidy_callback_records(env: Any) -> None:
    """Drop the records of cancelled timers from SimCord's list of the bot's callbacks, as its
    settle does, and cancel their wake-ups on the real clock (SimCord arms one for each timer
    and leaves it armed), once the list has doubled since the last time; keep it a list whose
    removal looks from the newest end (:class:`_NewestFirstRemoval`).

    The world calls this at each interaction it emits. A benchmark that emits clicks without
    settling for seconds would otherwise keep every cancelled timer of those seconds (each
    query's timeout, each answered click's deferral: tens of thousands, with their closures and
    contexts) in that list, scanned at every callback the bot schedules and by every garbage
    collection. A real event loop drops a cancelled timer's handle on its own.
    """
    from simcord._settlement import _active_callbacks

    work = env._work
    records = work.callbacks
    kept = getattr(env, "_bench_records_kept", 0)
    if isinstance(records, _NewestFirstRemoval) and len(records) < 2 * kept + 64:
        return
    for record in records:  # a cancelled timer needs no wake-up on the real clock either
        if record.handle is not None and record.handle.cancelled() \
                and record.real_handle is not None:
            record.real_handle.cancel()
            record.real_handle = None
    _active_callbacks(env._settlement_state())  # SimCord's own rule: handles not cancelled
    work.callbacks = _NewestFirstRemoval(work.callbacks)
    env._bench_records_kept = len(work.callbacks)
