"""``simulate --jobs N``: the games split over processes, the log and the summary the same
byte for byte as one process's."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.runner import play_game
from tools.sim.chunks import (
    CHUNK,
    Setup,
    chunks,
    default_jobs,
    play_chunk,
    player_names,
    processes,
)
from tools.sim.simulate import simulate


def _run(tmp_path: Path, jobs: int, **kw: object) -> tuple[bytes, str, int]:
    log = tmp_path / f"jobs{jobs}.jsonl"
    out = io.StringIO()
    result = simulate(log_path=log, jobs=jobs, out=out, **kw)  # type: ignore[arg-type]
    head, _, _ = out.getvalue().partition(" games/s")
    return log.read_bytes(), head.rsplit(";", 1)[0], result["processes"]


@pytest.mark.parametrize("kw", [
    {"game": "royale", "players": 4, "games": 30, "seed": 7, "ai": ["random"]},
    {"game": "royale", "players": 10, "games": 9, "seed": 70, "ai": ["heuristic", "random"],
     "expansions": ["mischief", "cannon", "mercenary"]},
    {"game": "posing", "players": 3, "games": 12, "seed": 5, "ai": ["heuristic", "random"]},
], ids=["royale-random", "royale-mixed-mayhem", "posing"])
def test_the_log_and_summary_are_the_same_whatever_the_jobs(tmp_path: Path,
                                                            kw: dict[str, object]) -> None:
    one = _run(tmp_path, 1, **kw)
    assert one[2] == 1 and one[0].count(b"\n") > 100
    for jobs in (2, 3):
        log, summary, used = _run(tmp_path, jobs, **kw)
        assert used == jobs  # really split
        assert (log, summary) == one[:2]
    # nothing else was written beside the logs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs1.jsonl", "jobs2.jsonl",
                                                          "jobs3.jsonl"]


def test_chunks_cover_every_seed_in_order() -> None:
    for games, jobs in [(0, 2), (1, 2), (7, 3), (1000, 2), (10_000, 2), (10_000, 64)]:
        parts = chunks(5, games, jobs)
        assert [g for part in parts for g in part] == list(range(5, 5 + games))
        assert all(0 < len(part) <= CHUNK for part in parts)
        if games:  # a quarter of a process's share at most: every process gets several
            assert max(map(len, parts)) <= -(-games // (4 * jobs))


def test_a_process_for_every_two_games_at_most() -> None:
    assert processes(1, 8) == 1 and processes(3, 8) == 1 and processes(4, 8) == 2
    assert processes(10_000, 2) == 2 and processes(0, 2) == 1


def test_the_default_is_the_cpus_this_process_may_use() -> None:
    want = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert default_jobs() == want


def test_a_log_that_cannot_seek_is_written_in_seed_order_too(tmp_path: Path) -> None:
    kw: dict[str, object] = {"game": "royale", "players": 4, "games": 30, "seed": 7,
                             "ai": ["random"]}
    want, _, _ = _run(tmp_path, 1, **kw)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = bytearray()

    def read() -> None:
        with fifo.open("rb") as fh:
            got.extend(fh.read())

    reader = threading.Thread(target=read)
    reader.start()
    result = simulate(log_path=fifo, jobs=2, out=io.StringIO(), **kw)  # type: ignore[arg-type]
    reader.join(timeout=60)
    assert result["processes"] == 2 and bytes(got) == want


def test_a_chunk_keeps_each_games_log_apart() -> None:
    """Each game's log is its own bytes (no text of a whole chunk is built), in seed order,
    and the chunk's events are counted."""
    setup = Setup("royale", 4, ("random",), log=True)
    tally, logs = play_chunk(setup, range(3, 6))
    want = [play_game(kind_of("royale"), player_names("royale", 4), g, ["random"], {})
            for g in range(3, 6)]
    assert logs == ["".join(log_lines(f"royale-{g}", p.events)).encode()
                    for g, p in zip(range(3, 6), want, strict=True)]
    assert tally.events == sum(len(p.events) for p in want) > 300
    assert play_chunk(Setup("royale", 4, ("random",)), range(3, 6))[1] == []
