"""``db.results``, the storage's results, ratings, leaderboards and player figures:
:class:`ResultRecords` (its SQL in ``results.py`` and ``leaderboard.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic

from . import leaderboard as lb
from . import results as r
from .errors import (
    InvalidData,
)
from .rows import (
    LeaderRow,
    RatingRow,
    ResultRow,
    StatsRow,
)
from .runner import C, Transactions


class ResultRecords(Generic[C]):
    """Reading finished games' results, ratings, leaderboards and player figures."""

    def __init__(self, db: Transactions[C]) -> None:
        self._db = db

    # -- results, ratings, leaderboards ------------------------------------------------------

    async def of_game(self, game_id: int) -> list[ResultRow]:
        """A finished game's results, best rank first; empty if it did not finish."""
        return await self._db.read(lambda conn: r.select_results(conn, game_id))

    async def ratings(
        self, guild_id: int, kind: str, player_ids: Sequence[str]
    ) -> dict[str, RatingRow]:
        """Current ratings of these players in this server (unrated players are absent)."""
        return await self._db.read(lambda conn: r.select_ratings(conn, guild_id, kind, player_ids))

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        *,
        since_ms: int | None = None,
        until_ms: int | None = None,
        limit: int = 10,
        offset: int = 0,
        include_bots: bool = False,
    ) -> list[LeaderRow]:
        """One page of the server's leaderboard for a game kind.

        All time (``since_ms=None``): ordered by rating ``mu - 3*sigma`` (unrated players last),
        then wins, average score, games. A period (results with ``finished_ms >= since_ms``,
        and ``< until_ms`` if given): ordered by wins, then average score, then games. Ties end
        on ``player_id``. Computer players are left out unless ``include_bots``.
        """
        if limit < 0 or offset < 0:
            raise InvalidData("limit and offset must not be negative")
        return await self._db.read(
            lambda conn: lb.select_leaderboard(
                conn,
                guild_id,
                kind,
                since_ms=since_ms,
                until_ms=until_ms,
                include_bots=include_bots,
                limit=limit,
                offset=offset,
            )
        )

    async def leaderboard_count(
        self, guild_id: int, kind: str, *, since_ms: int | None = None,
        until_ms: int | None = None, include_bots: bool = False
    ) -> int:
        """How many players :meth:`leaderboard` ranks with these filters (for paging)."""
        return await self._db.read(
            lambda conn: lb.count_leaderboard(
                conn, guild_id, kind, since_ms=since_ms, until_ms=until_ms,
                include_bots=include_bots
            )
        )

    async def player_stats(
        self, guild_id: int, player_id: str, kind: str | None = None
    ) -> list[StatsRow]:
        """A player's figures in this server, one row per game kind played (by kind name)."""
        return await self._db.read(lambda conn: lb.select_stats(conn, guild_id, player_id, kind))
