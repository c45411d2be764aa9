"""Whether the bot inside SimCord is still at work, looked at cheaply.

SimCord's settle polls the event loop until the bot is idle; each poll scans every pending task
against every timer, which takes a good part of a second with hundreds of games (one parked
turn timer each), and polling while the bot works slows the bot down. :func:`calm` waits
until the bot has nothing at work by looks that cost one pass over the tasks, so a settle after
it finds the bot idle at its first poll or two.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

CALM_POLL = 0.005
"""Real seconds between two looks."""
CALM_LOOKS = 2
"""Looks in a row that must find the bot idle."""
CALM_LIMIT = 120.0
"""Real seconds :func:`calm` waits at most (then SimCord's settle reports what is at work)."""


WAITERS = ("turn-timer-", "discord-ext-tasks: ", "season-ends", "slow-deadlines")
"""Names of the bot's tasks that wait for a deadline (a turn's, the upkeep loops' next run, the
slow games' next sweep, the next season's end) and are not at work while they sleep."""


def _asleep(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` sleeps: its innermost coroutine is ``asyncio.sleep``, or a
    ``discord.ext.tasks`` loop waits on its sleep handle (a future, between two runs).
    """
    coro: Any = task.get_coro()
    while (inner := getattr(coro, "cr_await", None)) is not None \
            and getattr(inner, "cr_code", None) is not None:
        coro = inner
    name = getattr(coro, "__qualname__", "")
    # a loop between two runs awaits its sleep handle's future (not a coroutine: its body)
    return name == "sleep" or (name == "Loop._loop" and getattr(coro, "cr_await", None)
                               is not None)


def at_work(env: Any) -> int:
    """How many of the bot's tasks are at work in SimCord's ``env`` (and SimCord's native
    workers: picture threads): every task but those of :data:`WAITERS` sleeping until their
    deadline (virtual time stands still in a benchmark, so none fires).
    """
    work = env._work
    n = len(work.executors)
    for task in work.tasks:
        if task.done():
            continue
        if task.get_name().startswith(WAITERS) and _asleep(task):
            continue
        n += 1
    return n


async def calm(env: Any, limit: float = CALM_LIMIT) -> None:
    """Wait until the bot in ``env`` has nothing at work (:data:`CALM_LOOKS` looks in a row,
    :data:`CALM_POLL` apart), or ``limit`` seconds.
    """
    deadline = time.perf_counter() + limit
    idle = 0
    while idle < CALM_LOOKS and time.perf_counter() < deadline:
        await asyncio.sleep(CALM_POLL)
        idle = idle + 1 if at_work(env) == 0 else 0
