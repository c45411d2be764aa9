"""The SQLite backend: :class:`Database` (aiosqlite), the default.

One long-lived aiosqlite connection is shared by every coroutine. Each public method (see
:class:`~storage.base.StorageBase`) runs as one transaction under one ``asyncio.Lock`` (writes
``BEGIN IMMEDIATE``, reads a plain ``BEGIN`` for a consistent snapshot; a read of one statement
needs neither), committed on success and rolled back on any error.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import aiosqlite

from .base import StorageBase
from .connection import connect, execute, fetch_all, fetch_value
from .errors import BackendError
from .migrator import Migration, apply_migrations, load_migrations, user_version
from .rows import DatabaseInfo
from .runner import Access

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[aiosqlite.Connection], Awaitable[T]]


class Database(StorageBase[aiosqlite.Connection]):
    """The storage interface on one SQLite file.

    Open with ``db = await Database.open(path)`` (or ``async with await Database.open(path) as
    db``) and close with ``await db.close()``.
    """

    def __init__(
        self, conn: aiosqlite.Connection, path: str, schema_version: int, applied: tuple[int, ...]
    ) -> None:
        """Wrap an open, migrated connection; use :meth:`open` instead."""
        super().__init__(schema_version, applied)
        self._conn = conn
        self._closed = False
        self._path = path
        self._lock = asyncio.Lock()

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: Sequence[Migration] | None = None
    ) -> Database:
        """Open (creating if needed) the database at ``path`` and apply pending migrations.

        ``migrations`` defaults to the files shipped in ``storage/migrations``. Raises
        :class:`~storage.errors.SchemaError` if the file is newer than the code or a migration
        fails.
        """
        conn = await connect(path)
        try:
            applied = await apply_migrations(
                conn, load_migrations() if migrations is None else migrations
            )
            version = await user_version(conn)
        except BaseException:
            await conn.close()
            raise
        if applied:
            log.info("database %s migrated to schema version %d", os.fspath(path), version)
        return cls(conn, os.fspath(path), version, applied)

    async def close(self) -> None:
        """Let running transactions finish, then close the connection. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        conn = self._conn
        await self._wait_for_running()
        try:
            async with self._lock:
                await execute(conn, "PRAGMA optimize")
        finally:
            await conn.close()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    async def scrub(self) -> None:
        """Fold the WAL (which may still hold deleted rows' old pages) into the database
        file and truncate it; the file's freed pages were zeroed (``secure_delete``).
        """
        async with self._lock:
            await fetch_value(self._conn, "PRAGMA wal_checkpoint(TRUNCATE)")

    # -- the transaction runner --------------------------------------------------------------

    async def _transaction(self, work: Work[T], access: Access) -> T:
        conn = self._conn
        async with self._lock:
            if conn.in_transaction:  # left open by a task cancelled before its ROLLBACK ran
                log.warning("a transaction left open by a cancelled task is rolled back")
                await execute(conn, "ROLLBACK")
            if access != "statement":  # one statement alone is a transaction of its own
                try:
                    await execute(conn, "BEGIN IMMEDIATE" if access == "write" else "BEGIN")
                except sqlite3.Error as error:
                    raise BackendError(f"SQLite: {error}") from error
            try:
                result = await work(conn)
                if access != "statement":
                    await execute(conn, "COMMIT")
            except BaseException as error:
                if conn.in_transaction:
                    try:
                        await execute(conn, "ROLLBACK")
                    except sqlite3.OperationalError as failed:
                        # A COMMIT cancelled while SQLite's thread ran it may have finished:
                        # then there is nothing left to roll back.
                        if "no transaction is active" not in str(failed):
                            log.exception("ROLLBACK failed")
                    except Exception:  # the original error matters more
                        log.exception("ROLLBACK failed")
                if isinstance(error, sqlite3.Error):
                    raise BackendError(f"SQLite: {error}") from error
                raise
            return result

    # -- diagnostics -------------------------------------------------------------------------

    async def info(self) -> DatabaseInfo:
        """Schema version, pragmas in force and tables: for health checks and tests."""

        async def work(conn: aiosqlite.Connection) -> DatabaseInfo:
            tables = await fetch_all(
                conn,
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            return DatabaseInfo(
                path=self._path,
                schema_version=await user_version(conn),
                journal_mode=str(await fetch_value(conn, "PRAGMA journal_mode")),
                foreign_keys=bool(await fetch_value(conn, "PRAGMA foreign_keys")),
                synchronous=int(await fetch_value(conn, "PRAGMA synchronous")),
                busy_timeout_ms=int(await fetch_value(conn, "PRAGMA busy_timeout")),
                tables=tuple(row["name"] for row in tables),
            )

        return await self.read(work)
