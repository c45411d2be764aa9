"""Every game kind the bot plays, in one table: :data:`KINDS`.

A :class:`GameKind` bundles what the application needs to run one kind of game: its engine
(:class:`bot.rules.api.Engine`), its computer players, its seat range and which game settings
are options of its rules. The Discord layer adds its own part of the entry (presenter, buttons,
slash commands) in ``cogs/registry.py``. Adding a game kind: see docs/contributing.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from bot.rules.api import Engine, Player
from bot.rules.posing.actions import PosingAction
from bot.rules.posing.ai import make_player as make_posing_player
from bot.rules.posing.engine import ENGINE as POSING_ENGINE
from bot.rules.posing.state import PosingState
from bot.rules.royale.actions import RoyaleAction
from bot.rules.royale.dice import MAX_PLAYERS, MIN_PLAYERS
from bot.rules.royale.engine import ENGINE as ROYALE_ENGINE
from bot.rules.royale.players import make_player as make_royale_player
from bot.rules.royale.state import RoyaleState

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class GameKind(Generic[S, A]):
    """One kind of game: its rules, its computer players and how many may sit down."""

    name: str
    """The kind's id (``"royale"``), stored with every game."""
    title: str
    """The kind's name for people (``"Panda Royale"``)."""
    engine: Engine[S, A]
    make_player: Callable[[str, int], Player[S, A]]
    """A seeded computer player by name (``make_player("heuristic", seed)``)."""
    min_players: int
    max_players: int
    rule_options: frozenset[str]
    """The game settings handed to ``engine.new_game`` (the rest belong to the service)."""
    turn_end: str | None = None
    """A player who runs out of time has the computer finish their turn up to this action type
    (Posing: the fill); ``None``: one decision."""


ROYALE: Final[GameKind[RoyaleState, RoyaleAction]] = GameKind(
    name="royale", title="Panda Royale", engine=ROYALE_ENGINE, make_player=make_royale_player,
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, rule_options=frozenset({"expansions"}),
)
POSING: Final[GameKind[PosingState, PosingAction]] = GameKind(
    name="posing", title="Posing Pandas", engine=POSING_ENGINE, make_player=make_posing_player,
    min_players=1, max_players=10, rule_options=frozenset(), turn_end="fill",
)

# The one place where the kinds' state and action types are erased: a game is looked up by
# the kind stored with it.
KINDS: Final[Mapping[str, GameKind[Any, Any]]] = {k.name: k for k in (ROYALE, POSING)}
GAME_KINDS: Final[tuple[str, ...]] = tuple(KINDS)


def kind_of(name: str) -> GameKind[Any, Any]:
    """The entry of a game kind; ValueError for an unknown one."""
    kind = KINDS.get(name)
    if kind is None:
        raise ValueError(f"unknown game {name!r}: choose from {', '.join(GAME_KINDS)}")
    return kind


def engine_for(name: str) -> Engine[Any, Any]:
    """The engine of a game kind (see :class:`bot.rules.api.Engine`)."""
    return kind_of(name).engine
