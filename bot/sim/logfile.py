"""The simulator's log file, with its disk space reserved ahead of the writes (Linux).

A 10-player log is about 86 KB a game. Written block by block into a new file, ext4 (and other
file systems with delayed allocation) reserves each 4 KB block as the bytes reach it: about a
fifth of the kernel's time for the log. :class:`LogFile` reserves the space in 64 MiB steps
with ``fallocate(FALLOC_FL_KEEP_SIZE)`` before the bytes get there, so the writes land in
blocks that exist. ``KEEP_SIZE``: the file's size is always what was written (a reader, or a
run that is stopped, never sees reserved space); at close, space reserved past the end is
given back (``ftruncate`` to the size).

Where ``fallocate`` is missing or refused (another system, a file system without it, a pipe),
the log is written the same way, without reservation. The bytes are the same either way.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import BinaryIO, Final

RESERVE: Final = 64 << 20  # bytes reserved at a time
KEEP_SIZE: Final = 1  # FALLOC_FL_KEEP_SIZE (linux/falloc.h)

Fallocate = Callable[[int, int, int, int], int]


@functools.cache
def fallocate_function() -> Fallocate | None:
    """The C library's ``fallocate64``/``fallocate`` (fd, mode, offset, length) -> 0 or -1.

    Looked up in the process's own symbols on the first log file (no ``find_library``, which
    runs ``ldconfig``), so a run without a log never loads ctypes.
    """
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - a platform without dlopen(NULL)
        return None
    for name in ("fallocate64", "fallocate"):
        function = getattr(libc, name, None)
        if function is not None:
            function.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
            function.restype = ctypes.c_int
            return function  # type: ignore[no-any-return]
    return None


class LogFile:
    """An unbuffered binary file that appends whole batches, reserving space ahead of them."""

    def __init__(self, fh: BinaryIO, *, reserve: bool = True) -> None:
        self.fh = fh
        self.fd = fh.fileno()
        self.size = 0  # bytes written
        self.reserved = 0  # bytes of the file that have space reserved
        self.fallocate = fallocate_function() if reserve else None
        self.reserving = self.fallocate is not None

    def write(self, data: bytes | memoryview) -> None:
        """Append ``data`` (all of it, before returning: a view may change afterwards)."""
        end = self.size + len(data)
        self.make_room(len(data))
        view = memoryview(data)
        while view:  # a regular file takes it all at once; a pipe may not
            view = view[os.write(self.fd, view):]
        self.size = end

    def make_room(self, size: int) -> None:
        """Reserve space for ``size`` more bytes past what was written, where reserving works."""
        end = self.size + size
        if self.reserving and end > self.reserved:
            self._reserve(end)

    def close(self) -> None:
        """Give back space reserved past the end, and close the file."""
        try:
            if self.reserved > self.size:
                os.ftruncate(self.fd, self.size)
        finally:
            self.fh.close()

    def _reserve(self, end: int) -> None:
        length = max(RESERVE, end - self.reserved)
        assert self.fallocate is not None
        if self.fallocate(self.fd, KEEP_SIZE, self.reserved, length) != 0:
            self.reserving = False  # not supported here (errno in ctypes.get_errno()): plain
            return
        self.reserved += length


__all__ = ["KEEP_SIZE", "RESERVE", "LogFile", "fallocate_function"]
