"""The bot benchmarks themselves (run through :mod:`benchmarks.bot_bench`, which keeps the
command line free of SimCord and discord.py imports). See :mod:`benchmarks.bot_bench` for
what each benchmark measures."""

from __future__ import annotations

import asyncio
import cProfile
import gc
import logging
import math
import pstats
import random
import re
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
import types
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from benchmarks.bot_bench import Options
from benchmarks.simworld import (
    CALLBACK,
    BenchError,
    ErrorCounter,
    GameTable,
    Move,
    World,
    check,
)

# Frames kept per traced allocation: enough to find the package behind a stdlib call.
TRACE_FRAMES = 25
ID = re.compile(r"/(\d{6,}|simcord_interaction_\d+)")


# ---------------------------------------------------------------------- figures


@dataclass
class Dist:
    """A latency distribution (seconds in, milliseconds out)."""

    name: str
    samples: list[float]

    @property
    def n(self) -> int:
        return len(self.samples)

    def pct(self, p: float) -> float:
        """The p-th percentile (nearest rank), in ms."""
        if not self.samples:
            return math.nan
        s = sorted(self.samples)
        return s[max(0, math.ceil(p / 100 * len(s)) - 1)] * 1000

    @property
    def median(self) -> float:
        return statistics.median(self.samples) * 1000 if self.samples else math.nan

    @property
    def p99(self) -> float:
        return self.pct(99)

    def line(self) -> str:
        if not self.samples:
            return f"  {self.name:<44} (no samples)"
        return (f"  {self.name:<44} n={self.n:<5} median {self.median:6.2f} ms  "
                f"p90 {self.pct(90):6.2f}  p99 {self.p99:6.2f}  "
                f"max {max(self.samples) * 1000:6.2f}")


@dataclass
class LatencyRun:
    """The latency figures of one configuration."""

    label: str
    games: int
    click: Dist
    click_answer: Dist
    answer: Dist
    answer_plain: Dist
    answer_sheet: Dist
    last: Dist
    by_verb: dict[str, Dist] = field(default_factory=dict)
    burst: Dist | None = None
    burst_size: int = 0
    sheet_draw: Dist | None = None

    def report(self, out: TextIO) -> None:
        out.write(f"\n{self.label}\n")
        for d in (self.answer, self.answer_plain, self.answer_sheet, self.last):
            out.write(d.line() + "\n")
        for d in self.by_verb.values():
            out.write("  " + d.line() + "\n")
        if self.sheet_draw is not None:
            out.write(self.sheet_draw.line() + "\n")
        if self.burst is not None:
            out.write(self.burst.line() + "\n")
        out.write(self.click.line() + "\n")
        out.write(self.click_answer.line() + "\n")


@dataclass
class RestRun:
    """The requests of one whole game."""

    label: str
    decisions: int
    interactions: int
    by_kind: Counter[str]
    by_route: Counter[str]
    in_play: int = 0  # requests after the Start click

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())

    @property
    def per_decision(self) -> float:
        return self.total / self.decisions if self.decisions else math.nan

    def report(self, out: TextIO) -> None:
        out.write(f"\n{self.label}: {self.total} requests, {self.interactions} interactions "
                  f"({self.decisions} game decisions) -> {self.per_decision:.2f} requests per "
                  f"decision; {self.in_play} after Start = "
                  f"{self.in_play / max(self.decisions, 1):.2f} per decision\n")
        for kind, n in self.by_kind.most_common():
            out.write(f"  {n:5d}  {kind}\n")
        out.write("  by route:\n")
        for route, n in self.by_route.most_common():
            out.write(f"  {n:5d}  {route}\n")


