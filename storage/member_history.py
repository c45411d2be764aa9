"""A member's recent games in one server, with their logs: :class:`HistoryRecords` (the
``/stats`` chart's reads).

:meth:`HistoryRecords.recent_results` reads the member's last results through the index
``results_player_latest`` (server, player, newest first); :meth:`HistoryRecords.games_events`
the full event logs of a few games in one read (their start events, then every action's
events, by game and ``seq``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Generic

from . import jsoncol
from .connection import Conn, fetch_all
from .errors import InvalidData
from .results import result_row
from .rows import ResultRow
from .runner import C, Transactions

MAX_GAMES: Final = 100
"""The most games one call reads (results or logs)."""


async def select_recent_results(conn: Conn, guild_id: int, player_id: str, limit: int
                                ) -> list[ResultRow]:
    """The player's last ``limit`` results in the server, newest first."""
    rows = await fetch_all(
        conn,
        "SELECT game_id, guild_id, kind, player_id, display_name, is_bot, seat, score, rank,"
        " won, finished_ms FROM results WHERE guild_id = ? AND player_id = ?"
        " ORDER BY finished_ms DESC, game_id DESC LIMIT ?",
        (guild_id, player_id, limit),
    )
    return [result_row(row) for row in rows]


async def select_games_events(conn: Conn, game_ids: Sequence[int]
                              ) -> dict[int, list[dict[str, Any]]]:
    """The full event logs of ``game_ids`` (unknown games are absent)."""
    ids = list(dict.fromkeys(game_ids))
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    logs: dict[int, list[dict[str, Any]]] = {}
    for row in await fetch_all(
        conn, f"SELECT id, start_events FROM games WHERE id IN ({marks})", tuple(ids)
    ):
        start = row["start_events"]
        logs[row["id"]] = list(jsoncol.load(start)) if start is not None else []
    for row in await fetch_all(
        conn,
        f"SELECT game_id, events FROM actions WHERE game_id IN ({marks}) ORDER BY game_id, seq",
        tuple(ids),
    ):
        logs[row["game_id"]].extend(jsoncol.load(row["events"]))
    return logs


class HistoryRecords(Generic[C]):
    """A member's recent results in a server and the logs of a few games."""

    def __init__(self, db: Transactions[C]) -> None:
        self._db = db

    async def recent_results(
        self, guild_id: int, player_id: str, *, limit: int = 30
    ) -> list[ResultRow]:
        """The player's last ``limit`` finished games in the server (1 to :data:`MAX_GAMES`),
        newest first (by when they finished, then by game).
        """
        if not 1 <= limit <= MAX_GAMES:
            raise InvalidData(f"limit must be 1 to {MAX_GAMES}, not {limit}")
        return await self._db.read(
            lambda conn: select_recent_results(conn, guild_id, player_id, limit)
        )

    async def games_events(self, game_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        """The full event logs of up to :data:`MAX_GAMES` games in one read, by game id (as
        :meth:`storage.game_records.GameRecords.events` gives each; an unknown game is absent).
        """
        if len(set(game_ids)) > MAX_GAMES:
            raise InvalidData(f"at most {MAX_GAMES} games at once")
        return await self._db.read(lambda conn: select_games_events(conn, game_ids))
