"""The greeting of a join, posted once by two bot processes on one PostgreSQL.

Two cluster processes serve the same shard (as an old and a new process overlap during a
deploy), each in its own copy of the simulated Discord, and both hear Discord say the bot
joined the same two servers (the same join: the bot's membership began at the same time in
both copies). Each server is greeted exactly once, by one of them; a process started later
that hears the join again greets nobody.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.cluster.nodes import NodeProcess
from tests.conftest import create_database, run_in_thread
from tests.pgcluster import Cluster


def greetings(node: NodeProcess) -> dict[int, int]:
    return {int(guild): int(n)
            for _, guild, n in (line.split() for line in node.ask("greetings"))}


def test_two_processes_greet_each_join_once(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = run_in_thread(create_database(pg_cluster))
    log = tmp_path / "clusters.log"
    first, second = tmp_path / "discord-a.pickle", tmp_path / "discord-b.pickle"
    a = NodeProcess.start(db=url, shard=0, world=first, log=log)  # makes the servers
    b: NodeProcess | None = None
    try:
        a.quit()
        shutil.copy(first, second)  # the same Discord, the same servers, in two processes
        a = NodeProcess.start(db=url, shard=0, world=first, log=log)
        b = NodeProcess.start(db=url, shard=0, world=second, log=log)
        assert set(greetings(a).values()) == set(greetings(b).values()) == {0}
        for node in (a, b):  # both hear the join at once
            node.send("join")
        for node in (a, b):
            node.read_until("OK")
        shown_a, shown_b = greetings(a), greetings(b)
        guilds = sorted(shown_a)
        assert len(guilds) == 2
        assert {g: shown_a[g] + shown_b[g] for g in guilds} == {g: 1 for g in guilds}
        b.quit()
        b = NodeProcess.start(db=url, shard=0, world=second, log=log)
        b.ask("join")
        assert greetings(b) == shown_b  # a later process: the join was greeted already
        a.quit()
        b.quit()
    finally:
        for node in (a, b):
            if node is not None and node.proc.poll() is None:
                node.kill()
