"""The typed shape every game engine of ``bot.rules`` offers: :class:`Engine`.

An engine is a set of pure functions over its own state type ``S`` and action type ``A``. The
application (simulator, demo, Discord service) drives every game kind through this protocol
and the kind's entry in :mod:`bot.rules.registry`, so Panda Royale and Posing Pandas are driven
the same way.

Conventions shared by every engine (the :class:`Engine` methods say the rest): automatic steps
never wait for an action; illegal actions raise :class:`bot.rules.errors.IllegalAction` with a
message for players; events have ``to_log()`` (their docs/game-log.md object without the
``game`` key, which the log writer adds) and ``log_line``; actions have ``seat`` and
``to_json()``; states have ``to_json()`` and a format version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")
S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


class Event(Protocol):
    """One thing that happened in a game: a line of its game log."""

    def to_log(self) -> dict[str, Any]:
        """The event's game-log object (without the ``game`` key)."""
        ...

    def log_line(self, q: Mapping[str, str], tail: str) -> str:
        """``to_log()`` as its compact JSON text (texts quoted by ``q``), ``tail`` (the
        ``game`` key, the closing brace and the newline) in place of the closing brace.
        """
        ...


class Action(Protocol):
    """One decision of one seat."""

    @property
    def seat(self) -> int:
        """The seat that decides."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The action as a JSON object (``action_from_json`` reads it back)."""
        ...


class Player(Protocol[S_contra, A_co]):
    """A computer player: picks one legal action for the seat that must decide."""

    def choose(self, state: S_contra) -> A_co:
        """The action to take in ``state``."""
        ...


class Engine(Protocol[S, A]):
    """The rules of one game kind, over its state type ``S`` and action type ``A``."""

    kind: str

    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None,
        keep_events: bool = True,
    ) -> tuple[S, Sequence[Event]]:
        """Set up a game and run it to its first decision; the events start with ``setup``
        (none built without ``keep_events``).
        """
        ...

    def current_seat(self, state: S) -> int | None:
        """The seat that must decide now, or None when the game is over."""
        ...

    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action of the seat that must decide now."""
        ...

    def apply(self, state: S, action: A) -> tuple[S, Sequence[Event]]:
        """The state after ``action`` and its events; ``state`` is left untouched."""
        ...

    def apply_in_place(self, state: S, action: A, keep_events: bool = True) -> Sequence[Event]:
        """Play ``action`` on ``state`` itself; its events (none built without ``keep_events``)."""
        ...

    def state_to_json(self, state: S) -> dict[str, Any]:
        """The state as a JSON object."""
        ...

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Read a state written by :meth:`state_to_json`."""
        ...

    def action_from_json(self, data: Mapping[str, Any]) -> A:
        """Read an action written by its ``to_json``."""
        ...

    def totals(self, state: S) -> list[int]:
        """Each seat's points so far."""
        ...

    def winners(self, state: S) -> list[int]:
        """The seats sharing the win once the game is over (else empty)."""
        ...


LogObject = Mapping[str, Any]
"""One event of a game log, as docs/game-log.md writes it."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game's log, as an achievement reads it."""

    kind: str
    """The game kind (the registry's name)."""
    players: tuple[str, ...]
    """The players of its ``setup``, in seat order."""
    winners: frozenset[str]
    """Its ``game_end``'s winners (ties share the win)."""
    totals: Mapping[str, int]
    """Its ``game_end``'s totals, by player."""
    events: tuple[LogObject, ...]

    def lines(self, player: str, event: str) -> list[LogObject]:
        """``player``'s events named ``event``, in log order."""
        return [e for e in self.events if e.get("event") == event and e.get("player") == player]


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: a stable id (stored; never renamed), its English name and one line
    that says how it is earned (msgids, translated where they are shown), and how one
    finished game earns it.
    """

    id: str
    name: str
    description: str
    kind: str | None
    """The game kind (the registry's name) whose games can earn it; None: any kind, or a
    season's games."""
    check: Callable[[FinishedGame, str], bool] | None = None
    """Whether the player earned it in one finished game; None: a season's games earn it."""


def N_(msgid: str) -> str:  # noqa: N802 - gettext's marker name
    """Mark a name or a description for the catalogues (the Discord layer translates it)."""
    return msgid
