"""Deadlines: one asyncio task per game waiting on a person (or a lobby waiting to expire),
firing at its deadline; the timers of a shard are held while that shard cannot hear its players.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger("bot.service")

Fire = Callable[[int, int], Awaitable[None]]
"""``fire(game_id, version)``: the deadline of that game at that version passed."""


@dataclass(slots=True)
class _Timer:
    version: int
    deadline_ms: int
    shard: int
    task: asyncio.Task[None] | None = None


class TurnTimers:
    """At most one timer per game; a new one replaces the old.

    Each timer belongs to the shard of its game's server. :meth:`hold` stops a shard's timers
    without forgetting them (no click can reach the bot through that shard, so nobody's time
    there should run out); :meth:`release` moves each of its deadlines on by the time lost and
    starts them again.
    """

    def __init__(self, clock: Callable[[], int], fire: Fire) -> None:
        self._clock = clock
        self._fire = fire
        self._timers: dict[int, _Timer] = {}
        self._held: dict[int, int] = {}  # shard -> since when (epoch ms) it is held
        self.closed = False

    def arm(self, game_id: int, version: int, deadline_ms: int | None, shard: int = 0) -> None:
        """(Re)start the game's timer for this version, or stop it (no deadline)."""
        self.cancel(game_id)
        if deadline_ms is None or self.closed:
            return
        timer = self._timers[game_id] = _Timer(version, deadline_ms, shard)
        if shard not in self._held:
            self._start(game_id, timer)

    def armed(self, game_id: int, version: int) -> bool:
        """Whether the game's timer is armed for ``version``."""
        timer = self._timers.get(game_id)
        return timer is not None and timer.version == version

    def cancel(self, game_id: int) -> None:
        """Stop and forget the game's timer, if any (never the running timer itself)."""
        timer = self._timers.pop(game_id, None)
        if timer is not None and timer.task is not None \
                and timer.task is not asyncio.current_task():
            timer.task.cancel()

    def hold(self, shard: int, since: int | None = None) -> None:
        """Stop the shard's timers, keeping their deadlines, as of ``since`` (default: now);
        a shard already held keeps the earlier of the two.
        """
        since = self._clock() if since is None else since
        self._held[shard] = min(since, self._held.get(shard, since))
        for timer in self._timers.values():
            if timer.shard == shard and timer.task is not None:
                timer.task.cancel()
                timer.task = None

    def release(self, shard: int) -> tuple[int, list[int]]:
        """Start the shard's held timers again, each moved on by the time they were held.
        Returns that time (ms) and the games whose timers moved.
        """
        since = self._held.pop(shard, None)
        if since is None:
            return 0, []
        lost = max(0, self._clock() - since)
        moved: list[int] = []
        for game_id, timer in self._timers.items():
            if timer.shard != shard:
                continue
            timer.deadline_ms += lost
            if lost:
                moved.append(game_id)
            self._start(game_id, timer)
        return lost, moved

    def _start(self, game_id: int, timer: _Timer) -> None:
        delay = max(0.0, (timer.deadline_ms - self._clock()) / 1000)
        timer.task = asyncio.create_task(self._run(game_id, timer, delay),
                                         name=f"turn-timer-{game_id}")

    async def _run(self, game_id: int, timer: _Timer, delay: float) -> None:
        await asyncio.sleep(delay)
        if self._timers.get(game_id) is timer:
            del self._timers[game_id]
        try:
            await self._fire(game_id, timer.version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the deadline of game %s failed", game_id)

    def __len__(self) -> int:
        return len(self._timers)

    async def close(self) -> None:
        """Stop every timer and wait for them."""
        self.closed = True
        tasks = [t.task for t in self._timers.values() if t.task is not None]
        self._timers.clear()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