@dataclass
class MemoryRun:
    games: int
    rss_before_kb: int
    rss_after_kb: int
    peak_rss_kb: int
    traced_games: int
    traced: Counter[str]
    top: list[tuple[str, int, int]]
    caches: dict[str, int]
    held_per_game: float = math.nan
    held_types: Counter[str] = field(default_factory=Counter)

    @property
    def rss_per_game_kb(self) -> float:
        return (self.rss_after_kb - self.rss_before_kb) / self.games

    @property
    def bot_traced_per_game(self) -> float:
        """Traced bytes per game a real bot process would hold (all but SimCord's own)."""
        ours = sum(v for k, v in self.traced.items() if k not in NOT_THE_BOT)
        return ours / self.traced_games

    def report(self, out: TextIO) -> None:
        growth = self.rss_after_kb - self.rss_before_kb
        out.write(f"\nMemory with {self.games} games in progress\n")
        out.write(f"  RSS (VmRSS) before {self.rss_before_kb / 1024:.1f} MiB, after "
                  f"{self.rss_after_kb / 1024:.1f} MiB: +{growth / 1024:.1f} MiB, "
                  f"{self.rss_per_game_kb:.1f} KiB per game (peak RSS of the process "
                  f"{self.peak_rss_kb / 1024:.1f} MiB)\n")
        out.write("  RSS includes SimCord's side (its copy of every channel, member, message, "
                  "upload and request log)\n")
        total = sum(self.traced.values())
        out.write(f"  tracemalloc, {self.traced_games} games: +{total / 1024:.0f} KiB "
                  f"= {total / self.traced_games / 1024:.1f} KiB per game, by package (the "
                  "innermost frame outside the stdlib):\n")
        for k, v in self.traced.most_common():
            out.write(f"    {v / self.traced_games / 1024:8.2f} KiB/game  {k}\n")
        out.write("  the bot's share (not SimCord, not the harness): "
                  f"{self.bot_traced_per_game / 1024:.1f} KiB per game of Python objects "
                  "(SQLite's page cache shows in RSS only)\n")
        out.write("  top allocating lines of the bot's share (per game):\n")
        for where, size, count in self.top:
            out.write(f"    {size / self.traced_games / 1024:8.2f} KiB "
                      f"{count / self.traced_games:7.1f} blocks  {where}\n")
        out.write(f"  held by the bot (deep size of what the bot object reaches, SimCord's objects "
                  f"excluded): {self.held_per_game / 1024:.1f} KiB per game; by type: "
                  + ", ".join(f"{k} {v / 1024:.1f}" for k, v in self.held_types.items()) + "\n")
        out.write("  caches: " + ", ".join(f"{k}={v}" for k, v in self.caches.items()) + "\n")


@dataclass
class StartupRun:
    games: int
    active: int
    restarts: list[float]
    setup_hook: list[float]
    load_features: list[float]
    restore_in_hook: list[float]
    restore_alone: list[float]
    open_games_query: list[float]
    timers: int
    first_click: float

    def report(self, out: TextIO) -> None:
        def ms(xs: Sequence[float]) -> str:
            return (f"median {statistics.median(xs) * 1000:7.1f} ms (min {min(xs) * 1000:.1f}, "
                    f"max {max(xs) * 1000:.1f}, n={len(xs)})")

        out.write(f"\nStart-up with {self.games} games in progress ({self.active} active)\n")
        out.write(f"  env.restart_bot(new bot), until ready: {ms(self.restarts)}\n")
        out.write(f"    setup_hook:                         {ms(self.setup_hook)}\n")
        out.write(f"      load_features (cogs):             {ms(self.load_features)}\n")
        out.write(f"      GameService.restore():            {ms(self.restore_in_hook)}\n")
        rest = statistics.median(self.restarts) - statistics.median(self.setup_hook)
        out.write(f"    the other ~{rest * 1000:.0f} ms are SimCord's (detaching the old bot, "
                  "READY and GUILD_CREATE payloads, settling)\n")
        out.write(f"  GameService.restore() alone:          {ms(self.restore_alone)}\n")
        out.write(f"    of which db.open_games():           {ms(self.open_games_query)}\n")
        out.write(f"  turn timers after restart: {self.timers}; first decision after the "
                  f"restart answered in {self.first_click * 1000:.1f} ms (cold caches)\n")


