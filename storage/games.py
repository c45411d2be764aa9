"""SQL for games, their players and their action log.

Functions here run inside a transaction opened by :class:`storage.Database`; they never begin
or commit. Versioned writes update ``WHERE id = ? AND version = ? AND status ...`` and, when no
row changed, :func:`explain_no_update` raises the precise reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn, cast

from . import jsoncol
from .connection import (
    Conn,
    Params,
    Row,
    execute,
    execute_many,
    fetch_all,
    fetch_one,
    fetch_value,
    json_array_agg,
)
from .errors import GameNotFound, StaleVersion, StorageError, WrongStatus
from .guild_settings import DEFAULT_COLUMNS, server_defaults
from .rows import GameRow, GameStatus, OpenCounts, PlayerRow

_GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, settings, seed, state, version,"
    " message_id, deadline_ms, created_ms, updated_ms, finished_ms, paused, end_reason,"
    " parent_channel_id"
)
_PLAYER_FIELDS = "seat, player_id, display_name, is_bot, stand_in"
_PLAYER_COLUMNS = f"game_id, {_PLAYER_FIELDS}"

# WHERE clauses (constants) for select_games.
BY_ID = "id = ?"
OPEN_IN_CHANNEL = "channel_id = ? AND status IN ('lobby', 'active')"
IN_CHANNEL = "channel_id = ?"
IN_CHANNEL_OF_KIND = "channel_id = ? AND kind = ?"
OPEN = "status IN ('lobby', 'active')"
OPEN_OF_GUILD = "guild_id = ? AND status IN ('lobby', 'active')"
OPEN_OF_HOST = "host_id = ? AND status IN ('lobby', 'active')"
PLAYED_IN_CHANNEL_OF_KIND = "channel_id = ? AND kind = ? AND state IS NOT NULL"

_SERVER_DEFAULTS = ", ".join(f"s.{column}" for column in DEFAULT_COLUMNS)
"""The server's defaults as :func:`open_counts` reads them (``s``: its settings row)."""


def _players(text: str | None) -> list[PlayerRow]:
    """The players of a game row's ``players`` column (:func:`select_games`), in seat order."""
    fields = [] if text is None else jsoncol.load(text)
    return [
        PlayerRow(seat=seat, player_id=player_id, display_name=name, is_bot=bool(is_bot),
                  stand_in=stand_in)
        for seat, player_id, name, is_bot, stand_in in sorted(fields)
    ]


def game_columns(conn: Conn) -> str:
    """What a :class:`GameRow` is read from (by :func:`game_from_row`): the game's columns
    and, as one JSON column, its players.
    """
    players = json_array_agg(conn, _PLAYER_FIELDS)
    return (f"{_GAME_COLUMNS}, (SELECT {players} FROM game_players"
            " WHERE game_players.game_id = games.id) AS players")


def game_from_row(row: Row) -> GameRow:
    """The :class:`GameRow` of a row read with :func:`game_columns`."""
    state = row["state"]
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        status=cast(GameStatus, row["status"]),
        host_id=row["host_id"],
        settings=jsoncol.load(row["settings"]),
        seed=row["seed"],
        state=None if state is None else jsoncol.load(state),
        version=row["version"],
        message_id=row["message_id"],
        deadline_ms=row["deadline_ms"],
        created_ms=row["created_ms"],
        updated_ms=row["updated_ms"],
        finished_ms=row["finished_ms"],
        players=tuple(_players(row["players"])),
        paused=row["paused"],
        end_reason=row["end_reason"],
        parent_channel_id=row["parent_channel_id"],
    )


async def select_games(
    conn: Conn, where: str, params: Params = (), tail: str = "ORDER BY id"
) -> list[GameRow]:
    """Games matching ``where`` (one of this module's constants), each with its players.

    One statement (its own snapshot: a read of it needs no transaction around it), the players
    of each game aggregated into one JSON column.
    """
    rows = await fetch_all(
        conn, f"SELECT {game_columns(conn)} FROM games WHERE {where} {tail}", params
    )
    return [game_from_row(row) for row in rows]


async def select_game(conn: Conn, game_id: int) -> GameRow | None:
    """The game with this id, or ``None``."""
    games = await select_games(conn, BY_ID, (game_id,))
    return games[0] if games else None


