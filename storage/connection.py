"""The few SQL helpers every part of the storage uses, on a connection inside one transaction.

The helpers take either backend's connection (:data:`Conn`): an ``aiosqlite.Connection`` or a
:class:`~storage.pgconn.PgConn` (PostgreSQL, the same ``?`` SQL translated to ``$n``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

import aiosqlite

from .pgconn import PgConn, lock_key

Params = Sequence[Any]
T = TypeVar("T")

_IN_CHUNK = 500
"""The most values one ``IN (...)`` list holds (SQLite limits a statement's parameters)."""

Conn = aiosqlite.Connection | PgConn
"""A connection inside one transaction, of either backend."""

class Row(Protocol):
    """A result row of either backend: ``row["column"]`` or ``row[index]``; ``keys()``, the
    names of its columns.
    """

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


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


def in_chunks(values: Iterable[T]) -> Iterator[tuple[str, list[T]]]:
    """``values`` without repeats, a chunk at a time, each with the ``?, ?, ...`` of an
    ``IN (...)`` list of it.
    """
    unique = list(dict.fromkeys(values))
    for start in range(0, len(unique), _IN_CHUNK):
        chunk = unique[start : start + _IN_CHUNK]
        yield ", ".join("?" * len(chunk)), chunk


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
    """Hold a lock named by each of ``keys``, taken in their order in one statement, until the
    transaction ends (read-modify-write sections).

    SQLite needs nothing: ``BEGIN IMMEDIATE`` already makes writers take turns. PostgreSQL
    takes transaction-scoped advisory locks, so concurrent transactions on other connections
    (or other processes) wait here for each other.
    """
    if isinstance(conn, PgConn) and keys:
        await conn.execute("SELECT " + ", ".join("pg_advisory_xact_lock(?)" for _ in keys),
                           tuple(lock_key(k) for k in keys))


async def serialize(conn: Conn, key: str) -> None:
    """:func:`serialize_all` of one key."""
    await serialize_all(conn, [key])