@dataclass
class Results:
    latency: list[LatencyRun] = field(default_factory=list)
    rest: list[RestRun] = field(default_factory=list)
    memory: MemoryRun | None = None
    startup: StartupRun | None = None
    profile: str = ""
    errors_logged: int = 0


# ---------------------------------------------------------------------- helpers


def rss_kb() -> int:
    """The process's current resident set size (VmRSS), in KiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return peak_rss_kb()


def peak_rss_kb() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


def route_key(entry: Any) -> str:
    return f"{entry.method} {ID.sub('/{id}', entry.path)}"


CALLBACK_TYPES = {4: "message", 5: "deferred message", 6: "deferred update", 7: "update message",
                  9: "modal"}


def request_kind(entry: Any) -> str:
    path = entry.path
    if CALLBACK.match(path):
        kind = (entry.json or {}).get("type") if isinstance(entry.json, dict) else None
        return f"interaction callback ({CALLBACK_TYPES.get(kind or 0, kind)})"
    if path.startswith("/webhooks/"):
        if path.endswith("/@original"):
            return f"interaction webhook {entry.method} @original"
        return f"interaction webhook {entry.method} (follow-up)"
    if re.fullmatch(r"/channels/\d+/messages", path) and entry.method == "POST":
        return "channel message post"
    if re.fullmatch(r"/channels/\d+/messages/\d+", path) and entry.method == "PATCH":
        return "channel message edit"
    return f"other: {route_key(entry)}"


async def play(world: World, table: GameTable, move: Move) -> tuple[float, int]:
    """One decision through SimCord's click/select: its click time and interaction id."""
    t0 = time.perf_counter()
    res = await move.play()
    elapsed = time.perf_counter() - t0
    check(res, move.verb)
    table.decisions += 1
    return elapsed, int(res._interaction.id)


async def decide(world: World, table: GameTable, move: Move) -> int:
    """One decision through :meth:`World.burst` (no SimCord polling until it is answered):
    its interaction id."""
    [res] = await world.burst([move])
    check(res, move.verb)
    table.decisions += 1
    return int(res._interaction.id)


@dataclass
class Sample:
    iid: int
    verb: str
    via_click: bool
    drew_sheet: bool
    click: float = math.nan  # click -> settled, SimCord's click only
    last: float = math.nan  # dispatch -> the last request the decision caused


class Sampler:
    """Sequential decisions, alternately through SimCord's click and through a burst of one."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.samples: list[Sample] = []
        self.start = world.mark()
        self.draws = len(world.sheet_draws)

    async def decide(self, table: GameTable, move: Move) -> None:
        world = self.world
        via_click = len(self.samples) % 2 == 0
        drawn = len(world.sheet_draws)
        if via_click:
            elapsed, iid = await play(world, table, move)
            sample = Sample(iid, move.verb, True, len(world.sheet_draws) > drawn, elapsed)
        else:
            iid = await decide(world, table, move)
            sample = Sample(iid, move.verb, False, len(world.sheet_draws) > drawn)
            sample.last = world.log.times[-1] - world.dispatched[iid]
        self.samples.append(sample)

    def run(self, label: str, games: int) -> LatencyRun:
        times = self.world.callback_times(self.start)
        for s in self.samples:
            if s.iid not in times:
                raise BenchError(f"interaction {s.iid} ({s.verb}) has no callback")
        clean = [s for s in self.samples if not s.via_click]
        clicked = [s for s in self.samples if s.via_click]

        def answers(xs: list[Sample]) -> list[float]:
            return [times[s.iid][0] for s in xs]

        order = ("pick", "pass", "ttarget", "tdie", "mtarget", "mdie", "fire", "save")
        by_verb = {v: Dist(f"answer, {v}", answers([s for s in clean if s.verb == v]))
                   for v in order if any(s.verb == v for s in clean)}
        return LatencyRun(
            label, games,
            click=Dist("click -> settled (SimCord click/select)", [s.click for s in clicked]),
            click_answer=Dist("  dispatch -> callback inside those clicks", answers(clicked)),
            answer=Dist("dispatch -> interaction callback (answer)", answers(clean)),
            answer_plain=Dist("  decisions without a new score sheet",
                              answers([s for s in clean if not s.drew_sheet])),
            answer_sheet=Dist("  decisions that draw the score sheet",
                              answers([s for s in clean if s.drew_sheet])),
            last=Dist("dispatch -> last request (next round's post)",
                      [s.last for s in clean]),
            by_verb=by_verb,
            sheet_draw=Dist("score sheet picture alone (worker thread)",
                            self.world.sheet_draws[self.draws:]))


# ---------------------------------------------------------------------- latency


async def bench_latency(opts: Options, out: TextIO) -> list[LatencyRun]:
    runs = [await _latency_one_game(opts), await _latency_many(opts)]
    for r in runs:
        r.report(out)
    return runs


async def _restart_game(world: World, table: GameTable) -> None:
    """The same players open and start the channel's next game."""
    with world.fast():
        check(await table.host.slash(table.channel, "royale new"), "new")
        await world.burst_checked([table.lobby_move(p, "join") for p in table.players[1:2]])
        for p in table.players[2:]:
            await world.burst_checked([table.lobby_move(p, "join")])
        await world.burst_checked([table.lobby_move(table.host, "start")])


