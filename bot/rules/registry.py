"""Every game kind the bot plays, in one table: :data:`KINDS`.

A :class:`GameKind` bundles what the application needs to know of one kind of game, so the
service, the CLI, the simulator, the validator and the stats read a kind's fields here and
never ask "is it Royale?". The first kind registered is the default. The Discord layer adds its
own part of a kind in ``cogs/<kind>/__init__.py``. Adding a game kind: see docs/contributing.md.
"""

from __future__ import annotations

from collections.abc import Callable, KeysView, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar

from bot.rules.api import Achievement, Engine, Player
from bot.rules.levels import EASY, HARD, LEVELS, NORMAL
from bot.rules.posing.achievements import ACHIEVEMENTS as POSING_ACHIEVEMENTS
from bot.rules.posing.actions import PosingAction
from bot.rules.posing.ai import ExpectedValuePlayer, RandomPosingPlayer
from bot.rules.posing.engine import ENGINE as POSING_ENGINE
from bot.rules.posing.events import event_from_log as posing_event
from bot.rules.posing.events import recent_events as posing_recent
from bot.rules.posing.optimal import OptimalPosingPlayer
from bot.rules.posing.poses import BOX_COUNT
from bot.rules.posing.poses import MAX_PLAYERS as POSING_MAX
from bot.rules.posing.poses import MIN_PLAYERS as POSING_MIN
from bot.rules.posing.review import REVIEWER as POSING_REVIEWER
from bot.rules.posing.state import PosingState
from bot.rules.review import Reviewer
from bot.rules.royale.achievements import ACHIEVEMENTS as ROYALE_ACHIEVEMENTS
from bot.rules.royale.actions import RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer, RandomPlayer
from bot.rules.royale.dice import EXPANSIONS, MAX_PLAYERS, MIN_PLAYERS, ROUNDS
from bot.rules.royale.engine import ENGINE as ROYALE_ENGINE
from bot.rules.royale.events import event_from_log as royale_event
from bot.rules.royale.events import recent_events as royale_recent
from bot.rules.royale.expert import ExpertPlayer
from bot.rules.royale.review import REVIEWER as ROYALE_REVIEWER
from bot.rules.royale.state import RoyaleState
from bot.rules.validate.checks import LogChecks
from bot.rules.validate.posing_log import POSING_LOG
from bot.rules.validate.royale_log import ROYALE_LOG

S = TypeVar("S")
A = TypeVar("A")

LogObject = dict[str, Any]
"""One event of a game log, as docs/game-log.md writes it."""
RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Demo:
    """A kind's terminal demo: ``python -m bot demo --game NAME``."""

    runner: str
    """``"module:function"``, called as ``function(players=..., seed=..., ai=..., out=...,
    **rules)``; named, not imported, because ``bot/sim`` sits above the rules."""
    players: int
    """Its seats when ``--players`` is not given."""


@dataclass(frozen=True, slots=True)
class Progress:
    """How a kind's log counts a game's steps (Royale's rounds, Posing's turns), for the
    game-over chart and the replay.
    """

    event: str
    """The event scoring one player's step, once per player and step (``"score"``)."""
    step: str
    """Its key numbering the steps, from 1 (``"round"``); every event of the step has it."""
    points: str
    """Its key holding the player's points for the step (``"total"``)."""
    axis: str
    """The chart's axis (an English msgid: ``"Rounds"``)."""
    position: str
    """Where a step is, for people (an English msgid: ``"Round {n} of {steps}"``)."""
    steps: int
    """How many steps a whole game has."""


@dataclass(frozen=True, slots=True)
class Bench:
    """What ``./dev bench`` (:mod:`tools.sim.bench`) plays of a kind (docs/performance.md keeps
    the figures).
    """

    players: tuple[int, ...]
    """The seat counts of its engine-loop games (and of ``simulate``, for the default kind)."""
    option_sets: tuple[Mapping[str, tuple[str, ...]], ...] = ({},)
    """The rule options of its engine-loop games; decisions are timed with the last."""
    ai: tuple[str, ...] = ("random", "heuristic")
    """The computer players timed, by the engine's names."""
    decision_players: int = 4
    """The seats of the games decisions are timed in."""


