"""A broken drill child for the drill's own tests: every game-moving transaction commits its
writes early, before it says ``COMMITTING`` (as if the service saved in two steps)."""

from __future__ import annotations

from typing import TypeVar

import aiosqlite

from bot.crashdrill import child
from storage.database import Work

T = TypeVar("T")


class SplitCommit(child.DrillDatabase):
    async def _write(self, work: Work[T]) -> T:
        if self._announce is None:
            return await super()._write(work)

        async def early(conn: aiosqlite.Connection) -> T:
            result = await work(conn)
            await conn.execute("COMMIT")
            await conn.execute("BEGIN IMMEDIATE")
            return result

        return await super()._write(early)


if __name__ == "__main__":
    child.DrillDatabase = SplitCommit  # type: ignore[misc]
    raise SystemExit(child.main())
