"""The PostgreSQL backend: :class:`PgDatabase` (asyncpg, a connection pool), selected by a
``postgresql://`` URL (``DATABASE_URL``).

Each call takes a pooled connection: a write runs at READ COMMITTED, a read in a read-only
REPEATABLE READ transaction, a read of one statement in none. Why that decides racing writes,
lobbies and finishes: storage/README.md, "Choices".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .base import StorageBase
from .errors import BackendError
from .migrator import Migration, apply_pg_migrations, load_migrations, pg_schema_version
from .pgconn import PgConn
from .runner import Access

T = TypeVar("T")
PgWork = Callable[[PgConn], Awaitable[T]]

POOL_MIN: Final = 1
POOL_MAX: Final = 10
COMMAND_TIMEOUT_S: Final = 30.0

_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


async def _session_unchanged(conn: Any) -> None:
    """What a connection needs before it goes back to the pool: nothing more.

    asyncpg's default sends ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL`` every time, one more round trip per transaction. This backend leaves no session state
    behind: every statement runs in a transaction, its advisory locks are transaction-scoped
    (``pg_advisory_xact_lock``), it never LISTENs, SETs a session variable or keeps a cursor.
    asyncpg still rolls back a transaction left open and drops listeners before calling this.
    """


def is_postgres_url(target: object) -> bool:
    """True for ``postgresql://`` and ``postgres://`` URLs."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password (for logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


class PgDatabase(StorageBase[PgConn]):
    """The storage interface on a PostgreSQL database (``db = await PgDatabase.open(url)``)."""

    moves_in_one_statement = True  # a data-modifying WITH: one round trip a move

    def __init__(self, pool: Any, url: str, schema_version: int,
                 applied: tuple[int, ...]) -> None:
        super().__init__(redact(url), schema_version, applied)
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, migrations: Sequence[Migration] | None = None
                   ) -> PgDatabase:
        """Connect a pool to ``url`` and apply pending migrations (``storage/migrations_pg``);
        :class:`~storage.errors.BackendError` if the server cannot be reached.
        """
        try:
            pool = await asyncpg.create_pool(
                url, min_size=POOL_MIN, max_size=POOL_MAX, command_timeout=COMMAND_TIMEOUT_S,
                reset=_session_unchanged,
            )
        except _FAILURES as error:
            raise BackendError(f"PostgreSQL {redact(url)}: {error}") from error
        try:
            async with pool.acquire() as raw:
                applied = await apply_pg_migrations(
                    raw, load_migrations("postgresql") if migrations is None else migrations
                )
                version = await pg_schema_version(raw)
        except BaseException as error:
            await pool.close()
            if isinstance(error, _FAILURES):
                raise BackendError(f"PostgreSQL: {error}") from error
            raise
        return cls(pool, url, version, applied)

    async def _release(self) -> None:
        await self._pool.close()

    async def scrub(self) -> None:
        """Vacuum the tables that hold people and servers: their deleted row versions go."""
        try:
            async with self._pool.acquire() as raw:
                await raw.execute("VACUUM games, game_players, actions, results, ratings,"
                                  " player_totals, guild_settings, guild_departures")
        except _FAILURES as error:
            raise BackendError(f"PostgreSQL: {error}") from error

    async def _transaction(self, work: PgWork[T], access: Access) -> T:
        try:
            async with self._pool.acquire() as raw:
                if access == "statement":  # one statement has a snapshot of its own
                    return await work(PgConn(raw))
                # A write reads at read committed whatever the server's default: the open
                # games are counted after the lock, so they include the ones just opened.
                transaction = (
                    raw.transaction(isolation="read_committed")
                    if access == "write"
                    else raw.transaction(isolation="repeatable_read", readonly=True)
                )
                async with transaction:
                    return await work(PgConn(raw))
        except _FAILURES as error:
            raise BackendError(f"PostgreSQL: {error}") from error
