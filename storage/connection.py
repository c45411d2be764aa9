"""The few SQL helpers every part of the storage uses, on a connection inside one transaction.

The helpers take either backend's connection (:data:`Conn`): an ``aiosqlite.Connection`` or a
:class:`~storage.pgconn.PgConn` (PostgreSQL, the same ``?`` SQL translated to ``$n``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import aiosqlite

from .pgconn import PgConn, lock_key

Params = Sequence[Any]

Conn = aiosqlite.Connection | PgConn
"""A connection inside one transaction, of either backend."""

class Row(Protocol):
    """A result row of either backend: ``row["column"]`` or ``row[index]``."""

    def __getitem__(self, key: str | int, /) -> Any: ...


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
