"""Moving a server's data between databases (an SQLite path or a ``postgresql://`` URL on
either side, each opened and migrated as the bot opens it): :func:`copy_database`, in one
transaction on the target, checked before it commits (storage/README.md, "Copying").

The source is read one chunk of games at a time (each chunk one snapshot): stop the bot first,
or a game moving meanwhile makes the checks fail and nothing is written.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .base import Storage
from .connection import Conn, Row, execute, execute_many, fetch_all, fetch_value
from .errors import StorageError
from .opening import open_database
from .pgconn import PgConn
from .postgres import is_postgres_url
from .results import rebuild_totals

CHUNK_GAMES: Final = 500


@dataclass(frozen=True, slots=True)
class _Table:
    name: str
    order: str
    columns: str = "*"
    """What is read: every column (inserted by the names the rows read have), or, for the
    action log, its columns in the order of its checksum."""


_GAMES = _Table("games", "id")
_PLAYERS = _Table("game_players", "game_id, seat")
_ACTIONS = _Table("actions", "game_id, seq", "game_id, seq, action, actor, events, created_ms")
_RESULTS = _Table("results", "game_id, player_id")
_ACHIEVEMENTS = _Table("achievements", "game_id, guild_id, player_id, achievement")
_PER_GAME = (_GAMES, _PLAYERS, _ACTIONS, _RESULTS, _ACHIEVEMENTS)
_PER_GUILD = (_Table("ratings", "guild_id, kind, player_id"), _Table("guild_settings", "guild_id"),
              _Table("season_ends", "guild_id, season"), _Table("guild_departures", "guild_id"))
_ALL = (*_PER_GAME, *_PER_GUILD)


class CopyError(StorageError):
    """The copy was refused or did not check out; the target was left unchanged."""


class TargetNotEmpty(CopyError):
    """The target already holds data and ``force`` was not given."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What :func:`copy_database` copied (and checked: counts equal on both sides)."""

    games: int
    players: int
    actions: int
    results: int
    ratings: int
    checksums: int
    """Games whose action-log sha256 matched on both sides (every game)."""
    servers: int = 0
    """Servers' settings rows (their defaults for new games, seasons, greeting)."""
    achievements: int = 0
    """Achievements people earned."""
    season_ends: int = 0
    """Seasons' ends claimed."""

    def summary(self) -> str:
        """One line for people."""
        return (
            f"copied {self.games} games ({self.players} players), {self.actions} actions,"
            f" {self.results} results, {self.ratings} ratings, {self.servers} server settings,"
            f" {self.achievements} achievements, {self.season_ends} season ends;"
            f" {self.checksums} action-log"
            " checksums ok"
        )


Tuples = list[tuple[Any, ...]]
Read = tuple[tuple[str, ...], Tuples]
"""Rows as read: the names of their columns, and their values in that order."""


def _read(rows: Sequence[Row]) -> Read:
    columns = tuple(rows[0].keys()) if rows else ()
    return columns, [tuple(row[column] for column in columns) for row in rows]


async def _counts(conn: Conn) -> dict[str, int]:
    return {
        table.name: int(await fetch_value(conn, f"SELECT COUNT(*) FROM {table.name}"))
        for table in _ALL
    }


async def _game_ids(conn: Conn) -> list[int]:
    return [int(row[0]) for row in await fetch_all(conn, "SELECT id FROM games ORDER BY id")]


async def _chunk(conn: Conn, table: _Table, low: int, high: int) -> Read:
    key = "id" if table is _GAMES else "game_id"
    return _read(await fetch_all(
        conn, f"SELECT {table.columns} FROM {table.name} WHERE {key} BETWEEN ? AND ?"
              f" ORDER BY {table.order}", (low, high)))


def action_log_digests(game_ids: Sequence[int], actions: Tuples) -> dict[int, str]:
    """sha256 of the action log of each of ``game_ids`` (an empty log hashes too) from
    ``actions`` rows (the ``_ACTIONS`` columns, in ``game_id, seq`` order): every column of
    every action, in order.
    """
    digests: dict[int, Any] = {game_id: hashlib.sha256() for game_id in game_ids}
    for game_id, seq, action, actor, events, created_ms in actions:
        digest = digests.setdefault(game_id, hashlib.sha256())
        digest.update(f"{seq}\x1f{actor}\x1f{created_ms}\x1f{action}\x1f{events}\x1e".encode())
    return {game_id: digest.hexdigest() for game_id, digest in digests.items()}


