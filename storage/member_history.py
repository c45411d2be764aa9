"""``db.history``: a member's recent games in one server, with their logs (the ``/stats``
chart's reads): :class:`HistoryRecords`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .connection import fetch_all
from .errors import InvalidData
from .games import select_events
from .results import RESULT_COLUMNS, result_row
from .rows import GameResult
from .runner import C, Records

MAX_GAMES: Final = 100
"""The most games one call reads (results or logs)."""


class HistoryRecords(Records[C]):
    """A member's recent results in a server and the logs of a few games."""

    async def recent_results(
        self, guild_id: int, player_id: str, *, limit: int = 30
    ) -> list[GameResult]:
        """The player's last ``limit`` finished games in the server (1 to :data:`MAX_GAMES`),
        newest first (by when they finished, then by game: the index ``results_player_latest``).
        """
        if not 1 <= limit <= MAX_GAMES:
            raise InvalidData(f"limit must be 1 to {MAX_GAMES}, not {limit}")
        rows = await self._db.read(lambda conn: fetch_all(
            conn, f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = ? AND player_id = ?"
                  " ORDER BY finished_ms DESC, game_id DESC LIMIT ?",
            (guild_id, player_id, limit)))
        return [result_row(row) for row in rows]

    async def games_events(self, game_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        """The full event logs of up to :data:`MAX_GAMES` games in one read, by game id (as
        :meth:`storage.games.GameRecords.events` gives each; an unknown game is absent).
        """
        if len(set(game_ids)) > MAX_GAMES:
            raise InvalidData(f"at most {MAX_GAMES} games at once")
        return await self._db.read(lambda conn: select_events(conn, game_ids))
