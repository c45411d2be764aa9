"""Memory after ``--finished`` games played to their end in one process (memory follows the
open games, not the games ever played).

The real bot inside SimCord plays them: first ``--people-games`` games of two people each,
every decision clicked through SimCord (the Discord layer's boards, pings and interactions are
used), then the rest through the bot's own game service, a person and a computer (Easy) each,
the person's decisions chosen by a seeded Easy player (the service's cache, locks, deadlines and
the storage backend are used, SimCord is not). The figures: the process's RSS at the start,
after the people's games, after ``WARM_UP`` of the service's games and at the end, the growth
per game after the warm-up; each per-game structure at the end (and the most it held while a
game was open, which shows it is the structure in use); discord.py's caches; the pictures' text
caches (bounded in bytes).
"""

from __future__ import annotations

import gc
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tools.benchbot.backends import database_for
from tools.benchbot.figures import rss_kb
from tools.benchbot.options import Options
from tools.benchbot.simworld import BenchError, World

WARM_UP = 200
"""Service games played before the RSS the growth is measured from."""
ELSEWHERE = 9 * 10**14
"""The ids of the service games' servers, channels and hosts (no SimCord id is this large)."""


def structures(bot: Any) -> dict[str, int]:
    """Every per-game structure of the bot: the service's, then the Discord layer's."""
    from ui.items import bot_of

    svc = bot.service
    boards = bot_of(bot).boards
    return {**{f"service {name}": n for name, n in svc.memory().items()},
            **{f"boards.{k}": v for k, v in boards.sizes().items()},
            "boards._started": len(boards._started),
            "boards._chores": len(boards._chores)}


def discord_caches(bot: Any) -> dict[str, int]:
    """discord.py's own caches that could follow games (messages, views, users)."""
    state = bot._connection
    store = state._view_store
    return {"messages (max_messages=None: off)": len(state._messages or ()),
            "views": sum(len(v) for v in store._views.values()),
            "message views": len(store._synced_message_views),
            "modals": len(store._modals), "users": len(state._users),
            "guilds": len(state._guilds)}


@dataclass
class FinishedRun:
    """Memory after many finished games."""

    games: int
    people_games: int
    rss_start_kb: int
    rss_after_people_kb: int
    rss_warm_kb: int
    rss_end_kb: int
    warm_games: int
    took_s: float
    end: dict[str, int]
    busiest: dict[str, int]
    discord: dict[str, int]
    caches: list[Any] = field(default_factory=list)

    @property
    def service_games(self) -> int:
        return self.games - self.people_games

    @property
    def rss_per_game_kb(self) -> float:
        """RSS growth per game after the warm-up (the service's games)."""
        after = self.service_games - self.warm_games
        return (self.rss_end_kb - self.rss_warm_kb) / after if after else float("nan")

    def report(self, out: TextIO) -> None:
        out.write(f"\nMemory after {self.games} finished games in one process "
                  f"({self.people_games} played by two people through SimCord, "
                  f"{self.service_games} by a person and a computer through the game service; "
                  f"{self.took_s:.0f} s)\n")
        people = self.rss_after_people_kb - self.rss_start_kb
        out.write(f"  RSS at the start {self.rss_start_kb / 1024:.1f} MiB; after the people's "
                  f"games {self.rss_after_people_kb / 1024:.1f} MiB (+{people / 1024:.1f} MiB, "
                  "SimCord's copy of every message and request included); after "
                  f"{self.warm_games} service games {self.rss_warm_kb / 1024:.1f} MiB; after all "
                  f"{self.games}: {self.rss_end_kb / 1024:.1f} MiB\n")
        out.write(f"  RSS growth per game after the warm-up: {self.rss_per_game_kb:.2f} KiB "
                  f"over {self.service_games - self.warm_games} games (goal: under 1 KiB)\n")
        out.write("  per-game structures at the end (the most while a game was open):\n")
        for name, size in self.end.items():
            out.write(f"    {size:6d}  ({self.busiest.get(name, 0):3d})  {name}\n")
        out.write("  discord.py's caches: "
                  + ", ".join(f"{k} {v}" for k, v in self.discord.items()) + "\n")
        out.write("  the pictures' text caches (bounded in bytes):\n")
        for c in self.caches:
            out.write(f"    {c.entries:5d} tiles {c.bytes / 1024:8.0f} KiB of "
                      f"{c.budget / 1024:5.0f} KiB  {c.name} (hits {c.hits}, misses "
                      f"{c.misses})\n")
        held = sum(c.bytes for c in self.caches)
        out.write(f"    {held / 1024:.0f} KiB in all\n")


def _note(busiest: dict[str, int], now: dict[str, int]) -> None:
    for k, v in now.items():
        busiest[k] = max(busiest.get(k, 0), v)


async def _people_games(world: World, n: int, rng: random.Random,
                        busiest: dict[str, int]) -> None:
    tables = await world.open_games(n, 2)
    with world.fast():
        for _ in range(2_000):
            moves = [m for t in tables if (m := t.next_move(rng)) is not None]
            if not moves:
                break
            _note(busiest, structures(world.bot))
            await world.burst_checked(moves)
        else:
            raise BenchError("the people's games did not end")
    await world.env.settle()


async def _service_game(world: World, i: int, rng: random.Random,
                        busiest: dict[str, int]) -> None:
    from bot.rules.registry import kind_of
    from bot.service import Person, Place

    svc = world.bot.service
    kind = "posing" if i % 5 == 4 else "royale"
    host = Person(ELSEWHERE + i % 40, f"Host {i % 40}")
    place = Place(ELSEWHERE + i // 20, ELSEWHERE + i)
    game = await svc.new_lobby(kind=kind, place=place, host=host, settings={})
    if kind == "royale":
        await svc.add_computer(game.id, host, "easy")
    game = (await svc.start(game.id, host)).game
    _note(busiest, structures(world.bot))
    while game.status == "active":
        player: Any = kind_of(kind).make_player("easy", rng.randrange(2**32))

        def choose(state: Any, seat: int, p: Any = player) -> Any:
            return p.choose(state)

        game = (await svc.act(game.id, host, game.version, choose)).game
    if game.status != "finished":
        raise BenchError(f"service game {game.id} ended {game.status}")


async def bench_finished(opts: Options, out: TextIO) -> FinishedRun:
    """Play ``opts.finished`` games to their end; memory and structures after them."""
    from pictures.tilecache import text_caches

    rng = random.Random(opts.seed + 7)
    people = min(opts.people_games, opts.finished)
    warm = min(WARM_UP, max(0, (opts.finished - people) // 4))
    busiest: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            started = time.perf_counter()
            gc.collect()
            rss_start = rss_kb()
            await _people_games(world, people, rng, busiest)
            gc.collect()
            rss_people = rss_kb()
            rss_warm = rss_people
            for i in range(opts.finished - people):
                if i == warm:
                    gc.collect()
                    rss_warm = rss_kb()
                await _service_game(world, i, rng, busiest)
            await world.env.settle()
            gc.collect()
            run = FinishedRun(opts.finished, people, rss_start, rss_people, rss_warm, rss_kb(),
                              warm, time.perf_counter() - started, structures(world.bot),
                              busiest, discord_caches(world.bot), text_caches())
    run.report(out)
    return run
