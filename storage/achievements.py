"""SQL for achievements (table ``achievements``, migration 007): kept by the transaction that
finishes a game (:func:`record_achievements`), read by ``/stats`` and the game-over message.

Storage does not know what an achievement is: it keeps the ids :attr:`storage.Finish.award`
returns, each with the first game that earned it for the player in the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .connection import Conn, Params, execute_many, fetch_all, in_chunks, serialize
from .errors import InvalidData
from .finish import Finish
from .rows import AchievementRow, Game, Seat, from_row
from .runner import C, Records

_COLUMNS = "guild_id, player_id, achievement, game_id, earned_ms"


async def season_times(conn: Conn, guild_id: int, player_ids: Sequence[str],
                       start_ms: int, end_ms: int) -> dict[str, list[int]]:
    """When each of ``player_ids``' results in the server finished inside ``[start_ms,
    end_ms)`` (any game kind), by player.
    """
    times: dict[str, list[int]] = {p: [] for p in player_ids}
    for marks, chunk in in_chunks(player_ids):
        for row in await fetch_all(
            conn,
            "SELECT player_id, finished_ms FROM results"
            f" WHERE guild_id = ? AND player_id IN ({marks})"
            " AND finished_ms >= ? AND finished_ms < ?",
            (guild_id, *chunk, start_ms, end_ms),
        ):
            times[str(row["player_id"])].append(int(row["finished_ms"]))
    return times


async def record_achievements(conn: Conn, game: Game, finish: Finish, now_ms: int,
                              seats: Sequence[Seat],
                              events: Sequence[Mapping[str, Any]]) -> None:
    """Keep what ``finish.award`` says the players of ``seats`` (those with a result) earned
    in the game whose whole log is ``events``.

    With a season, the server's finishes take turns here (a lock held to the commit), so that
    two games ending at once both count each other's results.
    """
    if finish.award is None:
        return
    players = [p.player_id for p in seats]
    times: dict[str, list[int]] = {p: [] for p in players}
    if finish.season is not None:
        await serialize(conn, f"season-games:{game.guild_id}")
        times = await season_times(conn, game.guild_id, players, *finish.season)
    earned = finish.award(events, times)
    unknown = set(earned) - set(players)
    if unknown:
        raise InvalidData(f"game {game.id}: award() returned players without a result "
                          f"{sorted(unknown)}")
    rows = sorted((game.guild_id, player, str(achievement), game.id, now_ms)
                  for player, ids in earned.items() for achievement in ids)
    # In key order: concurrent PostgreSQL finishes take the rows' locks in the same order.
    await execute_many(
        conn,
        f"INSERT INTO achievements ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, player_id, achievement) DO NOTHING",
        rows,
    )


async def _select(conn: Conn, where: str, order: str, params: Params) -> list[AchievementRow]:
    rows = await fetch_all(
        conn, f"SELECT {_COLUMNS} FROM achievements WHERE {where} ORDER BY {order}", params)
    return [from_row(AchievementRow, row) for row in rows]


async def select_person_achievements(conn: Conn, player_id: str) -> list[AchievementRow]:
    """A person's achievements in every server (their data, as a whole)."""
    return await _select(conn, "player_id = ?", "guild_id, earned_ms, achievement", (player_id,))


class AchievementRecords(Records[C]):
    """Reading the achievements people earned (written by the finishing transaction)."""

    async def of_player(self, guild_id: int, player_id: str) -> list[AchievementRow]:
        """A player's achievements in a server, first earned first."""
        return await self._db.read(lambda conn: _select(
            conn, "guild_id = ? AND player_id = ?", "earned_ms, achievement",
            (guild_id, player_id)))

    async def of_game(self, game_id: int) -> list[AchievementRow]:
        """The achievements first earned in one game, by player then id."""
        return await self._db.read(lambda conn: _select(
            conn, "game_id = ?", "player_id, achievement", (game_id,)))
