"""Opening the SQLite connection, and the few cursor helpers every SQL module uses.

The helpers take either backend's connection (:data:`Conn`): an ``aiosqlite.Connection`` or a
:class:`~storage.pgconn.PgConn` (PostgreSQL, the same ``?`` SQL translated to ``$n``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import aiosqlite

from .pgconn import PgConn, lock_key

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS: Final = 2_000
"""Below Discord's 3 s answer limit: a locked database fails the call in time to say so."""
"""How long a write waits for another process's write lock before failing."""

_WAL_RETRY_S: Final = 0.02

Params = Sequence[Any]

Conn = aiosqlite.Connection | PgConn
"""A connection inside one transaction, of either backend."""


class Row(Protocol):
    """A result row of either backend: ``row["column"]`` or ``row[index]``."""

    def __getitem__(self, key: str | int, /) -> Any: ...


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


async def execute(conn: Conn, sql: str, params: Params = ()) -> int:
    """Run one statement and return its row count (rows changed by INSERT/UPDATE/DELETE)."""
    if isinstance(conn, PgConn):
        return await conn.execute(sql, params)
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def execute_many(conn: Conn, sql: str, rows: Sequence[Params]) -> None:
    """Run one statement once per parameter row."""
    if not rows:
        return
    if isinstance(conn, PgConn):
        await conn.execute_many(sql, rows)
    else:
        await conn.executemany(sql, rows)


async def fetch_all(conn: Conn, sql: str, params: Params = ()) -> list[Row]:
    """Run a query and return every row."""
    if isinstance(conn, PgConn):
        return await conn.fetch_all(sql, params)
    return list(await conn.execute_fetchall(sql, params))


async def fetch_one(conn: Conn, sql: str, params: Params = ()) -> Row | None:
    """Run a query and return its first row, or ``None``."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None


async def fetch_value(conn: Conn, sql: str, params: Params = ()) -> Any:
    """Run a query and return the first column of its first row, or ``None``."""
    row = await fetch_one(conn, sql, params)
    return None if row is None else row[0]


def json_array_agg(conn: Conn, values: str) -> str:
    """The SQL aggregate of ``values`` (a comma-separated list of expressions) over a query's
    rows as one JSON text ``[[v1, v2, ...], ...]``: SQLite's ``json_group_array`` of
    ``json_array``, PostgreSQL's ``json_agg`` of ``json_build_array``. Over no row SQLite gives
    ``[]`` and PostgreSQL ``NULL``; the order of the rows is not defined.
    """
    if isinstance(conn, PgConn):
        return f"json_agg(json_build_array({values}))"
    return f"json_group_array(json_array({values}))"


async def serialize_all(conn: Conn, keys: Sequence[str]) -> None:
    """:func:`serialize` on each of ``keys``, in their order, in one statement."""
    if isinstance(conn, PgConn) and keys:
        await conn.execute("SELECT " + ", ".join("pg_advisory_xact_lock(?)" for _ in keys),
                           tuple(lock_key(k) for k in keys))


async def serialize(conn: Conn, key: str) -> None:
    """Hold a lock named ``key`` until the transaction ends (read-modify-write sections).

    SQLite needs nothing: ``BEGIN IMMEDIATE`` already makes writers take turns. PostgreSQL
    takes a transaction-scoped advisory lock, so concurrent transactions on other connections
    (or other processes) wait here for each other.
    """
    if isinstance(conn, PgConn):
        await conn.execute("SELECT pg_advisory_xact_lock(?)", (lock_key(key),))
