"""Lobbies: who may sit down, the limits on open games, how seats change.

The seat rules are plain functions over a :data:`Game`'s seats (no storage, no lock): the game
service applies them under the channel's lock and commits the seats they return.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot.errors import LobbyError, NotAllowed
from bot.rules.levels import LEVELS
from bot.rules.registry import kind_of
from bot.service.model import Person, cpu_id, cpu_name, cpu_slot
from storage import (
    Game,
    Reach,
    Seat,
    ServerDefaults,
)

MIN_TURN_TIMEOUT: Final = 15
MAX_TURN_TIMEOUT: Final = 3600
SLOW_PACES: Final = {"4h": 4 * 3600, "1d": 24 * 3600, "3d": 72 * 3600}
"""The slow paces by name, each the seconds a turn may take. Four hours plays a game within a
day (a move at lunch, one in the evening); a day is the usual game by correspondence (a move
whenever you have a minute); three days carries a game over a busy week. Longer turns lose
the thread of a 10-round game; shorter ones are a live game's."""
MAX_OPEN_LOBBIES: Final = 3
"""How many open games (lobby or in play) one person may host at once, across channels."""
MAX_OPEN_PER_SERVER: Final = 25
"""How many open games one server may have at once (the default of ``GUILD_OPEN_GAMES``)."""
LOBBY_TTL: Final = 3600
"""Seconds a lobby waits for its start after its last change (the default of ``LOBBY_TTL``)."""

THREAD: Final = "thread"
"""The key of a game's settings that says it plays in a thread of its channel."""
APP_TURN_TIMEOUT: Final = 600
"""The longest turn of a game played through the app (reach ``app`` or ``private``): its timer
must fire while the interaction that started the turn can still show what happens (a token
lives 15 minutes)."""

NewSettings = dict[str, Any] | Callable[[ServerDefaults], dict[str, Any]]
"""A new game's settings, or how to make them from its server's defaults."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits on open games: per host, per server, and how long a lobby waits."""

    per_host: int = MAX_OPEN_LOBBIES
    per_server: int = MAX_OPEN_PER_SERVER
    lobby_ttl_s: int = LOBBY_TTL


def checked_settings(settings: dict[str, Any], default_timeout: int,
                     reach: Reach = Reach.BOT) -> dict[str, Any]:
    """A new game's settings with its turn timeout checked (``default_timeout`` when absent).
    Played through the app (``reach``), a game has no thread and no slow pace, and a turn of
    at most :data:`APP_TURN_TIMEOUT`.
    """
    through_app = reach is not Reach.BOT
    timeout = settings.get("turn_timeout", min(default_timeout, APP_TURN_TIMEOUT)
                           if through_app else default_timeout)
    if isinstance(timeout, bool) or not isinstance(timeout, int) \
            or not (MIN_TURN_TIMEOUT <= timeout <= MAX_TURN_TIMEOUT
                    or timeout in SLOW_PACES.values()):
        raise LobbyError("The turn timeout must be {low} to {high} seconds.",
                         low=MIN_TURN_TIMEOUT, high=MAX_TURN_TIMEOUT)
    if through_app and timeout in SLOW_PACES.values():
        raise LobbyError("Slow games need the bot in the server: here the app can only answer "
                         "your clicks, so it cannot remind anyone.")
    if through_app and timeout > APP_TURN_TIMEOUT:
        raise LobbyError("Here the app can only answer your clicks, so a turn lasts at most "
                         "{high} seconds.", high=APP_TURN_TIMEOUT)
    if through_app and settings.get(THREAD):
        raise LobbyError("Threads need the bot in the server: here the app can only answer "
                         "your clicks.")
    return {**settings, "turn_timeout": timeout}


def by_app(game: Game) -> bool:
    """Whether the game is played through the app alone (the bot answers interactions only)."""
    return game.reach is not Reach.BOT


HOST_PAUSE: Final = "host"
"""Why a game is paused when its host paused it (a slow game only)."""


def is_slow(game: Game) -> bool:
    """Whether the game is played at a slow pace (a turn within hours or days)."""
    return int(game.settings.get("turn_timeout", 0)) > MAX_TURN_TIMEOUT


def host_seat(host: Person) -> Seat:
    """The first seat of a new lobby."""
    return Seat(0, host.player_id, host.name, False)


def seats_with(game: Game, who: Person) -> list[Seat]:
    """The seats after ``who`` joins."""
    most = kind_of(game.kind).max_players
    if who.player_id in game.player_ids:
        raise LobbyError("You're already in this game.")
    if len(game.players) >= most:
        raise LobbyError("The game is full ({n} players).", n=most)
    return [*game.players, Seat(len(game.players), who.player_id, who.name, False)]


def seats_without(game: Game, who: Person) -> list[Seat]:
    """The seats after ``who`` leaves (not the host: the host cancels)."""
    if who.player_id not in game.player_ids:
        raise LobbyError("You're not in this game.")
    if who.id == game.host_id:
        raise LobbyError("You're the host: cancel the game instead of leaving it.")
    kept = [p for p in game.players if p.player_id != who.player_id]
    return [Seat(i, p.player_id, p.display_name, p.is_bot) for i, p in enumerate(kept)]


def check_level(level: str) -> None:
    """Refuse an unknown computer level."""
    if level not in LEVELS:
        raise LobbyError("Unknown level {level}: choose {choices}.", level=repr(level[:20]),
                         choices=", ".join(LEVELS))


def seats_with_computer(game: Game, who: Person, level: str) -> list[Seat]:
    """The seats after the host adds a computer player of ``level``."""
    most = kind_of(game.kind).max_players
    if who.id != game.host_id:
        raise NotAllowed("Only the host can add computer players.")
    if len(game.players) >= most:
        raise LobbyError("The game is full ({n} players).", n=most)
    taken = {cpu_slot(p.player_id) for p in game.players}
    slot = next(i for i in range(1, 100) if i not in taken)
    return [*game.players, Seat(len(game.players), cpu_id(slot, level),
                                     cpu_name(slot, level), True)]
