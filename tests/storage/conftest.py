"""Fixtures for the storage tests: real SQLite files under ``tmp_path``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's database file goes (a fresh directory each test)."""
    return tmp_path / "data" / "bot.db"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    """An open, migrated database on a real file; closed after the test."""
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()
