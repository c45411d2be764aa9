"""The deadlines of the games this process runs: a person's decision, a lobby's expiry.

Only the cluster that owns a game's server arms its deadline (:meth:`Deadlines.owns`). A
deadline never runs out while the bot cannot hear the players it waits on: the timers of a shard
are held while its gateway is down and from start-up until it is ready, and when released each
deadline moves on by the time lost (stored, so a later restart keeps it). While a shard is
connected its hearing is written every few seconds (:meth:`Deadlines.heard`, the bot's
heartbeat: :mod:`bot.health`): after a restart of any length, each deadline is held from when
its shard last heard its players, so it gets back at least the time it had left then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.service.model import Game
from bot.service.timers import Fire, TurnTimers
from bot.shards import ShardPlan
from storage import Storage, StorageError, WrongStatus

log = logging.getLogger("bot.service")


class Deadlines:
    """One armed deadline per open game this process owns, held per shard."""

    def __init__(self, db: Storage, clock: Callable[[], int], fire: Fire,
                 plan: ShardPlan) -> None:
        """``fire(game_id, version)`` runs when a deadline passes; ``plan``: this process's
        shards (the games it owns, the shard of each server).
        """
        self.db = db
        self.clock = clock
        self.plan = plan
        self.timers = TurnTimers(clock, fire)
        self._connected: set[int] = set()  # the shards that hear their players now

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the deadlines and restores the games of a guild (the
        cluster whose shard holds it; see :mod:`bot.shards`).
        """
        return self.plan.owns(guild_id)

    def arm(self, game: Game) -> None:
        """(Re)start the deadline the game waits on (none once it is over or paused, or in a
        process that does not own its server).
        """
        if not self.owns(game.guild_id):
            self.timers.cancel(game.id)
            return
        deadline = game.deadline_ms if game.is_open and game.paused is None else None
        self.timers.arm(game.id, game.version, deadline, self.plan.shard_of(game.guild_id))

    def cancel(self, game_id: int) -> None:
        """Disarm the game's deadline."""
        self.timers.cancel(game_id)

    async def hold_until_ready(self) -> None:
        """At start-up, before any shard connects: each shard of this process is held from
        when it last heard its players (a shard never heard: from the latest hearing of any
        shard, else from now).
        """
        mine, latest = await self.db.shown.last_heard(self.plan.layout)
        for shard in self.plan.shard_ids:
            self.timers.hold(shard, since=mine.get(shard, latest))

    def hold(self, shard: int) -> None:
        """The shard cannot hear its players (its gateway is down): its deadlines stop."""
        self._connected.discard(shard)
        self.timers.hold(shard)

    async def release(self, shard: int) -> dict[int, int]:
        """The shard hears its players again: each of its deadlines moves on by the time it
        was held, and is stored. Returns the moved ones: game id -> new deadline.
        """
        moved: dict[int, int] = {}
        for game_id, (_version, deadline) in self.timers.release(shard).items():
            try:
                await self.db.games.set_deadline(game_id, deadline)
                moved[game_id] = deadline
            except WrongStatus:  # the game ended meanwhile
                self.timers.cancel(game_id)
        self._connected.add(shard)
        await self.heard()
        return moved

    async def heard(self) -> None:
        """Write that every connected shard of this process hears its players now (none
        before a shard was ready once).
        """
        await self.db.shown.heard(self.plan.layout, sorted(self._connected), self.clock())

    def __len__(self) -> int:
        """How many deadlines are armed."""
        return len(self.timers)

    async def close(self) -> None:
        """Write the connected shards' hearing, then disarm every deadline."""
        if not self.db.closed:
            try:
                await self.heard()
            except StorageError as exc:  # the next start gives back more time, no less
                log.warning("the shards' last hearing could not be written (%s)", exc)
        await self.timers.close()
