"""A server's own settings (table ``guild_settings``, migrations 003, 005 and 009):
:class:`SettingRecords`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .connection import Conn, Row, execute, fetch_one, fetch_value
from .rows import ServerDefaults
from .runner import C, Records

DEFAULT_COLUMNS: Final = ("language", "threads", "turn_timeout", "mayhem")
"""The columns of ``guild_settings`` a :class:`ServerDefaults` is read from
(:func:`server_defaults`)."""


def server_defaults(row: Row | None) -> ServerDefaults:
    """A server's defaults from a row holding :data:`DEFAULT_COLUMNS` (None: no row)."""
    if row is None:
        return ServerDefaults()
    language, threads = row["language"], row["threads"]
    timeout, mayhem = row["turn_timeout"], row["mayhem"]
    return ServerDefaults(
        language=None if language is None else str(language),
        threads=None if threads is None else bool(threads),
        turn_timeout=None if timeout is None else int(timeout),
        mayhem=None if mayhem is None else tuple(o for o in str(mayhem).split(",") if o))


async def upsert(conn: Conn, guild_id: int, values: Mapping[str, object], now_ms: int) -> None:
    """Set some of the server's settings (``values``, by column: a name written in this code,
    never taken from input), its other settings as they are (one row per server).
    """
    columns = [*values, "updated_ms"]
    marks = ", ".join("?" * (1 + len(columns)))
    updates = ", ".join(f"{column} = excluded.{column}" for column in columns)
    await execute(conn, f"INSERT INTO guild_settings (guild_id, {', '.join(columns)})"
                        f" VALUES ({marks}) ON CONFLICT (guild_id) DO UPDATE SET {updates}",
                  (guild_id, *values.values(), now_ms))


async def _setting(conn: Conn, column: str, guild_id: int) -> object:
    """One of the server's settings (``column``: a name written in this code), or None."""
    return await fetch_value(conn, f"SELECT {column} FROM guild_settings WHERE guild_id = ?",
                             (guild_id,))


async def claim_greeting(conn: Conn, guild_id: int, joined_ms: int, now_ms: int) -> bool:
    """Claim the greeting of the server's join at ``joined_ms``: True when this write recorded
    it (the server's first greeted join, or one newer than the last greeted); False when that
    join, or a newer one, was claimed already. Two transactions claiming one join at once:
    the second waits for the first's row and then finds it claimed.
    """
    made = await fetch_value(
        conn,
        "INSERT INTO guild_settings (guild_id, greeted_join_ms, updated_ms) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET greeted_join_ms = excluded.greeted_join_ms"
        " WHERE guild_settings.greeted_join_ms IS NULL"
        " OR guild_settings.greeted_join_ms < excluded.greeted_join_ms"
        " RETURNING guild_id",
        (guild_id, joined_ms, now_ms),
    )
    return made is not None


class SettingRecords(Records[C]):
    """Reading and writing a server's settings."""

    async def defaults(self, guild_id: int) -> ServerDefaults:
        """What a server's managers chose for its new games (one statement)."""
        row = await self._db.statement(lambda conn: fetch_one(
            conn, f"SELECT {', '.join(DEFAULT_COLUMNS)} FROM guild_settings WHERE guild_id = ?",
            (guild_id,)))
        return server_defaults(row)

    async def language(self, guild_id: int) -> str | None:
        """The default language a server's admins chose, or None."""
        value = await self._db.read(lambda conn: _setting(conn, "language", guild_id))
        return None if value is None else str(value)

    async def set_language(self, guild_id: int, language: str, now_ms: int) -> None:
        await self._db.write(lambda conn: upsert(conn, guild_id, {"language": language}, now_ms))

    async def threads(self, guild_id: int) -> bool | None:
        """Whether a server's new games play in a thread (None: not set)."""
        value = await self._db.read(lambda conn: _setting(conn, "threads", guild_id))
        return None if value is None else bool(value)

    async def set_threads(self, guild_id: int, threads: bool, now_ms: int) -> None:
        await self._db.write(
            lambda conn: upsert(conn, guild_id, {"threads": int(threads)}, now_ms))

    async def set_turn_timeout(self, guild_id: int, seconds: int | None, now_ms: int) -> None:
        """Set a server's default turn timeout in seconds (None: clear it)."""
        await self._db.write(
            lambda conn: upsert(conn, guild_id, {"turn_timeout": seconds}, now_ms))

    async def set_mayhem(self, guild_id: int, options: Sequence[str] | None,
                         now_ms: int) -> None:
        """Set a server's default Mayhem options (empty: none; None: clear the setting)."""
        mayhem = None if options is None else ",".join(options)
        await self._db.write(lambda conn: upsert(conn, guild_id, {"mayhem": mayhem}, now_ms))

    async def claim_greeting(self, guild_id: int, joined_ms: int, now_ms: int) -> bool:
        """Claim the greeting of the bot's join of a server at ``joined_ms``, once across
        processes and restarts (see :func:`claim_greeting`).
        """
        return await self._db.write(
            lambda conn: claim_greeting(conn, guild_id, joined_ms, now_ms))
