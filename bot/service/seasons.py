"""The end of a server's season: found by a periodic check, claimed once across processes and
restarts, and settled by the Discord layer (the podium posted in the season channel): how, in
docs/architecture.md, *Seasons* (``storage.seasons.claim_end``; the lease is :data:`LEASE_MS`).
Only the latest ended season of a server is settled: a bot that was away for two seasons posts
the last one's podium.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.rules.registry import KINDS
from bot.service.season_calendar import SeasonWindow, next_boundary_ms, season_at
from storage import LeaderEntry, Storage

log = logging.getLogger("bot.service")

PODIUM: Final = 3
"""Places on a season's podium, per game."""
LEASE_MS: Final = 10 * 60 * 1000
"""How long a claimed season's end waits on its process before another may settle it."""
CHECK_EVERY_S: Final = 3600
"""The longest the periodic check sleeps (it wakes at every month's start anyway)."""

POSTED: Final = "posted"
EMPTY: Final = "empty"
NO_CHANNEL: Final = "no_channel"
REFUSED: Final = "refused"


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """A season that ended, claimed by this process: its podium to post."""

    guild_id: int
    season: SeasonWindow
    channel_id: int | None
    podium: Mapping[str, tuple[LeaderEntry, ...]]
    """Per game kind played in the season (registry order): its best people, at most
    :data:`PODIUM`, by wins, then average score, then games."""
    reset: bool
    """The server's ratings started again with this end."""

    @property
    def empty(self) -> bool:
        """Nobody finished a game in the season."""
        return not any(self.podium.values())


class Seasons:
    """Finds ended seasons and records how each was settled."""

    def __init__(self, db: Storage, clock: Callable[[], int],
                 owns: Callable[[int], bool] = lambda guild_id: True) -> None:
        """Read and claim in ``db`` at ``clock``'s time (epoch ms)."""
        self.db = db
        self.clock = clock
        self.owns = owns
        """Whether this process serves a server (its cluster holds the server's shard)."""

    async def at(self, guild_id: int, now_ms: int) -> SeasonWindow | None:
        """The server's season at ``now_ms`` (None: it runs no seasons)."""
        setting = await self.db.seasons.of_guild(guild_id)
        return None if setting.length is None else season_at(setting.length, now_ms)

    async def due(self) -> list[SeasonEnd]:
        """Claim the ended seasons of the servers this process serves; the caller posts each
        podium, then calls :meth:`settled`.
        """
        now = self.clock()
        out: list[SeasonEnd] = []
        for setting in await self.db.seasons.seasonal_guilds():
            if setting.length is None or not self.owns(setting.guild_id):
                continue
            ended = season_at(setting.length, now).previous()
            if setting.since_ms is None or ended.end_ms <= setting.since_ms:
                continue  # it ended before the server chose seasons
            if not await self.db.seasons.claim_end(
                    setting.guild_id, ended.key, ended.start_ms, ended.end_ms, now_ms=now,
                    stale_ms=now - LEASE_MS, reset=setting.reset):
                continue
            out.append(SeasonEnd(setting.guild_id, ended, setting.channel_id,
                                 await self.podium(setting.guild_id, ended), setting.reset))
        return out

    async def podium(self, guild_id: int, season: SeasonWindow
                     ) -> dict[str, tuple[LeaderEntry, ...]]:
        """The best people of each game kind played in ``season`` (none: left out)."""
        out: dict[str, tuple[LeaderEntry, ...]] = {}
        for kind in KINDS:
            rows = await self.db.results.leaderboard(guild_id, kind, since_ms=season.start_ms,
                                                     until_ms=season.end_ms, limit=PODIUM)
            if rows:
                out[kind] = tuple(rows)
        return out

    async def settled(self, end: SeasonEnd, outcome: str, message_id: int | None = None
                      ) -> None:
        """Record how ``end`` was settled: ``posted`` (``message_id``), ``empty`` (nobody
        played), ``no_channel`` or ``refused`` (Discord would not take the message).
        """
        await self.db.seasons.settle_end(end.guild_id, end.season.key, now_ms=self.clock(),
                                         outcome=outcome, channel_id=end.channel_id,
                                         message_id=message_id)
        log.info("server %s: season %s settled (%s)", end.guild_id, end.season.key, outcome)

    def next_check_s(self) -> float:
        """Seconds until the periodic check should look again: just after the next month's
        start, at most :data:`CHECK_EVERY_S`.
        """
        now = self.clock()
        return max(1.0, min(CHECK_EVERY_S, (next_boundary_ms(now) - now) / 1000 + 1))
