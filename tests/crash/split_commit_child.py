"""A broken drill child for the drill's own tests: every game-moving write is committed in
full first and announced (``COMMITTING``) only afterwards, as if the service saved in two steps,
so a kill "inside the commit" finds the write already durable."""

from __future__ import annotations

from typing import Any

from storage import Database, GameRow
from tools.crashdrill import child


class SplitCommit(Database):
    """Commits without the hook, then calls it (outside any transaction)."""

    async def _unhooked(self, game_id: int, version: int, call: Any) -> GameRow:
        hook, self.before_commit = self.before_commit, None
        try:
            game: GameRow = await call()
        finally:
            self.before_commit = hook
        if hook is not None:
            await hook(game_id, version)
        return game

    async def commit_action(self, game_id: int, expected_version: int, **kw: Any) -> GameRow:
        return await self._unhooked(game_id, expected_version,
                                    lambda: super(SplitCommit, self).commit_action(
                                        game_id, expected_version, **kw))

    async def start_game(self, game_id: int, expected_version: int, *args: Any) -> GameRow:
        return await self._unhooked(game_id, expected_version,
                                    lambda: super(SplitCommit, self).start_game(
                                        game_id, expected_version, *args))


if __name__ == "__main__":
    child.DATABASE = SplitCommit
    raise SystemExit(child.main())
