"""A season's podium, posted once by two bot processes on one PostgreSQL.

Two cluster processes serve the same shard (as an old and a new process overlap during a
deploy) with the same two servers, each in its own copy of the simulated Discord: both run
the season check on their own clock and both see January end at the same moment. Each
server's podium is posted exactly once, by one of them; the database holds one settled claim
per server; a restart afterwards posts nothing again.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

from storage import open_database
from tests.cluster.nodes import NodeProcess
from tests.conftest import create_database, run_in_thread
from tests.pgcluster import Cluster
from tests.storage.storage_helpers import season_end

SIMCORD_EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
"""Where SimCord's virtual clock starts."""


def podiums(node: NodeProcess) -> dict[int, int]:
    return {int(guild): int(n) for _, guild, n in (line.split() for line in node.ask("podiums"))}


async def _ends(url: str, guilds: list[int]) -> list[dict[str, Any] | None]:
    db = await open_database(url)
    try:
        return [await season_end(db, g, "2026-01") for g in guilds]
    finally:
        await db.close()


def test_two_processes_post_each_podium_once(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = run_in_thread(create_database(pg_cluster))
    log = tmp_path / "clusters.log"
    first, second = tmp_path / "discord-a.pickle", tmp_path / "discord-b.pickle"
    a = NodeProcess.start(db=url, shard=0, world=first, log=log)
    b: NodeProcess | None = None
    try:
        a.ask("season")
        a.ask("open")
        for _ in range(100):
            a.ask("play 20")
            if all(status == "finished" for status, _ in a.games().values()):
                break
        else:
            raise AssertionError("the games did not end")
        a.quit()
        shutil.copy(first, second)  # the same Discord, the same servers, in two processes
        a = NodeProcess.start(db=url, shard=0, world=first, log=log)
        b = NodeProcess.start(db=url, shard=0, world=second, log=log)
        assert podiums(a) == podiums(b) and set(podiums(a).values()) == {0}
        # Both wait past the month's end at once (the virtual clocks agree: one saved world).
        month = (dt.datetime(2026, 2, 1, tzinfo=dt.UTC) - SIMCORD_EPOCH).total_seconds()
        for node in (a, b):
            node.send(f"wait {int(month) + 120}")
        for node in (a, b):
            node.read_until("OK")
        shown_a, shown_b = podiums(a), podiums(b)
        guilds = sorted(shown_a)
        assert len(guilds) == 2
        assert {g: shown_a[g] + shown_b[g] for g in guilds} == {g: 1 for g in guilds}
        ends = run_in_thread(_ends(url, guilds))
        assert all(e is not None and e["outcome"] == "posted" and e["message_id"] for e in ends)
        b.quit()
        b = NodeProcess.start(db=url, shard=0, world=second, log=log)
        b.ask("wait 7200")
        assert podiums(b) == shown_b  # restarted: nothing posted again
        a.quit()
        b.quit()
    finally:
        for node in (a, b):
            if node is not None and node.proc.poll() is None:
                node.kill()
