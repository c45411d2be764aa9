"""``simulate``'s games in chunks of consecutive seeds, in this process or spread over
several: :func:`run_chunks` gives each chunk's :class:`~bot.sim.tally.Tally` and log bytes in
seed order, whichever process played it, so the log is the same byte for byte.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.runner import play_game
from bot.sim.tally import Tally

CHUNK: Final = 250
"""Games per chunk at most (a chunk's log, about 90 KB a 10-player game, is written at once)."""
CHUNKS_PER_JOB: Final = 4
"""A run is cut into at least this many chunks per process, so that each gets its share even
when some games take longer than others."""
GAMES_PER_JOB: Final = 2
"""A process is started for every this many games at least (a game or two: this one)."""


def player_names(kind: str, n: int) -> list[str]:
    """The seats' player ids of a simulated game: cpu1, cpu2, ..."""
    return [f"cpu{i + 1}" for i in range(n)]


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of one ``simulate`` run shares."""

    game: str
    players: int
    ai: tuple[str, ...]
    expansions: tuple[str, ...] = ()
    log: bool = False

    @property
    def names(self) -> list[str]:
        """The computer players' names, each once, in the order given."""
        return list(dict.fromkeys(self.ai))

    @property
    def seat_ai(self) -> list[str]:
        """The computer player of each seat (the names cycle)."""
        return [self.ai[i % len(self.ai)] for i in range(self.players)]

    def tally(self) -> Tally:
        """An empty tally with every player's name, in order."""
        return Tally(wins=dict.fromkeys(self.ai, 0), points=dict.fromkeys(self.ai, 0))


def play_chunk(setup: Setup, seeds: range) -> tuple[Tally, bytes]:
    """Play the games of ``seeds``, in order: their tally and their log (UTF-8; empty
    without the log).
    """
    cpu_started = time.process_time()
    kind = kind_of(setup.game)
    options = {"expansions": list(setup.expansions)} if setup.game == "royale" else {}
    names = player_names(setup.game, setup.players)
    seat_ai = setup.seat_ai
    tally = setup.tally()
    timings: dict[str, list[float]] = {}
    lines: list[str] = []
    for g in seeds:
        played = play_game(kind, names, g, setup.ai, options, keep_events=setup.log,
                           timings=timings)
        if setup.log:
            lines.extend(log_lines(f"{setup.game}-{g}", played.events))
        tally.add_game(seat_ai, played.totals, played.winners)
    tally.events = len(lines)
    tally.timings = {name: array("d", seconds) for name, seconds in timings.items()}
    tally.cpu = time.process_time() - cpu_started
    return tally, "".join(lines).encode()


def processes(games: int, jobs: int) -> int:
    """How many of ``jobs`` processes play ``games`` games (see :data:`GAMES_PER_JOB`)."""
    return max(1, min(jobs, games // GAMES_PER_JOB))


def chunks(seed: int, games: int, jobs: int) -> list[range]:
    """The seeds ``seed .. seed + games - 1`` in consecutive chunks: at most :data:`CHUNK`
    games each, and at least :data:`CHUNKS_PER_JOB` chunks a process when there are games
    enough.
    """
    size = max(1, min(CHUNK, -(-games // (jobs * CHUNKS_PER_JOB))))
    end = seed + games
    return [range(start, min(start + size, end)) for start in range(seed, end, size)]


def default_jobs() -> int:
    """The processes ``simulate`` uses by default: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _play_to_file(args: tuple[Setup, range, Path]) -> Tally:
    """Play a chunk in a worker process; its log goes to a file of its own."""
    setup, seeds, part = args
    tally, data = play_chunk(setup, seeds)
    if setup.log:
        part.write_bytes(data)
    return tally


def run_chunks(setup: Setup, seeds: list[range], jobs: int,
               log: BinaryIO | None = None, parts: Path | None = None) -> Iterator[Tally]:
    """Each chunk's tally, in the order of ``seeds``, its log appended to ``log`` in the same
    order: played here with one job (or one chunk), else by ``jobs`` worker processes (at most
    one a chunk), each chunk's log written to a file of its own in the folder ``parts``, then
    appended to ``log`` and deleted.
    """
    jobs = min(jobs, len(seeds))
    if jobs <= 1:
        for chunk in seeds:
            tally, data = play_chunk(setup, chunk)
            if log is not None:
                log.write(data)
            yield tally
        return
    if log is not None and parts is None:
        raise ValueError("a log written by several processes needs a folder for its parts")
    folder = parts if parts is not None else Path()
    tasks = [(setup, chunk, folder / f"chunk-{i}.jsonl") for i, chunk in enumerate(seeds)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(jobs) as pool:
        for (_, _, part), tally in zip(tasks, pool.imap(_play_to_file, tasks), strict=True):
            if log is not None:
                with part.open("rb") as piece:
                    shutil.copyfileobj(piece, log, 1 << 20)
                part.unlink()
            yield tally
