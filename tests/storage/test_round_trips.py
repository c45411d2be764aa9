"""What a decision costs the database: the statements each backend is sent.

A click reads its game (one statement: the game's row and its players in one JSON column, no
transaction around it) and commits the action: on SQLite ``BEGIN``, the versioned ``UPDATE``
returning the game as stored, the log's ``INSERT``, ``COMMIT``; on PostgreSQL the two in one
statement (a data-modifying ``WITH``, a transaction of its own). Each statement is a round trip:
to PostgreSQL's server, or to aiosqlite's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import storage.postgres
from storage import Database, GameStatus, PgDatabase, Storage
from storage.errors import NotActive, StaleVersion

from ..conftest import Backend
from .storage_helpers import T0, play, seats, started_game


async def _recorder(db: Storage) -> Callable[[], list[str]]:
    """Start recording the statements ``db`` sends; the returned function takes what was sent
    since the last call (first words, upper case)."""
    seen: list[str] = []
    if isinstance(db, PgDatabase):
        pool = db._pool
        for holder in pool._holders:  # every connection the pool may hand out, from now on
            if holder._con is not None:
                holder._con.add_query_logger(lambda record: seen.append(record.query))
    else:
        assert isinstance(db, Database)
        await db._conn.set_trace_callback(seen.append)

    def take() -> list[str]:
        out = [" ".join(q.split()[:2]).upper().rstrip(";") for q in seen]
        seen.clear()
        return out

    return take


async def _one_connection(backend: Backend) -> Storage:
    if backend.name == "postgresql":
        with pytest.MonkeyPatch.context() as patch:  # a pool of one connection
            patch.setattr(storage.postgres, "POOL_MAX", 1)
            return await PgDatabase.open(str(backend.target))
    return await backend.open()


async def test_a_game_is_read_in_one_statement(backend: Backend) -> None:
    db = await _one_connection(backend)
    try:
        game = await started_game(db, players=seats("Ann", "Bob", "Cat", "Dan", bots=6))
        take = await _recorder(db)
        again = await db.games.get(game.id)
        assert take() == ["SELECT ID,"]  # no BEGIN, no COMMIT, no second SELECT
        assert again == game
        assert [p.seat for p in again.players] == list(range(10))
        assert again.players[4].is_bot and not again.players[3].is_bot
        assert await db.games.get(game.id + 99) is None
        assert take() == ["SELECT ID,"]
    finally:
        await db.close()


async def test_a_decision_commits_in_one_statement_on_postgresql_four_on_sqlite(
        backend: Backend) -> None:
    db = await _one_connection(backend)
    try:
        game = await started_game(db)
        take = await _recorder(db)
        after = await play(db, game, 1)
        sent = take()
        if backend.name == "postgresql":  # the UPDATE and the INSERT in one WITH, no BEGIN
            assert sent == ["WITH MOVED"], sent
        else:
            assert sent[0].startswith("BEGIN") and sent[-1] == "COMMIT", sent
            assert [q.split()[0] for q in sent[1:-1]] == ["UPDATE", "INSERT"], sent
        # the game the UPDATE returned is the game as stored, players included
        assert after.version == game.version + 1 and after.players == game.players
        assert after.state == {"step": 1} and after.deadline_ms == T0 + 120_000
        assert await db.games.get(game.id) == after
        log = await db.games.action_log(game.id)
        assert [a.seq for a in log] == [1]
        await play(db, after, 2)
        assert [a.seq for a in await db.games.action_log(game.id)] == [1, 2]
    finally:
        await db.close()


@pytest.mark.parametrize("mismatch", ["stale", "finished"])
async def test_an_update_that_matches_no_row_still_says_why(backend: Backend,
                                                            mismatch: str) -> None:
    db = await backend.open()
    try:
        game = await started_game(db)
        moved = await play(db, game, 1)
        expected: Any = StaleVersion
        if mismatch == "finished":
            await db.games.end(moved.id, GameStatus.CANCELLED, "test", T0 + 5)
            expected = NotActive
        with pytest.raises(expected):
            await play(db, game if mismatch == "stale" else moved, 2)
        assert len(await db.games.action_log(game.id)) == 1  # nothing of the refused one written
    finally:
        await db.close()
