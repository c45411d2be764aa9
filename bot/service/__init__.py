"""The services: the one door from the Discord layer to games, storage and ratings.

:class:`GameService` loads, locks, applies and saves games; :class:`StatsService` reads
leaderboards and player figures; :class:`ServerSettings` keeps what a server's managers set;
:class:`Seasons` finds ended seasons; :class:`Reviews` reviews finished games;
:class:`PersonalData` exports and forgets. They return the values of :mod:`bot.service.model`.
"""

from bot.service.games import TIMEOUT_AI, GameService, Listener, Membership, wall_ms
from bot.service.lobby import (
    LOBBY_TTL,
    MAX_OPEN_LOBBIES,
    MAX_OPEN_PER_SERVER,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    Limits,
    NewSettings,
)
from bot.service.model import (
    GameLog,
    Outcome,
    Person,
    Place,
    Step,
    cpu_name,
    is_cpu,
    is_former,
    is_person,
)
from bot.service.people import People
from bot.service.privacy import PersonalData
from bot.service.replays import Replay
from bot.service.review import Reviews
from bot.service.season_calendar import LENGTHS, SeasonWindow, season_at
from bot.service.seasons import SeasonEnd, Seasons
from bot.service.servers import OFF, ServerSettings
from bot.service.stats import (
    LAST_GAMES,
    LAST_SEASON,
    SEASON,
    LeaderboardPage,
    MemberHistory,
    StatsService,
)
from storage import (
    ENDED_WITHOUT_RESULTS,
    OPEN_STATUSES,
    Game,
    GameResult,
    GameStatus,
    LeaderEntry,
    PingRow,
    PlayerStats,
    Reach,
    ReminderPrefs,
    Seat,
    ServerDefaults,
    ServerSeason,
    ShownMessage,
)

__all__ = [
    "ENDED_WITHOUT_RESULTS",
    "LAST_GAMES",
    "LAST_SEASON",
    "LENGTHS",
    "LOBBY_TTL",
    "MAX_OPEN_LOBBIES",
    "MAX_OPEN_PER_SERVER",
    "MAX_TURN_TIMEOUT",
    "MIN_TURN_TIMEOUT",
    "OFF",
    "OPEN_STATUSES",
    "SEASON",
    "TIMEOUT_AI",
    "Game",
    "GameLog",
    "GameResult",
    "GameService",
    "GameStatus",
    "LeaderEntry",
    "LeaderboardPage",
    "Limits",
    "Listener",
    "MemberHistory",
    "Membership",
    "NewSettings",
    "Outcome",
    "People",
    "Person",
    "PersonalData",
    "PingRow",
    "Place",
    "PlayerStats",
    "Reach",
    "ReminderPrefs",
    "Replay",
    "Reviews",
    "SeasonEnd",
    "SeasonWindow",
    "Seasons",
    "Seat",
    "ServerDefaults",
    "ServerSeason",
    "ServerSettings",
    "ShownMessage",
    "StatsService",
    "Step",
    "cpu_name",
    "is_cpu",
    "is_former",
    "is_person",
    "season_at",
    "wall_ms",
]
