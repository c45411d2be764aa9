"""Where the simulator's fast path (:mod:`bot.rules.royale.fast`) writes a game's log: a byte
buffer that grows by ``write`` (a piece), ``append`` (one byte) and ``write_i16_le`` /
``write_i32_le`` / ``write_i64_le`` (2, 4 or 8 bytes given as a number), and is emptied by
:func:`take` (or handed to the file in place by :mod:`bot.sim.drain`).

Where mypy's runtime library is installed (it comes with mypy, which ``./dev compile-fast``
needs), the buffer is its ``librt.strings.BytesWriter``: the mypyc-compiled fast path writes
into it with a bounds check and a memcpy per piece. A ``bytearray`` with the same two methods
(both C methods of ``bytearray``) stands in where it is not installed; the pure-Python fast
path takes either. The compiled one takes only a ``BytesWriter`` (it always has one: it is
built with mypy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

try:
    from librt.strings import BytesWriter
except ImportError:  # pragma: no cover - mypy (and so librt) not installed
    BytesWriter = None  # type: ignore[assignment,misc]

if TYPE_CHECKING:  # for mypyc, librt's: one inline C store each in the compiled fast path
    from librt.strings import write_i16_le as write_i16_le
    from librt.strings import write_i32_le as write_i32_le
    from librt.strings import write_i64_le as write_i64_le
else:  # this module is never compiled; in pure Python, for either buffer, the same bytes

    def write_i16_le(out: Any, value: int) -> None:
        """Write ``value`` as 2 little-endian bytes."""
        out.write(value.to_bytes(2, "little", signed=True))

    def write_i32_le(out: Any, value: int) -> None:
        """Write ``value`` as 4 little-endian bytes."""
        out.write(value.to_bytes(4, "little", signed=True))

    def write_i64_le(out: Any, value: int) -> None:
        """Write ``value`` as 8 little-endian bytes."""
        out.write(value.to_bytes(8, "little", signed=True))

# Take the buffer's bytes when it holds about this much: small enough to stay in the CPU's
# cache and in memory the allocator reuses, large enough for one write per many games.
TAKE_BYTES: Final = 1 << 18


class ByteBuffer(bytearray):
    """The log buffer without mypy's runtime library: ``write`` and ``append`` are bytearray's
    own C methods (``extend`` copies a bytes piece in one go).
    """

    write = bytearray.extend


def log_buffer(*, native: bool = True) -> tuple[Any, int]:
    """A new empty log buffer and the ``len`` at which to :func:`take` its bytes.

    A ``BytesWriter`` when there is one (``native=False`` asks for the bytearray).
    """
    if native and BytesWriter is not None:
        return BytesWriter(), TAKE_BYTES
    return ByteBuffer(), TAKE_BYTES


def take(buffer: Any) -> bytes:
    """The bytes written to ``buffer`` since it was last taken; empties it."""
    if isinstance(buffer, ByteBuffer):
        data = bytes(buffer)
        buffer.clear()
        return data
    value: bytes = buffer.getvalue()
    buffer.truncate(0)
    return value


__all__ = ["TAKE_BYTES", "ByteBuffer", "BytesWriter", "log_buffer", "take", "write_i16_le",
           "write_i32_le", "write_i64_le"]
