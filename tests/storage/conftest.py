"""Fixtures for the storage tests: every test runs on both backends (see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage

from ..conftest import Backend


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where an SQLite-only test's database file goes (a fresh directory each test)."""
    return tmp_path / "data" / "bot.db"


@pytest.fixture
async def db(backend: Backend) -> AsyncIterator[Storage]:
    """An open, migrated database of each backend; closed after the test."""
    database = await backend.open()
    try:
        yield database
    finally:
        await database.close()
