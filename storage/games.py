"""``db.games``: games, their seats and their action log (:class:`GameRecords`).

A game is a row of ``games`` with its seats (``game_players``); its log is its start events
(the game row's ``start_events``) followed by its actions (``actions``, ``seq`` 1, 2, 3, ...,
append-only), each with the events it made. A versioned write that changes no row raises why
(:func:`_explain`; storage/README.md, "Versions"): each refusal's error is described in
:mod:`storage.errors`, and none of them writes anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final, NoReturn

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
    serialize_all,
)
from .errors import (
    ChannelBusy,
    GameClosed,
    GameNotFound,
    InvalidData,
    NotActive,
    NotInLobby,
    StaleVersion,
    StorageError,
    TooManyOpen,
    WrongStatus,
)
from .finish import Finish
from .guild_settings import DEFAULT_COLUMNS, server_defaults
from .results import record_finish
from .rows import (
    ENDED_WITHOUT_RESULTS,
    OPEN_STATUSES,
    ActionRow,
    Game,
    GameStatus,
    Reach,
    Seat,
    ServerDefaults,
    from_row,
)
from .runner import C, Records

_GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, settings, seed, state, version,"
    " message_id, deadline_ms, created_ms, updated_ms, finished_ms, paused, end_reason,"
    " parent_channel_id, reminded_version, reach"
)
_PLAYER_FIELDS = "seat, player_id, display_name, is_bot, stand_in"
_ACTION_COLUMNS = "game_id, seq, action, actor, events, created_ms"

_OPEN = "status IN ('lobby', 'active')"
# WHERE clauses of select_games.
BY_ID = "id = ?"
OPEN_IN_CHANNEL = f"channel_id = ? AND {_OPEN}"
OPEN_OF_GUILD = f"guild_id = ? AND {_OPEN}"
OPEN_OF_HOST = f"host_id = ? AND {_OPEN}"
OF_PLAYER = "id IN (SELECT game_id FROM game_players WHERE player_id = ?)"

_ADVANCE = (
    "UPDATE games SET state = ?, deadline_ms = ?, status = ?, finished_ms = ?,"
    " version = version + 1, updated_ms = ?"
    " WHERE id = ? AND version = ? AND status = 'active' RETURNING {columns}"
)
"""Store an active game's new state (finishing it or not), versioned; returns the game."""

_SERVER_DEFAULTS = ", ".join(f"s.{column}" for column in DEFAULT_COLUMNS)
"""The server's defaults as :meth:`GameRecords.create` reads them with the open games' counts,
in one statement (``s``: its settings row, if any)."""


def _next_seq(game_id: str) -> str:
    """The ``seq`` after the game's last action (``game_id``: a parameter or a column).

    Safe under concurrency because the versioned ``UPDATE games`` before it holds the game's
    row (PostgreSQL's row lock; SQLite's single writer).
    """
    return f"(SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE actions.game_id = {game_id})"


def game_columns(conn: Conn) -> str:
    """What a :class:`Game` is read from (by :func:`game_from_row`): the game's columns
    and, as one JSON column, its players.
    """
    players = json_array_agg(conn, _PLAYER_FIELDS)
    return (f"{_GAME_COLUMNS}, (SELECT {players} FROM game_players"
            " WHERE game_players.game_id = games.id) AS players")


def game_from_row(row: Row) -> Game:
    """The :class:`Game` of a row read with :func:`game_columns`."""
    state, players = row["state"], row["players"]
    return from_row(
        Game, row, status=GameStatus(row["status"]), reach=Reach(row["reach"]),
        settings=jsoncol.load(row["settings"]),
        state=None if state is None else jsoncol.load(state),
        players=tuple(
            Seat(seat=seat, player_id=player_id, display_name=name, is_bot=bool(is_bot),
                 stand_in=stand_in)
            for seat, player_id, name, is_bot, stand_in in sorted(
                [] if players is None else jsoncol.load(players))),
    )


async def select_games(
    conn: Conn, where: str, params: Params = (), tail: str = "ORDER BY id"
) -> list[Game]:
    """Games matching ``where`` (a WHERE clause of this module's, or a caller's), each with its
    players, in one statement (its own snapshot: a read of it needs no transaction around it).
    """
    rows = await fetch_all(
        conn, f"SELECT {game_columns(conn)} FROM games WHERE {where} {tail}", params)
    return [game_from_row(row) for row in rows]