async def _insert(conn: Conn, table: _Table, columns: Sequence[str], rows: Tuples) -> None:
    marks = ", ".join("?" * len(columns))
    await execute_many(
        conn, f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks})", rows)


async def _clear(conn: Conn) -> None:
    for name in ("achievements", "actions", "results", "game_players", "ratings",
                 "player_totals", "games", "guild_settings", "season_ends", "guild_departures"):
        await execute(conn, f"DELETE FROM {name}")


async def _after_explicit_ids(conn: Conn) -> None:
    """PostgreSQL: move the games id sequence past the copied ids (SQLite needs nothing)."""
    if isinstance(conn, PgConn):
        await fetch_value(
            conn,
            "SELECT setval(pg_get_serial_sequence('games', 'id'),"
            " COALESCE((SELECT MAX(id) FROM games), 0) + 1, false)",
        )


def _same_target(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> bool:
    if is_postgres_url(source) or is_postgres_url(target):
        return str(source) == str(target)
    return Path(source).resolve() == Path(target).resolve()


async def copy_database(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    force: bool = False,
) -> CopyReport:
    """Copy every table's rows from ``source`` to ``target``, ids kept, and check them (see the
    module); :class:`FileNotFoundError` for a missing SQLite source.
    """
    if _same_target(source, target):
        raise CopyError("the source and the target are the same database")
    if not is_postgres_url(source) and not Path(source).is_file():
        raise FileNotFoundError(f"no SQLite database at {source}")
    src = await open_database(source)
    try:
        dst = await open_database(target)
        try:
            return await _copy(src, dst, force)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Storage, dst: Storage, force: bool) -> CopyReport:
    expected = await src.read(_counts)
    ids = await src.read(_game_ids)

    async def work(conn: Conn) -> CopyReport:
        if any((await _counts(conn)).values()):
            if not force:
                raise TargetNotEmpty("the target already holds data (use --force to replace it)")
            await _clear(conn)
        source_digests: dict[int, str] = {}
        copied = dict.fromkeys(expected, 0)
        for start in range(0, len(ids), CHUNK_GAMES):
            low, high = ids[start], ids[min(start + CHUNK_GAMES, len(ids)) - 1]

            async def read(c: Conn, low: int = low, high: int = high) -> list[Read]:
                return [await _chunk(c, table, low, high) for table in _PER_GAME]

            for table, (columns, rows) in zip(_PER_GAME, await src.read(read), strict=True):
                await _insert(conn, table, columns, rows)
                copied[table.name] += len(rows)
                if table is _ACTIONS:
                    chunk = ids[start : start + CHUNK_GAMES]
                    source_digests.update(action_log_digests(chunk, rows))

        for table in _PER_GUILD:

            async def whole(c: Conn, table: _Table = table) -> Read:
                return _read(await fetch_all(
                    c, f"SELECT * FROM {table.name} ORDER BY {table.order}"))

            columns, rows = await src.read(whole)
            await _insert(conn, table, columns, rows)
            copied[table.name] = len(rows)
        await _after_explicit_ids(conn)
        await rebuild_totals(conn)
        # Fresh planner statistics: without them PostgreSQL plans the leaderboard for empty
        # tables (nested loops, seconds instead of milliseconds) until autovacuum catches up.
        await execute(conn, "ANALYZE")

        # The checks, before anything commits.
        found = await _counts(conn)
        if not (expected == copied == found):
            raise CopyError(
                f"row counts differ: source {expected}, read {copied}, target {found}"
                " (is the bot still writing to the source?)"
            )
        target_digests: dict[int, str] = {}
        for start in range(0, len(ids), CHUNK_GAMES):
            low, high = ids[start], ids[min(start + CHUNK_GAMES, len(ids)) - 1]
            _, rows = await _chunk(conn, _ACTIONS, low, high)
            target_digests.update(action_log_digests(ids[start : start + CHUNK_GAMES], rows))
        bad = sorted(
            game_id
            for game_id in source_digests.keys() | target_digests.keys()
            if source_digests.get(game_id) != target_digests.get(game_id)
        )
        if bad:
            raise CopyError(f"action-log checksums differ for {len(bad)} games: {bad[:10]}")
        return CopyReport(
            games=found["games"],
            players=found["game_players"],
            actions=found["actions"],
            results=found["results"],
            ratings=found["ratings"],
            servers=found["guild_settings"],
            achievements=found["achievements"],
            season_ends=found["season_ends"],
            checksums=len(source_digests),
        )

    return await dst.write(work)
