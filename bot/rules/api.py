"""The shape every game engine of ``bot.rules`` offers.

An engine is a module-level set of pure functions over its own state type. The application
(simulator, demo, Discord service) only talks to engines through :class:`Engine`, so Panda
Royale and Posing Pandas are driven the same way.

Conventions shared by every engine:

* ``new_game(players, seed, options)`` returns the state and the events up to the first
  decision (the ``setup`` event first). Automatic steps never wait for an action.
* ``current_seat(state)`` is the seat that must decide now, or ``None`` when the game is over.
* ``legal_actions(state)`` lists every legal action of that seat.
* ``apply(state, action)`` never mutates ``state``: it returns a new state and the events.
  ``apply_in_place`` does the same work on ``state`` itself (the simulator's fast path).
* Illegal actions raise :class:`bot.rules.errors.IllegalAction` with a message for players.
* Events are frozen dataclasses with ``to_log()`` giving the docs/game-log.md object (without the
  ``game`` key, which the log writer adds).
* Actions are frozen dataclasses with ``to_json()``; ``action_from_json`` reads them back.
* States have ``to_json()`` / ``state_from_json`` and a ``FORMAT_VERSION``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Event(Protocol):
    def to_log(self) -> dict[str, Any]: ...


class Action(Protocol):
    seat: int

    def to_json(self) -> dict[str, Any]: ...


class Player(Protocol):
    """A computer player: picks one legal action for the seat that must decide."""

    def choose(self, state: Any) -> Any: ...


class Engine(Protocol):
    kind: str

    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> tuple[Any, list[Any]]: ...

    def current_seat(self, state: Any) -> int | None: ...

    def legal_actions(self, state: Any) -> list[Any]: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]: ...

    def apply_in_place(self, state: Any, action: Any) -> list[Any]: ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def action_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def totals(self, state: Any) -> list[int]: ...

    def winners(self, state: Any) -> list[int]: ...

    def make_player(self, name: str, seed: int) -> Player: ...
