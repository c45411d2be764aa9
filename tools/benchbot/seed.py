"""Open games of other servers written straight into a benchmark's database, fast.

:func:`seed_open_games` writes ``n`` open games (four in five lobbies, one in five in play with
a real engine state) with their seats, spread over servers of 20 games each, through storage's
own transaction and SQL helpers: one transaction, ``executemany`` on SQLite, ``COPY`` on
PostgreSQL. The bot that runs meanwhile never saw them (its start-up is over), as a cluster
never sees the games of servers another cluster owns: they are in the database, and only what
the bot reads of them costs it anything. ``ANALYZE`` follows (PostgreSQL's autovacuum would do
the same within a minute; SQLite's ``PRAGMA optimize`` when the bot closes the file) and, on
SQLite, a checkpoint of the write-ahead log.
"""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any, Final

from storage import open_database
from storage.connection import Conn, execute, execute_many
from storage.jsoncol import dump
from storage.pgconn import PgConn
from storage.postgres import is_postgres_url

FIRST_ID: Final = 2_000_000_000
"""Seeded games take ids from here (far above the benchmark's own games)."""
PER_SERVER: Final = 20
"""Open games per seeded server (under the per-server limit of 25)."""
ELSEWHERE: Final = 10**15
"""Seeded servers', channels' and hosts' ids start here (no simulated id is this large)."""

_GAME_COLUMNS: Final = ("id", "guild_id", "channel_id", "kind", "status", "host_id", "settings",
                        "seed", "state", "start_events", "version", "message_id", "deadline_ms",
                        "created_ms", "updated_ms")
_SEAT_COLUMNS: Final = ("game_id", "seat", "player_id", "display_name", "is_bot")


def _state_json() -> str:
    """A real engine state of a 3-player Panda Royale game (what a game in play stores)."""
    from bot.rules.registry import kind_of

    engine = kind_of("royale").engine
    state, _ = engine.new_game(["1", "2", "3"], 7, {"expansions": ["mischief", "cannon"]})
    return dump(engine.state_to_json(state))


def rows(n: int, now_ms: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The games and seats rows of ``n`` open games of other servers."""
    state = _state_json()
    settings = dump({"turn_timeout": 120})
    games: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    for i in range(n):
        game_id = FIRST_ID + i
        active = i % 5 == 0
        host = ELSEWHERE + i // 2
        games.append((game_id, ELSEWHERE + i // PER_SERVER, ELSEWHERE + i,
                      "royale" if i % 4 else "posing", "active" if active else "lobby", host,
                      settings, i, state if active else None, "[]" if active else None,
                      3 if active else 1, None, now_ms + 3_600_000, now_ms - i, now_ms - i))
        seats.append((game_id, 0, str(host), f"Host {i}", 0))
        seats.append((game_id, 1, f"cpu:{1 + i % 3}", "Bao (computer)", 1))
    return games, seats


async def seed_open_games(target: str | os.PathLike[str], n: int, now_ms: int) -> float:
    """Write ``n`` open games of other servers into the database at ``target`` (a path or a
    ``postgresql://`` URL); returns the seconds it took.
    """
    started = time.perf_counter()
    games, seats = rows(n, now_ms)
    db = await open_database(target)
    try:
        async def work(conn: Conn) -> None:
            if isinstance(conn, PgConn):  # COPY: a few seconds instead of a minute
                await conn.raw.copy_records_to_table("games", records=games,
                                                     columns=list(_GAME_COLUMNS))
                await conn.raw.copy_records_to_table("game_players", records=seats,
                                                     columns=list(_SEAT_COLUMNS))
                return
            marks = ", ".join("?" * len(_GAME_COLUMNS))
            await execute_many(conn, f"INSERT INTO games ({', '.join(_GAME_COLUMNS)})"
                                     f" VALUES ({marks})", games)
            await execute_many(conn, f"INSERT INTO game_players ({', '.join(_SEAT_COLUMNS)})"
                                     " VALUES (?, ?, ?, ?, ?)", seats)

        await db.write(work)

        async def analyze(conn: Conn) -> None:
            await execute(conn, "ANALYZE")

        await db.write(analyze)
    finally:
        await db.close()
    if not is_postgres_url(target):
        # the file at rest: the seeding's write-ahead log folded in (not for the first
        # command to pay)
        conn = sqlite3.connect(target)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    return time.perf_counter() - started
