"""Memory and start-up with many games in progress."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import sys
import tempfile
import time
import tracemalloc
import types
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from tools.benchbot.backends import database_for
from tools.benchbot.figures import (
    HARNESS,
    NOT_THE_BOT,
    SIMCORD,
    MemoryRun,
    Results,
    StartupRun,
    peak_rss_kb,
    rss_kb,
)
from tools.benchbot.latency import (
    decide,
)
from tools.benchbot.options import Options
from tools.benchbot.simworld import (
    BenchError,
    GameTable,
    World,
)
from ui.items import bot_of

# Frames kept per traced allocation: enough to find the package behind a stdlib call.
TRACE_FRAMES = 25


def _who(filename: str) -> str:
    f = filename.replace("\\", "/")
    for key, name in (("/simcord/", "simcord (simulated Discord)"),
                      ("/discord/", "discord.py"), ("/aiosqlite/", "aiosqlite/sqlite3"),
                      ("/sqlite3/", "aiosqlite/sqlite3"), ("/PIL/", "Pillow")):
        if key in f:
            return name
    if "/tools/benchbot/" in f:
        return HARNESS
    for pkg in ("bot", "cogs", "storage"):
        if f"/{pkg}/" in f and "site-packages" not in f:
            return f"our code: {pkg}/"
    return "stdlib / other"


def _owner(tb: tracemalloc.Traceback) -> tuple[str, str]:
    """The package that asked for a block: its innermost frame outside the stdlib."""
    for frame in reversed(tb):  # innermost first
        who = _who(frame.filename)
        if who != "stdlib / other":
            where = f"{_short(frame.filename)}:{frame.lineno}"
            if frame.filename.endswith(UPLOADS):
                # The PNG bytes of an uploaded picture: once sent, only SimCord's CDN
                # keeps them (a real bot frees them after the upload).
                return SIMCORD, where
            return who, where
    frame = tb[-1]
    return "stdlib / other", f"{_short(frame.filename)}:{frame.lineno}"


def _short(filename: str) -> str:
    f = filename.replace("\\", "/")
    for cut in ("/site-packages/", "/work/main/", "/lib/python3"):
        if cut in f:
            return f.split(cut, 1)[1]
    return f


async def bench_resident(opts: Options, out: TextIO, *, memory: bool, startup: bool,
                         results: Results) -> None:
    """``--resident`` games in progress (a few decisions each): memory, then start-up.

    The tracemalloc breakdown comes first, on ``--traced`` games of their own: SimCord's
    settle scans every pending task against every timer (one turn timer per game), which
    tracemalloc makes very slow once hundreds of games are running.
    """
    rng = random.Random(opts.seed + 3)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            # Warm-up, not counted: imports, fonts and caches of a first drawn round picture.
            warm = await world.open_games(2, opts.players)
            with world.fast():
                while not world.card_draws:
                    moves = [m for t in warm if (m := t.next_move(rng)) is not None]
                    if not moves:
                        break
                    await world.burst_checked(moves)
            traced: list[GameTable] = []
            if memory:
                gc.collect()
                t0 = time.perf_counter()
                tracemalloc.start(TRACE_FRAMES)
                snap0 = tracemalloc.take_snapshot()
                traced = await _resident_games(world, opts.traced, opts.players, rng)
                gc.collect()
                snap1 = tracemalloc.take_snapshot()
                tracemalloc.stop()
                out.write(f"\n({opts.traced} games under tracemalloc in "
                          f"{time.perf_counter() - t0:.1f} s)\n")
            gc.collect()
            before = rss_kb()
            held_before = deep_size(world.bot)
            t0 = time.perf_counter()
            tables = await _resident_games(world, opts.resident, opts.players, rng)
            built = time.perf_counter() - t0
            gc.collect()
            after = rss_kb()
            held_after = deep_size(world.bot)
            out.write(f"({opts.resident} games opened, started and played 3 decisions each "
                      f"in {built:.1f} s)\n")
            if memory:
                results.memory = _memory_run(opts.resident, before, after, opts.traced, snap0,
                                             snap1, world)
                held = held_after[1].copy()
                held.subtract(held_before[1])
                results.memory.held_per_game = (held_after[0] - held_before[0]) / opts.resident
                results.memory.held_types = Counter(
                    {k: v / opts.resident for k, v in held.most_common(8)})
                results.memory.report(out)
                del snap0, snap1
            if startup:
                results.startup = await _startup(world, [*warm, *traced, *tables], rng)
                results.startup.report(out)


# Not followed by deep_size: shared program objects, and the simulated Discord.
SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
          asyncio.AbstractEventLoop, logging.Logger, logging.Handler)


def reached(root: object) -> Iterator[object]:
    """Every object ``root`` reaches (``root`` first); stops at classes, modules, functions,
    the event loop, loggers and SimCord's objects.
    """
    seen = {id(root)}
    stack = [root]
    while stack:
        o = stack.pop()
        yield o
        for r in gc.get_referents(o):
            if id(r) in seen:
                continue
            seen.add(id(r))
            if isinstance(r, SHARED) or type(r).__module__.startswith("simcord"):
                continue
            stack.append(r)


def deep_size(root: object) -> tuple[int, Counter[str]]:
    """Bytes of every object ``root`` reaches (:func:`reached`; ``sys.getsizeof``), by type."""
    total = 0
    by_type: Counter[str] = Counter()
    for o in reached(root):
        size = sys.getsizeof(o, 0)
        total += size
        by_type[type(o).__qualname__] += size
    return total, by_type


def tracked_count(root: object) -> int:
    """How many of the objects ``root`` reaches the garbage collector tracks (walks in a
    full pass).
    """
    return sum(1 for o in reached(root) if gc.is_tracked(o))


async def _resident_games(world: World, n: int, players: int, rng: random.Random
                          ) -> list[GameTable]:
    tables = await world.open_games(n, players)
    with world.fast():
        for _ in range(3):  # a few decisions each, every game at once
            await world.burst_checked([m for t in tables if (m := t.next_move(rng)) is not None])
    return tables


def _memory_run(games: int, before: int, after: int, traced_games: int,
                snap0: tracemalloc.Snapshot, snap1: tracemalloc.Snapshot, world: World
                ) -> MemoryRun:
    traced: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for stat in snap1.compare_to(snap0, "traceback"):
        if stat.size_diff <= 0:
            continue
        who, where = _owner(stat.traceback)
        traced[who] += stat.size_diff
        if who not in NOT_THE_BOT:
            lines[where] += stat.size_diff
            counts[where] += max(stat.count_diff, 0)
    top = [(w, s, counts[w]) for w, s in lines.most_common(15)]
    svc = world.bot.service
    state = world.bot._connection
    caches = {
        **{f"service {name}": n for name, n in svc.memory().items()},
        **{f"boards {k}": v for k, v in bot_of(world.bot).boards.sizes().items()},
        "discord.py cached messages": len(state._messages or ()),
        "discord.py stored views": len(state._view_store._views),
    }
    return MemoryRun(games, before, after, peak_rss_kb(), traced_games, traced, top, caches)


UPLOADS = "pictures/png.py"


async def _startup(world: World, tables: list[GameTable], rng: random.Random) -> StartupRun:
    from bot.client import discord_clock
    from bot.service import GameService
    from storage import open_database

    env = world.env
    restarts: list[float] = []
    hook: list[float] = []
    load: list[float] = []
    restore_hook: list[float] = []
    orig_restore = GameService.restore

    async def timed_restore(self: GameService) -> Any:
        t0 = time.perf_counter()
        try:
            return await orig_restore(self)
        finally:
            restore_hook.append(time.perf_counter() - t0)

    def timed(fn: Callable[[], Awaitable[None]], into: list[float]) -> Callable[[], Any]:
        async def wrapper() -> None:
            t0 = time.perf_counter()
            try:
                await fn()
            finally:
                into.append(time.perf_counter() - t0)
        return wrapper

    GameService.restore = timed_restore  # type: ignore[method-assign]
    try:
        for _ in range(3):
            old, new = world.bot, world.make_bot()
            new.setup_hook = timed(new.setup_hook, hook)  # type: ignore[method-assign]
            new.load_features = timed(new.load_features, load)  # type: ignore[method-assign]
            t0 = time.perf_counter()
            await env.restart_bot(new)
            restarts.append(time.perf_counter() - t0)
            await old.close()
    finally:
        GameService.restore = orig_restore  # type: ignore[method-assign]
    svc = world.bot.service
    active = sum(1 for g in await svc.db.games.all_open() if g.status == "active")
    timers = svc.pending_timers
    if timers != active:
        raise BenchError(f"{timers} turn timers after restart, {active} active games")

    # The first decision after the restart: no cached state or events yet.
    table = next(t for t in tables if t.next_move(rng) is not None)
    move = table.next_move(rng)
    assert move is not None
    start = world.mark()
    iid = await decide(world, table, move)
    first = world.callback_times(start)[iid][0]

    alone: list[float] = []
    query: list[float] = []
    db = await open_database(world.database_url or world.db_path)
    try:
        for _ in range(5):
            t0 = time.perf_counter()
            await db.games.all_open()
            query.append(time.perf_counter() - t0)
            service = GameService(db, clock=discord_clock, default_timeout=3600)
            t0 = time.perf_counter()
            await service.restore()
            alone.append(time.perf_counter() - t0)
            await service.close()
    finally:
        await db.close()
    return StartupRun(len(tables), active, restarts, hook, load, restore_hook, alone, query,
                      timers, first)


# ---------------------------------------------------------------------- profile


BUCKETS = (
    ("our code: bot/", "/bot/"), ("our code: cogs/", "/cogs/"),
    ("our code: storage/", "/storage/"),
    ("simcord (the simulated Discord)", "/simcord/"), ("discord.py", "/discord/"),
    ("aiosqlite", "/aiosqlite/"), ("Pillow", "/PIL/"), ("asyncio event loop", "/asyncio/"),
    ("json", "/json/"),
)


def _bucket(filename: str, name: str) -> str:
    if "poll" in name and ("select" in name or "epoll" in name):
        return "waiting in epoll (for the SQLite and picture threads)"
    f = filename.replace("\\", "/")
    for label, key in BUCKETS:
        if key in f:
            return label
    return OTHER


OTHER = "builtins / other stdlib"


def _attributed(raw: dict[Any, Any],
                bucket_of: Callable[[str, str], str] = _bucket) -> Counter[str]:
    """Own time by bucket (``bucket_of(filename, function)``); the time of builtins and stdlib
    helpers (list.remove, deepcopy, dataclass __eq__...: :data:`OTHER`) goes to the buckets of
    their callers, in proportion.
    """
    memo: dict[Any, Counter[str]] = {}

    def shares(key: Any, depth: int) -> Counter[str]:
        filename, _line, name = key
        bucket = bucket_of(filename, name)
        if bucket not in (OTHER, "json") or depth > 8:
            return Counter({bucket: 1.0})
        if key in memo:
            return memo[key]
        callers = raw[key][4] if key in raw else {}
        weight = sum(v[2] for v in callers.values())
        if weight <= 0:
            return Counter({bucket: 1.0})
        memo[key] = Counter({bucket: 1.0})  # a recursive call keeps its own bucket
        out: Counter[str] = Counter()
        for caller, v in callers.items():
            for b, f in shares(caller, depth + 1).items():
                out[b] += f * v[2] / weight
        memo[key] = out
        return out

    buckets: Counter[str] = Counter()
    for key, (_cc, _nc, tt, _ct, _callers) in raw.items():
        for b, f in shares(key, 0).items():
            buckets[b] += tt * f
    return buckets
