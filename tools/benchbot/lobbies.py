"""``/royale new`` with other servers' open games in the database (no command reads other
servers' games).

Each sample is one ``/royale new`` by a new member in a new channel (20 channels a server, so
neither the per-host nor the per-server limit is met; the lobby is closed again through the
service after it is measured, so the process holds as much at the last command as at the
first), emitted as :meth:`World.slash` emits it:
the time from the INTERACTION_CREATE dispatch to the bot's interaction callback (the lobby
message, after the transaction that counted the host's and the server's open games and created
the lobby). First with no open game elsewhere, then with ``--elsewhere`` open games of other
servers written into the same database (:mod:`tools.benchbot.seed`), on the backend of
``--backend``.
"""

from __future__ import annotations

import gc
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from tools.benchbot.backends import database_for
from tools.benchbot.figures import Dist
from tools.benchbot.options import Options
from tools.benchbot.seed import seed_open_games
from tools.benchbot.simworld import World, check
from ui.items import person

WARM_UP = 5
"""Commands before each measured series (not counted)."""
PER_GUILD = 20


@dataclass
class NewLobbyRun:
    """``/royale new`` latencies with none and with many open games elsewhere."""

    samples: int
    elsewhere: int
    backend: str
    alone: Dist
    crowded: Dist
    seeded_s: float
    open_games_after: int
    collections: tuple[str, str] = ("", "")

    def report(self, out: TextIO) -> None:
        out.write(f"\n/royale new: dispatch -> the bot's answer (the lobby), {self.samples} "
                  f"commands each, a new member in a new channel every time ({self.backend})\n")
        out.write(self.alone.line() + f"\n      ({self.collections[0]})\n")
        out.write(self.crowded.line() + f"\n      ({self.collections[1]})\n")
        out.write(f"  (the {self.elsewhere:,} open games of other servers, four in five lobbies, "
                  f"written in {self.seeded_s:.1f} s and ANALYZEd; {self.open_games_after:,} "
                  "open games in the database at the end; goal: p99 under 10 ms both)\n")


class FullCollections:
    """Python's full (generation 2) garbage collections while the block runs: their pauses."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif info.get("generation") == 2:
            self.pauses.append(time.perf_counter() - self._started)

    def __enter__(self) -> FullCollections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def words(self) -> str:
        if not self.pauses:
            return "no full garbage collection"
        return (f"{len(self.pauses)} full garbage collections of the process (longest "
                f"{max(self.pauses) * 1000:.0f} ms: SimCord's objects are the process's too)")


async def _series(world: World, n: int, label: str) -> tuple[Dist, str]:
    gc.collect()  # not the garbage of what came before
    with FullCollections() as collections:
        dist = await _commands(world, n, label)
    return dist, collections.words()


async def _commands(world: World, n: int, label: str) -> Dist:
    samples: list[float] = []
    for i in range(WARM_UP + n):
        table = world.new_table(1, per_guild=PER_GUILD)
        start = world.mark()
        res = await world.slash(table.host, table.channel, "royale new")
        check(res, "/royale new")
        if i >= WARM_UP:
            times = world.callback_times(start)
            samples.append(times[int(res._interaction.id)][0])
        # closed again (through the service, unmeasured): the process keeps as many lobbies
        # and timers at the last command as at the first
        svc = world.bot.service
        game = await svc.open_game(table.channel.id)
        assert game is not None
        await svc.cancel(game.id, person(table.host), manager=True)
    return Dist(label, samples)


async def _open_games(world: World) -> int:
    from storage.connection import Conn, fetch_value

    async def count(conn: Conn) -> int:
        return int(await fetch_value(
            conn, "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')"))

    return await world.bot.service.db.read(count)


async def bench_new_lobby(opts: Options, out: TextIO) -> NewLobbyRun:
    """The ``/royale new`` benchmark: none, then ``opts.elsewhere`` open games elsewhere."""
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            alone, gc_alone = await _series(world, opts.new_samples,
                                            "/royale new, no open game in other servers")
            now_ms = int(time.time() * 1000)
            seeded = await seed_open_games(world.database_url or world.db_path,
                                           opts.elsewhere, now_ms)
            crowded, gc_crowded = await _series(
                world, opts.new_samples, f"/royale new, {opts.elsewhere:,} open games elsewhere")
            open_after = await _open_games(world)
    run = NewLobbyRun(opts.new_samples, opts.elsewhere, opts.backend, alone, crowded, seeded,
                      open_after, (gc_alone, gc_crowded))
    run.report(out)
    return run
