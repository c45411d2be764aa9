"""A broken drill child for the drill's own tests: every game-moving write is committed in
full first and announced (``COMMITTING``) only afterwards, as if the service saved in two steps,
so a kill "inside the commit" finds the write already durable."""

from __future__ import annotations

from typing import Any

from storage import Game, Storage
from storage.games import GameRecords
from tools.crashdrill import child
from tools.crashdrill.hold import Hook


class SplitGames(GameRecords[Any]):
    """The games' writes: committed as they are, then the hook (outside any transaction)."""

    def __init__(self, db: Storage, hook: Hook) -> None:
        super().__init__(db)
        self.hook = hook

    async def commit_action(self, game_id: int, expected_version: int, **kw: Any) -> Game:
        game = await super().commit_action(game_id, expected_version, **kw)
        await self.hook(game_id, expected_version)
        return game

    async def start(self, game_id: int, expected_version: int, *args: Any) -> Game:
        game = await super().start(game_id, expected_version, *args)
        await self.hook(game_id, expected_version)
        return game


def split(db: Storage, hook: Hook) -> None:
    """The child's :data:`tools.crashdrill.child.HOLD`, broken: the hook after the commit."""
    db.games = SplitGames(db, hook)


if __name__ == "__main__":
    child.HOLD = split
    raise SystemExit(child.main())