async def _latency_one_game(opts: Options) -> LatencyRun:
    rng = random.Random(opts.seed)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed)
        async with world.running():
            [table] = await world.open_games(1, opts.players)
            sampler = Sampler(world)
            games = 1
            while len(sampler.samples) < opts.samples:
                move = table.next_move(rng)
                if move is None:  # game over: the same players start the next one
                    games += 1
                    await _restart_game(world, table)
                    continue
                await sampler.decide(table, move)
            return sampler.run(f"Latency, 1 game in progress ({opts.players} players; "
                               f"{games} game(s) played one after another)", 1)


async def _latency_many(opts: Options) -> LatencyRun:
    rng = random.Random(opts.seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed)
        async with world.running():
            tables = await world.open_games(opts.games, opts.players)
            sampler = Sampler(world)
            for _ in range(opts.decisions):
                order = list(tables)
                rng.shuffle(order)
                for t in order:
                    move = t.next_move(rng)
                    if move is not None:
                        await sampler.decide(t, move)
            run = sampler.run(f"Latency, {opts.games} games in progress ({opts.players} players "
                              "each): one decision per game per turn, channels in random "
                              "order", opts.games)
            burst: list[float] = []
            spans: list[float] = []
            for _ in range(opts.bursts):
                moves = [m for t in tables if (m := t.next_move(rng)) is not None]
                if not moves:
                    break
                start = world.mark()
                results = await world.burst(moves)
                times = world.callback_times(start)
                answered = []
                for move, res in zip(moves, results, strict=True):
                    check(res, move.verb)
                    answered.append(times[int(res._interaction.id)][0])
                burst.extend(answered)
                spans.append(max(answered))
            run.burst = Dist(f"burst: {len(tables)} decisions at the same instant", burst)
            run.burst_size = len(tables)
            return run


# ---------------------------------------------------------------------- requests


