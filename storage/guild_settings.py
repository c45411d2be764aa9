"""A server's own settings (table ``guild_settings``, migrations 003 and 005):
:class:`SettingRecords`.
"""

from __future__ import annotations

from typing import Generic

from .connection import Conn, execute, fetch_value
from .runner import C, Transactions


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


class SettingRecords(Generic[C]):
    """Reading and writing a server's settings."""

    def __init__(self, db: Transactions[C]) -> None:
        self._db = db

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
