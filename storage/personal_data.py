"""What the bot keeps about a person and about a server, read as a whole or removed as a
whole: :class:`PersonalRecords`.

A person appears as their Discord id and display name in ``game_players``, ``results``,
``ratings`` and ``player_totals``, and as the host of ``games``; a game's state, events and
action log name them only by their seat's token (``p1``...: migration 006), so forgetting
them never touches the append-only log. A server's data is every row carrying its id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import games as g
from .achievements import select_person_achievements
from .connection import Conn, execute, fetch_all, fetch_one, fetch_value
from .errors import InvalidData
from .results import RATING_COLUMNS, RESULT_COLUMNS, result_row
from .rows import AchievementRow, Game, GameResult, RatingRow, from_row
from .runner import C, Records

SERVER_TABLES = ("games", "results", "ratings", "player_totals", "guild_settings",
                 "guild_departures", "achievements", "season_ends", "pings")
"""Every table with a ``guild_id`` column: a server's data (game_players and actions go with
their games)."""

@dataclass(frozen=True, slots=True)
class PersonalRows:
    """Every row the database holds about one person, in every server."""

    games: list[Game]
    """The games they have a seat in (any status), or host."""
    results: list[GameResult]
    ratings: list[RatingRow]
    totals: list[dict[str, int | str]]
    """Their all-time totals per server and game kind (``player_totals``)."""
    achievements: list[AchievementRow] = field(default_factory=list)
    """What they earned, in every server."""
    reminders: dict[str, str | int | None] | None = None
    """How they want to be reminded of slow games (``people``; None: never set)."""


@dataclass(frozen=True, slots=True)
class Departure:
    """A server that removed the bot, and when (epoch ms)."""

    guild_id: int
    removed_ms: int


async def _person_rows(conn: Conn, player_id: str) -> PersonalRows:
    games = await g.select_games(
        conn, f"{g.OF_PLAYER} OR host_id = ?",
        (player_id, int(player_id) if player_id.isdigit() else -1))
    results = [result_row(r) for r in await fetch_all(
        conn, f"SELECT {RESULT_COLUMNS} FROM results WHERE player_id = ? ORDER BY game_id",
        (player_id,))]
    ratings = [
        from_row(RatingRow, r) for r in await fetch_all(
            conn, f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ?"
                  " ORDER BY guild_id, kind",
            (player_id,))]
    totals = [
        {"guild_id": r["guild_id"], "kind": r["kind"], "games": r["games"],
         "wins": r["wins"], "best_score": r["best_score"], "total_score": r["total_score"]}
        for r in await fetch_all(
            conn, "SELECT guild_id, kind, games, wins, best_score, total_score"
                  " FROM player_totals WHERE player_id = ? ORDER BY guild_id, kind",
            (player_id,))]
    reminders = await fetch_one(
        conn, "SELECT zone, quiet_start, quiet_end, by_dm, updated_ms FROM people"
              " WHERE player_id = ?", (player_id,))
    return PersonalRows(games, results, ratings, totals,
                        await select_person_achievements(conn, player_id),
                        None if reminders is None else {k: reminders[k] for k in (
                            "zone", "quiet_start", "quiet_end", "by_dm", "updated_ms")})


async def _forget_person(conn: Conn, player_id: str, pseudonym: str, name: str
                         ) -> dict[str, int]:
    counts = {table: await execute(conn, f"DELETE FROM {table} WHERE player_id = ?", (player_id,))
              for table in ("results", "ratings", "player_totals", "achievements", "people")}
    counts |= {
        "game_players": await execute(
            conn, "UPDATE game_players SET player_id = ?, display_name = ? WHERE player_id = ?",
            (pseudonym, name, player_id)),
        # The pings that mention them: their id leaves the list (the next ping names whoever
        # plays the seat then, and this one is tidied).
        "pings": await execute(
            conn, "UPDATE pings SET people = TRIM(REPLACE(' ' || people || ' ', ' ' || ? || ' ',"
                  " ' ')) WHERE ' ' || people || ' ' LIKE '% ' || ? || ' %'",
            (player_id, player_id)),
    }
    if player_id.isdigit():  # the games they host keep no host (0: nobody)
        counts["games"] = await execute(conn, "UPDATE games SET host_id = 0 WHERE host_id = ?",
                                        (int(player_id),))
    return counts


async def _server_counts(conn: Conn, guild_id: int) -> dict[str, int]:
    counts = {}
    for table in SERVER_TABLES:
        counts[table] = int(await fetch_value(
            conn, f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (guild_id,)))
    counts["actions"] = int(await fetch_value(
        conn, "SELECT COUNT(*) FROM actions WHERE game_id IN"
              " (SELECT id FROM games WHERE guild_id = ?)", (guild_id,)))
    return counts


async def _forget_server(conn: Conn, guild_id: int) -> dict[str, int]:
    counts = await _server_counts(conn, guild_id)
    # results reference their games: they go first, then the games (with their seats and
    # action logs, ON DELETE CASCADE), then the rest.
    for table in ("results", *[t for t in SERVER_TABLES if t != "results"]):
        await execute(conn, f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
    return counts


class PersonalRecords(Records[C]):
    """A person's or a server's data: read whole, or removed in one transaction."""

    async def person_rows(self, player_id: str) -> PersonalRows:
        """Every row about the person with this id (their Discord id as text)."""
        return await self._db.read(lambda conn: _person_rows(conn, player_id))

    async def forget_person(self, player_id: str, pseudonym: str, name: str) -> dict[str, int]:
        """Forget a person in one transaction: their results, ratings and totals are deleted;
        their seats (every game, every server) take ``pseudonym`` as their id and ``name`` as
        their name; games they host keep no host. The rows changed per table.
        """
        if not player_id.isdigit() or pseudonym == player_id:
            raise InvalidData(f"only a person's Discord id can be forgotten, not {player_id!r}")
        counts = await self._db.write(lambda conn: _forget_person(conn, player_id, pseudonym,
                                                                  name))
        await self._db.scrub()
        return counts

    async def server_counts(self, guild_id: int) -> dict[str, int]:
        """The rows a server's data has, per table."""
        return await self._db.read(lambda conn: _server_counts(conn, guild_id))

    async def forget_server(self, guild_id: int) -> dict[str, int]:
        """Delete every row of a server (its games with their logs, results, ratings, totals,
        settings and departure) in one transaction; the rows deleted per table.
        """
        counts = await self._db.write(lambda conn: _forget_server(conn, guild_id))
        await self._db.scrub()
        return counts

    async def record_departure(self, guild_id: int, now_ms: int) -> None:
        """The bot was removed from a server (the first removal's time is kept)."""
        await self._db.write(lambda conn: execute(
            conn, "INSERT INTO guild_departures (guild_id, removed_ms) VALUES (?, ?)"
                  " ON CONFLICT (guild_id) DO NOTHING", (guild_id, now_ms)))

    async def clear_departure(self, guild_id: int) -> bool:
        """The bot is in the server (again): its data stays. True if it had left."""
        return bool(await self._db.write(lambda conn: execute(
            conn, "DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,))))

    async def departures(self, removed_before_ms: int | None = None) -> list[Departure]:
        """The servers that removed the bot (before ``removed_before_ms`` if given)."""
        limit = removed_before_ms if removed_before_ms is not None else 2**62

        async def work(conn: C) -> list[Departure]:
            return [Departure(int(r["guild_id"]), int(r["removed_ms"])) for r in await fetch_all(
                conn, "SELECT guild_id, removed_ms FROM guild_departures WHERE removed_ms < ?"
                      " ORDER BY removed_ms, guild_id", (limit,))]

        return await self._db.read(work)
