"""drain() hands the file every byte of the log buffer, in order, from either buffer, and
empties it; a writer laid out otherwise is copied out with take() instead of being read."""

from __future__ import annotations

import random

from librt.strings import BytesWriter

from bot.rules.royale.fast_sink import ByteBuffer, log_buffer
from bot.sim.drain import drain, layout_known


def _pieces(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(rng.choice([0, 1, 7, 255, 256, 257, 4096, 300_001]))
            for _ in range(30)]


def test_this_librt_is_read_in_place() -> None:
    # the layout drain() reads; if a new librt changes it, drain copies (and this says so)
    assert layout_known(BytesWriter)


def test_drain_writes_every_byte_and_empties_the_buffer() -> None:
    for native in (True, False):
        _drains_every_byte(native)


def _drains_every_byte(native: bool) -> None:
    buffer, _ = log_buffer(native=native)
    assert isinstance(buffer, BytesWriter if native else ByteBuffer)
    got: list[bytes] = []
    want: list[bytes] = []
    rng = random.Random(4)
    for piece in _pieces(11):
        buffer.write(piece)
        want.append(piece)
        if rng.random() < 0.3:
            drain(buffer, lambda view: got.append(bytes(view)))
            assert len(buffer) == 0
    drain(buffer, lambda view: got.append(bytes(view)))
    assert b"".join(got) == b"".join(want)
    buffer.write(b"after")  # the emptied buffer takes new bytes from its start
    drain(buffer, lambda view: got.append(bytes(view)))
    assert got[-1] == b"after"


def test_an_empty_buffer_gives_an_empty_view() -> None:
    got: list[bytes] = []
    for native in (True, False):
        drain(log_buffer(native=native)[0], lambda view: got.append(bytes(view)))
    assert got == [b"", b""]


class OtherWriter:
    """A writer with BytesWriter's methods but not its C layout (a future librt, say)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, piece: bytes) -> None:
        self.data += piece

    def __len__(self) -> int:
        return len(self.data)

    def getvalue(self) -> bytes:
        return bytes(self.data)

    def truncate(self, size: int) -> None:
        del self.data[size:]


def test_a_writer_laid_out_otherwise_is_copied_not_read() -> None:
    assert not layout_known(OtherWriter)
    writer = OtherWriter()
    writer.write(b"abc" * 100)
    got: list[bytes] = []
    drain(writer, lambda view: got.append(bytes(view)))
    assert got == [b"abc" * 100] and len(writer) == 0
