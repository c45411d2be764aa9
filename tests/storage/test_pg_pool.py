"""The PostgreSQL pool: a connection goes back to it without a reset round trip (the backend
leaves no session state behind), and a transaction left open is still rolled back."""

from __future__ import annotations

from typing import Any

import pytest

import storage.postgres
from storage import PgDatabase
from storage.pgconn import PgConn

from ..conftest import Backend


async def test_a_transaction_costs_no_reset_round_trip(pg_backend: Backend) -> None:
    db = await pg_backend.open()
    assert isinstance(db, PgDatabase)
    seen: list[str] = []
    try:
        async def mark(conn: PgConn) -> Any:
            conn.raw.add_query_logger(lambda record: seen.append(record.query))
            return await conn.raw.fetchval("SELECT 1")

        assert await db.read(mark) == 1
        # the pool released the connection: with asyncpg's default its reset query
        # (pg_advisory_unlock_all, CLOSE ALL, UNLISTEN *, RESET ALL) would be logged here
        assert not any("RESET" in q.upper() or "UNLISTEN" in q.upper() for q in seen), seen
        assert any("SELECT 1" in q for q in seen), seen
    finally:
        await db.close()


async def test_a_connection_comes_back_out_of_any_transaction(
        pg_backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage.postgres, "POOL_MAX", 1)  # a pool of one connection
    db = await PgDatabase.open(str(pg_backend.target))
    try:
        pool = db._pool
        async with pool.acquire() as raw:  # a transaction left open by its user
            await raw.execute("BEGIN")
            await raw.execute("SELECT pg_advisory_xact_lock(42)")
        async with pool.acquire() as raw:  # the one connection, rolled back: the lock is free
            assert not raw.is_in_transaction()
            assert await raw.fetchval("SELECT pg_try_advisory_xact_lock(42)")
    finally:
        await db.close()
