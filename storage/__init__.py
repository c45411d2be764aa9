"""Persistence for the bot: games, action logs, results, ratings and leaderboards (aiosqlite).

The rest of the code sees :class:`Database` and the row types below, never SQL.
"""

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
    WrongStatus,
)
from .finish import Finish, RateFn, Rating
from .migrator import Migration
from .rows import (
    GAME_KINDS,
    ActionRow,
    DatabaseInfo,
    GameKind,
    GameRow,
    GameStatus,
    LeaderRow,
    PlayerRow,
    RatingRow,
    ResultRow,
    StatsRow,
)

__all__ = [
    "GAME_KINDS",
    "ActionRow",
    "BackendError",
    "ChannelBusy",
    "Database",
    "DatabaseInfo",
    "Finish",
    "GameClosed",
    "GameKind",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "InvalidData",
    "LeaderRow",
    "Migration",
    "NotActive",
    "NotInLobby",
    "PlayerRow",
    "RateFn",
    "Rating",
    "RatingRow",
    "ResultRow",
    "SchemaError",
    "StaleVersion",
    "StatsRow",
    "StorageError",
    "WrongStatus",
]
