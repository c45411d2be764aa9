"""The simulator's log file: the bytes given, in order; space reserved ahead without ever
showing in the file's size; given back at close; plain writes where reserving is refused."""

from __future__ import annotations

import os
import random
from pathlib import Path

from bot.sim import logfile
from bot.sim.logfile import RESERVE, LogFile


def _batches(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(rng.choice([0, 1, 4095, 262_144, 300_001])) for _ in range(40)]


def test_the_file_holds_the_bytes_given_and_its_size_is_what_was_written(
        tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = LogFile(path.open("wb", buffering=0))
    given = bytearray()
    for data in _batches(3):
        log.write(data)
        given += data
        assert os.fstat(log.fd).st_size == len(given)  # reserved space never shows
    log.close()
    assert path.read_bytes() == bytes(given)


def test_space_is_reserved_ahead_and_given_back_at_close(tmp_path: Path) -> None:
    # Linux's C library has fallocate, and ext4 and tmpfs (where tests write) take it
    path = tmp_path / "log.jsonl"
    log = LogFile(path.open("wb", buffering=0))
    log.write(b"x" * 1000)
    assert log.reserving and log.reserved == RESERVE
    assert os.fstat(log.fd).st_blocks * 512 >= RESERVE  # the blocks exist past the end
    log.close()
    assert path.stat().st_size == 1000
    assert path.stat().st_blocks * 512 < RESERVE  # given back


def test_plain_writes_where_reserving_is_refused(tmp_path: Path) -> None:
    calls: list[tuple[int, int, int, int]] = []

    def refuse(fd: int, mode: int, offset: int, length: int) -> int:
        calls.append((fd, mode, offset, length))
        return -1  # EOPNOTSUPP, say

    path = tmp_path / "log.jsonl"
    log = LogFile(path.open("wb", buffering=0))
    log.fallocate = refuse
    batches = _batches(5)
    for data in batches:
        log.write(data)
    log.close()
    assert len(calls) == 1 and calls[0][1] == logfile.KEEP_SIZE  # asked once, then plain
    assert path.read_bytes() == b"".join(batches)


def test_a_pipe_gets_every_byte() -> None:
    read_end, write_end = os.pipe()
    data = bytes(range(256)) * 200  # less than a pipe holds (64 KiB): no reader needed yet
    log = LogFile(os.fdopen(write_end, "wb", buffering=0))
    log.write(data[:1000])
    log.write(data[1000:])
    log.close()
    with os.fdopen(read_end, "rb") as fh:
        assert fh.read() == data
