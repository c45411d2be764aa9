"""The storage interface both backends implement: :class:`StorageBase`.

Every public method of the repository is written once as a transaction body ("work") over the
backend-neutral SQL helpers of ``connection.py``, in the mixins :class:`GameMethods` (games and
their logs, ``game_methods.py``) and :class:`ResultMethods` (results, ratings, leaderboards,
``result_methods.py``) over :class:`TransactionRunner` (``runner.py``). A backend (SQLite:
:class:`storage.Database`; PostgreSQL: :class:`storage.PgDatabase`) supplies the lifecycle and
:meth:`StorageBase._transaction`, which runs one work in one transaction, committed on success
and rolled back on any error. Each transaction runs in its own task shielded from its caller: a
cancelled caller never leaves a transaction half-done (before it starts, nothing is written;
once started, it completes), and ``close()`` waits for running ones.

Time is never read here: every write takes ``now_ms`` (epoch milliseconds) from the caller.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from .achievements import AchievementMethods
from .game_methods import GameMethods
from .guild_settings import SettingsMethods
from .member_history import HistoryMethods
from .personal_data import PersonalDataMethods
from .result_methods import ResultMethods
from .runner import C, CommitHook, Job, TransactionRunner
from .seasons import SeasonMethods


class StorageBase(GameMethods[C], ResultMethods[C], SettingsMethods[C],
                  PersonalDataMethods[C], HistoryMethods[C], SeasonMethods[C],
                  AchievementMethods[C]):
    """Persistence for games, their action logs, results, ratings, leaderboards, servers'
    settings (``guild_settings.py``), a member's recent games (``member_history.py``), seasons
    (``seasons.py``) and achievements (``achievements.py``); a person's or a server's data as a
    whole (``personal_data.py``).

    ``C`` is the backend's connection type. Open one with :func:`storage.open_database` (or a
    backend's ``open``) and close it with ``await db.close()`` (or ``async with``).
    """


Storage: TypeAlias = StorageBase[Any]
"""The repository the rest of the bot sees, whichever backend is behind it."""


__all__ = ["CommitHook", "Job", "Storage", "StorageBase", "TransactionRunner"]
