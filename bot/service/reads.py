"""The game service's reading half: locks, cached states, recent events, games by id or
channel, the game log (seedless while a game is open), and where a game lives.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from bot.errors import GameNotRunning, NoGameHere, NotAllowed, UserError, WrongPlace
from bot.rules.errors import Term
from bot.rules.registry import kind_of
from bot.service.model import Game, GameLog, Outcome, Place
from bot.service.timers import TurnTimers
from storage import Storage

TAIL_LIMIT: Final = 160
"""Events kept in memory per game for the message of the current round (or turns)."""

LANGUAGE_CODE: Final = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})?")
"""A language code as the catalogues name them: ``es``, ``ja``, ``pt-br``."""

Listener = Callable[[Outcome, str], Awaitable[None]]


def wall_ms() -> int:
    """Milliseconds since the epoch (the service's default clock)."""
    return int(time.time() * 1000)


class GameReads:
    """What every part of the game service shares: the database, the clock, the locks and the
    caches; and every read the Discord layer needs.
    """


    def __init__(
        self,
        db: Storage,
        *,
        clock: Callable[[], int] = wall_ms,
        default_timeout: int = 120,
        seed_source: Callable[[], int] = lambda: secrets.randbits(48),
    ) -> None:
        """Serve the games of ``db``; ``clock`` gives now in epoch ms."""
        self.db = db
        self.clock = clock
        self.default_timeout = default_timeout
        self.seed_source = seed_source
        self._locks: dict[int, asyncio.Lock] = {}
        self._channels: dict[int, int] = {}  # game id -> channel id (never changes)
        self._states: dict[int, tuple[int, Any]] = {}
        self._tails: dict[int, list[dict[str, Any]]] = {}
        self._timers = TurnTimers(clock, self._fire)
        self.owns: Callable[[int], bool] = lambda guild_id: True
        """Whether this process runs the turn timers and restores the games of a guild (the
        cluster whose shard holds it; see :mod:`bot.shards`)."""
        self.listeners: dict[str, Listener] = {}
        """Per game kind: told when the service moved a game on its own (a timeout, a
        resumed computer turn), with the outcome and ``"timeout"`` or ``"resume"``."""

    # ------------------------------------------------------------------ reading

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: every change to a channel's game happens under it."""
        lk = self._locks.get(channel_id)
        if lk is None:
            lk = self._locks[channel_id] = asyncio.Lock()
        return lk

    def state_of(self, game: Game) -> Any:
        """The engine state of an active or finished game (cached by version while the game
        is in play: a finished game is read rarely and must not stay in memory).
        """
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[1]
        if game.state is None:
            raise GameNotRunning("This game hasn't started yet.")
        state = kind_of(game.kind).engine.state_from_json(game.state)
        if game.status == "active":
            self._states[game.id] = (game.version, state)
        return state

    async def tail(self, game: Game) -> list[dict[str, Any]]:
        """The game's most recent events (those of the current round at least)."""
        t = self._tails.get(game.id)
        if t is None:
            t = trim_events(game.kind, await self.db.game_events(game.id))
            if game.status == "active":  # kept in memory while the game is in play only
                self._tails[game.id] = t
        return t

    async def get_game(self, game_id: int) -> Game | None:
        """The game with this id, or None."""
        game = await self.db.get_game(game_id)
        if game is not None:
            self._channels[game.id] = game.channel_id
        return game

    async def open_game(self, channel_id: int) -> Game | None:
        """The channel's game in the lobby or in play, if any."""
        return await self.db.open_game_in_channel(channel_id)

    async def game_in_channel(self, channel_id: int, kind: str | None = None) -> Game:
        """The channel's open game (of ``kind`` if given), or a NoGameHere error."""
        game = await self.db.open_game_in_channel(channel_id)
        if game is None or (kind is not None and game.kind != kind):
            title = kind_of(kind).title if kind else "game"
            raise NoGameHere("There is no {game} game in this channel: start one with "
                             "/{kind} new.", game=Term(title), kind=kind or "royale")
        return game

    async def game_log(self, channel_id: int, kind: str) -> GameLog:
        """The log of the channel's current or most recent game of ``kind``. While the game
        is open, the setup's seed is left out: it would predict every roll to come.
        """
        game = await self.db.latest_game_in_channel(channel_id, kind)
        if game is None or game.state is None:
            raise NoGameHere("No {game} game has been played in this channel yet.",
                             game=Term(kind_of(kind).title))
        return await self.log_of(game)

    async def log_of(self, game: Game) -> GameLog:
        """The log of ``game`` as it may be shown now (seedless while the game is open)."""
        events = await self.db.game_events(game.id)
        complete = not game.is_open
        if not complete:
            events = [_without_seed(e) for e in events]
        return GameLog(game, events, complete)

    async def check_place(self, game_id: int, place: Place) -> None:
        """Refuse a component used outside its game's channel (a forged or copied one)."""
        channel = self._channels.get(game_id)
        if channel is None:
            game = await self.get_game(game_id)
            if game is None:
                raise NoGameHere("That game no longer exists.")
            channel = game.channel_id
        if channel != place.channel_id:
            raise WrongPlace("That button belongs to a game in another channel.")

    async def server_language(self, guild_id: int) -> str | None:
        """The default language a server's admins chose (``/settings language``), or None."""
        return await self.db.guild_language(guild_id)

    async def set_server_language(self, guild_id: int, language: str, *, manager: bool) -> None:
        """Set a server's default language (``manager``: the user may manage the server)."""
        if not manager:
            raise NotAllowed("Only someone who can manage this server can change its settings.")
        if not LANGUAGE_CODE.fullmatch(language):
            raise UserError("Choose one of the languages the command offers.")
        await self.db.set_guild_language(guild_id, language, self.clock())

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the game's current Discord message (where its buttons are)."""
        await self.db.set_message(game_id, message_id)

    def timeout_of(self, game: Game) -> int:
        """Seconds a person has for one decision in this game."""
        return int(game.settings.get("turn_timeout", self.default_timeout))

    @property
    def pending_timers(self) -> int:
        """How many turn timers are running."""
        return len(self._timers)

    # ------------------------------------------------------------------ cache

    def _remember(self, game: Game, state: Any, events: list[dict[str, Any]]) -> None:
        self._states[game.id] = (game.version, state)
        t = self._tails.get(game.id)
        if t is not None:
            t.extend(events)
            self._tails[game.id] = trim_events(game.kind, t)

    def _forget(self, game_id: int) -> None:
        self._states.pop(game_id, None)
        self._tails.pop(game_id, None)
        self._timers.cancel(game_id)

    async def _load(self, game_id: int) -> Game:
        game = await self.get_game(game_id)
        if game is None:
            raise NoGameHere("That game no longer exists.")
        return game

    async def _channel_lock(self, game_id: int) -> asyncio.Lock:
        """The lock of the game's channel (the channel is read once, then remembered)."""
        channel = self._channels.get(game_id)
        if channel is None:
            channel = (await self._load(game_id)).channel_id
        return self.lock(channel)

    async def _fire(self, game_id: int, version: int) -> None:
        """A turn timer ran out (see :class:`bot.service.GameService`)."""
        raise NotImplementedError


def _without_seed(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("event") != "setup" or "seed" not in event:
        return event
    return {k: v for k, v in event.items() if k != "seed"}


def trim_events(kind: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the events of the current and the previous round (Royale) or the last turns."""
    if kind == "royale":
        ends = [i for i, e in enumerate(events) if e.get("event") == "draft_return"]
        if len(ends) >= 2:
            return events[ends[-2] + 1:]  # the round just finished and the current one
    return events[-TAIL_LIMIT:]
