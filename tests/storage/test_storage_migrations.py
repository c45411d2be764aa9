"""Opening a database: pragmas, numbered migrations, the schema version (both backends)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from storage import Database, Migration, SchemaError, StorageError
from storage.connection import fetch_value
from storage.database import BUSY_TIMEOUT_MS
from storage.migrator import check_sequence, load_migrations

from ..conftest import Backend
from .storage_helpers import started_game

TABLES = {"games", "game_players", "actions", "results", "ratings"}


def test_shipped_migrations_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "initial"


def test_statements_split_on_complete_statements_only() -> None:
    migration = Migration(
        1,
        "demo",
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT ';'); CREATE TABLE b (y INTEGER);\n"
        "CREATE TRIGGER t BEFORE UPDATE ON a BEGIN SELECT RAISE(ABORT, 'no'); END;\n"
        "-- trailing comment\n",
    )
    statements = migration.statements()
    assert len(statements) == 3
    assert statements[0].endswith("DEFAULT ';');")
    assert statements[2].startswith("CREATE TRIGGER") and statements[2].endswith("END;")


def test_unterminated_statement_is_refused() -> None:
    with pytest.raises(SchemaError, match="unterminated"):
        Migration(1, "bad", "CREATE TABLE a (x INTEGER)").statements()


def test_numbering_gaps_are_refused() -> None:
    with pytest.raises(SchemaError, match="without gaps"):
        check_sequence([Migration(1, "a", ""), Migration(3, "c", "")])


async def test_fresh_file_is_migrated_with_pragmas(db_path: Path) -> None:
    assert not db_path.exists()
    async with await Database.open(db_path) as db:
        count = len(load_migrations())
        assert db.schema_version == count
        assert db.applied_migrations == tuple(range(1, count + 1))

        async def pragmas(conn: Any) -> list[Any]:
            return [await fetch_value(conn, f"PRAGMA {name}")
                    for name in ("foreign_keys", "synchronous", "busy_timeout")]

        assert await db.read(pragmas) == [1, 1, BUSY_TIMEOUT_MS]  # synchronous 1: NORMAL
    assert db.closed
    assert db_path.exists()

    # Independently of the bot's connection: the file itself says so.
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == count
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master"
                                                " WHERE type = 'table'")}
        assert tables >= TABLES
    finally:
        raw.close()


async def test_a_fresh_postgres_database_is_migrated(pg_backend: Backend) -> None:
    async with await pg_backend.open() as db:
        count = len(pg_backend.migrations())
        assert db.schema_version == count
        assert db.applied_migrations == tuple(range(1, count + 1))
    # Independently of the bot's pool: the tables say so.
    assert pg_backend.query("SELECT version FROM schema_version") == [(count,)]
    assert set(_tables(pg_backend)) >= TABLES | {"schema_version"}


def _tables(backend: Backend) -> list[str]:
    if backend.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    return [str(row[0]) for row in backend.query(sql)]


def test_both_backends_ship_the_same_migrations() -> None:
    sqlite, pg = load_migrations("sqlite"), load_migrations("postgresql")
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in pg]


async def test_reopening_applies_nothing_twice(backend: Backend) -> None:
    async with await backend.open() as db:
        game = await started_game(db)
    async with await backend.open() as db:
        assert db.applied_migrations == ()
        assert db.schema_version == len(backend.migrations())
        reopened = await db.games.get(game.id)
    assert reopened == game


async def test_two_processes_opening_a_new_file_migrate_once(backend: Backend) -> None:
    first, second = await asyncio.gather(backend.open(), backend.open())
    try:
        # Each migration is applied by exactly one of them (they may take turns).
        applied = sorted([*first.applied_migrations, *second.applied_migrations])
        assert applied == list(range(1, len(backend.migrations()) + 1))
        assert first.schema_version == second.schema_version
    finally:
        await first.close()
        await second.close()


async def test_a_file_newer_than_the_code_is_refused(backend: Backend) -> None:
    async with await backend.open():
        pass
    with pytest.raises(SchemaError, match="newer than this code"):
        await backend.open(migrations=backend.migrations()[:-1])


async def test_a_failing_migration_is_rolled_back_alone(backend: Backend) -> None:
    shipped = backend.migrations()
    n = len(shipped)
    broken = Migration(
        n + 1, "broken", "CREATE TABLE extra (x INTEGER);\nCREATE TABLE games (duplicate INTEGER);"
    )
    with pytest.raises(SchemaError, match="broken"):
        await backend.open(migrations=[*shipped, broken])

    async with await backend.open() as db:
        # The shipped migrations stayed; the broken one left nothing behind.
        assert db.applied_migrations == ()
        assert db.schema_version == n
    assert "extra" not in _tables(backend)

    fixed = Migration(n + 1, "fixed", "CREATE TABLE extra (x INTEGER);")
    async with await backend.open(migrations=[*shipped, fixed]) as db:
        assert db.applied_migrations == (n + 1,)
        assert db.schema_version == n + 1
    assert "extra" in _tables(backend)


async def test_schema_guards_its_invariants(backend: Backend) -> None:
    """Checked with a separate connection: the schema itself refuses bad rows."""
    async with await backend.open() as db:
        game = await started_game(db)
        await db.games.commit_action(
            game.id,
            game.version,
            action={"a": 1},
            actor="1001",
            events=[],
            state={},
            deadline_ms=None,
            now_ms=1,
        )
    with pytest.raises(Exception, match="append-only"):
        backend.query("UPDATE actions SET actor = 'someone else'")
    with pytest.raises(Exception, match=r"(?i)foreign key"):
        backend.query(
            "INSERT INTO game_players (game_id, seat, player_id, display_name, is_bot)"
            " VALUES (?, 0, 'x', 'x', 0)",
            (game.id + 999,),
        )
    with pytest.raises(Exception, match=r"(?i)check"):
        backend.query("UPDATE games SET status = 'paused'")
    # JSON columns are compact text.
    [(settings,)] = backend.query("SELECT settings FROM games")
    assert settings == '{"expansions":["mischief"],"turn_timeout":120}'


async def test_closed_database_refuses_work(backend: Backend) -> None:
    db = await backend.open()
    await db.close()
    await db.close()  # twice is fine
    with pytest.raises(StorageError, match="closed"):
        await db.games.get(1)


async def test_player_totals_are_filled_from_existing_results(backend: Backend) -> None:
    """Migration 002 back-fills the all-time leaderboard's totals from results written before."""
    async with await backend.open(migrations=backend.migrations()[:1]):
        pass
    backend.query(
        "INSERT INTO games (id, guild_id, channel_id, kind, status, host_id, settings, seed,"
        " created_ms, updated_ms, finished_ms) VALUES (1, 5, 6, 'royale', 'finished', 1, '{}',"
        " 1, 1, 2, 2), (2, 5, 6, 'royale', 'finished', 1, '{}', 1, 3, 4, 4)"
    )
    for game_id, player, score, won in ((1, "a", 10, 1), (1, "b", 7, 0), (2, "a", 3, 0),
                                        (2, "b", 9, 1)):
        backend.query(
            "INSERT INTO results (game_id, player_id, guild_id, kind, display_name, is_bot,"
            " seat, score, rank, won, finished_ms) VALUES (?, ?, 5, 'royale', ?, 0, 0, ?, ?, ?, ?)",
            (game_id, player, player.upper(), score, 2 - won, won, game_id * 2),
        )
    async with await backend.open() as db:
        assert db.applied_migrations == tuple(range(2, len(backend.migrations()) + 1))
        board = await db.results.leaderboard(5, "royale")
    assert [(r.player_id, r.games, r.wins, r.best_score, r.total_score) for r in board] == [
        ("b", 2, 1, 9, 16),
        ("a", 2, 1, 10, 13),
    ]
