"""The values the game service hands to the Discord layer: people, games, applied steps.

The Discord layer renders from these and never sees storage; the stored values it reads are
storage's frozen rows, re-exported by :mod:`bot.service` (docs/architecture.md, *The services*).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from bot.rules.levels import LEVELS, NORMAL
from storage import Game, GameStatus, Reach

CPU_NAMES: Final = ("Bao", "Mochi", "Dumpling", "Bamboo", "Lychee", "Tofu", "Noodle", "Sesame",
                    "Momo", "Pepper")


@dataclass(frozen=True, slots=True)
class Person:
    """A Discord user as the service sees one."""

    id: int
    name: str

    @property
    def player_id(self) -> str:
        """The person's seats' player id (their Discord id as text)."""
        return str(self.id)


@dataclass(frozen=True, slots=True)
class Place:
    """Where an interaction happened: a server (for a DM or group DM, the channel's own id: its
    league) and a channel, and how the bot reaches them.
    """

    guild_id: int
    channel_id: int
    reach: Reach = Reach.BOT


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: who took it and what happened (the engine's events)."""

    seat: int
    player_id: str
    by: str  # "player", "computer" or "timeout"
    action: dict[str, Any]
    events: list[Any]


@dataclass(slots=True)
class Outcome:
    """What a call to the service changed, for the Discord layer to show."""

    game: Game
    state: Any
    steps: list[Step] = field(default_factory=list)
    start_events: list[Any] = field(default_factory=list)
    """The engine's events of the game's start (the setup, and up to its first decision)."""
    stood_in: list[int] = field(default_factory=list)
    """Seats the computer took over with this outcome (their player left or resigned)."""
    recent: list[Any] = field(default_factory=list)
    """The game's recent events after the outcome (the current round at least), the
    engine's: what its board shows."""

    @property
    def events(self) -> list[Any]:
        """Every event of this outcome (the engine's), in order."""
        out = list(self.start_events)
        for s in self.steps:
            out.extend(s.events)
        return out

    @property
    def finished(self) -> bool:
        return self.game.status == GameStatus.FINISHED


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game's log as it may be shown now: ``complete`` once the game is over; before that
    the setup's seed is left out (it would predict every future roll).
    """

    game: Game
    events: list[dict[str, Any]]
    complete: bool


def is_cpu(player_id: str) -> bool:
    """Whether a seat's player id is a computer player's."""
    return player_id.startswith("cpu:")


FORMER_PREFIX = "former:"
"""A forgotten person's seats carry a pseudonym, ``former:`` and hex digits."""


def is_former(player_id: str) -> bool:
    """Whether a seat's player id is a forgotten person's pseudonym."""
    return player_id.startswith(FORMER_PREFIX)


def is_person(player_id: str) -> bool:
    """Whether a seat's player id is a person's Discord id (not a computer, not forgotten)."""
    return player_id.isdigit()


def cpu_id(slot: int, level: str = NORMAL) -> str:
    """The player id of the computer player in lobby slot ``slot`` at ``level``.

    A Normal computer is ``cpu:N`` (as every computer was before levels existed, so its
    results and rating carry on); the others carry their level, ``cpu:hard:N``, so that
    results and leaderboards keep the levels apart.
    """
    return f"cpu:{slot}" if level == NORMAL else f"cpu:{level}:{slot}"


def cpu_slot(player_id: str) -> int | None:
    """The lobby slot of a computer player's id (None for a person or a malformed id)."""
    tail = player_id.rsplit(":", 1)[-1]
    return int(tail) if is_cpu(player_id) and tail.isdigit() else None


def cpu_level(player_id: str, default: str = NORMAL) -> str:
    """The level of a computer player's id (``default`` for ``cpu:N``)."""
    parts = player_id.split(":")
    return parts[1] if len(parts) == 3 and parts[1] in LEVELS else default


def cpu_name(slot: int, level: str = NORMAL) -> str:
    """The display name of the computer player in lobby slot ``slot`` (1, 2, ...) at
    ``level``: "Bao (computer)" at Normal, "Bao (computer, hard)" otherwise.
    """
    name = CPU_NAMES[(slot - 1) % len(CPU_NAMES)]
    return f"{name} (computer)" if level == NORMAL else f"{name} (computer, {level})"
