"""The process the forget drill kills: ``python -m tests.crash.forget_child TARGET USER_ID``.

It forgets the user the way ``forget-user`` does, through the real service on the real
database, and says on stdout where it is: ``COMMITTING game`` before the commit of a move (the
computer playing the forgotten seat), ``COMMITTING forget`` inside the forgetting transaction,
its writes done, 20 ms before its ``COMMIT``; ``DONE`` at the end.
"""

from __future__ import annotations

import asyncio
import sys

from bot.service import GameService
from storage import open_database
from tests.services import privacy_of
from tools.crashdrill.hold import hold_commits


async def main(target: str, user_id: int) -> None:
    async with await open_database(target) as db:
        async def hook(game_id: int, version: int) -> None:
            print("COMMITTING", "forget" if game_id == 0 else "game", flush=True)
            if game_id == 0:
                await asyncio.sleep(0.02)

        hold_commits(db, hook)
        service = GameService(db)
        await privacy_of(service).forget(user_id)
        await service.close()
    print("DONE", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