async def _first(conn: Conn, where: str, params: Params, tail: str = "ORDER BY id"
                 ) -> Game | None:
    found = await select_games(conn, where, params, tail)
    return found[0] if found else None


async def _require(conn: Conn, game_id: int) -> Game:
    game = await _first(conn, BY_ID, (game_id,))
    if game is None:
        raise GameNotFound(game_id)
    return game


_NOT_IN: Final = {GameStatus.LOBBY: NotInLobby, GameStatus.ACTIVE: NotActive}


async def _updated(conn: Conn, game_id: int, expected_version: int, status: GameStatus,
                   sql: str, params: Params) -> Game:
    """The game as a versioned ``UPDATE ... RETURNING`` of :func:`game_columns` of a game in
    ``status`` left it; raises why when it changed no row (:func:`_explain`).
    """
    rows = await fetch_all(conn, sql.format(columns=game_columns(conn)), params)
    if not rows:
        await _explain(conn, game_id, expected_version, (status,), _NOT_IN[status])
    return game_from_row(rows[0])


async def _explain(
    conn: Conn, game_id: int, expected_version: int | None, allowed: Sequence[GameStatus],
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


async def _seat(conn: Conn, game_id: int, players: Sequence[Seat]) -> None:
    await execute_many(
        conn, f"INSERT INTO game_players (game_id, {_PLAYER_FIELDS}) VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, p.seat, p.player_id, p.display_name, int(p.is_bot), p.stand_in)
         for p in players])


async def _end_open(conn: Conn, column: str, value: int, status: GameStatus, reason: str,
                    now_ms: int) -> list[int]:
    """End every open game whose ``column`` is ``value`` as ``status`` for ``reason``: no
    deadline, no pause, version + 1. Returns the ids ended.
    """
    rows = await fetch_all(
        conn,
        "UPDATE games SET status = ?, end_reason = ?, finished_ms = ?, deadline_ms = NULL,"
        f" paused = NULL, version = version + 1, updated_ms = ? WHERE {column} = ? AND {_OPEN}"
        " RETURNING id",
        (GameStatus(status).value, reason, now_ms, now_ms, value),
    )
    return sorted(int(row[0]) for row in rows)


async def select_events(conn: Conn, game_ids: Sequence[int]
                        ) -> dict[int, list[dict[str, Any]]]:
    """The full event logs of ``game_ids``, by game: each game's start events, then each of
    its actions' events in order (an unknown game is absent).
    """
    ids = list(dict.fromkeys(game_ids))
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    logs: dict[int, list[dict[str, Any]]] = {}
    for row in await fetch_all(
            conn, f"SELECT id, start_events FROM games WHERE id IN ({marks})", tuple(ids)):
        start = row["start_events"]
        logs[row["id"]] = [] if start is None else list(jsoncol.load(start))
    for row in await fetch_all(
            conn, f"SELECT game_id, events FROM actions WHERE game_id IN ({marks})"
                  " ORDER BY game_id, seq", tuple(ids)):
        logs[row["game_id"]].extend(jsoncol.load(row["events"]))
    return logs


def _check_players(players: Sequence[Seat]) -> list[Seat]:
    seats = sorted(p.seat for p in players)
    if seats != list(range(len(players))):
        raise InvalidData(f"seats must be 0..{len(players) - 1}, got {seats}")
    ids = [p.player_id for p in players]
    if len(set(ids)) != len(ids):
        raise InvalidData(f"a player may only hold one seat: {ids}")
    return sorted(players, key=lambda p: p.seat)


