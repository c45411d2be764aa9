"""The read side for leaderboards, player figures and achievements (finished games only)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.errors import UserError
from bot.rules.registry import GAME_KINDS, kind_of
from bot.service.season_calendar import SeasonWindow, season_at
from storage import AchievementRow, GameResult, LeaderEntry, PlayerStats, Seat, Storage, relabel

PAGE_SIZE: Final = 10
SEASON: Final = "season"
LAST_SEASON: Final = "last-season"
PERIODS: Final = ("all", "month", SEASON, LAST_SEASON)
NO_SEASONS: Final = ("This server has no seasons: a server manager can start them with "
                     "/settings season.")
LAST_GAMES: Final = 30
"""How many of a member's games :meth:`StatsService.history` reads."""


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
    season: SeasonWindow | None = None
    """The season shown (periods ``season`` and ``last-season``)."""


@dataclass(frozen=True, slots=True)
class MemberHistory:
    """A member's last finished games in one server and, for some kinds, how each of those
    games scored their steps.
    """

    results: tuple[GameResult, ...]
    """Their results, oldest first."""
    steps: Mapping[int, tuple[dict[str, Any], ...]]
    """By game id (of the kinds asked for): the member's events of the kind's ``progress``
    (Royale: their ten ``score`` events, with the columns), naming them by their Discord id."""


def month_start_ms(now: dt.datetime) -> int:
    """Milliseconds at the start of ``now``'s month (UTC)."""
    start = now.astimezone(dt.UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return int(start.timestamp() * 1000)


def _wall_ms() -> int:
    return int(time.time() * 1000)


class StatsService:
    """Leaderboards, player statistics and achievements of one server."""

    def __init__(self, db: Storage, clock: Callable[[], int] = _wall_ms) -> None:
        """Read from ``db``; ``clock`` gives now in epoch ms (the periods' windows)."""
        self.db = db
        self.clock = clock

    async def leaderboard(self, guild_id: int, kind: str, period: str, page: int,
                          computers: bool, now: dt.datetime | None = None) -> LeaderboardPage:
        """One page of ``kind``'s leaderboard: all time, this month, the server's current
        season or the one before it.
        """
        if kind not in GAME_KINDS:
            raise UserError("There is no game called {kind}: choose {choices}.", kind=repr(kind),
                            choices=" or ".join(GAME_KINDS))
        if period not in PERIODS:
            raise UserError("The period is 'all' (all time), 'month' (this month), 'season' "
                            "(this season) or 'last-season'.")
        now_ms = int(now.timestamp() * 1000) if now is not None else self.clock()
        since: int | None = None
        until: int | None = None
        season = None
        if period == "month":
            since = month_start_ms(dt.datetime.fromtimestamp(now_ms / 1000, dt.UTC))
        elif period in (SEASON, LAST_SEASON):
            season = await self.season(guild_id, period, now_ms)
            since, until = season.start_ms, season.end_ms
        count = await self.db.results.leaderboard_count(
            guild_id, kind, since_ms=since, until_ms=until, include_bots=computers)
        pages = max(1, -(-count // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        rows = await self.db.results.leaderboard(guild_id, kind, since_ms=since, until_ms=until,
                                                 limit=PAGE_SIZE, offset=page * PAGE_SIZE,
                                                 include_bots=computers)
        return LeaderboardPage(kind, period, computers, page, pages, tuple(rows), season)

    async def season(self, guild_id: int, period: str, now_ms: int) -> SeasonWindow:
        """The server's season now (``season``) or the one before (``last-season``)."""
        setting = await self.db.seasons.of_guild(guild_id)
        if setting.length is None:
            raise UserError(NO_SEASONS)
        current = season_at(setting.length, now_ms)
        return current if period == SEASON else current.previous()

    async def player(self, guild_id: int, player_id: int) -> list[PlayerStats]:
        """A member's figures in this server, one entry per game kind played."""
        return await self.db.results.player_stats(guild_id, str(player_id))

    async def history(self, guild_id: int, player_id: int, *, steps_of: Collection[str] = (),
                      limit: int = LAST_GAMES) -> MemberHistory:
        """A member's last ``limit`` finished games in this server, with their steps in the
        games of the kinds ``steps_of`` (read from the games' logs, in one read).
        """
        member = str(player_id)
        recent = await self.db.history.recent_results(guild_id, member, limit=limit)
        results = list(reversed(recent))
        wanted = [r for r in results if r.kind in steps_of and kind_of(r.kind).progress]
        logs = await self.db.history.games_events([r.game_id for r in wanted]) if wanted else {}
        steps: dict[int, tuple[dict[str, Any], ...]] = {}
        for r in wanted:
            progress = kind_of(r.kind).progress
            assert progress is not None
            token = Seat(r.seat, r.player_id, r.display_name, r.is_bot).token
            steps[r.game_id] = tuple(
                relabel(e, {token: member}) for e in logs.get(r.game_id, ())
                if e.get("event") == progress.event and e.get("player") == token)
        return MemberHistory(tuple(results), steps)
    async def achievements(self, guild_id: int, player_id: int) -> list[AchievementRow]:
        """What a member earned in this server, first earned first."""
        return await self.db.achievements.of_player(guild_id, str(player_id))

    async def earned_in(self, game_id: int) -> dict[str, list[str]]:
        """What each person first earned in one game (Discord id -> achievement ids)."""
        out: dict[str, list[str]] = {}
        for row in await self.db.achievements.of_game(game_id):
            out.setdefault(row.player_id, []).append(row.achievement)
        return out
