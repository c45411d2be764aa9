"""Leaderboard speed with many finished games in one server, on both storage backends.

    .venv/bin/python -m tools.benchbot.leaderboard_bench [--games 100000] [--postgres URL]
                                                     [--sqlite FILE]

Plays ``--games`` finished games (create, start, one finishing action with results and
ratings) through the storage API into an SQLite file, copies the file into PostgreSQL with
``storage.copy`` (a private cluster from tests/pgcluster.py unless ``--postgres`` names a
database), then times the ``/leaderboard`` calls the stats cog makes (a page and the count, all
time and this month) on each backend: the median of 30 calls after 3 warm-up calls. A
benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from storage import Finish, Rating, Seat, Storage, open_database
from storage.copy import copy_database

GUILD = 1
T0 = 1_700_000_000_000
PLAYERS = 3_000
SPACING_MS = 10 * 60_000
"""One game every ten minutes: 100,000 games span about two years, a month about 4,300."""


async def generate(path: Path, games: int, out: Any) -> None:
    """Make a SQLite file with ``games`` finished games in one server, fast."""
    rng = random.Random(5)
    start = time.perf_counter()
    async with await open_database(path) as db:
        for index in range(games):
            now = T0 + index * SPACING_MS
            seats = rng.sample(range(PLAYERS), rng.randint(2, 4))
            players = [Seat(s, str(10**17 + p), f"Player {p}") for s, p in enumerate(seats)]
            if rng.random() < 0.2:
                players.append(Seat(len(players), "cpu:1", "Computer 1", is_bot=True))
            kind = "royale" if index % 4 else "posing"
            game = await db.games.create(
                guild_id=GUILD, channel_id=index % 50, kind=kind, host_id=1, settings={},
                seed=index, players=players, now_ms=now,
            )
            game = await db.games.start(game.id, game.version, {"i": index}, [], None, now + 1)
            scores = {p.player_id: rng.randint(0, 60) for p in players}

            def rate(current: dict[str, Rating | None]) -> dict[str, Rating]:
                new = {}
                for p, old in current.items():
                    if not p.startswith("cpu:"):
                        mu, sigma = old or (25.0, 8.33)
                        new[p] = (mu + rng.uniform(-1, 1), max(1.0, sigma * 0.98))
                return new

            await db.games.commit_action(
                game.id, game.version, action={"end": True}, actor=players[0].player_id,
                events=[], state={"over": True}, deadline_ms=None, now_ms=now + 2,
                finish=Finish(scores, rate=rate),
            )
            if index and index % 10_000 == 0:
                out.write(f"  {index} games ({time.perf_counter() - start:.0f}s)\n")
                out.flush()
    out.write(f"generated {games} finished games in {time.perf_counter() - start:.1f}s\n")


async def median_ms(call: Callable[[], Awaitable[object]], runs: int = 30) -> float:
    """The median time of ``call`` in milliseconds, after three warm-up calls."""
    for _ in range(3):
        await call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def measure(name: str, db: Storage, games: int, out: Any) -> None:
    """Print the leaderboard query times of one backend."""
    month = T0 + games * SPACING_MS - 30 * 24 * 3_600_000  # the last 30 days
    figures = {
        "page, all time": lambda: db.results.leaderboard(GUILD, "royale", limit=10),
        "page 50, all time": lambda: db.results.leaderboard(GUILD, "royale", limit=10, offset=500),
        "count, all time": lambda: db.results.leaderboard_count(GUILD, "royale"),
        "page, this month": lambda: db.results.leaderboard(GUILD, "royale", since_ms=month,
                                                           limit=10),
        "count, this month": lambda: db.results.leaderboard_count(GUILD, "royale", since_ms=month),
        "player stats": lambda: db.results.player_stats(GUILD, str(10**17 + 7)),
    }
    for label, call in figures.items():
        out.write(f"{name:10} {label:18} {await median_ms(call):7.2f} ms\n")


async def main_async(args: argparse.Namespace, out: Any) -> None:
    """Generate (or reuse) the data, then measure each backend asked for."""
    if args.sqlite is not None:
        path = Path(args.sqlite)  # made by an earlier run: --games must match
    else:
        path = Path(tempfile.mkdtemp(prefix="lb-bench-")) / "games.db"
        await generate(path, args.games, out)
        out.write(f"(the file: {path}; --sqlite {path} reuses it)\n")
    cluster = None
    url = args.postgres
    if url is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.conftest import create_database
        from tests.pgcluster import Cluster, find_bindir

        bindir = find_bindir()
        if bindir is None:
            out.write("no PostgreSQL binaries: SQLite only\n")
        else:
            cluster = Cluster(bindir)
            cluster.start()
            url = await create_database(cluster)
    try:
        if url is not None:
            start = time.perf_counter()
            report = await copy_database(path, url, force=True)
            took = time.perf_counter() - start
            out.write(f"copy to PostgreSQL: {took:.1f}s, {report.summary()}\n")
        async with await open_database(path) as db:
            await measure("sqlite", db, args.games, out)
        if url is not None:
            async with await open_database(url) as db:
                await measure("postgresql", db, args.games, out)
    finally:
        if cluster is not None:
            cluster.stop()


def main() -> None:
    """``python -m tools.benchbot.leaderboard_bench``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--postgres", default=None, help="a postgresql:// URL to copy into")
    parser.add_argument("--sqlite", default=None, help="reuse a file an earlier run generated")
    asyncio.run(main_async(parser.parse_args(), sys.stdout))


if __name__ == "__main__":
    main()
