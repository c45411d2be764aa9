"""Choosing and speaking to a backend: URLs, placeholders, the interface both implement."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from storage import Database, PgDatabase, StorageBase
from storage.achievements import AchievementRecords
from storage.games import GameRecords
from storage.guild_settings import SettingRecords
from storage.member_history import HistoryRecords
from storage.personal_data import PersonalRecords
from storage.pgconn import lock_key, to_pg
from storage.postgres import is_postgres_url, redact
from storage.results import ResultRecords
from storage.seasons import SeasonRecords


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT ?", "SELECT $1"),
        ("UPDATE t SET a = ?, b = ? WHERE id = ?", "UPDATE t SET a = $1, b = $2 WHERE id = $3"),
        ("SELECT '?' || ?, 'it''s ?' FROM t WHERE x IN (?, ?)",
         "SELECT '?' || $1, 'it''s ?' FROM t WHERE x IN ($2, $3)"),
        ("SELECT 1", "SELECT 1"),
    ],
)
def test_placeholders_become_numbered(sql: str, expected: str) -> None:
    assert to_pg(sql) == expected


def test_urls_and_redaction() -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://h/db")
    assert not is_postgres_url("data/bot.db") and not is_postgres_url(":memory:")
    assert redact("postgresql://panda:s3cret@db:5432/x?sslmode=require") == (
        "postgresql://panda:***@db:5432/x?sslmode=require"
    )
    assert redact("postgresql://panda@db/x") == "postgresql://panda@db/x"


def test_lock_keys_are_stable_64_bit() -> None:
    key = lock_key("ratings:1:royale")
    assert key == lock_key("ratings:1:royale") != lock_key("ratings:2:royale")
    assert -(2**63) <= key < 2**63


async def test_both_backends_implement_the_whole_interface(tmp_path: Path) -> None:
    public = {
        name for name, member in inspect.getmembers(StorageBase)
        if not name.startswith("_") and callable(member)
    }
    assert {"close", "scrub", "write", "read", "statement"} <= public
    for backend in (Database, PgDatabase):
        assert issubclass(backend, StorageBase)
        assert not inspect.isabstract(backend)
        assert callable(backend.open)
    # The parts, each on the storage that holds it (they run their transactions on it).
    db = await Database.open(tmp_path / "parts.db")
    try:
        parts = {"games": GameRecords, "results": ResultRecords, "settings": SettingRecords,
                 "history": HistoryRecords, "personal": PersonalRecords,
                 "seasons": SeasonRecords, "achievements": AchievementRecords}
        for name, part in parts.items():
            assert isinstance(getattr(db, name), part)
            assert getattr(db, name)._db is db
        assert {"create", "get", "commit_action", "events"} <= set(vars(GameRecords))
        assert {"leaderboard", "player_stats", "ratings", "of_game"} <= set(vars(ResultRecords))
    finally:
        await db.close()
