"""A broken drill child for the drill's own tests: every game-moving write is committed in
full first and announced (``COMMITTING``) only afterwards, as if the service saved in two steps,
so a kill "inside the commit" finds the write already durable."""

from __future__ import annotations

from typing import Any

from storage import Database, GameRow
from storage.game_records import GameRecords
from tools.crashdrill import child


class SplitGames(GameRecords[Any]):
    """The games' writes: commits without the hook, then calls it (outside any transaction)."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.storage = db

    async def _unhooked(self, game_id: int, version: int, call: Any) -> GameRow:
        db = self.storage
        hook, db.before_commit = db.before_commit, None
        try:
            game: GameRow = await call()
        finally:
            db.before_commit = hook
        if hook is not None:
            await hook(game_id, version)
        return game

    async def commit_action(self, game_id: int, expected_version: int, **kw: Any) -> GameRow:
        return await self._unhooked(game_id, expected_version,
                                    lambda: super(SplitGames, self).commit_action(
                                        game_id, expected_version, **kw))

    async def start(self, game_id: int, expected_version: int, *args: Any) -> GameRow:
        return await self._unhooked(game_id, expected_version,
                                    lambda: super(SplitGames, self).start(
                                        game_id, expected_version, *args))


class SplitCommit(Database):
    """A database whose games' writes are :class:`SplitGames`'."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.games = SplitGames(self)


if __name__ == "__main__":
    child.DATABASE = SplitCommit
    raise SystemExit(child.main())
