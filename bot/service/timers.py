"""Turn timers: one asyncio task per game waiting on a person, firing at its deadline."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.service")

Fire = Callable[[int, int], Awaitable[None]]
"""``fire(game_id, version)``: the deadline of that game at that version passed."""


class TurnTimers:
    """At most one running timer per game; a new one replaces the old."""

    def __init__(self, clock: Callable[[], int], fire: Fire) -> None:
        """``clock`` gives now in epoch ms; ``fire`` runs when a deadline passes."""
        self._clock = clock
        self._fire = fire
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.closed = False

    def arm(self, game_id: int, version: int, deadline_ms: int | None) -> None:
        """(Re)start the game's timer for this version, or stop it (no deadline)."""
        self.cancel(game_id)
        if deadline_ms is None or self.closed:
            return
        delay = max(0.0, (deadline_ms - self._clock()) / 1000)
        self._tasks[game_id] = asyncio.create_task(
            self._run(game_id, version, delay), name=f"turn-timer-{game_id}")

    def cancel(self, game_id: int) -> None:
        """Stop the game's timer, if any (never the running timer itself)."""
        task = self._tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _run(self, game_id: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._tasks.pop(game_id, None)
        try:
            await self._fire(game_id, version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timeout of game %s failed", game_id)

    def __len__(self) -> int:
        """How many timers are running."""
        return len(self._tasks)

    async def close(self) -> None:
        """Stop every timer and wait for them."""
        self.closed = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
