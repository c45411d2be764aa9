"""Domain errors of the rules engines.

Every message is written for a player: the Discord layer shows it as it is.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error the rules engines raise on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(RulesError):
    """The action breaks a rule (wrong die, wrong phase, ...)."""


class NotYourTurn(IllegalAction):
    """Somebody other than the deciding player tried to act."""


class GameOver(IllegalAction):
    """The game has ended: no action is accepted any more."""


class InvalidSetup(RulesError):
    """The game cannot be set up as asked (player count, options, ...)."""


class StateFormatError(RulesError):
    """A saved state or action cannot be read back."""
