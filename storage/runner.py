"""What each part of the storage stands on: :class:`Records`.

A part writes its methods as transaction bodies ("jobs") over the helpers of ``connection.py``;
the backend runs each in one transaction, committed on success and rolled back on any error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, Literal, Protocol, TypeAlias, TypeVar

from .connection import Conn

T = TypeVar("T")
C = TypeVar("C", bound=Conn)
C_co = TypeVar("C_co", bound=Conn, covariant=True)

Job: TypeAlias = Callable[[C], Awaitable[T]]
"""A transaction body: gets the backend's connection, inside one open transaction."""


Access: TypeAlias = Literal["write", "snapshot", "statement"]
"""How a job runs: ``write`` in a write transaction; ``snapshot`` in a read-only transaction (one
snapshot across its statements); ``statement``, one statement outside any transaction (it reads
a snapshot of its own and is a transaction of its own: no ``BEGIN``/``COMMIT`` round trips): a
read, or a write that is one statement (PostgreSQL's move,
:meth:`storage.games.GameRecords.commit_action`).
"""


class Transactions(Protocol[C_co]):
    """The backend as the storage's parts see it (:class:`storage.base.StorageBase`, or a
    wrapper of it such as the crash drill's): ``C_co`` is its connection type.
    """

    @property
    def moves_in_one_statement(self) -> bool: ...

    async def write(self, job: Callable[[C_co], Awaitable[T]]) -> T: ...

    async def read(self, job: Callable[[C_co], Awaitable[T]]) -> T: ...

    async def statement(self, job: Callable[[C_co], Awaitable[T]]) -> T: ...

    async def scrub(self) -> None: ...


class Records(Generic[C]):
    """One part of the storage, running its jobs on the backend it belongs to (``C``: the
    backend's connection type).
    """

    def __init__(self, db: Transactions[C]) -> None:
        self._db = db
