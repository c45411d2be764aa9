"""Typed, frozen rows returned (and, for players, accepted) by :class:`storage.Database`.

JSON columns come back parsed: ``settings``, ``state``, ``action`` and ``events`` are plain
``dict``/``list`` values. Treat them as read-only; storage never looks at them again.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from .connection import Row

R = TypeVar("R", bound="DataclassInstance")

JSONObject = dict[str, Any]
"""A JSON object as ``json.loads`` returns it."""

class GameStatus(enum.StrEnum):
    """Where a game is in its life; stored as its value (``games.status``)."""

    LOBBY = "lobby"
    """Open for players to join; not started."""
    ACTIVE = "active"
    """In play."""
    FINISHED = "finished"
    """Played to its end: it has results."""
    CANCELLED = "cancelled"
    """Closed before it started (by its host, a manager, or its lobby's expiry)."""
    ABANDONED = "abandoned"
    """Ended without results: its channel or server went, or the bot was removed."""


class Reach(enum.StrEnum):
    """How the bot reaches a game's channel; stored as its value (``games.reach``)."""

    BOT = "bot"
    """The bot is a member of the game's server: it posts, edits and hears the channel."""
    APP = "app"
    """A server where only the players installed the app: it answers their interactions."""
    PRIVATE = "private"
    """A DM or group DM of people who installed the app: it answers their interactions, and
    the game's ``guild_id`` is the channel's own id (its league: no server shares it)."""


OPEN_STATUSES: Final[tuple[GameStatus, ...]] = (GameStatus.LOBBY, GameStatus.ACTIVE)
ENDED_WITHOUT_RESULTS: Final[tuple[GameStatus, ...]] = (GameStatus.CANCELLED,
                                                         GameStatus.ABANDONED)


def from_row(cls: type[R], row: Row, **given: Any) -> R:
    """A row dataclass of ``row``'s columns named as its fields; ``given`` fields (the values
    converted from their columns: ``bool()`` of an integer, parsed JSON, ...) override them.
    """
    return cls(**{f.name: row[f.name] for f in fields(cls) if f.name not in given}, **given)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown and sorted on: ``mu - 3 * sigma``."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game: a Discord user (id as text) or a computer player (``cpu:N``)."""

    seat: int
    player_id: str
    display_name: str
    is_bot: bool = False
    stand_in: str | None = None
    """Why a computer plays this person's seat for the rest of the game (``"left"``: they left
    the server; ``"resigned"``), or None. A stood-in seat is not rated."""

    @property
    def by_computer(self) -> bool:
        """Whether a computer decides for this seat (a computer player or a stand-in)."""
        return self.is_bot or self.stand_in is not None

    @property
    def token(self) -> str:
        """Who this seat is in the game's state, events and action log: a person is ``pN``
        (their seat, from 1: never their Discord id, so forgetting a person touches only the
        seats, results and ratings); a computer player its own id (``cpu:...``).
        """
        return self.player_id if self.is_bot else f"p{self.seat + 1}"


@dataclass(frozen=True, slots=True)
class ReminderPrefs:
    """How a person wants to be reminded of their slow games (set with ``/reminders``):
    their IANA time zone, their quiet hours as local ``HH:MM`` (None: none) and whether
    reminders come by direct message.
    """

    player_id: str
    zone: str
    quiet_start: str | None = None
    quiet_end: str | None = None
    by_dm: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    """A game as stored, with its players in seat order.

    ``kind`` names the game kind (``"royale"``); storage keeps any name it is given: which kinds
    exist is the application's registry (``bot/rules/registry.py``).

    ``version`` changes with every write to the game's players, status or state (not with
    ``set_message``/``set_deadline``); callers pass it back as ``expected_version``.
    ``finished_ms`` is when the game ended (finished, cancelled or abandoned), ``end_reason``
    why it was cancelled or abandoned. ``paused`` says why no deadline runs (None: none is
    paused). ``deadline_ms`` of a lobby is when it expires.
    """

    id: int
    guild_id: int
    channel_id: int
    kind: str
    status: GameStatus
    host_id: int
    settings: JSONObject
    seed: int
    state: JSONObject | None
    version: int
    message_id: int | None
    deadline_ms: int | None
    created_ms: int
    updated_ms: int
    finished_ms: int | None
    players: tuple[Seat, ...]
    paused: str | None = None
    end_reason: str | None = None
    parent_channel_id: int | None = None
    """The channel of the game's lobby when the game plays in a thread of it (``channel_id``
    is then the thread); the result is posted back there."""
    reminded_version: int | None = None
    """The version whose waiting player was reminded (slow games; None: nobody yet)."""
    reach: Reach = Reach.BOT

    @property
    def is_open(self) -> bool:
        """True while the game is in the lobby or being played."""
        return self.status in OPEN_STATUSES

    @property
    def player_ids(self) -> list[str]:
        """The players' ids in seat order."""
        return [p.player_id for p in self.players]


@dataclass(frozen=True, slots=True)
class ServerDefaults:
    """What a server's managers chose for its new games (None: they never said).

    ``turn_timeout``: the seconds a player has for a decision when the host gives none;
    ``mayhem``: the Mayhem options of a Panda Royale game whose host chooses none (empty:
    none).
    """

    language: str | None = None
    threads: bool | None = None
    turn_timeout: int | None = None
    mayhem: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One committed action of a game's append-only log (``seq`` is 1, 2, 3, ...)."""

    game_id: int
    seq: int
    action: JSONObject
    actor: str
    events: list[JSONObject]
    created_ms: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """One player's result in a finished game (``rank`` 1 is best; ties share a rank)."""

    game_id: int
    guild_id: int
    kind: str
    player_id: str
    display_name: str
    is_bot: bool
    seat: int
    score: int
    rank: int
    won: bool
    finished_ms: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's current rating for one game kind in one server."""

    guild_id: int
    kind: str
    player_id: str
    display_name: str
    mu: float
    sigma: float
    games: int
    updated_ms: int

    @property
    def ordinal(self) -> float:
        """``mu - 3 * sigma``."""
        return ordinal(self.mu, self.sigma)


class _Figures:
    """What leaderboard and stats rows derive from their counts."""

    __slots__ = ()
    games: int
    wins: int
    total_score: int
    mu: float | None
    sigma: float | None

    @property
    def win_rate(self) -> float:
        """Wins per game, 0.0 to 1.0."""
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def ordinal(self) -> float | None:
        """``mu - 3 * sigma``, or ``None`` when unrated."""
        if self.mu is None or self.sigma is None:
            return None
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class LeaderEntry(_Figures):
    """One line of a server leaderboard. Rating fields are ``None`` for unrated players."""

    position: int
    player_id: str
    display_name: str
    is_bot: bool
    games: int
    wins: int
    best_score: int
    total_score: int
    mu: float | None
    sigma: float | None


@dataclass(frozen=True, slots=True)
class PlayerStats(_Figures):
    """A player's figures for one game kind in one server."""

    kind: str
    player_id: str
    display_name: str
    games: int
    wins: int
    best_score: int
    total_score: int
    mu: float | None
    sigma: float | None
    rated_games: int


@dataclass(frozen=True, slots=True)
class ServerSeason:
    """A server's seasons as its managers set them (``/settings season``).

    ``length`` is ``"monthly"`` or ``"quarterly"``, or None (no seasons); ``channel_id`` is
    where the podium goes when a season ends; ``reset``: every rating of the server starts
    again at a season's end (else ratings carry on); ``since_ms``: when ``length`` was chosen.
    """

    guild_id: int
    length: str | None = None
    channel_id: int | None = None
    reset: bool = False
    since_ms: int | None = None


@dataclass(frozen=True, slots=True)
class AchievementRow:
    """One achievement a person earned in a server, in the game that first earned it."""

    guild_id: int
    player_id: str
    achievement: str
    game_id: int
    earned_ms: int