@dataclass(frozen=True, slots=True)
class GameKind(Generic[S, A]):
    """One kind of game: its rules, its computer players, its seats and options, its log."""

    name: str
    """The kind's id (``"royale"``), stored with every game and logged as ``game_kind``."""
    title: str
    """The kind's name for people (``"Panda Royale"``)."""
    engine: Engine[S, A]
    players: Mapping[str, Callable[[int], Player[S, A]]]
    """Its computer players by the engine's names (``"heuristic"``), each made from a seed."""
    levels: Mapping[str, str]
    """Which of ``players`` each level of :data:`bot.rules.levels.LEVELS` is."""
    min_players: int
    max_players: int
    recent_events: Callable[[Sequence[Any]], list[Any]]
    """Which of a game's events (oldest first) its board shows."""
    read_event: Callable[[LogObject, tuple[str, ...]], Any]
    """The engine's event a logged object records (the players in seat order)."""
    log_checks: LogChecks
    """How ``python -m bot validate`` checks its games' logs."""
    rule_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The settings handed to ``engine.new_game``, each with its choices (a setting's value is
    a list of some of them); the ``setup`` event logs each under its name."""
    turn_end: str | None = None
    """A player out of time has the computer finish their turn up to this action type (Posing:
    the fill); ``None``: one decision."""
    demo: Demo | None = None
    reviewer: Reviewer | None = None
    """How a game review judges one player's decisions (:mod:`bot.rules.review`)."""
    progress: Progress | None = None
    color: RGB | None = None
    """The kind's colour in charts; None: the charts' colour for any other kind."""
    bench: Bench | None = None
    achievements: tuple[Achievement, ...] = ()
    """What its games alone can earn, in the order they are listed to players."""

    @property
    def player_names(self) -> tuple[str, ...]:
        """Every name :meth:`make_player` takes: the levels, then the engine's players."""
        return tuple(dict.fromkeys((*LEVELS, *self.players)))

    def make_player(self, name: str, seed: int) -> Player[S, A]:
        """A seeded computer player by level (``"hard"``) or by the engine's name."""
        key = name.strip().lower()
        make = self.players.get(self.levels.get(key, key))
        if make is None:
            raise ValueError(f"There is no computer player called {name!r}: choose "
                             f"{', '.join(LEVELS)} or {', '.join(self.players)}.")
        return make(seed)


# The one place where the kinds' state and action types are erased: a game is looked up by
# the kind stored with it.
_KINDS: dict[str, GameKind[Any, Any]] = {}
KINDS: Final[Mapping[str, GameKind[Any, Any]]] = MappingProxyType(_KINDS)
"""Every game kind by name, in the order registered: a read-only view of the one list."""
GAME_KINDS: Final[KeysView[str]] = KINDS.keys()
"""The kinds' names: a live view of :data:`KINDS`."""


def register(kind: GameKind[S, A]) -> GameKind[S, A]:
    """Add ``kind`` to :data:`KINDS` and return it (ValueError if it does not fit)."""
    if kind.name in _KINDS:
        raise ValueError(f"the game kind {kind.name!r} is registered twice")
    if kind.engine.kind != kind.name:
        raise ValueError(f"the game kind {kind.name!r} has the engine of {kind.engine.kind!r}")
    if not 1 <= kind.min_players <= kind.max_players:
        raise ValueError(f"the game kind {kind.name!r} seats {kind.min_players} to "
                         f"{kind.max_players} players")
    _KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove a kind registered at run time (a test's own kind, when the test ends)."""
    _KINDS.pop(name, None)


def default_kind() -> GameKind[Any, Any]:
    """The kind taken when none is named: the first registered."""
    return next(iter(_KINDS.values()))


def kind_of(name: str) -> GameKind[Any, Any]:
    """The entry of a game kind; ValueError for an unknown one."""
    kind = KINDS.get(name)
    if kind is None:
        raise ValueError(f"unknown game {name!r}: choose from {', '.join(KINDS)}")
    return kind


def engine_for(name: str) -> Engine[Any, Any]:
    """The engine of a game kind (see :class:`bot.rules.api.Engine`)."""
    return kind_of(name).engine


ROYALE: Final[GameKind[RoyaleState, RoyaleAction]] = register(GameKind(
    name="royale", title="Panda Royale", engine=ROYALE_ENGINE,
    players={"random": RandomPlayer, "heuristic": HeuristicPlayer, "expert": ExpertPlayer},
    levels={EASY: "random", NORMAL: "heuristic", HARD: "expert"},
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, recent_events=royale_recent,
    read_event=royale_event,
    log_checks=ROYALE_LOG, rule_options={"expansions": EXPANSIONS},
    demo=Demo("bot.sim.demo_royale:run_royale_demo", players=4), reviewer=ROYALE_REVIEWER,
    progress=Progress(event="score", step="round", points="total", axis="Rounds",
                      position="Round {n} of {steps}", steps=ROUNDS),
    color=(0, 114, 178),  # Okabe-Ito blue
    bench=Bench(players=(4, 10), option_sets=({}, {"expansions": EXPANSIONS})),
    achievements=ROYALE_ACHIEVEMENTS,
))
POSING: Final[GameKind[PosingState, PosingAction]] = register(GameKind(
    name="posing", title="Posing Pandas", engine=POSING_ENGINE,
    players={"random": RandomPosingPlayer, "heuristic": ExpectedValuePlayer,
             "optimal": OptimalPosingPlayer},
    levels={EASY: "random", NORMAL: "heuristic", HARD: "optimal"},
    min_players=POSING_MIN, max_players=POSING_MAX, recent_events=posing_recent,
    read_event=posing_event,
    log_checks=POSING_LOG, turn_end="fill",
    demo=Demo("bot.sim.demo_posing:run_posing_demo", players=2), reviewer=POSING_REVIEWER,
    progress=Progress(event="fill", step="turn", points="points", axis="Turns",
                      position="Turn {n} of {steps}", steps=BOX_COUNT),
    color=(0, 158, 115),  # Okabe-Ito bluish green
    bench=Bench(players=(1, 4)), achievements=POSING_ACHIEVEMENTS,
))
