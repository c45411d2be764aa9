"""Numbered schema migrations, applied in order at open (storage/README.md, "Migrations").

SQLite: ``storage/migrations/NNN_name.sql``, the version in ``PRAGMA user_version``; PostgreSQL:
``storage/migrations_pg/``, the version in the ``schema_version`` table. Each migration runs in
one transaction with its version bump, so a failing one leaves the previous version, and two
processes opening one database at once apply it once.

What SQL alone cannot write is a migration's step in code (:data:`STEPS`), run right after its
SQL in the same transaction:

- 006: the Discord ids in every started game's state, start events, action events and actors
  become their seats' tokens (``p1``, ``p2``, ...: see :attr:`storage.rows.Seat.token`);
  then the action log is append-only again.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final, Literal

import aiosqlite

from . import jsoncol
from .connection import Conn, execute, fetch_all, fetch_value
from .errors import SchemaError
from .pgconn import PgConn

_FILE_NAME = re.compile(r"(\d{3})_([a-z0-9_]+)\.sql")

Dialect = Literal["sqlite", "postgresql"]
_FOLDERS: Final[dict[Dialect, str]] = {"sqlite": "migrations", "postgresql": "migrations_pg"}
_PG_MIGRATION_LOCK: Final = 7_402_001_113_917_446_001
"""The advisory lock key PostgreSQL migrations hold (any fixed number)."""


Step = Callable[[Conn, str], Awaitable[None]]
"""``step(conn, dialect)``: a migration's part in code."""

_APPEND_ONLY: Final = {
    "sqlite": "CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions BEGIN"
              " SELECT RAISE(ABORT, 'actions are append-only'); END",
    "postgresql": "ALTER TABLE actions ENABLE TRIGGER actions_append_only",
}


async def seat_tokens(conn: Conn, dialect: str) -> None:
    """Migration 006's step (see the module's docstring)."""
    people: dict[int, dict[str, str]] = {}
    for row in await fetch_all(conn, "SELECT game_id, seat, player_id FROM game_players"
                                     " WHERE is_bot = 0"):
        people.setdefault(int(row["game_id"]), {})[str(row["player_id"])] = \
            f"p{int(row['seat']) + 1}"
    for row in await fetch_all(conn, "SELECT id, state, start_events FROM games"
                                     " WHERE state IS NOT NULL"):
        tokens = people.get(int(row["id"]), {})
        if not tokens:
            continue
        await execute(conn, "UPDATE games SET state = ?, start_events = ? WHERE id = ?",
                      (jsoncol.dump(jsoncol.relabel(jsoncol.load(row["state"]), tokens)),
                       None if row["start_events"] is None else jsoncol.dump(
                           jsoncol.relabel(jsoncol.load(row["start_events"]), tokens)),
                       row["id"]))
    for row in await fetch_all(conn, "SELECT game_id, seq, actor, events FROM actions"):
        tokens = people.get(int(row["game_id"]), {})
        if not tokens:
            continue
        actor = str(row["actor"])
        if actor.startswith("timeout:"):
            who = actor.removeprefix("timeout:")
            actor = f"timeout:{tokens.get(who, who)}"
        else:
            actor = tokens.get(actor, actor)
        await execute(conn, "UPDATE actions SET actor = ?, events = ?"
                            " WHERE game_id = ? AND seq = ?",
                      (actor, jsoncol.dump(jsoncol.relabel(jsoncol.load(row["events"]), tokens)),
                       row["game_id"], row["seq"]))
    await execute(conn, _APPEND_ONLY[dialect])


STEPS: Final[dict[int, Step]] = {6: seat_tokens}
"""Each migration's code step, by version."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its version number (1, 2, ...), name and SQL text."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file's statements, one string each (comments kept, blank remainder dropped)."""
        statements: list[str] = []
        start = 0
        for index, char in enumerate(self.sql):
            if char == ";" and sqlite3.complete_statement(self.sql[start : index + 1]):
                statements.append(self.sql[start : index + 1].strip())
                start = index + 1
        rest = [
            line
            for line in self.sql[start:].splitlines()
            if line.strip() and not line.strip().startswith("--")
        ]
        if rest:
            raise SchemaError(f"migration {self.version:03d}_{self.name}: unterminated statement")
        return statements


def load_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """Read the migration files shipped for ``dialect``, in version order.

    Raises :class:`SchemaError` unless the versions run 1, 2, ... without gaps or repeats.
    """
    folder = resources.files("storage").joinpath(_FOLDERS[dialect])
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _FILE_NAME.fullmatch(entry.name)
        if match is not None:
            found.append(
                Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8"))
            )
    found.sort(key=lambda m: m.version)
    check_sequence(found)
    return found


