"""What the validator needs of one game kind: its :class:`LogChecks`, the ``log_checks`` of
its :class:`bot.rules.registry.GameKind` entry (the rest of the validator knows no kind).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules.validate.shape import Schema

Obj = dict[str, Any]
"""One object of a game log."""


def no_options(setup: Obj) -> Mapping[str, Any]:
    """A kind whose rules have no options."""
    return {}


def nothing_implicit(state: Any, action: Any | None) -> Any | None:
    """A kind whose log records every decision."""
    return None


@dataclass(frozen=True, slots=True)
class LogChecks:
    """How ``python -m bot validate`` checks the games of one kind (:mod:`.replay`)."""

    schema: Schema
    """Every event the kind logs (``setup`` and ``game_end`` too): its keys and their types."""
    decision: Callable[[Obj, Sequence[str]], Any | None]
    """The action a logged event records (``players``: the setup's player ids, in seat
    order), or None for an event the engine writes on its own."""
    options: Callable[[Obj], Mapping[str, Any]] = no_options
    """The rule options of the game, read from its ``setup`` event, for ``engine.new_game``."""
    implicit: Callable[[Any, Any | None], Any | None] = nothing_implicit
    """An action the engine needs before the logged ``action`` but the log leaves out (Panda
    Royale: the Pass that ends a trading turn without a trade), or None. At the log's end it is
    asked with ``action`` None."""
    optional_keys: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """By event: keys the engine writes that a log may leave out."""
