"""Two bot clusters on one PostgreSQL: each its own process running ``AutoShardedBot`` on one of
two shards (``SHARD_COUNT=2``, ``SHARD_IDS=0`` / ``1``) inside SimCord, with two servers of its
shard each playing a Panda Royale game (two people and a computer player).

Cluster 1 is killed with SIGKILL twice mid-game: once as a click's move is about to be committed
(on PostgreSQL a move is one statement: just before it is sent), once at a random moment of a
burst of clicks, and started again each time. Cluster 0 is restarted while cluster 1 is down and
must leave cluster 1's games alone (their turn timers are cluster 1's). At the end every game is
over and its action log is whole: actions 1..n once each, the checker-valid game log (replayed
through the engine, every rule checked), and every turn timeout at least a turn timeout after
the action before it (a timer that fired twice would show as a second timeout right after the
first).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from bot.rules.validate import validate_objects
from storage import open_database
from tests.cluster.node import TURN_TIMEOUT
from tests.cluster.nodes import NodeProcess, timeout_firings
from tests.conftest import create_database, run_in_thread
from tests.pgcluster import Cluster


async def _logs(url: str, game_ids: list[int]) -> dict[int, tuple[object, list, list]]:
    db = await open_database(url)
    try:
        return {g: (await db.games.get(g), await db.games.action_log(g), await db.games.events(g))
                for g in game_ids}
    finally:
        await db.close()


def _versions(url: str, game_ids: list[int]) -> dict[int, int]:
    logs = run_in_thread(_logs(url, game_ids))
    return {g: logs[g][0].version for g in game_ids}


def test_two_clusters_one_killed_mid_game(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = run_in_thread(create_database(pg_cluster))
    log = tmp_path / "clusters.log"
    worlds = [tmp_path / "discord-0.pickle", tmp_path / "discord-1.pickle"]
    a = NodeProcess.start(db=url, shard=0, world=worlds[0], log=log)
    # Game-moving commits of cluster 1: 2 starts, then clicks and computer moves; the 9th is
    # one well into play.
    b = NodeProcess.start(db=url, shard=1, world=worlds[1], hold_commit=9, log=log)
    try:
        a.ask("open")
        b.send("open")
        b.read_until("OK")
        a.ask("play 3")
        mine = {0: list(a.games()), 1: list(b.games())}
        assert len(mine[0]) == len(mine[1]) == 2

        # Kill 1: as a click's move is about to be committed (its one statement not sent).
        b.send("play 10")
        _, held_game, held_version = b.read_until("COMMITTING")[-1].split()
        b.kill()
        frozen = _versions(url, mine[1])
        assert frozen[int(held_game)] == int(held_version)  # nothing of it written

        # Cluster 0 restarts while 1 is down: it restores its own games only; time passes
        # (its timers fire), cluster 1's games do not move.
        a.quit()
        a = NodeProcess.start(db=url, shard=0, world=worlds[0], log=log)
        before = _versions(url, mine[0])
        a.ask(f"wait {TURN_TIMEOUT + 1}")
        assert all(v > before[g] for g, v in _versions(url, mine[0]).items())
        assert _versions(url, mine[1]) == frozen

        # Cluster 1 starts again: its games resume where the database has them; its restored
        # timers fire.
        b = NodeProcess.start(db=url, shard=1, world=worlds[1], log=log)
        assert {g: v for g, (_, v) in b.games().items()} == frozen
        b.ask(f"wait {TURN_TIMEOUT + 1}")
        assert all(v > frozen[g] for g, v in _versions(url, mine[1]).items())

        # Kill 2: at a random moment of a burst of clicks.
        b.ask("play 2")
        b.send("play 6")
        time.sleep(random.Random(7).uniform(0.05, 0.4))
        b.kill()
        b = NodeProcess.start(db=url, shard=1, world=worlds[1], log=log)

        for _ in range(400):
            open_nodes = [n for n in (a, b)
                          if any(s == "active" for s, _ in n.games().values())]
            if not open_nodes:
                break
            for node in open_nodes:
                played = node.ask("play 4")
                if not any(line == "PLAYED done" for line in played):
                    node.ask(f"wait {TURN_TIMEOUT + 1}")  # stale messages: the timers move on
        else:
            raise AssertionError("the games did not end")
        a.quit()
        b.quit()
    finally:
        for node in (a, b):
            if node.proc.poll() is None:
                node.kill()

    logs = run_in_thread(_logs(url, mine[0] + mine[1]))
    fired = 0
    for game_id, (game, actions, events) in logs.items():
        assert game.status == "finished", (game_id, game.status)
        assert [x.seq for x in actions] == list(range(1, len(actions) + 1))
        report = validate_objects(events)
        assert report.ok, report.lines(verbose=True)  # replayed through game_end
        for seq, gap in timeout_firings(actions):
            fired += 1
            assert gap is None or gap >= (TURN_TIMEOUT - 1) * 1000, (game_id, seq, gap)
    assert fired >= 4  # the waits above made each game's timer fire at least once
