"""The log buffer reaches the file byte for byte, in order: with O_DIRECT in whole blocks where
the file takes it (after the buffer moved, too; the end with a plain write), with plain writes
where it does not (a file system without it, one that refuses a write, /dev/null, the bytearray
buffer); other errors are raised; simulate's log is the same either way."""

from __future__ import annotations

import errno
import fcntl
import io
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from librt.strings import BytesWriter

from bot.rules.royale.fast_sink import ByteBuffer
from bot.sim import logwriter
from bot.sim.drain import located
from bot.sim.logwriter import BLOCK, DIRECT_BYTES, BufferedLog, DirectLog, open_log
from bot.sim.simulate import simulate

SIZES = (0, 1, 7, BLOCK - 1, BLOCK, BLOCK + 1, 300_001, DIRECT_BYTES // 3)


def _pieces(seed: int, count: int = 40) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(rng.choice(SIZES)) for _ in range(count)]


def _direct(path: Path, buffer: Any) -> DirectLog:
    sink = open_log(path, buffer)
    # this machine kind's file systems (ext4, tmpfs) take O_DIRECT
    assert isinstance(sink, DirectLog) and sink.direct
    assert fcntl.fcntl(sink.log.fd, fcntl.F_GETFL) & logwriter.O_DIRECT
    return sink


def _write_all(sink: BufferedLog | DirectLog, buffer: Any, pieces: list[bytes],
               seed: int, before: bytes = b"") -> bytes:
    """Every byte of the log: ``before`` (already in the buffer or the file), then the pieces."""
    rng = random.Random(seed)
    given = bytearray(before)
    for piece in pieces:
        buffer.write(piece)
        given += piece
        if len(buffer) >= sink.take_at or rng.random() < 0.2:
            sink.drain(buffer)
            size = os.fstat(sink.log.fd).st_size
            assert size == sink.log.size <= len(given)  # reserved space never shows
            if sink.direct:
                assert size % BLOCK == 0 and len(given) - size < BLOCK  # whole blocks only
    sink.finish(buffer)
    sink.close()
    return bytes(given)


