"""The game service: the one door from the Discord layer to games, storage and ratings.

:class:`GameService` loads, locks, applies and saves games; :class:`StatsService` reads
leaderboards and player figures. Both return the values of :mod:`bot.service.model`.
"""

from bot.service.games import TIMEOUT_AI, GameService, Listener, Presence, wall_ms
from bot.service.lobby import (
    LOBBY_TTL,
    MAX_OPEN_LOBBIES,
    MAX_OPEN_PER_SERVER,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    Limits,
)
from bot.service.model import (
    Game,
    GameLog,
    GameResult,
    LeaderEntry,
    Outcome,
    Person,
    Place,
    PlayerStats,
    Seat,
    Step,
    cpu_name,
    is_cpu,
    is_former,
    is_person,
)
from bot.service.replays import Replay
from bot.service.stats import LAST_GAMES, LeaderboardPage, MemberHistory, StatsService

__all__ = [
    "LAST_GAMES",
    "LOBBY_TTL",
    "MAX_OPEN_LOBBIES",
    "MAX_OPEN_PER_SERVER",
    "MAX_TURN_TIMEOUT",
    "MIN_TURN_TIMEOUT",
    "TIMEOUT_AI",
    "Game",
    "GameLog",
    "GameResult",
    "GameService",
    "LeaderEntry",
    "LeaderboardPage",
    "Limits",
    "Listener",
    "MemberHistory",
    "Outcome",
    "Person",
    "Place",
    "PlayerStats",
    "Presence",
    "Replay",
    "Seat",
    "StatsService",
    "Step",
    "cpu_name",
    "is_cpu",
    "is_former",
    "is_person",
    "wall_ms",
]
