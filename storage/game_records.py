"""``db.games``, the storage's games, their seats and their logs: :class:`GameRecords` (its SQL
in ``games.py`` and ``action_log.py``).

Time is never read here: every write takes ``now_ms`` (epoch milliseconds) from the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Generic

from . import action_log as log
from . import games as g
from . import results as r
from .connection import fetch_all, serialize_all
from .errors import (
    ChannelBusy,
    GameClosed,
    GameNotFound,
    InvalidData,
    NotActive,
    NotInLobby,
    TooManyOpen,
)
from .finish import Finish
from .rows import (
    OPEN_STATUSES,
    ActionRow,
    GameRow,
    GameStatus,
    PlayerRow,
    ServerDefaults,
)
from .runner import C, Transactions


def _check_kind(kind: str) -> None:
    # Any kind is stored: which kinds exist is the application's business (its registry).
    if not isinstance(kind, str) or not kind:
        raise InvalidData(f"a game kind is a non-empty name, not {kind!r}")


def _check_players(players: Sequence[PlayerRow]) -> list[PlayerRow]:
    seats = sorted(p.seat for p in players)
    if seats != list(range(len(players))):
        raise InvalidData(f"seats must be 0..{len(players) - 1}, got {seats}")
    ids = [p.player_id for p in players]
    if len(set(ids)) != len(ids):
        raise InvalidData(f"a player may only hold one seat: {ids}")
    return sorted(players, key=lambda p: p.seat)


class GameRecords(Generic[C]):
    """Creating, moving and finishing games, and reading their logs."""

    def __init__(self, db: Transactions[C]) -> None:
        self._db = db

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
        players: Sequence[PlayerRow],
        now_ms: int,
        deadline_ms: int | None = None,
        host_limit: int | None = None,
        server_limit: int | None = None,
    ) -> GameRow:
        """Create a game in the lobby (version 0) with ``players`` seated, expiring at
        ``deadline_ms``. ``settings``: the game's settings, or how to make them from the
        server's defaults (read in the same transaction).

        With ``host_limit`` / ``server_limit``, the host's / the server's open games are
        counted in the same transaction, serialised per host and per server (so concurrent
        creations in other channels and other processes cannot all see room for one more):
        :class:`~storage.errors.TooManyOpen` when there is none. Raises
        :class:`~storage.errors.ChannelBusy` if the channel already has an open game,
        :class:`~storage.errors.InvalidData` for an empty kind or bad seats.

        On PostgreSQL: ``BEGIN``, the locks, one read, the game, its seats, ``COMMIT``.
        """
        _check_kind(kind)
        seated = _check_players(players)

        async def work(conn: C) -> GameRow:
            # Always the server first, then the host: no two transactions wait on each other.
            await serialize_all(conn, [f"open-games:{column}:{value}" for column, value, limit
                                       in (("guild_id", guild_id, server_limit),
                                           ("host_id", host_id, host_limit))
                                       if limit is not None])
            counts = await g.open_counts(conn, channel_id, guild_id, host_id)
            if counts.busy is not None:
                raise ChannelBusy(channel_id, counts.busy)
            for scope, count, limit in (("server", counts.in_guild, server_limit),
                                        ("host", counts.of_host, host_limit)):
                if limit is not None and count >= limit:
                    raise TooManyOpen(scope, limit)
            chosen = settings(counts.server) if callable(settings) else settings
            game_id = await g.insert_game(
                conn,
                guild_id=guild_id,
                channel_id=channel_id,
                kind=kind,
                host_id=host_id,
                settings=chosen,
                seed=seed,
                now_ms=now_ms,
                deadline_ms=deadline_ms,
            )
            if game_id is None:  # another transaction opened one first
                busy = await g.open_game_id(conn, channel_id)
                raise ChannelBusy(channel_id, -1 if busy is None else busy)
            await g.insert_players(conn, game_id, seated)
            return GameRow(id=game_id, guild_id=guild_id, channel_id=channel_id, kind=kind,
                           status="lobby", host_id=host_id, settings=chosen, seed=seed,
                           state=None, version=0, message_id=None, deadline_ms=deadline_ms,
                           created_ms=now_ms, updated_ms=now_ms, finished_ms=None,
                           players=tuple(seated))

        return await self._db.write(work)

    async def get(self, game_id: int) -> GameRow | None:
        """The game with this id (players in seat order), or ``None``."""
        return await self._db.statement(lambda conn: g.select_game(conn, game_id))

    async def open_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, or ``None``."""

        async def work(conn: C) -> GameRow | None:
            found = await g.select_games(conn, g.OPEN_IN_CHANNEL, (channel_id,))
            return found[0] if found else None

        return await self._db.statement(work)

    async def latest_in_channel(
        self, channel_id: int, kind: str | None = None
    ) -> GameRow | None:
        """The channel's most recently created game of any status (of ``kind`` if given)."""

        async def work(conn: C) -> GameRow | None:
            where, params = (
                (g.IN_CHANNEL, (channel_id,))
                if kind is None
                else (g.IN_CHANNEL_OF_KIND, (channel_id, kind))
            )
            found = await g.select_games(conn, where, params, "ORDER BY id DESC LIMIT 1")
            return found[0] if found else None

        return await self._db.statement(work)

    async def latest_played_in_channel(self, channel_id: int, kind: str) -> GameRow | None:
        """The channel's most recent game of ``kind`` that was started (lobbies that never
        started are skipped).
        """

        async def work(conn: C) -> GameRow | None:
            found = await g.select_games(conn, g.PLAYED_IN_CHANNEL_OF_KIND, (channel_id, kind),
                                         "ORDER BY id DESC LIMIT 1")
            return found[0] if found else None

        return await self._db.statement(work)

    async def open_in_guild(self, guild_id: int) -> list[GameRow]:
        """The server's games in the lobby or being played, oldest first."""
        return await self._db.statement(
            lambda conn: g.select_games(conn, g.OPEN_OF_GUILD, (guild_id,)))

    async def open_of_host(self, host_id: int) -> list[GameRow]:
        """The games a person hosts in the lobby or being played, oldest first."""
        return await self._db.statement(
            lambda conn: g.select_games(conn, g.OPEN_OF_HOST, (host_id,)))

    async def open_guilds(self) -> list[int]:
        """The servers that have games in the lobby or being played."""
        rows = await self._db.statement(lambda conn: fetch_all(
            conn, "SELECT DISTINCT guild_id FROM games WHERE status IN ('lobby', 'active')"))
        return sorted(int(r["guild_id"]) for r in rows)

    async def all_open(self) -> list[GameRow]:
        """Every game in the lobby or being played, oldest first (to rebuild timers and views)."""
        return await self._db.statement(lambda conn: g.select_games(conn, g.OPEN))

    async def in_play_by_guild(self) -> dict[int, int]:
        """How many games are being played in each server (for metrics: counted by the
        database, no game read).
        """

        async def work(conn: C) -> dict[int, int]:
            return {int(r["guild_id"]): int(r["n"]) for r in await fetch_all(
                conn, "SELECT guild_id, COUNT(*) AS n FROM games WHERE status = 'active'"
                      " GROUP BY guild_id")}

        return await self._db.read(work)

    async def set_players(
        self, game_id: int, players: Sequence[PlayerRow], expected_version: int, now_ms: int,
        deadline_ms: int | None = None,
    ) -> GameRow:
        """Replace a lobby game's players (join, leave, add a computer player); bumps the version
        and sets when the lobby expires (``deadline_ms``).

        Raises :class:`~storage.errors.NotInLobby`, :class:`~storage.errors.StaleVersion`,
        :class:`~storage.errors.GameNotFound`, :class:`~storage.errors.InvalidData`.
        """
        seated = _check_players(players)

        async def work(conn: C) -> GameRow:
            game = await g.bump_lobby(conn, game_id, expected_version, now_ms, deadline_ms)
            if game is None:
                await g.explain_no_update(conn, game_id, expected_version, ("lobby",), NotInLobby)
            await g.replace_players(conn, game_id, seated)
            return replace(game, players=tuple(seated))

        return await self._db.write(work)

    async def start(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        setup_events: list[dict[str, Any]],
        deadline_ms: int | None,
        now_ms: int,
    ) -> GameRow:
        """Lobby -> active: store the first engine state and the events of the start.

        ``setup_events`` (the ``setup`` event and whatever happens before the first decision) are
        kept in ``games.start_events`` and open :meth:`events`. Raises
        :class:`~storage.errors.NotInLobby`, :class:`~storage.errors.StaleVersion`,
        :class:`~storage.errors.GameNotFound`.
        """

        async def work(conn: C) -> GameRow:
            if self._db.before_commit is not None:  # before the statement that commits
                await self._db.before_commit(game_id, expected_version)
            game = await g.activate(conn, game_id, expected_version, state=state,
                                    start_events=setup_events, deadline_ms=deadline_ms,
                                    now_ms=now_ms)
            if game is None:
                await g.explain_no_update(conn, game_id, expected_version, ("lobby",), NotInLobby)
            return game

        return await self._db.statement(work)

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
    ) -> GameRow:
        """Apply one action, in one transaction: the new state, version + 1, the deadline, and
        the action appended to the log with the next ``seq`` (a backend that can, in one
        statement: :attr:`storage.base.StorageBase.moves_in_one_statement`).

        With ``finish`` the same transaction also ends the game: status ``finished``,
        ``finished_ms = now_ms``, no deadline, one ``results`` row per player and, if
        ``finish.rate`` is given, the ratings updated from the current ones (``games + 1`` for
        each player rated). If anything fails (``rate`` raising included) nothing is written.

        Raises :class:`~storage.errors.StaleVersion` (nothing written),
        :class:`~storage.errors.NotActive`, :class:`~storage.errors.GameNotFound`,
        :class:`~storage.errors.InvalidData` (scores not matching the players, bad ratings).
        """
        if finish is None and self._db.moves_in_one_statement:
            async def statement(conn: C) -> GameRow:
                if self._db.before_commit is not None:  # before the statement that commits
                    await self._db.before_commit(game_id, expected_version)
                moved = await log.advance_and_log(
                    conn, game_id, expected_version, state=state, deadline_ms=deadline_ms,
                    action=action, actor=actor, events=events, now_ms=now_ms)
                if moved is None:
                    await g.explain_no_update(conn, game_id, expected_version, ("active",),
                                              NotActive)
                return moved
            return await self._db.statement(statement)

        async def work(conn: C) -> GameRow:
            game = await g.advance(conn, game_id, expected_version, state=state,
                                   deadline_ms=deadline_ms, finished=finish is not None,
                                   now_ms=now_ms)
            if game is None:
                await g.explain_no_update(conn, game_id, expected_version, ("active",), NotActive)
            await log.append_action(conn, game_id, action=action, actor=actor, events=events,
                                    now_ms=now_ms)
            if finish is not None:
                await r.record_finish(conn, game, finish, now_ms)
            if self._db.before_commit is not None:
                await self._db.before_commit(game_id, expected_version)
            return game

        return await self._db.write(work)

    async def end(
        self, game_id: int, status: GameStatus, reason: str, now_ms: int,
        *, expected_version: int | None = None,
    ) -> GameRow:
        """End a game in the lobby or being played without results or ratings: ``status``
        ``cancelled`` (by its host or a manager) or ``abandoned`` (its channel or server is
        gone), for ``reason``. Sets ``finished_ms``, clears the deadline and the pause, bumps the
        version. Raises :class:`~storage.errors.GameClosed` if already over,
        :class:`~storage.errors.StaleVersion` if ``expected_version`` is given and stale.
        """

        async def work(conn: C) -> GameRow:
            if expected_version is not None \
                    and await g.current_version(conn, game_id) != expected_version:
                await g.explain_no_update(conn, game_id, expected_version, OPEN_STATUSES,
                                          GameClosed)
            if not await g.end_open(conn, "id", game_id, status, reason, now_ms):
                await g.explain_no_update(conn, game_id, None, OPEN_STATUSES, GameClosed)
            return await g.require_game(conn, game_id)

        return await self._db.write(work)

    async def cancel(
        self, game_id: int, now_ms: int, *, expected_version: int | None = None
    ) -> GameRow:
        """:meth:`end` as ``cancelled`` by its host or a manager."""
        return await self.end(game_id, "cancelled", "cancelled", now_ms,
                                   expected_version=expected_version)

    async def abandon(
        self, *, channel_id: int | None = None, guild_id: int | None = None, reason: str,
        now_ms: int,
    ) -> list[GameRow]:
        """End every open game of a channel (or of a server) as ``abandoned``, in one
        transaction: the channel or the server is gone. Returns the games ended.
        """
        if (channel_id is None) == (guild_id is None):
            raise InvalidData("abandon the games of one channel or of one server")
        column, value = ("channel_id", channel_id) if channel_id is not None \
            else ("guild_id", guild_id)
        assert value is not None

        async def work(conn: C) -> list[GameRow]:
            ids = await g.end_open(conn, column, value, "abandoned", reason, now_ms)
            if channel_id is not None:  # the games played in its threads go with it
                ids += await g.end_open(conn, "parent_channel_id", channel_id, "abandoned",
                                        reason, now_ms)
            return [await g.require_game(conn, game_id) for game_id in sorted(ids)]

        return await self._db.write(work)

    async def set_lobby_settings(self, game_id: int, expected_version: int,
                                 settings: dict[str, Any], now_ms: int) -> GameRow:
        """A lobby's settings change (one statement; bumps the version). Raises
        :class:`~storage.errors.NotInLobby`, :class:`~storage.errors.StaleVersion`,
        :class:`~storage.errors.GameNotFound`.
        """

        async def work(conn: C) -> GameRow:
            game = await g.set_lobby_settings(conn, game_id, expected_version, settings, now_ms)
            if game is None:
                await g.explain_no_update(conn, game_id, expected_version, ("lobby",), NotInLobby)
            return game

        return await self._db.statement(work)

    async def move_to_thread(self, game_id: int, thread_id: int) -> GameRow:
        """An active game plays on in a thread of its channel (its channel becomes the
        thread's parent, ``parent_channel_id``). Raises :class:`~storage.errors.NotActive`
        for a game not in play or already in a thread.
        """

        async def work(conn: C) -> GameRow:
            if await g.move_to_thread(conn, game_id, thread_id) != 1:
                await g.explain_no_update(conn, game_id, None, ("active",), NotActive)
                raise NotActive(game_id, "in a thread", ("active",))
            return await g.require_game(conn, game_id)

        return await self._db.write(work)

    async def set_paused(self, game_id: int, reason: str | None,
                         deadline_ms: int | None = None) -> GameRow:
        """Pause an active game (no deadline runs, ``reason`` says why) or resume it
        (``reason`` None, with its new ``deadline_ms``). Does not change the version.
        Raises :class:`~storage.errors.NotActive`.
        """

        async def work(conn: C) -> GameRow:
            if await g.set_paused(conn, game_id, reason, deadline_ms) != 1:
                await g.explain_no_update(conn, game_id, None, ("active",), NotActive)
            return await g.require_game(conn, game_id)

        return await self._db.write(work)

    async def stand_in(
        self, game_id: int, seat: int, reason: str, expected_version: int,
        deadline_ms: int | None, now_ms: int,
    ) -> GameRow:
        """A computer plays ``seat`` of an active game for the rest of it (``reason``: the
        player ``left`` or ``resigned``); version + 1, and the game's new deadline. The seat
        gets no result and no rating. Raises :class:`~storage.errors.StaleVersion`,
        :class:`~storage.errors.NotActive`.
        """

        async def work(conn: C) -> GameRow:
            if await g.stand_in(conn, game_id, seat, reason, expected_version, deadline_ms,
                                now_ms) != 1:
                await g.explain_no_update(conn, game_id, expected_version, ("active",),
                                          NotActive)
            return await g.require_game(conn, game_id)

        return await self._db.write(work)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Record the game's current Discord message. Does not change the version."""

        async def work(conn: C) -> None:
            if await g.set_message(conn, game_id, message_id) != 1:
                raise GameNotFound(game_id)

        await self._db.statement(work)

    async def set_deadline(self, game_id: int, deadline_ms: int | None) -> None:
        """Set (or clear) an open game's deadline. Does not change the version.

        Raises :class:`~storage.errors.GameClosed` for a finished or cancelled game.
        """

        async def work(conn: C) -> None:
            if await g.set_deadline(conn, game_id, deadline_ms) != 1:
                await g.explain_no_update(conn, game_id, None, OPEN_STATUSES, GameClosed)

        await self._db.statement(work)

    # -- logs --------------------------------------------------------------------------------

    async def action_log(self, game_id: int) -> list[ActionRow]:
        """The game's actions in ``seq`` order (1, 2, 3, ...); empty for an unknown game."""
        return await self._db.read(lambda conn: log.select_actions(conn, game_id))

    async def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's full event log: the start events, then each action's events, in order.

        Raises :class:`~storage.errors.GameNotFound`.
        """
        return await self._db.read(lambda conn: log.select_events(conn, game_id))