async def bench_rest(opts: Options, out: TextIO) -> list[RestRun]:
    runs: list[RestRun] = []
    rng = random.Random(opts.seed + 2)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=0.001, seed=opts.seed)
        async with world.running():
            for computers in (False, True):
                table = world.new_table(1 if computers else opts.players)
                start = world.mark()
                interactions = 1
                check(await table.host.slash(table.channel, "royale new"), "new")
                for j in range(1, opts.players):
                    who, what = (table.host, "cpu") if computers else (table.players[j], "join")
                    check(await table.lobby_move(who, what).play(), what)
                    interactions += 1
                check(await table.lobby_move(table.host, "start").play(), "start")
                interactions += 1
                playing = world.mark()
                while (move := table.next_move(rng)) is not None:
                    await play(world, table, move)
                    interactions += 1
                last = table.channel.history()[-1]
                if "wins Panda Royale" not in last.content and "Shared win" not in last.content:
                    raise BenchError("the game did not reach its final standings")
                reqs = world.log[start:]
                label = (f"1 human + {opts.players - 1} computer players" if computers
                         else f"{opts.players} humans")
                runs.append(RestRun(f"REST requests of one full game, {label}",
                                    table.decisions, interactions,
                                    Counter(request_kind(r) for r in reqs),
                                    Counter(route_key(r) for r in reqs),
                                    world.mark() - playing))
    for r in runs:
        r.report(out)
    avoidable = sum(n for r in runs for k, n in r.by_kind.items() if "GET @original" in k)
    if avoidable:
        out.write(f"\n  avoidable: {avoidable} GET @original (the message id is already in the "
                  "callback's response: InteractionCallbackResponse.message_id)\n")
    return runs


# ---------------------------------------------------------------------- memory, start-up


def _who(filename: str) -> str:
    f = filename.replace("\\", "/")
    for key, name in (("/simcord/", "simcord (simulated Discord)"),
                      ("/discord/", "discord.py"), ("/aiosqlite/", "aiosqlite/sqlite3"),
                      ("/sqlite3/", "aiosqlite/sqlite3"), ("/PIL/", "Pillow")):
        if key in f:
            return name
    if "/benchmarks/" in f:
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
                # The PNG bytes of an uploaded score sheet: once sent, only SimCord's CDN
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
    tracemalloc makes very slow once hundreds of games are running."""
    rng = random.Random(opts.seed + 3)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed)
        async with world.running():
            # Warm-up, not counted: imports, fonts and caches of a first drawn score sheet.
            warm = await world.open_games(2, opts.players)
            with world.fast():
                while not world.sheet_draws:
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


def deep_size(root: object) -> tuple[int, Counter[str]]:
    """Bytes of every object ``root`` reaches (``sys.getsizeof``), by type; stops at classes,
    modules, functions, the event loop, loggers and SimCord's objects."""
    seen = {id(root)}
    stack = [root]
    total = 0
    by_type: Counter[str] = Counter()
    while stack:
        o = stack.pop()
        size = sys.getsizeof(o, 0)
        total += size
        by_type[type(o).__qualname__] += size
        for r in gc.get_referents(o):
            if id(r) in seen:
                continue
            seen.add(id(r))
            if isinstance(r, SHARED) or type(r).__module__.startswith("simcord"):
                continue
            stack.append(r)
    return total, by_type


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
        "service states": len(svc._states),
        "event tails": len(svc._tails),
        "tail events": sum(len(t) for t in svc._tails.values()),
        "channel locks": len(svc._locks),
        "turn timers": svc.pending_timers,
        "discord.py cached messages": len(state._messages or ()),
        "discord.py stored views": len(state._view_store._views),
    }
    return MemoryRun(games, before, after, peak_rss_kb(), traced_games, traced, top, caches)


SIMCORD = "simcord (simulated Discord)"
HARNESS = "benchmark harness (not the bot)"
NOT_THE_BOT = (SIMCORD, HARNESS)
UPLOADS = "cogs/images/png.py"


async def _startup(world: World, tables: list[GameTable], rng: random.Random) -> StartupRun:
    from bot.client import discord_clock
    from bot.service import GameService
    from storage import Database

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
    active = sum(1 for g in await svc.db.open_games() if g.status == "active")
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
    db = await Database.open(world.db_path)
    try:
        for _ in range(5):
            t0 = time.perf_counter()
            await db.open_games()
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


def _attributed(raw: dict[Any, Any]) -> Counter[str]:
    """Own time by bucket; the time of builtins and stdlib helpers (list.remove, deepcopy,
    dataclass __eq__...) goes to the buckets of their callers, in proportion."""
    memo: dict[Any, Counter[str]] = {}

    def shares(key: Any, depth: int) -> Counter[str]:
        filename, _line, name = key
        bucket = _bucket(filename, name)
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


