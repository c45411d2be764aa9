"""The SQLite backend: :class:`Database` (aiosqlite), the default.

One long-lived connection shared by every coroutine, one ``asyncio.Lock``, one transaction per
call (storage/README.md, "Choices").
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Final, TypeVar

import aiosqlite

from .base import StorageBase
from .connection import execute, fetch_value
from .errors import BackendError
from .migrator import Migration, apply_migrations, load_migrations, user_version
from .runner import Access

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[aiosqlite.Connection], Awaitable[T]]

BUSY_TIMEOUT_MS: Final = 2_000
"""How long a write waits for another process's write lock before failing: below Discord's
3 s answer limit, so a locked database fails the call in time to say so."""

_WAL_RETRY_S: Final = 0.02


async def connect(path: str | os.PathLike[str]) -> aiosqlite.Connection:
    """Open ``path`` (created with its parent directories if missing) with the pragmas storage
    relies on, in autocommit mode (``isolation_level=None``): storage issues ``BEGIN`` and
    ``COMMIT`` itself.
    """
    target = os.fspath(path)
    if target != ":memory:" and not target.startswith("file:"):
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(
        target, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, uri=target.startswith("file:")
    )
    try:
        conn.row_factory = sqlite3.Row
        await execute(conn, f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        mode = await _enable_wal(conn)
        if mode != "wal":
            log.warning("SQLite database %s is not in WAL mode (journal_mode=%s)", target, mode)
        await execute(conn, "PRAGMA synchronous = NORMAL")
        await execute(conn, "PRAGMA foreign_keys = ON")
        await execute(conn, "PRAGMA secure_delete = ON")  # what is deleted is overwritten
    except BaseException:
        await conn.close()
        raise
    return conn


async def _enable_wal(conn: aiosqlite.Connection) -> str:
    """Switch to WAL (persistent in the file) and return the journal mode in force.

    Changing the mode needs an exclusive lock and SQLite refuses it at once, without the busy
    handler, when another connection is doing the same: retry for up to the busy timeout.
    """
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        mode = str(await fetch_value(conn, "PRAGMA journal_mode")).lower()
        if mode in ("wal", "memory"):
            return mode
        try:
            return str(await fetch_value(conn, "PRAGMA journal_mode = WAL")).lower()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or loop.time() >= give_up:
                raise
        await asyncio.sleep(_WAL_RETRY_S)


class Database(StorageBase[aiosqlite.Connection]):
    """The storage interface on one SQLite file (``db = await Database.open(path)``)."""

    def __init__(self, conn: aiosqlite.Connection, path: str, schema_version: int,
                 applied: tuple[int, ...]) -> None:
        super().__init__(path, schema_version, applied)
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: Sequence[Migration] | None = None
    ) -> Database:
        """Open (creating if needed) the database at ``path`` and apply pending migrations
        (``migrations``: by default the files of ``storage/migrations``).
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
        return cls(conn, os.fspath(path), version, applied)

    async def _release(self) -> None:
        try:
            async with self._lock:
                await execute(self._conn, "PRAGMA optimize")
        finally:
            await self._conn.close()

    async def scrub(self) -> None:
        """Fold the WAL (which may still hold deleted rows' old pages) into the database
        file and truncate it; the file's freed pages were zeroed (``secure_delete``).
        """
        async with self._lock:
            await fetch_value(self._conn, "PRAGMA wal_checkpoint(TRUNCATE)")

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
