"""Read-only inspection of a database file with the standard ``sqlite3`` module.

For tools that must look at a file without changing it (the crash drill checks the file a
killed process left behind): nothing is created, migrated, recovered into or checkpointed.
Every statement is here, with the rest of the SQL.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote


def connect_ro(path: Path) -> sqlite3.Connection:
    """A read-only connection to ``path``; rows are :class:`sqlite3.Row`."""
    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True,
                           isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


def begin_snapshot(conn: sqlite3.Connection) -> None:
    """Read everything that follows from one snapshot."""
    conn.execute("BEGIN")


def integrity_problems(conn: sqlite3.Connection) -> list[str]:
    """``PRAGMA integrity_check``'s lines (``["ok"]`` for a sound file)."""
    return [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]


def foreign_key_problems(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Rows whose foreign keys point nowhere."""
    return conn.execute("PRAGMA foreign_key_check").fetchall()


def table_names(conn: sqlite3.Connection) -> set[str]:
    """The names of the database's tables."""
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def all_games(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Every game: id, kind, status, seed, settings, state, start_events, version."""
    return conn.execute(
        "SELECT id, kind, status, seed, settings, state, start_events, version FROM games"
        " ORDER BY id"
    ).fetchall()


def seat_players(conn: sqlite3.Connection, game_id: int) -> list[tuple[str, str]]:
    """A game's players in seat order: (their token in its state and log, their player id);
    a person's token is ``pN`` (seat N-1), a computer player's its own id.
    """
    return [(r["player_id"] if r["is_bot"] else f"p{r['seat'] + 1}", r["player_id"])
            for r in conn.execute("SELECT seat, player_id, is_bot FROM game_players"
                                  " WHERE game_id = ? ORDER BY seat", (game_id,))]


def game_actions(conn: sqlite3.Connection, game_id: int) -> list[sqlite3.Row]:
    """A game's action log: seq, action, actor, events."""
    return conn.execute(
        "SELECT seq, action, actor, events FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()


def game_results(conn: sqlite3.Connection, game_id: int) -> list[sqlite3.Row]:
    """A game's results: player_id, score, won."""
    return conn.execute(
        "SELECT player_id, score, won FROM results WHERE game_id = ? ORDER BY player_id",
        (game_id,),
    ).fetchall()


def rating_counts(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Each rating's ``games`` beside the number of results (``played``) it covers."""
    return conn.execute(
        "SELECT r.guild_id, r.kind, r.player_id, r.games, COUNT(x.game_id) AS played"
        " FROM ratings r LEFT JOIN results x ON x.guild_id = r.guild_id AND x.kind = r.kind"
        " AND x.player_id = r.player_id GROUP BY r.guild_id, r.kind, r.player_id"
    ).fetchall()


def unrated_players(conn: sqlite3.Connection) -> int:
    """How many (server, game, player) have results but no rating."""
    return int(conn.execute(
        "SELECT COUNT(*) FROM (SELECT DISTINCT guild_id, kind, player_id FROM results)"
        " x WHERE NOT EXISTS (SELECT 1 FROM ratings r WHERE r.guild_id = x.guild_id"
        " AND r.kind = x.kind AND r.player_id = x.player_id)"
    ).fetchone()[0])
