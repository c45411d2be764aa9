"""Lobbies: who may sit down, the limits on open games, how seats change, and
:class:`Lobbies`, the service's part that opens, edits, cancels and expires them.

The seat rules are plain functions over a :data:`Game`'s seats (no storage, no lock):
:class:`Lobbies` applies them under the channel's lock and commits the seats they return.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot.errors import GameNotRunning, LobbyError, NoGameHere, NotAllowed, StaleClick
from bot.rules.errors import Term
from bot.rules.levels import LEVELS, NORMAL
from bot.rules.registry import kind_of
from bot.service.deadlines import Deadlines
from bot.service.model import Game, Person, Place, cpu_id, cpu_level, cpu_name, cpu_slot
from bot.service.store import GameStore
from storage import (
    ChannelBusy,
    GameStatus,
    PlayerRow,
    ServerDefaults,
    StaleVersion,
    TooManyOpen,
    WrongStatus,
)

MIN_TURN_TIMEOUT: Final = 15
MAX_TURN_TIMEOUT: Final = 3600
MAX_OPEN_LOBBIES: Final = 3
"""How many open games (lobby or in play) one person may host at once, across channels."""
MAX_OPEN_PER_SERVER: Final = 25
"""How many open games one server may have at once (the default of ``GUILD_OPEN_GAMES``)."""
LOBBY_TTL: Final = 3600
"""Seconds a lobby waits for its start after its last change (the default of ``LOBBY_TTL``)."""

THREAD: Final = "thread"
"""The key of a game's settings that says it plays in a thread of its channel."""

NewSettings = dict[str, Any] | Callable[[ServerDefaults], dict[str, Any]]
"""A new game's settings, or how to make them from its server's defaults."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits on open games: per host, per server, and how long a lobby waits."""

    per_host: int = MAX_OPEN_LOBBIES
    per_server: int = MAX_OPEN_PER_SERVER
    lobby_ttl_s: int = LOBBY_TTL


def checked_settings(settings: dict[str, Any], default_timeout: int) -> dict[str, Any]:
    """A new game's settings with its turn timeout checked (``default_timeout`` when absent)."""
    timeout = settings.get("turn_timeout", default_timeout)
    if isinstance(timeout, bool) or not isinstance(timeout, int) \
            or not MIN_TURN_TIMEOUT <= timeout <= MAX_TURN_TIMEOUT:
        raise LobbyError("The turn timeout must be {low} to {high} seconds.",
                         low=MIN_TURN_TIMEOUT, high=MAX_TURN_TIMEOUT)
    return {**settings, "turn_timeout": timeout}


def host_seat(host: Person) -> PlayerRow:
    """The first seat of a new lobby."""
    return PlayerRow(0, str(host.id), host.name, False)


def seats_with(game: Game, who: Person) -> list[PlayerRow]:
    """The seats after ``who`` joins."""
    most = kind_of(game.kind).max_players
    if str(who.id) in game.player_ids:
        raise LobbyError("You're already in this game.")
    if len(game.players) >= most:
        raise LobbyError("The game is full ({n} players).", n=most)
    return [*game.players, PlayerRow(len(game.players), str(who.id), who.name, False)]


def seats_without(game: Game, who: Person) -> list[PlayerRow]:
    """The seats after ``who`` leaves (not the host: the host cancels)."""
    if str(who.id) not in game.player_ids:
        raise LobbyError("You're not in this game.")
    if who.id == game.host_id:
        raise LobbyError("You're the host: cancel the game instead of leaving it.")
    kept = [p for p in game.players if p.player_id != str(who.id)]
    return [PlayerRow(i, p.player_id, p.display_name, p.is_bot) for i, p in enumerate(kept)]


def check_level(level: str) -> None:
    """Refuse an unknown computer level."""
    if level not in LEVELS:
        raise LobbyError("Unknown level {level}: choose {choices}.", level=repr(level[:20]),
                         choices=", ".join(LEVELS))


