"""The lifecycle and transaction runner under :class:`storage.base.StorageBase`:
:class:`TransactionRunner`.

A backend supplies :meth:`TransactionRunner._transaction`, which runs one work in one
transaction, committed on success and rolled back on any error. Each transaction runs in its own
task shielded from its caller: a cancelled caller never leaves a transaction half-done (before it
starts, nothing is written; once started, it completes), and ``close()`` waits for running ones.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Generic, Literal, Self, TypeAlias, TypeVar

from .connection import Conn
from .errors import (
    StorageError,
)
from .rows import (
    DatabaseInfo,
)

T = TypeVar("T")
C = TypeVar("C", bound=Conn)

Job: TypeAlias = Callable[[C], Awaitable[T]]
"""A transaction body: gets the backend's connection, inside one open transaction."""


Access: TypeAlias = Literal["write", "snapshot", "statement"]
"""How a work runs: ``write`` in a write transaction; ``snapshot`` in a read-only transaction (one
snapshot across its statements); ``statement``, one statement outside any transaction (it reads
a snapshot of its own and is a transaction of its own: no ``BEGIN``/``COMMIT`` round trips): a
read, or a write that is one statement (PostgreSQL's move, :meth:`commit_action`).
"""

CommitHook = Callable[[int, int], Awaitable[None]]
"""``hook(game_id, expected_version)``: see :attr:`StorageBase.before_commit`."""


class TransactionRunner(ABC, Generic[C]):
    """A storage's lifecycle and transaction runner; ``C`` is the backend's connection type."""

    schema_version: int
    """The schema version after migrating."""
    applied_migrations: tuple[int, ...]
    """The migration versions this open applied (empty when the database was up to date)."""

    def __init__(self, schema_version: int, applied: tuple[int, ...]) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._orphans: set[asyncio.Task[Any]] = set()
        self.schema_version = schema_version
        self.applied_migrations = applied
        self.before_commit: CommitHook | None = None
        """Called inside the transaction of every game-moving write (:meth:`start_game`,
        :meth:`commit_action`; and of :meth:`forget_person`, as game 0) once its writes are
        done, just before ``COMMIT`` (a move written as one statement: just before it is
        sent, so nothing of it is written either way). Fault drills
        use it to stop a process with a transaction open; the bot leaves it ``None``."""

    # -- lifecycle (per backend) -------------------------------------------------------------

    @property
    @abstractmethod
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""

    @abstractmethod
    async def close(self) -> None:
        """Let running transactions finish, then release the connection(s). Safe twice."""

    @abstractmethod
    async def info(self) -> DatabaseInfo:
        """Schema version, settings in force and tables: for health checks and tests."""

    @abstractmethod
    async def scrub(self) -> None:
        """Make deleted rows unreadable in the files the backend keeps (after forgetting a
        person or a server): SQLite folds its WAL into the database file, whose freed pages
        ``secure_delete`` zeroes; PostgreSQL vacuums the dead row versions away.
        """

    @abstractmethod
    async def _transaction(self, work: Job[C, T], access: Access) -> T:
        """Run ``work`` as ``access`` says: in one transaction (a write or a read-only
        snapshot), or for a read of one statement, outside any (see :data:`Access`).
        """

    async def _wait_for_running(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the transaction runner --------------------------------------------------------------

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

    async def _write(self, work: Job[C, T]) -> T:
        return await self._run(work, "write")

    async def _read(self, work: Job[C, T]) -> T:
        return await self._run(work, "snapshot")

    async def _read_statement(self, work: Job[C, T]) -> T:
        """Run a read whose ``work`` sends a single statement (no transaction around it)."""
        return await self._run(work, "statement")
