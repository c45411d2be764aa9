"""The deadlines of the games this process runs: a person's decision, a lobby's expiry.

Only the cluster that owns a game's server arms its deadline (:attr:`Deadlines.owns`). While
the gateway is down no click can reach the bot, so no deadline may run out: :meth:`hold` stops
them all and :meth:`release` moves each on by the time lost (stored, so a restart keeps it).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.service.model import Game
from bot.service.timers import Fire, TurnTimers
from storage import Storage, WrongStatus


class Deadlines:
    """One armed deadline per open game this process owns."""

    def __init__(self, db: Storage, clock: Callable[[], int], fire: Fire) -> None:
        """``fire(game_id, version)`` runs when a deadline passes."""
        self.db = db
        self.timers = TurnTimers(clock, fire)
        self.owns: Callable[[int], bool] = lambda guild_id: True
        """Whether this process runs the deadlines and restores the games of a guild (the
        cluster whose shard holds it; see :mod:`bot.shards`)."""

    def arm(self, game: Game) -> None:
        """(Re)start the deadline the game waits on (none once it is over or paused, or in a
        process that does not own its server).
        """
        if not self.owns(game.guild_id):
            self.timers.cancel(game.id)
            return
        deadline = game.deadline_ms if game.is_open and game.paused is None else None
        self.timers.arm(game.id, game.version, deadline)

    def cancel(self, game_id: int) -> None:
        """Disarm the game's deadline."""
        self.timers.cancel(game_id)

    def hold(self) -> None:
        """The bot cannot hear its players (the gateway is down): no deadline runs out."""
        self.timers.hold()

    async def release(self) -> None:
        """The gateway is back: every deadline moves on by the time it was held."""
        for game_id, (_version, deadline) in self.timers.release().items():
            try:
                await self.db.games.set_deadline(game_id, deadline)
            except WrongStatus:  # the game ended meanwhile
                self.timers.cancel(game_id)

    def __len__(self) -> int:
        """How many deadlines are armed."""
        return len(self.timers)

    async def close(self) -> None:
        """Disarm every deadline."""
        await self.timers.close()
