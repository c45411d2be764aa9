"""A server's own settings (table ``guild_settings``, migrations 003, 005 and 009):
:class:`SettingRecords`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Generic

from .connection import Conn, Row, execute, fetch_one, fetch_value
from .rows import ServerDefaults
from .runner import C, Transactions

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


async def select_defaults(conn: Conn, guild_id: int) -> ServerDefaults:
    """What the server's managers chose for its new games."""
    columns = ", ".join(DEFAULT_COLUMNS)
    return server_defaults(await fetch_one(
        conn, f"SELECT {columns} FROM guild_settings WHERE guild_id = ?", (guild_id,)))


async def select_language(conn: Conn, guild_id: int) -> str | None:
    """The server's default language, or None when its admins never set one."""
    value = await fetch_value(conn, "SELECT language FROM guild_settings WHERE guild_id = ?",
                              (guild_id,))
    return None if value is None else str(value)


async def upsert_language(conn: Conn, guild_id: int, language: str, now_ms: int) -> None:
    """Set the server's default language (one row per server)."""
    await execute(
        conn,
        "INSERT INTO guild_settings (guild_id, language, updated_ms) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET language = excluded.language, updated_ms = excluded.updated_ms",
        (guild_id, language, now_ms),
    )


async def select_threads(conn: Conn, guild_id: int) -> bool | None:
    """Whether the server's new games play in a thread (None: its admins never said)."""
    value = await fetch_value(conn, "SELECT threads FROM guild_settings WHERE guild_id = ?",
                              (guild_id,))
    return None if value is None else bool(value)


async def upsert_threads(conn: Conn, guild_id: int, threads: bool, now_ms: int) -> None:
    """Set whether the server's new games play in a thread."""
    await execute(
        conn,
        "INSERT INTO guild_settings (guild_id, threads, updated_ms) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET threads = excluded.threads, updated_ms = excluded.updated_ms",
        (guild_id, int(threads), now_ms),
    )


async def upsert_turn_timeout(conn: Conn, guild_id: int, seconds: int | None,
                              now_ms: int) -> None:
    """Set the server's default turn timeout (None: none, the bot's default applies)."""
    await execute(
        conn,
        "INSERT INTO guild_settings (guild_id, turn_timeout, updated_ms) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET turn_timeout = excluded.turn_timeout, updated_ms = excluded.updated_ms",
        (guild_id, seconds, now_ms),
    )


async def upsert_mayhem(conn: Conn, guild_id: int, options: Sequence[str] | None,
                        now_ms: int) -> None:
    """Set the server's default Mayhem options (empty: none; None: not set)."""
    await execute(
        conn,
        "INSERT INTO guild_settings (guild_id, mayhem, updated_ms) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET mayhem = excluded.mayhem, updated_ms = excluded.updated_ms",
        (guild_id, None if options is None else ",".join(options), now_ms),
    )


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


class SettingRecords(Generic[C]):
    """Reading and writing a server's settings."""

    def __init__(self, db: Transactions[C]) -> None:
        self._db = db

    async def defaults(self, guild_id: int) -> ServerDefaults:
        """What a server's managers chose for its new games (one statement)."""
        return await self._db.statement(lambda conn: select_defaults(conn, guild_id))

    async def language(self, guild_id: int) -> str | None:
        """The default language a server's admins chose, or None."""
        return await self._db.read(lambda conn: select_language(conn, guild_id))

    async def set_language(self, guild_id: int, language: str, now_ms: int) -> None:
        """Set a server's default language."""
        await self._db.write(lambda conn: upsert_language(conn, guild_id, language, now_ms))

    async def threads(self, guild_id: int) -> bool | None:
        """Whether a server's new games play in a thread (None: not set)."""
        return await self._db.read(lambda conn: select_threads(conn, guild_id))

    async def set_threads(self, guild_id: int, threads: bool, now_ms: int) -> None:
        """Set whether a server's new games play in a thread."""
        await self._db.write(lambda conn: upsert_threads(conn, guild_id, threads, now_ms))

    async def set_turn_timeout(self, guild_id: int, seconds: int | None, now_ms: int) -> None:
        """Set a server's default turn timeout in seconds (None: clear it)."""
        await self._db.write(lambda conn: upsert_turn_timeout(conn, guild_id, seconds, now_ms))

    async def set_mayhem(self, guild_id: int, options: Sequence[str] | None,
                         now_ms: int) -> None:
        """Set a server's default Mayhem options (empty: none; None: clear the setting)."""
        await self._db.write(lambda conn: upsert_mayhem(conn, guild_id, options, now_ms))

    async def claim_greeting(self, guild_id: int, joined_ms: int, now_ms: int) -> bool:
        """Claim the greeting of the bot's join of a server at ``joined_ms``, once across
        processes and restarts (see :func:`claim_greeting`).
        """
        return await self._db.write(
            lambda conn: claim_greeting(conn, guild_id, joined_ms, now_ms))
