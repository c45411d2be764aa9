"""The storage both backends implement: :class:`StorageBase`, and :data:`Storage`, the
repository the rest of the bot sees.

A storage is its backend (the lifecycle and :meth:`StorageBase._transaction`, which runs one
job in one transaction) and its parts, one per concept (``db.games``, ``db.results``, ...: set
in ``__init__``, listed in storage/README.md, "The parts").

Each transaction runs in its own task shielded from its caller: a cancelled caller never leaves
a transaction half-done (before it starts, nothing is written; once started, it completes), and
``close()`` waits for running ones. Time is never read here: every write takes ``now_ms``
(epoch milliseconds) from the caller.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from types import TracebackType
from typing import Any, Generic, Self, TypeAlias

from .achievements import AchievementRecords
from .errors import StorageError
from .games import GameRecords
from .guild_settings import SettingRecords
from .member_history import HistoryRecords
from .people import PeopleRecords
from .personal_data import PersonalRecords
from .results import ResultRecords
from .runner import Access, C, Job, T
from .seasons import SeasonRecords
from .shown import ShownRecords

log = logging.getLogger(__name__)


class StorageBase(ABC, Generic[C]):
    """The storage, in parts (see the module); ``C`` is the backend's connection type. Open it
    with :func:`storage.open_database` and close it with ``await db.close()`` (or ``async with``).
    """

    schema_version: int
    """The schema version after migrating."""
    applied_migrations: tuple[int, ...]
    """The migration versions this open applied (empty when the database was up to date)."""
    moves_in_one_statement = False
    """Whether a move that does not finish the game is written as one statement (where SQL can
    update and insert in one: :meth:`storage.games.GameRecords.commit_action`)."""

    def __init__(self, where: str, schema_version: int, applied: tuple[int, ...]) -> None:
        """Wrap an open, migrated database at ``where`` (its path, or its URL without the
        password); use the backend's ``open`` instead.
        """
        if applied:
            log.info("database %s migrated to schema version %d", where, schema_version)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._orphans: set[asyncio.Task[Any]] = set()
        self._closed = False
        self.schema_version = schema_version
        self.applied_migrations = applied
        self.games: GameRecords[C] = GameRecords(self)
        self.results: ResultRecords[C] = ResultRecords(self)
        self.settings: SettingRecords[C] = SettingRecords(self)
        self.history: HistoryRecords[C] = HistoryRecords(self)
        self.personal: PersonalRecords[C] = PersonalRecords(self)
        self.seasons: SeasonRecords[C] = SeasonRecords(self)
        self.achievements: AchievementRecords[C] = AchievementRecords(self)
        self.shown: ShownRecords[C] = ShownRecords(self)
        self.people: PeopleRecords[C] = PeopleRecords(self)

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        """Let running transactions finish, then release the connection(s). Safe twice."""
        if self._closed:
            return
        self._closed = True
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._release()

    @abstractmethod
    async def _release(self) -> None:
        """Release the backend's connection(s); no transaction runs any more."""

    @abstractmethod
    async def scrub(self) -> None:
        """Make deleted rows unreadable in the files the backend keeps (after forgetting a
        person or a server).
        """

    @abstractmethod
    async def _transaction(self, work: Job[C, T], access: Access) -> T:
        """Run ``work`` as ``access`` says (:data:`storage.runner.Access`)."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the transaction runner (the parts', and the copy's) ---------------------------------

    async def write(self, job: Job[C, T]) -> T:
        """Run ``job`` in one write transaction."""
        return await self._run(job, "write")

    async def read(self, job: Job[C, T]) -> T:
        """Run ``job`` in one read-only transaction (one snapshot across its statements)."""
        return await self._run(job, "snapshot")

    async def statement(self, job: Job[C, T]) -> T:
        """Run ``job``, which sends a single statement (a read, or a write of one statement),
        outside any transaction.
        """
        return await self._run(job, "statement")

    async def _run(self, work: Job[C, T], access: Access) -> T:
        if self.closed:
            raise StorageError("the database is closed")
        if self._orphans:
            # A transaction whose caller was cancelled still finishes before the next one
            # starts (SQLite's lock gives that anyway; a pool would otherwise overtake it).
            await asyncio.wait(list(self._orphans))
        task = asyncio.ensure_future(self._transaction(work, access))
        self._tasks.add(task)
        task.add_done_callback(self._forget)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._orphans.add(task)
                task.add_done_callback(self._orphans.discard)
            raise

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: the caller may have been cancelled and gone


Storage: TypeAlias = StorageBase[Any]
"""The repository the rest of the bot sees, whichever backend is behind it."""


__all__ = ["Storage", "StorageBase"]