def check_sequence(migrations: Sequence[Migration]) -> None:
    """Raise :class:`SchemaError` unless the migrations are numbered 1..N in order."""
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise SchemaError(f"migrations must be numbered 1..N without gaps, found {versions}")


def _check_newer(migrations: Sequence[Migration], current: int) -> None:
    """Raise :class:`SchemaError` if the database's schema version ``current`` is newer than
    the last of ``migrations``.
    """
    if current > len(migrations):
        raise SchemaError(f"database schema version {current} is newer than this code"
                          f" ({len(migrations)}): upgrade the bot")


async def user_version(conn: aiosqlite.Connection) -> int:
    """The schema version recorded in the file (0 for a new file)."""
    return int(await fetch_value(conn, "PRAGMA user_version"))


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: Sequence[Migration]
) -> tuple[int, ...]:
    """Bring the file up to the last of ``migrations``; return the versions applied now.

    Raises :class:`SchemaError` if the file is newer than the code, or if a migration fails (that
    migration is rolled back; the ones before it stay applied).
    """
    check_sequence(migrations)
    current = await user_version(conn)
    _check_newer(migrations, current)
    applied: list[int] = []
    # Foreign keys are off while a migration runs (SQLite's way to rebuild a table: dropping a
    # parent table would otherwise cascade), and checked before it commits.
    await execute(conn, "PRAGMA foreign_keys = OFF")
    try:
        for migration in migrations[current:]:
            if await _apply_one(conn, migration):
                applied.append(migration.version)
    finally:
        await execute(conn, "PRAGMA foreign_keys = ON")
    return tuple(applied)


async def _apply_one(conn: aiosqlite.Connection, migration: Migration) -> bool:
    await execute(conn, "BEGIN IMMEDIATE")
    try:
        # Another process may have migrated while we waited for the write lock.
        done = await user_version(conn) >= migration.version
        if not done:
            for statement in migration.statements():
                await execute(conn, statement)
            step = STEPS.get(migration.version)
            if step is not None:
                await step(conn, "sqlite")
            broken = await fetch_value(conn, "PRAGMA foreign_key_check")
            if broken is not None:
                raise SchemaError(f"migration {migration.version:03d}_{migration.name} left "
                                  f"rows whose foreign keys point nowhere (table {broken})")
            await execute(conn, f"PRAGMA user_version = {migration.version:d}")
        await execute(conn, "COMMIT")
        return not done
    except BaseException as error:
        if conn.in_transaction:
            await execute(conn, "ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise SchemaError(
                f"migration {migration.version:03d}_{migration.name} failed: {error}"
            ) from error
        raise


async def pg_schema_version(raw: Any) -> int:
    """The version in a PostgreSQL database's ``schema_version`` table (0 without the table)."""
    exists = await raw.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await raw.fetchval("SELECT version FROM schema_version"))


async def apply_pg_migrations(raw: Any, migrations: Sequence[Migration]) -> tuple[int, ...]:
    """PostgreSQL's :func:`apply_migrations` on an asyncpg connection ``raw``.

    Raises :class:`SchemaError` as the SQLite version does. Concurrent openers wait on an
    advisory lock, then see the version the first one left and apply nothing twice.
    """
    import asyncpg

    check_sequence(migrations)
    applied: list[int] = []
    async with raw.transaction():
        await raw.execute("SELECT pg_advisory_xact_lock($1)", _PG_MIGRATION_LOCK)
        await raw.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " one INTEGER PRIMARY KEY DEFAULT 1 CHECK (one = 1), version INTEGER NOT NULL)"
        )
        await raw.execute(
            "INSERT INTO schema_version (one, version) VALUES (1, 0) ON CONFLICT DO NOTHING"
        )
        current = await pg_schema_version(raw)
    _check_newer(migrations, current)
    for migration in migrations[current:]:
        try:
            async with raw.transaction():
                await raw.execute("SELECT pg_advisory_xact_lock($1)", _PG_MIGRATION_LOCK)
                if await pg_schema_version(raw) < migration.version:
                    await raw.execute(migration.sql)
                    step = STEPS.get(migration.version)
                    if step is not None:
                        await step(PgConn(raw), "postgresql")
                    await raw.execute(
                        "UPDATE schema_version SET version = $1", migration.version
                    )
                    applied.append(migration.version)
        except asyncpg.PostgresError as error:
            raise SchemaError(
                f"migration {migration.version:03d}_{migration.name} failed: {error}"
            ) from error
    return tuple(applied)
