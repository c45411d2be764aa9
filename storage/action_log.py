"""SQL for a game's action log: each action of a game in play, in ``seq`` order, with the
events it made (the game's start events are the game row's own, ``games.start_events``), and a
move written with its action in one statement where the backend can.

Functions here run inside a transaction opened by :class:`storage.Database`; they never begin
or commit.
"""

from __future__ import annotations

from typing import Any

from . import jsoncol
from .connection import Conn, execute, fetch_all, fetch_one
from .errors import GameNotFound
from .games import game_columns, game_from_row
from .rows import ActionRow, GameRow

_COLUMNS = "game_id, seq, action, actor, events, created_ms"
"""The columns an action is written with, in the order of both writes below."""


def _next_seq(game_id: str) -> str:
    """The ``seq`` after the game's last action (``game_id``: a parameter or a column)."""
    return f"(SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE actions.game_id = {game_id})"


async def append_action(
    conn: Conn,
    game_id: int,
    *,
    action: dict[str, Any],
    actor: str,
    events: list[dict[str, Any]],
    now_ms: int,
) -> None:
    """Append an action to the game's log with the next ``seq``.

    Safe under concurrency because the caller's versioned ``UPDATE games`` already holds the
    game's row (PostgreSQL row lock; SQLite's single writer).
    """
    await execute(
        conn,
        f"INSERT INTO actions ({_COLUMNS}) VALUES (?, {_next_seq('?')}, ?, ?, ?, ?)",
        (game_id, game_id, jsoncol.dump(action), actor, jsoncol.dump(events), now_ms),
    )


async def advance_and_log(
    conn: Conn,
    game_id: int,
    expected_version: int,
    *,
    state: dict[str, Any],
    deadline_ms: int | None,
    action: dict[str, Any],
    actor: str,
    events: list[dict[str, Any]],
    now_ms: int,
) -> GameRow | None:
    """:func:`storage.games.advance` (the game stays active) and :func:`append_action` as one
    statement, a transaction of its own (PostgreSQL's data-modifying ``WITH``; SQLite has
    none): one round trip instead of four (``BEGIN``, the two statements, ``COMMIT``). The
    action is inserted only if the versioned ``UPDATE`` changed the row (it holds the row's
    lock, as in :func:`append_action`); returns the game as stored, or ``None`` if no row
    matched.
    """
    rows = await fetch_all(
        conn,
        "WITH moved AS (UPDATE games SET state = ?, deadline_ms = ?, version = version + 1,"
        " updated_ms = ? WHERE id = ? AND version = ? AND status = 'active'"
        f" RETURNING {game_columns(conn)}),"
        f" logged AS (INSERT INTO actions ({_COLUMNS})"
        f" SELECT moved.id, {_next_seq('moved.id')}, ?, ?, ?, ? FROM moved)"
        " SELECT * FROM moved",
        (
            jsoncol.dump(state),
            deadline_ms,
            now_ms,
            game_id,
            expected_version,
            jsoncol.dump(action),
            actor,
            jsoncol.dump(events),
            now_ms,
        ),
    )
    return game_from_row(rows[0]) if rows else None


async def select_actions(conn: Conn, game_id: int) -> list[ActionRow]:
    """The game's actions in ``seq`` order."""
    rows = await fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    return [
        ActionRow(
            game_id=row["game_id"],
            seq=row["seq"],
            action=jsoncol.load(row["action"]),
            actor=row["actor"],
            events=jsoncol.load(row["events"]),
            created_ms=row["created_ms"],
        )
        for row in rows
    ]


async def select_events(conn: Conn, game_id: int) -> list[dict[str, Any]]:
    """The game's full event log: its start events, then each action's events in order."""
    start = await fetch_one(conn, "SELECT start_events FROM games WHERE id = ?", (game_id,))
    if start is None:
        raise GameNotFound(game_id)
    events: list[dict[str, Any]] = []
    if start["start_events"] is not None:
        events.extend(jsoncol.load(start["start_events"]))
    for row in await fetch_all(
        conn, "SELECT events FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    ):
        events.extend(jsoncol.load(row["events"]))
    return events
