"""Hands the fast path's log buffer (:mod:`bot.rules.royale.fast_sink`) to the log file without
copying its bytes first, then empties it.

``take`` (``BytesWriter.getvalue``) copies every byte of the log into a new ``bytes`` once more
before the file copies them again: 86 KB a game at 10 players (callgrind, whole process: 87k of
the log's 400k instructions a game). ``librt.strings.BytesWriter`` has no buffer protocol, so
:func:`drain` reads where its bytes are (the address and length fields of its C struct) and
lends the file a ``memoryview`` of them for the length of one call.

That struct is mypy's runtime library's own, not a promise, so it is checked once per process
(:func:`layout_known`): the object's size and where a short buffer sits must match before any
pointer is followed, then the bytes seen must be ``getvalue``'s. If it ever differs,
:func:`drain` takes the bytes with ``take`` as before. A ``bytearray`` buffer lends its own
view. ``ctypes`` is loaded on the first drain, so a run without a log never loads it.
:func:`located`, :func:`viewed` and :func:`capacity` give the same fields to
:mod:`bot.sim.logwriter`, which writes whole blocks of them with ``O_DIRECT``.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Final

from bot.rules.royale.fast_sink import ByteBuffer, take

Write = Callable[[memoryview], object]

# librt 0.17's BytesWriterObject, after PyObject_HEAD (reference count, type): char *buf,
# Py_ssize_t len, Py_ssize_t capacity, char data[256] (the buffer while it is short)
WORD: Final = 8
HEADER: Final = object.__basicsize__
BUF_AT, LEN_AT, CAPACITY_AT, DATA_AT = HEADER, HEADER + WORD, HEADER + 2 * WORD, HEADER + 3 * WORD
SIZE: Final = DATA_AT + 256
PyBUF_READ: Final = 0x100


@functools.cache
def _memory() -> tuple[Callable[[int, int], memoryview], Callable[[Any], tuple[int, int]],
                       Callable[[Any], int]]:
    import ctypes

    from_memory = ctypes.pythonapi.PyMemoryView_FromMemory
    from_memory.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int]
    from_memory.restype = ctypes.py_object
    pointer, size = ctypes.c_void_p.from_address, ctypes.c_ssize_t.from_address

    def viewed(address: int, length: int) -> memoryview:
        seen: memoryview = from_memory(address, length, PyBUF_READ) if length else memoryview(b"")
        return seen

    def located(writer: Any) -> tuple[int, int]:
        address = id(writer)
        return pointer(address + BUF_AT).value or 0, size(address + LEN_AT).value

    def capacity(writer: Any) -> int:
        return size(id(writer) + CAPACITY_AT).value

    return viewed, located, capacity


def located(writer: Any) -> tuple[int, int]:
    """Where a ``BytesWriter`` of the layout :func:`layout_known` checks keeps its bytes: (the
    address of its first byte, how many it holds). Valid until the writer next changes.
    """
    return _memory()[1](writer)


def capacity(writer: Any) -> int:
    """How many bytes the memory of a ``BytesWriter`` (of the layout :func:`layout_known`
    checks) holds before it grows, from the address :func:`located` gives.
    """
    return _memory()[2](writer)


def viewed(address: int, length: int) -> memoryview:
    """A read-only view of ``length`` bytes at ``address`` (bytes :func:`located` gave):
    to copy from before the writer changes, not to keep.
    """
    return _memory()[0](address, length)


def _view(writer: Any) -> memoryview:
    """The bytes written to ``writer``, where they are (valid until its next change)."""
    return viewed(*located(writer))


@functools.cache
def layout_known(writer_type: type) -> bool:
    """Whether ``writer_type``'s objects are laid out as above (a ``BytesWriter`` of librt
    0.17).

    Nothing is read through a pointer before the object's size and the short buffer's place
    (inside the object) match; then the bytes seen are compared with ``getvalue`` on a short
    buffer, one that grew past the object's own 256 bytes, and an emptied one.
    """
    if (sys.implementation.name != "cpython" or sys.maxsize != 2**63 - 1
            or writer_type.__basicsize__ != SIZE):
        return False
    import ctypes

    writer = writer_type()
    writer.write(b"layout")
    address = id(writer)
    if (ctypes.c_void_p.from_address(address + BUF_AT).value != address + DATA_AT
            or ctypes.c_ssize_t.from_address(address + LEN_AT).value != len(writer)
            or ctypes.c_ssize_t.from_address(address + CAPACITY_AT).value != SIZE - DATA_AT):
        return False
    for piece in (b"", bytes(range(256)) * 5):
        writer.write(piece)
        with _view(writer) as seen:
            if len(seen) != len(writer) or bytes(seen) != writer.getvalue():
                return False
    writer.truncate(0)
    return len(_view(writer)) == 0


def drain(buffer: Any, write: Write) -> None:
    """``write`` the buffer's bytes (a view to copy from during the call, not to keep), then
    empty the buffer.
    """
    if isinstance(buffer, ByteBuffer):
        with memoryview(buffer) as view:
            write(view)
        buffer.clear()
    elif layout_known(buffer.__class__):
        with _view(buffer) as view:
            write(view)
        buffer.truncate(0)
    else:  # a BytesWriter laid out otherwise (another librt): copy the bytes out
        write(memoryview(take(buffer)))


__all__ = ["capacity", "drain", "layout_known", "located", "viewed"]
