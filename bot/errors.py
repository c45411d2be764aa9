"""Errors of the game service, shown to the user as they are (one short private message).

They share one root with the rules engines' errors: :class:`bot.rules.errors.PlayerError`.
"""

from __future__ import annotations

from bot.rules.errors import PlayerError


class UserError(PlayerError):
    """Something the user asked for can't be done; ``message`` says why, politely."""


class NoGameHere(UserError):
    """The channel has no game of that kind (or the game is gone)."""


class GameNotRunning(UserError):
    """The game is finished, cancelled, or not started yet."""


class StaleClick(UserError):
    """The button or menu belongs to an earlier moment of the game."""


class NotYourTurnError(UserError):
    """Someone else must decide now."""


class NotAllowed(UserError):
    """Only the host (or a channel manager) may do that."""


class LobbyError(UserError):
    """Joining, leaving or starting the lobby failed (full, already in, too few players)."""


class WrongPlace(UserError):
    """The component or command belongs to another channel or server than where it was used."""


class GamePaused(GameNotRunning):
    """The game is paused (the bot may not post in its channel): nothing is applied."""
