"""Errors the application shows to a user as they are (one short ephemeral message).

Rules engines raise :class:`bot.rules.errors.RulesError`; the service raises these. Both reach
the user through the same path; anything else is a bug, logged with its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """Something the user asked for can't be done; ``message`` says why, politely."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