async def require_game(conn: Conn, game_id: int) -> GameRow:
    """The game with this id; raises :class:`GameNotFound`."""
    game = await select_game(conn, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


async def open_game_id(conn: Conn, channel_id: int) -> int | None:
    """The id of the channel's open game, if any."""
    value = await fetch_value(conn, f"SELECT id FROM games WHERE {OPEN_IN_CHANNEL}", (channel_id,))
    return None if value is None else int(value)


async def explain_no_update(
    conn: Conn,
    game_id: int,
    expected_version: int | None,
    allowed: Sequence[GameStatus],
    error: type[WrongStatus],
) -> NoReturn:
    """Raise why a guarded ``UPDATE games`` changed no row: missing, wrong status or stale."""
    row = await fetch_one(conn, "SELECT status, version FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    if row["status"] not in allowed:
        raise error(game_id, row["status"], allowed)
    if expected_version is not None and row["version"] != expected_version:
        raise StaleVersion(game_id, expected_version, row["version"])
    raise StorageError(f"game {game_id}: update matched no row")  # pragma: no cover


async def insert_game(
    conn: Conn,
    *,
    guild_id: int,
    channel_id: int,
    kind: str,
    host_id: int,
    settings: dict[str, Any],
    seed: int,
    now_ms: int,
    deadline_ms: int | None = None,
) -> int | None:
    """Insert a lobby game at version 0 (expiring at ``deadline_ms``) and return its id.

    Returns ``None`` when the channel already has an open game (the one-open-game-per-channel
    index): concurrent transactions on PostgreSQL cannot see each other's new lobby before it
    commits, so the index, not the caller's check, is what decides.
    """
    value = await fetch_value(
        conn,
        "INSERT INTO games (guild_id, channel_id, kind, status, host_id, settings, seed,"
        " version, deadline_ms, created_ms, updated_ms)"
        " VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?, ?)"
        " ON CONFLICT (channel_id) WHERE status IN ('lobby', 'active') DO NOTHING"
        " RETURNING id",
        (guild_id, channel_id, kind, host_id, jsoncol.dump(settings), seed, deadline_ms, now_ms,
         now_ms),
    )
    return None if value is None else int(value)


async def replace_players(
    conn: Conn, game_id: int, players: Sequence[PlayerRow]
) -> None:
    """Make ``players`` the game's seats."""
    await execute(conn, "DELETE FROM game_players WHERE game_id = ?", (game_id,))
    await insert_players(conn, game_id, players)


async def insert_players(conn: Conn, game_id: int, players: Sequence[PlayerRow]) -> None:
    """Seat ``players`` at a game that has no seats yet."""
    await execute_many(
        conn,
        f"INSERT INTO game_players ({_PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, p.seat, p.player_id, p.display_name, int(p.is_bot), p.stand_in)
         for p in players],
    )


async def bump_lobby(
    conn: Conn, game_id: int, expected_version: int, now_ms: int, deadline_ms: int | None
) -> GameRow | None:
    """Bump a lobby game's version (before its players change) and set when it expires;
    returns the game as stored (in the same statement), or ``None`` if no row matched.
    """
    rows = await fetch_all(
        conn,
        "UPDATE games SET version = version + 1, updated_ms = ?, deadline_ms = ?"
        f" WHERE id = ? AND version = ? AND status = 'lobby' RETURNING {game_columns(conn)}",
        (now_ms, deadline_ms, game_id, expected_version),
    )
    return game_from_row(rows[0]) if rows else None


async def set_lobby_settings(conn: Conn, game_id: int, expected_version: int,
                             settings: dict[str, Any], now_ms: int) -> GameRow | None:
    """A lobby's settings changed (its host chose to play in a thread): bumps the version;
    returns the game as stored, or ``None`` if no row matched.
    """
    rows = await fetch_all(
        conn,
        "UPDATE games SET settings = ?, version = version + 1, updated_ms = ?"
        f" WHERE id = ? AND version = ? AND status = 'lobby' RETURNING {game_columns(conn)}",
        (jsoncol.dump(settings), now_ms, game_id, expected_version),
    )
    return game_from_row(rows[0]) if rows else None


async def open_counts(conn: Conn, channel_id: int, guild_id: int, host_id: int
                      ) -> OpenCounts:
    """In one statement: the channel's open game, how many open games the server and the host
    have, and the server's defaults for a new game (its ``guild_settings`` row, if any).
    """
    row = await fetch_one(
        conn,
        f"SELECT (SELECT id FROM games WHERE {OPEN_IN_CHANNEL}) AS busy,"
        f" (SELECT COUNT(*) FROM games WHERE {OPEN_OF_GUILD}) AS in_guild,"
        f" (SELECT COUNT(*) FROM games WHERE {OPEN_OF_HOST}) AS of_host,"
        f" {_SERVER_DEFAULTS}"
        " FROM (SELECT 1) AS here LEFT JOIN guild_settings AS s ON s.guild_id = ?",
        (channel_id, guild_id, host_id, guild_id),
    )
    assert row is not None
    busy = row["busy"]
    return OpenCounts(busy=None if busy is None else int(busy), in_guild=int(row["in_guild"]),
                      of_host=int(row["of_host"]), server=server_defaults(row))


async def count_open(conn: Conn, column: str, value: int) -> int:
    """How many open games have ``column`` (``host_id`` or ``guild_id``) equal to ``value``
    (each probes its partial index of open games).
    """
    if column not in ("host_id", "guild_id"):
        raise ValueError(column)
    return int(await fetch_value(
        conn, f"SELECT COUNT(*) FROM games WHERE {column} = ? AND status IN ('lobby', 'active')",
        (value,)))


async def end_open(
    conn: Conn, column: str, value: int, status: GameStatus, reason: str, now_ms: int
) -> list[int]:
    """End every open game whose ``column`` (``id``, ``channel_id`` or ``guild_id``) is
    ``value``, as ``status`` (``cancelled`` or ``abandoned``) for ``reason``: no deadline,
    no pause, version + 1. Returns the ids ended.
    """
    if column not in ("id", "channel_id", "guild_id", "parent_channel_id") \
            or status not in ("cancelled", "abandoned"):
        raise ValueError((column, status))
    rows = await fetch_all(
        conn,
        f"UPDATE games SET status = ?, end_reason = ?, finished_ms = ?, deadline_ms = NULL,"
        f" paused = NULL, version = version + 1, updated_ms = ?"
        f" WHERE {column} = ? AND status IN ('lobby', 'active') RETURNING id",
        (status, reason, now_ms, now_ms, value),
    )
    return sorted(int(row[0]) for row in rows)


async def move_to_thread(conn: Conn, game_id: int, thread_id: int) -> int:
    """An active game plays on in a thread of its channel from now on (no version bump: no
    button of the game changes); returns the row count.
    """
    return await execute(
        conn,
        "UPDATE games SET parent_channel_id = channel_id, channel_id = ?, message_id = NULL"
        " WHERE id = ? AND status = 'active' AND parent_channel_id IS NULL",
        (thread_id, game_id),
    )


async def set_paused(
    conn: Conn, game_id: int, reason: str | None, deadline_ms: int | None
) -> int:
    """Pause an active game (``reason``; no deadline runs) or resume it (None, a fresh
    ``deadline_ms``); no version bump. Returns the row count.
    """
    return await execute(
        conn,
        "UPDATE games SET paused = ?, deadline_ms = ? WHERE id = ? AND status = 'active'",
        (reason, deadline_ms, game_id),
    )


async def stand_in(
    conn: Conn, game_id: int, seat: int, reason: str, expected_version: int,
    deadline_ms: int | None, now_ms: int,
) -> int:
    """A computer plays ``seat`` of an active game from now on (``reason``); version + 1 and
    the new deadline (the game may now wait on someone else). Returns the row count.
    """
    changed = await execute(
        conn,
        "UPDATE games SET version = version + 1, updated_ms = ?, deadline_ms = ?"
        " WHERE id = ? AND version = ? AND status = 'active'",
        (now_ms, deadline_ms, game_id, expected_version),
    )
    if changed == 1:
        await execute(conn, "UPDATE game_players SET stand_in = ? WHERE game_id = ? AND seat = ?",
                      (reason, game_id, seat))
    return changed


async def activate(
    conn: Conn,
    game_id: int,
    expected_version: int,
    *,
    state: dict[str, Any],
    start_events: list[dict[str, Any]],
    deadline_ms: int | None,
    now_ms: int,
) -> GameRow | None:
    """Lobby -> active with the first state and the start events; returns the game as stored
    (in the same statement), or ``None`` if no row matched.
    """
    rows = await fetch_all(
        conn,
        "UPDATE games SET status = 'active', state = ?, start_events = ?, deadline_ms = ?,"
        " version = version + 1, updated_ms = ?"
        f" WHERE id = ? AND version = ? AND status = 'lobby' RETURNING {game_columns(conn)}",
        (
            jsoncol.dump(state),
            jsoncol.dump(start_events),
            deadline_ms,
            now_ms,
            game_id,
            expected_version,
        ),
    )
    return game_from_row(rows[0]) if rows else None


async def advance(
    conn: Conn,
    game_id: int,
    expected_version: int,
    *,
    state: dict[str, Any],
    deadline_ms: int | None,
    finished: bool,
    now_ms: int,
) -> GameRow | None:
    """Store an active game's new state (and finish it if ``finished``); returns the game as
    stored (in the same statement), or ``None`` if no row matched.
    """
    rows = await fetch_all(
        conn,
        "UPDATE games SET state = ?, deadline_ms = ?, status = ?, finished_ms = ?,"
        " version = version + 1, updated_ms = ?"
        f" WHERE id = ? AND version = ? AND status = 'active' RETURNING {game_columns(conn)}",
        (
            jsoncol.dump(state),
            None if finished else deadline_ms,
            "finished" if finished else "active",
            now_ms if finished else None,
            now_ms,
            game_id,
            expected_version,
        ),
    )
    return game_from_row(rows[0]) if rows else None


async def current_version(conn: Conn, game_id: int) -> int:
    """The game's version; raises :class:`GameNotFound`."""
    value = await fetch_value(conn, "SELECT version FROM games WHERE id = ?", (game_id,))
    if value is None:
        raise GameNotFound(game_id)
    return int(value)


async def set_message(conn: Conn, game_id: int, message_id: int | None) -> int:
    """Record the game's current Discord message (no version bump); returns the row count."""
    return await execute(
        conn, "UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id)
    )


async def set_deadline(conn: Conn, game_id: int, deadline_ms: int | None) -> int:
    """Set an open game's deadline (no version bump); returns the row count."""
    return await execute(
        conn,
        "UPDATE games SET deadline_ms = ? WHERE id = ? AND status IN ('lobby', 'active')",
        (deadline_ms, game_id),
    )