def seats_with_computer(game: Game, who: Person, level: str) -> list[PlayerRow]:
    """The seats after the host adds a computer player of ``level``."""
    most = kind_of(game.kind).max_players
    if who.id != game.host_id:
        raise NotAllowed("Only the host can add computer players.")
    if len(game.players) >= most:
        raise LobbyError("The game is full ({n} players).", n=most)
    taken = {cpu_slot(p.player_id) for p in game.players}
    slot = next(i for i in range(1, 100) if i not in taken)
    return [*game.players, PlayerRow(len(game.players), cpu_id(slot, level),
                                     cpu_name(slot, level), True)]


class Lobbies:
    """Open a lobby, change its seats, cancel it, expire it, rematch a finished game."""

    def __init__(self, store: GameStore, deadlines: Deadlines, clock: Callable[[], int], *,
                 limits: Limits, default_timeout: int, seed: Callable[[], int]) -> None:
        """Keep lobbies in ``store``; ``seed()`` gives each new game its seed."""
        self.store = store
        self.deadlines = deadlines
        self.clock = clock
        self.limits = limits
        self.default_timeout = default_timeout
        self.seed = seed

    async def new_lobby(self, *, kind: str, place: Place, host: Person,
                        settings: NewSettings) -> Game:
        """Open a lobby with the host seated: one open game per channel, at most
        ``limits.per_host`` per host and ``limits.per_server`` per server (checked in the
        transaction that opens it). ``settings``: the game's, or how to make them from the
        server's defaults (read in that transaction).
        """
        entry = kind_of(kind)
        if callable(settings):
            make = settings

            def chosen(server: ServerDefaults) -> dict[str, Any]:
                return checked_settings(make(server), self.default_timeout)
        else:
            fixed = checked_settings(settings, self.default_timeout)

            def chosen(server: ServerDefaults) -> dict[str, Any]:
                return fixed
        async with self.store.lock(place.channel_id):
            try:
                game = await self.store.db.games.create(
                    guild_id=place.guild_id, channel_id=place.channel_id, kind=entry.name,
                    host_id=host.id, settings=chosen, seed=self.seed(),
                    players=[host_seat(host)], now_ms=self.clock(),
                    deadline_ms=self._expiry(), host_limit=self.limits.per_host,
                    server_limit=self.limits.per_server,
                )
            except ChannelBusy:
                busy = await self.store.db.games.open_in_channel(place.channel_id)
                what = kind_of(busy.kind).title if busy else "game"
                raise LobbyError(
                    "A {game} game is already open in this channel: finish or cancel it first.",
                    game=Term(what)) from None
            except TooManyOpen as full:
                if full.scope == "host":
                    raise LobbyError("You already host {n} open games: finish or cancel one "
                                     "(/royale cancel or /posing cancel) first.",
                                     n=full.limit) from None
                raise LobbyError("This server already has {n} open games: finish or cancel "
                                 "one first.", n=full.limit) from None
            self.store.cache.note(game)
            self.deadlines.arm(game)
            return game

    def _expiry(self) -> int:
        return self.clock() + self.limits.lobby_ttl_s * 1000

    async def _edit(self, game_id: int, change: Callable[[Game], list[PlayerRow]],
                    loaded: Game | None) -> Game:
        async with await self.store.lock_of(game_id):
            game = loaded if loaded is not None and loaded.id == game_id \
                else await self.store.load(game_id)
            if game.status == GameStatus.ACTIVE:
                raise GameNotRunning("The game has started: /{kind} resign hands your seat to "
                                     "the computer.", kind=game.kind)
            if game.status != GameStatus.LOBBY:
                raise GameNotRunning("This lobby is closed: the game has ended.")
            players = change(game)
            try:
                game = await self.store.db.games.set_players(game.id, players, game.version,
                                                             self.clock(), self._expiry())
            except StaleVersion:  # another process changed the lobby meanwhile
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:  # another process started or closed it meanwhile
                raise GameNotRunning("This game has already started or ended.") from None
            self.deadlines.arm(game)
            return game

    async def join(self, game_id: int, who: Person, *, loaded: Game | None = None) -> Game:
        """Seat ``who`` in the lobby (``loaded``: the game as the caller just read it; its
        version guards the write).
        """
        return await self._edit(game_id, lambda game: seats_with(game, who), loaded)

    async def leave(self, game_id: int, who: Person, *, loaded: Game | None = None) -> Game:
        """Take ``who`` out of the lobby (not the host: the host cancels)."""
        return await self._edit(game_id, lambda game: seats_without(game, who), loaded)

    async def add_computer(self, game_id: int, who: Person, level: str = NORMAL) -> Game:
        """Seat a computer player of ``level`` (easy, normal, hard; the host only)."""
        check_level(level)
        return await self._edit(game_id, lambda game: seats_with_computer(game, who, level),
                                None)

    async def set_thread(self, game_id: int, who: Person, thread: bool) -> Game:
        """The host chooses whether the game plays in a thread of its channel."""
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.LOBBY:
                raise GameNotRunning("This lobby is closed: the game has started or ended.")
            if who.id != game.host_id:
                raise NotAllowed("Only the host can choose where the game is played.")
            settings = {**game.settings, THREAD: True} if thread \
                else {k: v for k, v in game.settings.items() if k != THREAD}
            try:
                game = await self.store.db.games.set_lobby_settings(game.id, game.version,
                                                                    settings, self.clock())
            except StaleVersion:
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:
                raise GameNotRunning("This game has already started or ended.") from None
            self.store.cache.note(game)
            return game

    async def cancel(self, game_id: int, who: Person, *, manager: bool,
                     guild_id: int | None = None) -> Game:
        """Cancel an open game (its host, or ``manager``: someone who may manage its channel).
        ``guild_id``: the server the request comes from (a game elsewhere is refused).
        """
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if guild_id is not None and game.guild_id != guild_id:
                raise NoGameHere("That game no longer exists.")
            if not game.is_open:
                raise GameNotRunning("This game is already over.")
            if who.id != game.host_id and not manager:
                raise NotAllowed("Only the host or someone who can manage this channel can "
                                 "cancel the game.")
            try:
                game = await self.store.db.games.end(game.id, GameStatus.CANCELLED, "cancelled",
                                                     self.clock())
            except WrongStatus:  # another process ended it meanwhile
                raise GameNotRunning("This game is already over.") from None
            self.ended(game)
            return game

    async def expire(self, game_id: int) -> Game | None:
        """Close a lobby nobody started before its deadline (None: it changed meanwhile)."""
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.LOBBY:
                return None
            if game.deadline_ms is not None and game.deadline_ms > self.clock():
                self.deadlines.arm(game)  # changed meanwhile: a later deadline
                return None
            try:
                game = await self.store.db.games.end(game.id, GameStatus.CANCELLED, "expired",
                                                     self.clock(), expected_version=game.version)
            except (StaleVersion, WrongStatus):
                return None
            self.ended(game)
            return game

    def ended(self, game: Game) -> None:
        """Forget an ended game (its cache entry, its deadline)."""
        self.store.cache.release(game.id)
        self.deadlines.cancel(game.id)

    async def rematch(self, game_id: int, who: Person, place: Place) -> Game:
        """A new lobby in the finished game's channel with the same settings and computer
        players, hosted by ``who`` (one of its players).
        """
        old = await self.store.load(game_id)
        if old.status != GameStatus.FINISHED:
            raise GameNotRunning("A rematch is offered once the game is over.")
        if str(who.id) not in old.player_ids:
            raise NotAllowed("Only the players of that game can start its rematch.")
        game = await self.new_lobby(kind=old.kind, place=place, host=who,
                                    settings=dict(old.settings))
        for seat in old.players:
            if seat.is_bot:
                game = await self.add_computer(game.id, who, cpu_level(seat.player_id))
        return game
