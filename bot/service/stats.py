"""The read side for leaderboards and player figures (finished games only)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from bot.errors import UserError
from bot.rules.registry import GAME_KINDS
from bot.service.model import LeaderEntry, PlayerStats
from storage import Storage

PAGE_SIZE: Final = 10
PERIODS: Final = ("all", "month")


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a server's leaderboard."""

    kind: str
    period: str
    computers: bool
    page: int
    """Zero-based, clamped to the pages that exist."""
    pages: int
    entries: tuple[LeaderEntry, ...]


def month_start_ms(now: dt.datetime) -> int:
    """Milliseconds at the start of ``now``'s month (UTC)."""
    start = now.astimezone(dt.UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return int(start.timestamp() * 1000)


class StatsService:
    """Leaderboards and player statistics of one server."""

    def __init__(self, db: Storage) -> None:
        """Read from ``db``."""
        self.db = db

    async def leaderboard(self, guild_id: int, kind: str, period: str, page: int,
                          computers: bool, now: dt.datetime | None = None) -> LeaderboardPage:
        """One page of ``kind``'s leaderboard, all time or this month."""
        if kind not in GAME_KINDS:
            raise UserError("There is no game called {kind}: choose {choices}.", kind=repr(kind),
                            choices=" or ".join(GAME_KINDS))
        if period not in PERIODS:
            raise UserError("The period is 'all' (all time) or 'month' (this month).")
        since = month_start_ms(now or dt.datetime.now(dt.UTC)) if period == "month" else None
        count = await self.db.leaderboard_count(guild_id, kind, since_ms=since,
                                                include_bots=computers)
        pages = max(1, -(-count // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        rows = await self.db.leaderboard(guild_id, kind, since_ms=since, limit=PAGE_SIZE,
                                         offset=page * PAGE_SIZE, include_bots=computers)
        return LeaderboardPage(kind, period, computers, page, pages, tuple(rows))

    async def player(self, guild_id: int, player_id: int) -> list[PlayerStats]:
        """A member's figures in this server, one entry per game kind played."""
        return await self.db.player_stats(guild_id, str(player_id))