class GameRecords(Records[C]):
    """Creating, moving and finishing games, and reading their logs."""

    # -- games -------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        host_id: int,
        settings: dict[str, Any] | Callable[[ServerDefaults], dict[str, Any]],
        seed: int,
        players: Sequence[Seat],
        now_ms: int,
        deadline_ms: int | None = None,
        host_limit: int | None = None,
        server_limit: int | None = None,
        reach: Reach = Reach.BOT,
    ) -> Game:
        """Create a game in the lobby (version 0) with ``players`` seated, expiring at
        ``deadline_ms``, played where the bot ``reach``es it. ``kind`` is any non-empty name
        (see :class:`~storage.rows.Game`).
        ``settings``: the game's settings, or how to make them from the server's defaults (read
        in the same transaction).

        With ``host_limit`` / ``server_limit``, the host's / the server's open games are
        counted in the same transaction, serialised per host and per server (so concurrent
        creations in other channels and other processes cannot all see room for one more):
        :class:`~storage.errors.TooManyOpen` when there is none.
        """
        if not isinstance(kind, str) or not kind:
            raise InvalidData(f"a game kind is a non-empty name, not {kind!r}")
        seated = _check_players(players)

        async def work(conn: C) -> Game:
            # Always the server first, then the host: no two transactions wait on each other.
            await serialize_all(conn, [f"open-games:{column}:{value}" for column, value, limit
                                       in (("guild_id", guild_id, server_limit),
                                           ("host_id", host_id, host_limit))
                                       if limit is not None])
            row = await fetch_one(
                conn,
                f"SELECT (SELECT id FROM games WHERE {OPEN_IN_CHANNEL}) AS busy,"
                f" (SELECT COUNT(*) FROM games WHERE {OPEN_OF_GUILD}) AS in_guild,"
                f" (SELECT COUNT(*) FROM games WHERE {OPEN_OF_HOST}) AS of_host,"
                f" {_SERVER_DEFAULTS}"
                " FROM (SELECT 1) AS here LEFT JOIN guild_settings AS s ON s.guild_id = ?",
                (channel_id, guild_id, host_id, guild_id))
            assert row is not None
            if row["busy"] is not None:
                raise ChannelBusy(channel_id, int(row["busy"]))
            for scope, count, limit in (("server", row["in_guild"], server_limit),
                                        ("host", row["of_host"], host_limit)):
                if limit is not None and int(count) >= limit:
                    raise TooManyOpen(scope, limit)
            chosen = settings(server_defaults(row)) if callable(settings) else settings
            # The one-open-game-per-channel index decides: concurrent transactions on
            # PostgreSQL cannot see each other's new lobby before it commits.
            game_id = await fetch_value(
                conn,
                "INSERT INTO games (guild_id, channel_id, kind, status, host_id, settings, seed,"
                " version, deadline_ms, created_ms, updated_ms)"
                " VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?, ?)"
                f" ON CONFLICT (channel_id) WHERE {_OPEN} DO NOTHING RETURNING id",
                (guild_id, channel_id, kind, host_id, jsoncol.dump(chosen), seed, deadline_ms,
                 now_ms, now_ms))
            if game_id is None:  # another transaction opened one first
                busy = await fetch_value(conn, f"SELECT id FROM games WHERE {OPEN_IN_CHANNEL}",
                                         (channel_id,))
                raise ChannelBusy(channel_id, -1 if busy is None else int(busy))
            if reach is not Reach.BOT:  # the column's default is the bot's own server
                await execute(conn, "UPDATE games SET reach = ? WHERE id = ?",
                              (reach.value, int(game_id)))
            await _seat(conn, int(game_id), seated)
            return Game(id=int(game_id), guild_id=guild_id, channel_id=channel_id,
                           kind=kind, status=GameStatus.LOBBY, host_id=host_id, settings=chosen,
                           seed=seed, state=None, version=0, message_id=None,
                           deadline_ms=deadline_ms, created_ms=now_ms, updated_ms=now_ms,
                           finished_ms=None, players=tuple(seated), reach=reach)

        return await self._db.write(work)

    async def get(self, game_id: int) -> Game | None:
        """The game with this id (players in seat order), or ``None``."""
        return await self._db.statement(lambda conn: _first(conn, BY_ID, (game_id,)))

    async def open_in_channel(self, channel_id: int) -> Game | None:
        """The channel's game in the lobby or being played, or ``None``."""
        return await self._db.statement(lambda conn: _first(conn, OPEN_IN_CHANNEL,
                                                            (channel_id,)))

    async def latest_in_channel(
        self, channel_id: int, kind: str | None = None
    ) -> Game | None:
        """The channel's most recently created game of any status (of ``kind`` if given)."""
        where, params = (("channel_id = ?", (channel_id,)) if kind is None
                         else ("channel_id = ? AND kind = ?", (channel_id, kind)))
        return await self._db.statement(
            lambda conn: _first(conn, where, params, "ORDER BY id DESC LIMIT 1"))

    async def latest_played_in_channel(self, channel_id: int, kind: str) -> Game | None:
        """The channel's most recent game of ``kind`` that was started (lobbies that never
        started are skipped).
        """
        return await self._db.statement(lambda conn: _first(
            conn, "channel_id = ? AND kind = ? AND state IS NOT NULL", (channel_id, kind),
            "ORDER BY id DESC LIMIT 1"))

    async def open_in_guild(self, guild_id: int) -> list[Game]:
        """The server's games in the lobby or being played, oldest first."""
        return await self._db.statement(
            lambda conn: select_games(conn, OPEN_OF_GUILD, (guild_id,)))

    async def open_guilds(self) -> list[int]:
        """The servers the bot is in that have games in the lobby or being played."""
        rows = await self._db.statement(lambda conn: fetch_all(
            conn, f"SELECT DISTINCT guild_id FROM games WHERE {_OPEN} AND reach = 'bot'"))
        return sorted(int(r["guild_id"]) for r in rows)

    async def all_open(self) -> list[Game]:
        """Every game in the lobby or being played, oldest first (to rebuild timers and views)."""
        return await self._db.statement(lambda conn: select_games(conn, _OPEN))

    async def in_play_by_guild(self) -> dict[int, int]:
        """How many games are being played in each server (for metrics: counted by the
        database, no game read).
        """
        rows = await self._db.read(lambda conn: fetch_all(
            conn, "SELECT guild_id, COUNT(*) AS n FROM games WHERE status = 'active'"
                  " GROUP BY guild_id"))
        return {int(r["guild_id"]): int(r["n"]) for r in rows}

    async def set_players(
        self, game_id: int, players: Sequence[Seat], expected_version: int, now_ms: int,
        deadline_ms: int | None = None,
    ) -> Game:
        """Replace a lobby game's players (join, leave, add a computer player); bumps the version
        and sets when the lobby expires (``deadline_ms``).
        """
        seated = _check_players(players)

        async def work(conn: C) -> Game:
            game = await _updated(
                conn, game_id, expected_version, GameStatus.LOBBY,
                "UPDATE games SET version = version + 1, updated_ms = ?, deadline_ms = ?"
                " WHERE id = ? AND version = ? AND status = 'lobby' RETURNING {columns}",
                (now_ms, deadline_ms, game_id, expected_version))
            await execute(conn, "DELETE FROM game_players WHERE game_id = ?", (game_id,))
            await _seat(conn, game_id, seated)
            return replace(game, players=tuple(seated))

        return await self._db.write(work)

    async def set_lobby_settings(self, game_id: int, expected_version: int,
                                 settings: dict[str, Any], now_ms: int) -> Game:
        """A lobby's settings change (its host chose to play in a thread); bumps the version."""
        return await self._db.statement(lambda conn: _updated(
            conn, game_id, expected_version, GameStatus.LOBBY,
            "UPDATE games SET settings = ?, version = version + 1, updated_ms = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby' RETURNING {columns}",
            (jsoncol.dump(settings), now_ms, game_id, expected_version)))

    async def start(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        setup_events: list[dict[str, Any]],
        deadline_ms: int | None,
        now_ms: int,
    ) -> Game:
        """Lobby -> active, in one statement: store the first engine state and the events of
        the start.

        ``setup_events`` (the ``setup`` event and whatever happens before the first decision) are
        kept in ``games.start_events`` and open :meth:`events`.
        """
        return await self._db.statement(lambda conn: _updated(
            conn, game_id, expected_version, GameStatus.LOBBY,
            "UPDATE games SET status = 'active', state = ?, start_events = ?, deadline_ms = ?,"
            " version = version + 1, updated_ms = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby' RETURNING {columns}",
            (jsoncol.dump(state), jsoncol.dump(setup_events), deadline_ms, now_ms, game_id,
             expected_version)))

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        action: dict[str, Any],
        actor: str,
        events: list[dict[str, Any]],
        state: dict[str, Any],
        deadline_ms: int | None,
        now_ms: int,
        finish: Finish | None = None,
    ) -> Game:
        """Apply one action, in one transaction: the new state, version + 1, the deadline, and
        the action appended to the log with the next ``seq``.

        A move that does not finish the game is one statement where the backend can
        (:attr:`storage.base.StorageBase.moves_in_one_statement`: PostgreSQL's data-modifying
        ``WITH``, whose ``INSERT`` runs only if the versioned ``UPDATE`` changed the row): one
        round trip instead of four.

        With ``finish`` the same transaction also ends the game: status ``finished``,
        ``finished_ms = now_ms``, no deadline, and what :func:`storage.results.record_finish`
        writes. If anything fails (``rate`` raising included) nothing is written.
        """
        finished = finish is not None
        moved = (jsoncol.dump(state), None if finished else deadline_ms,
                 "finished" if finished else "active", now_ms if finished else None, now_ms,
                 game_id, expected_version)
        logged = (jsoncol.dump(action), actor, jsoncol.dump(events), now_ms)

        if not finished and self._db.moves_in_one_statement:
            return await self._db.statement(lambda conn: _updated(
                conn, game_id, expected_version, GameStatus.ACTIVE,
                f"WITH moved AS ({_ADVANCE}), logged AS (INSERT INTO actions ({_ACTION_COLUMNS})"
                f" SELECT moved.id, {_next_seq('moved.id')}, ?, ?, ?, ? FROM moved)"
                " SELECT * FROM moved", (*moved, *logged)))

        async def work(conn: C) -> Game:
            game = await _updated(conn, game_id, expected_version, GameStatus.ACTIVE, _ADVANCE,
                                  moved)
            await execute(conn, f"INSERT INTO actions ({_ACTION_COLUMNS})"
                                f" VALUES (?, {_next_seq('?')}, ?, ?, ?, ?)",
                          (game_id, game_id, *logged))
            if finish is not None:
                # The award reads the game's whole log, this last action's events included.
                log = await select_events(conn, [game_id]) if finish.award is not None else {}
                await record_finish(conn, game, finish, now_ms, log.get(game_id, []))
            return game

        return await self._db.write(work)

    async def end(
        self, game_id: int, status: GameStatus, reason: str, now_ms: int,
        *, expected_version: int | None = None,
    ) -> Game:
        """End a game in the lobby or being played without results or ratings: ``status``
        ``cancelled`` (by its host or a manager) or ``abandoned`` (its channel or server is
        gone), for ``reason``. Sets ``finished_ms``, clears the deadline and the pause, bumps the
        version (checked only when ``expected_version`` is given).
        """
        if status not in ENDED_WITHOUT_RESULTS:
            raise InvalidData(f"a game ends without results as cancelled or abandoned, "
                              f"not {status!r}")

        async def work(conn: C) -> Game:
            if expected_version is not None and expected_version != await fetch_value(
                    conn, "SELECT version FROM games WHERE id = ?", (game_id,)):
                await _explain(conn, game_id, expected_version, OPEN_STATUSES, GameClosed)
            if not await _end_open(conn, "id", game_id, status, reason, now_ms):
                await _explain(conn, game_id, None, OPEN_STATUSES, GameClosed)
            return await _require(conn, game_id)

        return await self._db.write(work)

    async def abandon(
        self, *, channel_id: int | None = None, guild_id: int | None = None, reason: str,
        now_ms: int,
    ) -> list[Game]:
        """End every open game of a channel (the games played in its threads too) or of a
        server as ``abandoned``, in one transaction: the channel or the server is gone.
        Returns the games ended.
        """
        if (channel_id is None) == (guild_id is None):
            raise InvalidData("abandon the games of one channel or of one server")
        columns = (("channel_id", "parent_channel_id") if channel_id is not None
                   else ("guild_id",))
        value = channel_id if channel_id is not None else guild_id
        assert value is not None

        async def work(conn: C) -> list[Game]:
            ids = [game_id for column in columns
                   for game_id in await _end_open(conn, column, value, GameStatus.ABANDONED, reason,
                                                  now_ms)]
            return [await _require(conn, game_id) for game_id in sorted(ids)]

        return await self._db.write(work)

    async def move_to_thread(self, game_id: int, thread_id: int) -> Game:
        """An active game plays on in a thread of its channel (its channel becomes the
        thread's parent, ``parent_channel_id``; no version bump: no button of the game
        changes). A game already in a thread is refused as not active.
        """

        async def work(conn: C) -> Game:
            if await execute(
                    conn, "UPDATE games SET parent_channel_id = channel_id, channel_id = ?,"
                          " message_id = NULL WHERE id = ? AND status = 'active'"
                          " AND parent_channel_id IS NULL", (thread_id, game_id)) != 1:
                await _explain(conn, game_id, None, (GameStatus.ACTIVE,), NotActive)
                raise NotActive(game_id, "in a thread", ("active",))
            return await _require(conn, game_id)

        return await self._db.write(work)

    async def set_paused(self, game_id: int, reason: str | None,
                         deadline_ms: int | None = None) -> Game:
        """Pause an active game (no deadline runs, ``reason`` says why) or resume it
        (``reason`` None, with its new ``deadline_ms``). Does not change the version.
        """

        async def work(conn: C) -> Game:
            if await execute(conn, "UPDATE games SET paused = ?, deadline_ms = ?"
                                   " WHERE id = ? AND status = 'active'",
                             (reason, deadline_ms, game_id)) != 1:
                await _explain(conn, game_id, None, (GameStatus.ACTIVE,), NotActive)
            return await _require(conn, game_id)

        return await self._db.write(work)

    async def stand_in(
        self, game_id: int, seat: int, reason: str, expected_version: int,
        deadline_ms: int | None, now_ms: int,
    ) -> Game:
        """A computer plays ``seat`` of an active game for the rest of it (``reason``: the
        player ``left`` or ``resigned``); version + 1, and the game's new deadline (it may now
        wait on someone else). The seat gets no result and no rating.
        """

        async def work(conn: C) -> Game:
            if await execute(conn, "UPDATE games SET version = version + 1, updated_ms = ?,"
                                   " deadline_ms = ? WHERE id = ? AND version = ?"
                                   " AND status = 'active'",
                             (now_ms, deadline_ms, game_id, expected_version)) != 1:
                await _explain(conn, game_id, expected_version, (GameStatus.ACTIVE,), NotActive)
            await execute(conn, "UPDATE game_players SET stand_in = ? WHERE game_id = ?"
                                " AND seat = ?", (reason, game_id, seat))
            return await _require(conn, game_id)

        return await self._db.write(work)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Record the game's current Discord message. Does not change the version."""

        async def work(conn: C) -> None:
            if await execute(conn, "UPDATE games SET message_id = ? WHERE id = ?",
                             (message_id, game_id)) != 1:
                raise GameNotFound(game_id)

        await self._db.statement(work)

    async def shift_deadlines(self, shard_count: int, shard_id: int, by_ms: int) -> int:
        """Move ``by_ms`` later the deadline of every open game on one shard (its server's
        shard by Discord's formula, ``(guild_id >> 22) % shard_count``; a DM's or group DM's
        game is shard 0's); how many moved. Does not change the versions.
        """
        return await self._db.statement(lambda conn: execute(
            conn, f"UPDATE games SET deadline_ms = deadline_ms + ? WHERE {_OPEN}"
                  " AND deadline_ms IS NOT NULL AND (CASE WHEN reach = 'private' THEN 0"
                  " ELSE (guild_id >> 22) % ? END) = ?",
            (by_ms, shard_count, shard_id)))

    async def open_of_player(self, player_id: str) -> list[Game]:
        """The open games with a seat of ``player_id``, oldest first."""
        return await self._db.read(lambda conn: select_games(
            conn, f"{OF_PLAYER} AND {_OPEN}", (player_id,)))

    async def claim_reminder(self, game_id: int, version: int) -> bool:
        """Claim the reminder of the player ``game_id`` waits on at ``version``: True for the one
        write that claims it (a restart or another process finds it claimed).
        """
        return await self._db.statement(lambda conn: execute(
            conn, "UPDATE games SET reminded_version = ? WHERE id = ? AND version = ?"
                  " AND status = 'active' AND (reminded_version IS NULL OR reminded_version <> ?)",
            (version, game_id, version, version))) == 1

    async def next_deadline(self, from_ms: int) -> int | None:
        """The soonest deadline of an open game at or after ``from_ms`` (None: none)."""
        found = await self._db.statement(lambda conn: fetch_value(
            conn, f"SELECT MIN(deadline_ms) FROM games WHERE {_OPEN} AND deadline_ms >= ?",
            (from_ms,)))
        return None if found is None else int(found)

    async def due_before(self, before_ms: int) -> list[Game]:
        """The open games whose deadline comes by ``before_ms``, soonest first."""
        return await self._db.read(lambda conn: select_games(
            conn, f"deadline_ms <= ? AND {_OPEN}", (before_ms,), "ORDER BY deadline_ms"))

    # -- logs --------------------------------------------------------------------------------

    async def action_log(self, game_id: int) -> list[ActionRow]:
        """The game's actions in ``seq`` order (1, 2, 3, ...); empty for an unknown game."""
        rows = await self._db.read(lambda conn: fetch_all(
            conn, f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,)))
        return [from_row(ActionRow, row, action=jsoncol.load(row["action"]),
                         events=jsoncol.load(row["events"])) for row in rows]

    async def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's full event log: the start events, then each action's events, in order
        (:class:`~storage.errors.GameNotFound` for an unknown game).
        """
        logs = await self._db.read(lambda conn: select_events(conn, [game_id]))
        if game_id not in logs:
            raise GameNotFound(game_id)
        return logs[game_id]
