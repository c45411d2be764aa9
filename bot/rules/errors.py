"""The error tree whose messages are written for players.

:class:`PlayerError` is the one root: the rules engines raise :class:`RulesError` and its
subclasses, the game service raises the errors of :mod:`bot.errors`, and the Discord layer shows
any :class:`PlayerError` to the user as it is, privately. Every other exception is a bug: it is
logged with its traceback and the user gets a short apology with an incident id.
"""

from __future__ import annotations

from typing import Any


class Term(str):
    """A word of the game's vocabulary inside an error's values (a die's name, a phase): the
    Discord layer translates it with the message.
    """

    __slots__ = ()


class PlayerError(Exception):
    """An error whose ``message`` a player can read (the root of every such error).

    ``template`` is the English text with named ``{placeholders}`` and ``params`` their values:
    the Discord layer looks the template up in the player's language and fills it there;
    ``message`` is the English text, filled.
    """

    def __init__(self, template: str, **params: Any) -> None:
        message = template.format(**params) if params else template
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params


class RulesError(PlayerError):
    """Base class of every error the rules engines raise on purpose."""


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
