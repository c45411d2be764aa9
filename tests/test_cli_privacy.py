"""``forget-user ID`` and ``db purge [--dry-run]`` from the machine, on an SQLite file."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.service import GameService
from storage import open_database
from tests.app.test_personal_data import ALICE, ONE, TWO, Clock, world
from tests.services import privacy_of


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bot.db"

    async def build() -> None:
        async with await open_database(path) as db:
            svc = GameService(db, clock=Clock(), seed_source=lambda: 4321)
            await world(svc)
            await privacy_of(svc).departed(ONE.guild_id)  # removed long ago
            await svc.close()

    asyncio.run(build())
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of the repository
    return path


def count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute(sql).fetchone()[0])


def test_forget_user_forgets_everywhere(played: Path) -> None:
    code, out = run("forget-user", str(ALICE.id))
    assert code == 0 and out.startswith(f"user {ALICE.id} forgotten: now former:")
    assert "results 3" in out
    assert count(played, f"SELECT COUNT(*) FROM game_players WHERE player_id = '{ALICE.id}'") == 0
    code, out = run("forget-user", str(ALICE.id))
    assert code == 0 and out == f"nothing is held about user {ALICE.id}\n"


def test_forget_user_refuses_what_is_not_an_id(played: Path) -> None:
    code, out = run("forget-user", "alice")
    assert code == 2 and "not a Discord user id" in out


def test_purge_dry_run_lists_then_purge_deletes(played: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUILD_RETENTION_DAYS", "3650")  # removed in November 2023 (Clock)
    code, out = run("db", "purge", "--dry-run")
    assert code == 0 and out.startswith("0 server(s) past the 3650-day retention")
    assert "1 other server(s)" in out
    monkeypatch.setenv("GUILD_RETENTION_DAYS", "30")
    games = count(played, f"SELECT COUNT(*) FROM games WHERE guild_id = {ONE.guild_id}")
    code, out = run("db", "purge", "--dry-run")
    assert code == 0 and f"server {ONE.guild_id}: would delete" in out
    assert f"games {games}" in out
    assert count(played, f"SELECT COUNT(*) FROM games WHERE guild_id = {ONE.guild_id}") == games
    code, out = run("db", "purge")
    assert code == 0 and f"server {ONE.guild_id}: deleted" in out
    assert count(played, f"SELECT COUNT(*) FROM games WHERE guild_id = {ONE.guild_id}") == 0
    assert count(played, f"SELECT COUNT(*) FROM games WHERE guild_id = {TWO.guild_id}") == 2
