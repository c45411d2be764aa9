"""Many games at once: the answer's latency and the process's memory with
``--scale-games`` games in progress (500 by default), on SQLite and on PostgreSQL.

Each backend runs in a process of its own (``python -m tools.benchbot.scale``), so that one
backend's memory is not the other's: the bot in SimCord, ``--scale-games`` channels with
``--players`` people each (20 channels a server), every game opened, joined and started by its
people's clicks (emitted in bursts); each game then makes 0 to ``--scale-spread`` - 1
decisions, unmeasured, so that the games are at different points of a round as a running
bot's are (games started together move in step: they would all end a round and draw its card
in the same paced round; ``--scale-spread 0`` measures that worst case), then:

* *one at a time*: ``--scale-samples`` decisions, each made alone (channels in random order)
  while every other game waits;
* *paced*: ``--scale-rounds`` rounds in which every game makes one decision, the decisions
  emitted one every ``5 s / games`` (one decision per 5 s per game: 100 a second with 500
  games), the bot answering while the next ones arrive.

Two times per decision, from the INTERACTION_CREATE dispatch: *answered*, to the interaction
callback; *shown*, to the request that shows the move (after the move's transaction is
committed): the callback itself when it carries the move's edit (``UPDATE_MESSAGE``, a move
ready within ``ui.answers.SHOW_WITHIN``), else the first request through that interaction's
webhook (a deferred click's edit). SimCord's own work on each request is in both; its settle polling
is not (the harness looks whether the bot is idle itself, :meth:`World.calm`), nor two costs a real
Discord has not (the deferral's wait on SimCord's still clock, its callback records' comparison:
:func:`~tools.benchbot.simcord_costs.wall_clock_sleep`,
:func:`~tools.benchbot.simcord_costs.records_by_identity`).

The garbage collector: SimCord's copy of the world (every channel, member, message and request
of the 500 games) lives in the bot's process, most of the objects a full pass walks, which a
real bot's process has not; so once the games are built every object alive is
frozen (``gc.freeze``), and again between two paced rounds (SimCord keeps a copy of every
request), so the passes walk what the measured decisions add. The
bot's own objects of that moment are frozen with them (a full pass over them alone is what a
real bot pays: the report gives their number). SimCord's records of the callbacks the bot
schedules hold their handles in a reference cycle; the world breaks it once a callback ran
(:func:`~tools.benchbot.simcord_costs.tidy_callback_records`).

Also: the decisions per second the bot worked through in the paced rounds (it falls behind
when they arrive faster); this process's CPU time per decision made alone (the bot and SimCord,
steadier than the latencies on a shared machine) and, from cProfile of a few more decisions,
who spends it (SimCord, discord.py, our code, the database driver).

Memory: the process's RSS before the games are opened (after a warm-up game that loads fonts
and caches), after, and at the end; the growth per game; the bytes the bot object reaches, per
game (SimCord's objects excluded: RSS includes SimCord's copy of every channel and message).
With PostgreSQL the server's own memory is another process's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from tools.benchbot.backends import database_for, postgres_server
from tools.benchbot.figures import Dist, peak_rss_kb, rss_kb
from tools.benchbot.gc_pauses import GcPauses, freeze_world
from tools.benchbot.options import Options
from tools.benchbot.resident import deep_size, tracked_count
from tools.benchbot.rest import DECISION_EVERY_S
from tools.benchbot.scale_play import (
    one_at_a_time,
    open_games,
    paced_rounds,
    profiled,
    progress,
    spread,
    warm_up,
)
from tools.benchbot.simworld import BenchError, ErrorCounter, World

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ScaleRun:
    """The figures of one backend with many games in progress."""

    backend: str
    games: int
    players: int
    opened_s: float
    rss_before_kb: int
    rss_games_kb: int
    rss_end_kb: int
    peak_rss_kb: int
    held_per_game: float
    alone_answered: Dist
    alone_shown: Dist
    paced_answered: Dist
    paced_shown: Dist
    paced_rate: float
    """Decisions per second the paced rounds actually emitted."""
    paced_drain_s: float
    """The longest a paced round's work went on after its last decision arrived."""
    alone_cpu_ms: float
    """This process's CPU time per decision made alone (the bot and SimCord; not
    PostgreSQL's server): steadier than the latencies on a machine shared with other work."""
    load: tuple[float, float]
    """The machine's load average (1 minute) when the run began and when it ended."""
    paced_throughput: float
    """Decisions per second the bot worked through in the paced rounds (from a round's first
    decision until the bot was idle again)."""
    spread: int = 0
    """Each game first made 0 to ``spread - 1`` decisions, unmeasured (0 or 1: in step)."""
    paced_gc: GcPauses = dataclasses.field(default_factory=GcPauses)
    """The garbage collector's passes during the paced rounds."""
    cpu_by_part: dict[str, float] = dataclasses.field(default_factory=dict)
    """Milliseconds per decision made alone, by who spends them (cProfile of
    :data:`PROFILED` more decisions; the profiler's own cost inflates every part)."""
    errors: list[str] = dataclasses.field(default_factory=list)
    """The ERROR records the bot logged (their messages)."""
    frozen: int = 0
    """Objects frozen (``gc.freeze``) before the measured decisions: SimCord's world and the
    bot's objects of that moment (more are frozen between two paced rounds)."""
    bot_tracked: int = 0
    """Of those, the ones the bot object reaches and the collector tracks."""

    @property
    def rss_per_game_kb(self) -> float:
        return (self.rss_games_kb - self.rss_before_kb) / self.games

    def report(self, out: TextIO) -> None:
        out.write(f"\n{self.games} games in progress, {self.backend} ({self.players} people "
                  f"each; opened, joined and started in {self.opened_s:.0f} s)\n")
        for d in (self.alone_answered, self.alone_shown, self.paced_answered,
                  self.paced_shown):
            out.write(d.line() + "\n")
        out.write(f"  paced rounds: {self.paced_rate:.0f} decisions/s arrived (goal "
                  f"{self.games / DECISION_EVERY_S:.0f}; " + (
                      f"the games first spread over {self.spread} decisions of a round"
                      if self.spread > 1 else "every game in step") + "); the bot worked through "
                  f"{self.paced_throughput:.0f} decisions/s, idle again "
                  f"{self.paced_drain_s:.1f} s after a round's last decision\n")
        out.write(f"  the garbage collector in the paced rounds: {self.paced_gc.line()}\n")
        if self.frozen:
            out.write(f"    (its passes walk what the measured decisions add: the "
                      f"{self.frozen:,} objects alive before them, SimCord's copy of the world "
                      f"and the bot's own {self.bot_tracked:,}, were frozen, and what a round "
                      "left before the next)\n")
        out.write(f"  CPU of this process per decision made alone: {self.alone_cpu_ms:.1f} ms "
                  f"(the bot and SimCord); machine load average {self.load[0]:.1f} at the "
                  f"start, {self.load[1]:.1f} at the end ({os.cpu_count()} CPUs)\n")
        if self.cpu_by_part:
            total = sum(self.cpu_by_part.values())
            out.write(f"  a decision alone under cProfile, {total:.1f} ms: " + ", ".join(
                f"{part} {ms:.1f}" for part, ms in sorted(self.cpu_by_part.items(),
                                                          key=lambda kv: -kv[1])) + "\n")
        out.write(f"  RSS {self.rss_before_kb / 1024:.0f} MiB before the games, "
                  f"{self.rss_games_kb / 1024:.0f} MiB with them "
                  f"(+{self.rss_per_game_kb:.0f} KiB per game), {self.rss_end_kb / 1024:.0f} "
                  f"MiB at the end, peak {self.peak_rss_kb / 1024:.0f} MiB; the bot object "
                  f"reaches {self.held_per_game / 1024:.1f} KiB more per game (RSS includes "
                  "SimCord's copy of every channel, member and message"
                  + ("; PostgreSQL's memory is its server's)" if self.backend == "postgres"
                     else ")") + "\n")
        for message in self.errors:
            out.write(f"  ERROR logged by the bot: {message}\n")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScaleRun:
        dists = {k: Dist(v["name"], list(v["samples"])) for k, v in data.items()
                 if isinstance(v, dict) and "samples" in v}
        return cls(**{**data, **dists, "load": tuple(data["load"]),
                      "paced_gc": GcPauses(**data["paced_gc"])})


