"""The game service: the one door from the Discord layer to games, storage and ratings.

:class:`GameService` loads, locks, applies and saves games; :class:`StatsService` reads
leaderboards and player figures. Both return the values of :mod:`bot.service.model`.
"""

from bot.service.games import TIMEOUT_AI, GameService
from bot.service.lobby import MAX_OPEN_LOBBIES, MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT
from bot.service.model import (
    Game,
    GameLog,
    LeaderEntry,
    Outcome,
    Person,
    Place,
    PlayerStats,
    Seat,
    Step,
    cpu_name,
    is_cpu,
)
from bot.service.reads import Listener, wall_ms
from bot.service.stats import LeaderboardPage, StatsService

__all__ = [
    "MAX_OPEN_LOBBIES",
    "MAX_TURN_TIMEOUT",
    "MIN_TURN_TIMEOUT",
    "TIMEOUT_AI",
    "Game",
    "GameLog",
    "GameService",
    "LeaderEntry",
    "LeaderboardPage",
    "Listener",
    "Outcome",
    "Person",
    "Place",
    "PlayerStats",
    "Seat",
    "StatsService",
    "Step",
    "cpu_name",
    "is_cpu",
    "wall_ms",
]
