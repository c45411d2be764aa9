"""Opening the SQLite connection, and the few cursor helpers every SQL module uses."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import aiosqlite

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS: Final = 5_000
"""How long a write waits for another process's write lock before failing."""

_WAL_RETRY_S: Final = 0.02

Params = Sequence[Any]


async def connect(path: str | os.PathLike[str]) -> aiosqlite.Connection:
    """Open ``path`` (created with its parent directories if missing) with the pragmas storage
    relies on: WAL journal, ``synchronous=NORMAL``, foreign keys on, a busy timeout.

    The connection is in autocommit mode (``isolation_level=None``): storage issues ``BEGIN`` and
    ``COMMIT`` itself. Rows come back as :class:`sqlite3.Row`.
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


async def execute(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> int:
    """Run one statement and return its row count (rows changed by INSERT/UPDATE/DELETE)."""
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def insert(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> int:
    """Run one INSERT and return the new row's id."""
    row = await conn.execute_insert(sql, params)
    if row is None:  # pragma: no cover - last_insert_rowid() always answers
        raise RuntimeError("INSERT did not report a row id")
    return int(row[0])


async def execute_many(conn: aiosqlite.Connection, sql: str, rows: Sequence[Params]) -> None:
    """Run one statement once per parameter row."""
    if rows:
        await conn.executemany(sql, rows)


async def fetch_all(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    """Run a query and return every row."""
    return list(await conn.execute_fetchall(sql, params))


async def fetch_one(
    conn: aiosqlite.Connection, sql: str, params: Params = ()
) -> sqlite3.Row | None:
    """Run a query and return its first row, or ``None``."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None


async def fetch_value(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> Any:
    """Run a query and return the first column of its first row, or ``None``."""
    row = await fetch_one(conn, sql, params)
    return None if row is None else row[0]
