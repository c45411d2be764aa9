"""Persistence for the bot: games, action logs, results, ratings and leaderboards.

Two backends (SQLite, PostgreSQL) behind one interface (:data:`Storage`), opened by
:func:`open_database`; the rest of the code sees the interface and the row types below, never
SQL (storage/README.md).
"""

from .base import Storage, StorageBase
from .database import Database
from .errors import (
    BackendError,
    ChannelBusy,
    GameClosed,
    GameNotFound,
    InvalidData,
    NotActive,
    NotInLobby,
    SchemaError,
    StaleVersion,
    StorageError,
    TooManyOpen,
    WrongStatus,
)
from .finish import AwardFn, Finish, RateFn, Rating
from .jsoncol import relabel
from .migrator import Migration
from .opening import open_database
from .personal_data import SERVER_TABLES, Departure, PersonalRows
from .postgres import PgDatabase
from .rows import (
    ENDED_WITHOUT_RESULTS,
    OPEN_STATUSES,
    AchievementRow,
    ActionRow,
    Game,
    GameResult,
    GameStatus,
    LeaderEntry,
    PlayerStats,
    RatingRow,
    Reach,
    ReminderPrefs,
    Seat,
    ServerDefaults,
    ServerSeason,
)
from .shown import PingRow, ShownMessage, ShownRole

__all__ = [
    "ENDED_WITHOUT_RESULTS",
    "OPEN_STATUSES",
    "SERVER_TABLES",
    "AchievementRow",
    "ActionRow",
    "AwardFn",
    "BackendError",
    "ChannelBusy",
    "Database",
    "Departure",
    "Finish",
    "Game",
    "GameClosed",
    "GameNotFound",
    "GameResult",
    "GameStatus",
    "InvalidData",
    "LeaderEntry",
    "Migration",
    "NotActive",
    "NotInLobby",
    "PersonalRows",
    "PgDatabase",
    "PingRow",
    "PlayerStats",
    "RateFn",
    "Rating",
    "RatingRow",
    "Reach",
    "ReminderPrefs",
    "SchemaError",
    "Seat",
    "ServerDefaults",
    "ServerSeason",
    "ShownMessage",
    "ShownRole",
    "StaleVersion",
    "Storage",
    "StorageBase",
    "StorageError",
    "TooManyOpen",
    "WrongStatus",
    "open_database",
    "relabel",
]