def test_direct_writes_hand_the_file_every_byte_in_whole_blocks(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    buffer = BytesWriter()
    sink = _direct(path, buffer)
    given = _write_all(sink, buffer, _pieces(1), seed=2)
    assert path.read_bytes() == given and len(buffer) == 0
    assert not sink.direct  # the last partial block went with a plain write


def test_what_the_buffer_held_before_comes_first(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    buffer = BytesWriter()
    buffer.write(b"before\n")
    sink = _direct(path, buffer)
    given = _write_all(sink, buffer, [b"after\n"], seed=0, before=b"before\n")
    assert path.read_bytes() == given == b"before\nafter\n"


def test_a_buffer_that_grew_and_moved_is_realigned(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    buffer = BytesWriter()
    sink = _direct(path, buffer)
    buffer.write(b"x" * 1000)
    address = located(buffer)[0]
    big = random.Random(3).randbytes(3 * DIRECT_BYTES)  # past its room: it grows
    buffer.write(big)
    assert located(buffer)[0] != address
    given = _write_all(sink, buffer, _pieces(4, 10), seed=5, before=b"x" * 1000 + big)
    assert path.read_bytes() == given


def test_an_empty_log_and_a_log_of_whole_blocks(tmp_path: Path) -> None:
    for size in (0, 5 * BLOCK):
        path = tmp_path / f"log{size}.jsonl"
        buffer = BytesWriter()
        sink = _direct(path, buffer)
        data = bytes(range(256)) * (size // 256)
        assert _write_all(sink, buffer, [data], seed=6) == data
        assert path.read_bytes() == data


def _refusing(real: Callable[[int, Any], int], error: int) -> Callable[[int, Any], int]:
    def write(fd: int, data: Any) -> int:
        if fcntl.fcntl(fd, fcntl.F_GETFL) & logwriter.O_DIRECT:
            raise OSError(error, os.strerror(error))
        return real(fd, data)
    return write


def test_a_file_that_refuses_direct_writes_gets_plain_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "log.jsonl"
    buffer = BytesWriter()
    sink = _direct(path, buffer)
    monkeypatch.setattr(logwriter.os, "write", _refusing(os.write, errno.EINVAL))
    buffer.write(b"y" * (3 * BLOCK + 5))
    sink.drain(buffer)  # refused: O_DIRECT is dropped, the blocks go with a plain write
    assert not sink.direct and not fcntl.fcntl(sink.log.fd, fcntl.F_GETFL) & logwriter.O_DIRECT
    assert sink.how == "plain writes (O_DIRECT refused)"
    given = _write_all(sink, buffer, _pieces(7), seed=8, before=b"y" * (3 * BLOCK + 5))
    assert path.read_bytes() == given


def test_other_write_errors_are_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = BytesWriter()
    sink = _direct(tmp_path / "log.jsonl", buffer)
    monkeypatch.setattr(logwriter.os, "write", _refusing(os.write, errno.ENOSPC))
    buffer.write(b"z" * (2 * BLOCK))
    with pytest.raises(OSError) as raised:
        sink.drain(buffer)
    assert raised.value.errno == errno.ENOSPC and sink.direct
    sink.close()


def test_a_file_system_without_o_direct_gets_plain_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = fcntl.fcntl

    def no_direct(fd: int, command: int, arg: int = 0) -> int:
        if command == fcntl.F_SETFL and arg & logwriter.O_DIRECT:
            raise OSError(errno.EINVAL, "Invalid argument")
        return real(fd, command, arg)

    monkeypatch.setattr(logwriter.fcntl, "fcntl", no_direct)
    path = tmp_path / "log.jsonl"
    buffer = BytesWriter()
    sink = open_log(path, buffer)
    assert isinstance(sink, BufferedLog) and not sink.direct
    assert path.read_bytes() == b"" and _write_all(sink, buffer, _pieces(9), 1) == path.read_bytes()


def test_dev_null_and_the_bytearray_buffer_get_plain_writes(tmp_path: Path) -> None:
    assert isinstance(open_log(Path(os.devnull), BytesWriter()), BufferedLog)
    path = tmp_path / "log.jsonl"
    buffer = ByteBuffer()
    sink = open_log(path, buffer)
    assert isinstance(sink, BufferedLog)
    assert _write_all(sink, buffer, _pieces(10), seed=11) == path.read_bytes()


@pytest.mark.parametrize(("players", "ai", "games"), [(4, "random", 300), (3, "heuristic", 3)])
def test_simulate_writes_the_same_log_directly_or_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, ai: str,
        games: int) -> None:
    logs = []
    for direct in (True, False):
        if not direct:
            monkeypatch.setattr(logwriter, "O_DIRECT", 0)
        path = tmp_path / f"{direct}.jsonl"
        out = io.StringIO()
        simulate(game="royale", players=players, games=games, seed=5, ai=[ai],
                 expansions=("cannon",), log_path=path, out=out)
        how = "written with O_DIRECT" if direct else "plain writes"
        assert f" events, {how})" in out.getvalue()  # each way was taken
        logs.append(path.read_bytes())
    assert logs[0] == logs[1] and logs[0].count(b"\n") > games * 10


def test_bytes_off_a_block_boundary_are_realigned_before_a_direct_write(tmp_path: Path) -> None:
    # as after the buffer grew and moved to an address 16 bytes off the boundary it had
    path = tmp_path / "log.jsonl"
    buffer = BytesWriter()
    sink = _direct(path, buffer)
    data = random.Random(12).randbytes(3 * BLOCK + 100)
    buffer.truncate(0)
    buffer.write(bytes(sink.start + 16))
    buffer.write(data)
    sink.start += 16
    sink.drain(buffer)
    assert (located(buffer)[0] + sink.start) % BLOCK == 0 and sink.direct
    assert path.read_bytes() == data[:3 * BLOCK]
    assert _write_all(sink, buffer, [], seed=13, before=data) == path.read_bytes()


def _huge_pages_on() -> bool:
    try:
        setting = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
    except OSError:
        return False
    return "[never]" not in setting


def test_the_buffer_is_backed_by_huge_pages_and_keeps_its_bytes(tmp_path: Path) -> None:
    buffer = BytesWriter()
    data = random.Random(14).randbytes(5000)
    buffer.write(data)
    sink = _direct(tmp_path / "log.jsonl", buffer)
    if _huge_pages_on():  # this machine kind: "madvise"
        assert sink.huge > 0
        smaps = Path("/proc/self/smaps_rollup").read_text()
        huge_kb = int(next(line.split()[1] for line in smaps.splitlines()
                           if line.startswith("AnonHugePages:")))
        assert huge_kb * 1024 >= DIRECT_BYTES // 2  # most of its 8 MiB, in 2 MiB pages
    assert _write_all(sink, buffer, [], seed=15, before=data) == data
    assert (tmp_path / "log.jsonl").read_bytes() == data


def test_memory_that_is_not_there_gets_no_huge_pages() -> None:
    assert logwriter.huge_pages(4 * logwriter.PAGE, logwriter.PAGE) == 0  # nothing mapped there
