"""The errors the storage layer raises on purpose.

Every error derives from :class:`StorageError`. Errors about game flow (busy channel, stale
version, wrong status) carry the ids involved so the service can answer the player; errors about
bad input from the caller (:class:`InvalidData`) are programming errors and also ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterable


class StorageError(Exception):
    """Base class of every error the storage layer raises on purpose."""


class BackendError(StorageError):
    """The database itself failed (locked by another process too long, disk full, ...).

    The transaction was rolled back; the driver's error is the ``__cause__``.
    """


class SchemaError(StorageError):
    """The database file does not match the migrations this code knows."""


class InvalidData(StorageError, ValueError):
    """The caller passed values storage refuses to write (bad seats, unknown kind, ...)."""


class GameNotFound(StorageError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class ChannelBusy(StorageError):
    """The channel already has an open (lobby or active) game."""

    def __init__(self, channel_id: int, game_id: int) -> None:
        super().__init__(f"channel {channel_id} already has open game {game_id}")
        self.channel_id = channel_id
        self.game_id = game_id


class StaleVersion(StorageError):
    """The caller's ``expected_version`` is not the game's version: nothing was written."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class WrongStatus(StorageError):
    """The game's status does not allow this write."""

    def __init__(self, game_id: int, status: str, allowed: Iterable[str]) -> None:
        self.allowed = tuple(allowed)
        super().__init__(f"game {game_id} is {status}, expected {' or '.join(self.allowed)}")
        self.game_id = game_id
        self.status = status


class NotInLobby(WrongStatus):
    """Players can only change, and a game can only start, while it is in the lobby."""


class NotActive(WrongStatus):
    """Actions can only be committed to an active game."""


class GameClosed(WrongStatus):
    """The game is finished or cancelled (cancelling or re-timing it is refused)."""


class TooManyOpen(StorageError):
    """A new lobby would exceed a limit on open games: its host's (``scope`` ``"host"``) or
    its server's (``"server"``). Nothing was written.
    """

    def __init__(self, scope: str, limit: int) -> None:
        super().__init__(f"the {scope} already has {limit} open games")
        self.scope = scope
        self.limit = limit
