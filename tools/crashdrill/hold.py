"""Holding a storage's commits from outside it: how the crash drill, and the tests that need a
process stopped with a transaction open, reach inside a transaction.

:func:`hold_commits` gives an open storage parts that call ``hook(game_id, expected_version)``
inside each transaction that moves a game (``db.games.start``, ``db.games.commit_action``) and
inside the one that forgets a person (``db.personal.forget_person``, as game 0, version 0):
once the transaction's writes are done, just before its ``COMMIT``; for a write sent as one
statement, which commits itself, just before it is sent (so nothing of it is written either
way). The parts are the storage's own classes, each call run over a :class:`HeldRunner` that
wraps the storage's runner: the storage itself has no hook.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from storage import Game, Storage, StorageBase
from storage.games import GameRecords
from storage.personal_data import PersonalRecords

T = TypeVar("T")
C = TypeVar("C")

Hook = Callable[[int, int], Awaitable[None]]
"""``hook(game_id, expected_version)``, called inside the transaction it holds."""


class HeldRunner(Generic[C]):
    """A storage's runner as a part sees it (:class:`storage.runner.Transactions`), with
    ``hook(game_id, version)`` called inside every write it runs: after the job, before the
    ``COMMIT``; before a job of one statement.
    """

    def __init__(self, db: StorageBase[Any], hook: Hook, game_id: int, version: int) -> None:
        self._db = db
        self._hook = hook
        self._game = (game_id, version)

    @property
    def moves_in_one_statement(self) -> bool:
        """As the storage's."""
        return self._db.moves_in_one_statement

    async def write(self, job: Callable[[C], Awaitable[T]]) -> T:
        """The storage's write transaction, held once ``job`` is done."""

        async def held(conn: C) -> T:
            done = await job(conn)
            await self._hook(*self._game)
            return done

        return await self._db.write(held)

    async def statement(self, job: Callable[[C], Awaitable[T]]) -> T:
        """The storage's statement, held before it is sent."""

        async def held(conn: C) -> T:
            await self._hook(*self._game)
            return await job(conn)

        return await self._db.statement(held)

    async def read(self, job: Callable[[C], Awaitable[T]]) -> T:
        """The storage's read, as it is."""
        return await self._db.read(job)

    async def scrub(self) -> None:
        """The storage's scrub, as it is."""
        await self._db.scrub()


class HeldGames(GameRecords[Any]):
    """``db.games`` whose game-moving writes (``start``, ``commit_action``) are held."""

    def __init__(self, db: Storage, hook: Hook) -> None:
        super().__init__(db)
        self._storage = db
        self._hook = hook

    def _held(self, game_id: int, version: int) -> GameRecords[Any]:
        return GameRecords(HeldRunner(self._storage, self._hook, game_id, version))

    async def start(self, game_id: int, expected_version: int, *args: Any,
                    **kwargs: Any) -> Game:
        """:meth:`storage.games.GameRecords.start`, held."""
        return await self._held(game_id, expected_version).start(
            game_id, expected_version, *args, **kwargs)

    async def commit_action(self, game_id: int, expected_version: int, **kwargs: Any
                            ) -> Game:
        """:meth:`storage.games.GameRecords.commit_action`, held."""
        return await self._held(game_id, expected_version).commit_action(
            game_id, expected_version, **kwargs)


class HeldPersonal(PersonalRecords[Any]):
    """``db.personal`` whose ``forget_person`` is held (as game 0, version 0)."""

    def __init__(self, db: Storage, hook: Hook) -> None:
        super().__init__(db)
        self._held: PersonalRecords[Any] = PersonalRecords(HeldRunner(db, hook, 0, 0))

    async def forget_person(self, player_id: str, pseudonym: str, name: str
                            ) -> dict[str, int]:
        """:meth:`storage.personal_data.PersonalRecords.forget_person`, held."""
        return await self._held.forget_person(player_id, pseudonym, name)


def hold_commits(db: Storage, hook: Hook) -> None:
    """Give ``db`` the held parts: see the module."""
    db.games = HeldGames(db, hook)
    db.personal = HeldPersonal(db, hook)