async def bench_profile(opts: Options, out: TextIO) -> str:
    """cProfile of sequential decisions in a ``--games`` world, from dispatch to answer, for
    decisions without and with a new score sheet, split by who spends the time."""
    rng = random.Random(opts.seed + 4)
    groups: dict[bool, pstats.Stats | None] = {False: None, True: None}
    counts: Counter[bool] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed)
        async with world.running():
            tables = await world.open_games(opts.games, opts.players)
            made = 0
            while made < opts.profile_decisions:
                progressed = False
                for t in tables:
                    move = t.next_move(rng)
                    if move is None:
                        continue
                    prof = cProfile.Profile()
                    drawn = len(world.sheet_draws)
                    [res] = await world.burst([move], on_emit=prof.enable,
                                              on_answered=prof.disable)
                    prof.disable()
                    check(res, move.verb)
                    sheet = len(world.sheet_draws) > drawn
                    counts[sheet] += 1
                    group = groups[sheet]
                    if group is None:
                        groups[sheet] = pstats.Stats(prof)
                    else:
                        group.add(prof)
                    made += 1
                    progressed = True
                    if made >= opts.profile_decisions:
                        break
                if not progressed:
                    break
    text = ""
    for sheet, title in ((False, "decisions without a new score sheet (the hot path)"),
                         (True, "decisions that draw the score sheet")):
        stats = groups[sheet]
        if stats is not None:
            text += _profile_report(stats, counts[sheet], opts.games, title)
    out.write(text)
    return text


def _profile_report(stats: pstats.Stats, made: int, games: int, title: str) -> str:
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    buckets = _attributed(raw)
    total = sum(buckets.values())
    lines = [f"\nProfile, {title}: {made} decisions in a {games}-game world, from dispatch to "
             "answer (cProfile, main thread; "
             f"{total * 1000 / made:.1f} ms per decision under the profiler)"]
    for b, tt in buckets.most_common():
        lines.append(f"  {tt / total * 100:5.1f}%  {tt * 1000 / made:6.2f} ms  {b}")
    lines.append("  top functions by own time, per decision:")
    own = sorted(((tt, filename, line, name) for (filename, line, name), (_cc, _nc, tt, _ct, _c)
                  in raw.items()), reverse=True)
    for tt, filename, line, name in own[:10]:
        lines.append(f"    {tt * 1000 / made:7.2f} ms  {name} ({_short(filename)}:{line})")
    lines.append("  our code, by cumulative time, per decision:")
    ours = sorted(((ct, filename, line, name) for (filename, line, name), (_cc, _nc, _tt, ct, _c)
                   in raw.items() if any(k in filename for k in ("/bot/", "/cogs/", "/storage/"))
                   and "/site-packages/" not in filename), reverse=True)
    for ct, filename, line, name in ours[:16]:
        lines.append(f"    {ct * 1000 / made:7.2f} ms  {name} ({_short(filename)}:{line})")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- entry point


async def run_benchmarks(opts: Options, out: TextIO = sys.stdout) -> Results:
    results = Results()
    started = time.perf_counter()
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.WARNING)
    errors = ErrorCounter()
    root.addHandler(errors)
    try:
        if "latency" in opts.which:
            results.latency = await bench_latency(opts, out)
        if "rest" in opts.which:
            results.rest = await bench_rest(opts, out)
        mem, up = "memory" in opts.which, "startup" in opts.which
        if mem or up:
            await bench_resident(opts, out, memory=mem, startup=up, results=results)
        if "profile" in opts.which:
            results.profile = await bench_profile(opts, out)
    finally:
        root.removeHandler(errors)
        root.setLevel(level)
    results.errors_logged = len(errors.records)
    for record in errors.records:
        out.write(f"ERROR logged by {record.name}: {record.getMessage()}\n")
    out.write(f"\n(all benchmarks: {time.perf_counter() - started:.1f} s)\n")
    return results
