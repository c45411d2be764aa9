"""The PostgreSQL side of the SQL helpers: one asyncpg connection inside one transaction.

The SQL modules write SQLite-style ``?`` placeholders; :func:`to_pg` turns them into ``$1``,
``$2``, ... (outside string literals), so one statement text serves both backends.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=512)
def to_pg(sql: str) -> str:
    """``?`` placeholders -> ``$n`` (``?`` inside single-quoted literals is left alone)."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


def lock_key(text: str) -> int:
    """A stable signed 64-bit key for ``pg_advisory_xact_lock``."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big", signed=True)


class PgConn:
    """An asyncpg connection (``raw``) wrapped for the storage SQL helpers."""

    __slots__ = ("raw",)

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the rows it changed (from the command tag)."""
        status = str(await self.raw.execute(to_pg(sql), *params))
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.raw.executemany(to_pg(sql), rows)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row (``asyncpg.Record``: ``row["name"]`` and ``row[0]`` both work)."""
        return list(await self.raw.fetch(to_pg(sql), *params))