def report(runs: Sequence[ScaleRun], skipped: Sequence[str], out: TextIO) -> None:
    """Print the runs' figures."""
    out.write("\nMany games at once: answer latency and memory (each backend in a process of "
              "its own; goal: p99 answer under 50 ms)\n")
    for run in runs:
        run.report(out)
    for why in skipped:
        out.write(f"  skipped: {why}\n")


# ---------------------------------------------------------------------- the parent


async def bench_scale(opts: Options, out: TextIO) -> list[ScaleRun]:
    """Each of ``opts.scale_backends`` in a process of its own; PostgreSQL on
    ``opts.postgres_url``, else on a private server started for the run.
    """
    runs: list[ScaleRun] = []
    skipped: list[str] = []
    for backend in opts.scale_backends:
        if backend == "sqlite":
            runs.append(await _child(dataclasses.replace(opts, backend="sqlite")))
            continue
        try:
            with postgres_server(opts.postgres_url) as url:
                runs.append(await _child(dataclasses.replace(opts, backend="postgres",
                                                             postgres_url=url)))
        except SystemExit as exc:  # no server binaries (postgres_server says how to get them)
            skipped.append(f"PostgreSQL: {exc}")
    report(runs, skipped, out)
    return runs


async def _child(opts: Options) -> ScaleRun:
    """Run :func:`measure` for ``opts`` in a new Python process; its figures."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tools.benchbot.scale", json.dumps(dataclasses.asdict(opts)),
        cwd=ROOT, stdout=subprocess.PIPE)  # its stderr: the progress lines, its errors
    stdout, _ = await proc.communicate()
    lines = stdout.decode().strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise BenchError(f"the {opts.backend} run of the scale benchmark failed (exit code "
                         f"{proc.returncode}; its reason above)")
    return ScaleRun.from_json(json.loads(lines[-1]))


# ---------------------------------------------------------------------- the child


def _options(text: str) -> Options:
    data = json.loads(text)
    for key, value in data.items():
        if isinstance(value, list):  # tuples in, lists out of JSON
            data[key] = tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return Options(**data)


def main(argv: Sequence[str]) -> int:
    """``python -m tools.benchbot.scale OPTIONS_JSON``: one backend's run; its figures as one
    JSON line on stdout.
    """
    opts = _options(argv[0])
    root = logging.getLogger()
    root.setLevel(logging.WARNING)
    errors = ErrorCounter()
    root.addHandler(errors)
    try:
        run = asyncio.run(measure(opts))
    except BenchError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    run.errors = [f"{record.name}: {record.getMessage()}" for record in errors.records]
    sys.stdout.write(json.dumps(run.to_json()) + "\n")
    return 0


async def measure(opts: Options) -> ScaleRun:
    """``opts.scale_games`` games in progress on ``opts.backend``: latency and memory."""
    rng = random.Random(opts.seed + 27)
    n = opts.scale_games
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), seed=opts.seed, database_url=await database_for(opts))
        async with world.running():
            await warm_up(world, opts.players, rng)
            gc.collect()
            rss_before, held_before = rss_kb(), deep_size(world.bot)[0]
            t0 = time.perf_counter()
            tables = await open_games(world, n, opts.players)
            opened = time.perf_counter() - t0
            progress(f"{n} games opened in {opened:.0f} s")
            made = await spread(world, tables, opts.scale_spread, rng)
            progress(f"{made} decisions to spread them over a round")
            gc.collect()
            rss_games, held_games = rss_kb(), deep_size(world.bot)[0]
            bot_tracked = tracked_count(world.bot)
            frozen = freeze_world()
            t0, cpu0 = time.perf_counter(), time.process_time()
            alone = await one_at_a_time(world, tables, opts.scale_samples, rng)
            alone_cpu = (time.process_time() - cpu0) / opts.scale_samples
            progress(f"{opts.scale_samples} decisions one at a time in "
                     f"{time.perf_counter() - t0:.0f} s")
            t0 = time.perf_counter()
            with GcPauses() as pauses:
                paced, rate, drain, through = await paced_rounds(world, tables,
                                                                 opts.scale_rounds, rng,
                                                                 between=freeze_world)
            progress(f"{opts.scale_rounds} paced rounds in {time.perf_counter() - t0:.0f} s")
            parts = await profiled(world, tables, rng)
            gc.unfreeze()
            gc.collect()
            rss_end = rss_kb()
    label = f"{n} games"
    return ScaleRun(
        opts.backend, n, opts.players, opened, rss_before, rss_games, rss_end, peak_rss_kb(),
        (held_games - held_before) / n,
        Dist(f"one at a time among {label}: answered", alone[0]),
        Dist("  the move shown (committed, board edited)", alone[1]),
        Dist(f"paced, every game every {DECISION_EVERY_S:g} s: answered", paced[0]),
        Dist("  the move shown (committed, board edited)", paced[1]),
        rate, drain, alone_cpu * 1000, (load_start, os.getloadavg()[0]), through,
        opts.scale_spread, pauses, parts, frozen=frozen, bot_tracked=bot_tracked)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
