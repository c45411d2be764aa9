"""``simulate``'s games in chunks of consecutive seeds, in this process or spread over
several: :func:`run_chunks` gives each chunk's :class:`~tools.sim.tally.Tally` in seed order and
writes each chunk's log where it belongs in the log file (the log of the chunk before it ends
there), whichever process played it, so the log is the same byte for byte.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Final

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.runner import play_game
from tools.sim.tally import DecisionTimes, Tally

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


def play_chunk(setup: Setup, seeds: range) -> tuple[Tally, list[bytes]]:
    """Play the games of ``seeds``, in order: their tally and their log, each game's lines
    as its own UTF-8 bytes (none without the log).

    Each game's log is joined and encoded on its own and the chunk's are written one after the
    other: joined into one text of a whole chunk (megabytes), three times that size would be
    allocated fresh from the kernel for every chunk (the lines, their text, its bytes), whose
    page faults cost more than the writing itself.
    """
    cpu_started = time.process_time()
    kind = kind_of(setup.game)
    options = {"expansions": list(setup.expansions)} if setup.expansions else {}
    names = player_names(setup.game, setup.players)
    seat_ai = setup.seat_ai
    tally = setup.tally()
    timings: dict[str, list[float]] = {}
    logs: list[bytes] = []
    events = 0
    for g in seeds:
        played = play_game(kind, names, g, setup.ai, options, keep_events=setup.log,
                           timings=timings)
        if setup.log:
            logs.append("".join(log_lines(f"{setup.game}-{g}", played.events)).encode())
            events += len(played.events)
        tally.add_game(seat_ai, played.totals, played.winners)
    tally.events = events
    tally.timings = {name: DecisionTimes.of(seconds) for name, seconds in timings.items()}
    tally.cpu = time.process_time() - cpu_started
    return tally, logs


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


class _Turns:
    """Whose chunk's log goes into the log file next, and where (shared by the workers)."""

    def __init__(self, context: Any, path: Path) -> None:
        self.changed = context.Condition()
        self.next = context.RawValue("q", 0)  # the index of the chunk whose log goes next
        self.offset = context.RawValue("q", 0)  # where in the file it goes
        self.path = path


_TURNS: list[_Turns] = []  # in a worker process: the run's turns


def _start_worker(turns: _Turns | None) -> None:
    if turns is not None:
        _TURNS[:] = [turns]


def _play_into_log(args: tuple[Setup, int, range]) -> Tally:
    """Play a chunk in a worker process; with the log, write the chunk's log into the log
    file, where the chunk before it ended (waiting for that chunk's size if need be).
    """
    setup, index, seeds = args
    tally, logs = play_chunk(setup, seeds)
    if setup.log:
        turns = _TURNS[0]
        with turns.changed:
            turns.changed.wait_for(lambda: turns.next.value == index)
            offset = turns.offset.value
            turns.offset.value = offset + sum(map(len, logs))
            turns.next.value = index + 1
            turns.changed.notify_all()
        with turns.path.open("r+b") as fh:  # this chunk's place, apart from the others'
            fh.seek(offset)
            fh.writelines(logs)
    return tally


def _play_for_parent(args: tuple[Setup, int, range]) -> tuple[Tally, list[bytes]]:
    """Play a chunk in a worker process: its tally and its log, for the parent to write."""
    setup, _index, seeds = args
    return play_chunk(setup, seeds)


def run_chunks(setup: Setup, seeds: list[range], jobs: int, log: BinaryIO | None = None,
               log_path: Path | None = None) -> Iterator[Tally]:
    """Each chunk's tally, in the order of ``seeds``, its log written to the log file in the
    same order: played here with one job (or one chunk), its log written to ``log``; else by
    ``jobs`` worker processes (at most one a chunk), each writing its chunks' logs into the
    file ``log_path`` (an empty file ``log`` has open), each where the chunk before ended. A
    log that cannot seek (a pipe, a terminal) is written here instead, the workers sending
    their chunks' logs back in seed order.
    """
    jobs = min(jobs, len(seeds))
    if jobs <= 1:
        for chunk in seeds:
            tally, logs = play_chunk(setup, chunk)
            if log is not None:
                log.writelines(logs)
            yield tally
        return
    import multiprocessing  # here: one process (--jobs 1) never needs it

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    if setup.log and log_path is None:
        raise ValueError("a log written by several processes needs its path")
    turns = _Turns(context, log_path) if setup.log and log_path is not None else None
    tasks = [(setup, i, chunk) for i, chunk in enumerate(seeds)]
    if turns is not None and log is not None and not log.seekable():
        with context.Pool(jobs) as pool:
            for tally, logs in pool.imap(_play_for_parent, tasks):
                log.writelines(logs)
                yield tally
        return
    with context.Pool(jobs, initializer=_start_worker, initargs=(turns,)) as pool:
        yield from pool.imap(_play_into_log, tasks)
