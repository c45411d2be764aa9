"""How the simulator's log buffer reaches the log file: :func:`open_log`.

Where it can (Linux, a regular file on a file system that takes ``O_DIRECT``, the
``BytesWriter`` buffer read in place by :mod:`bot.sim.drain`), the log goes straight from the
buffer to the disk in 8 MiB writes of whole 4 KiB blocks (:class:`DirectLog`), past the page
cache. A buffered write copies every byte into the page cache first: about a third of what the
log costs at 4 players, and on a machine whose free memory goes back to its host (a VM with
free-page reporting) every page of a big log is faulted in again, up to 100 us of kernel time
a 10-player game. Written directly, the kernel's share is a few us a game either way. The
buffer's memory is backed by huge pages (:func:`huge_pages` before it grows, :func:`collapse`
where that did not take): each write pins four pages, not 2,048.

Everywhere else (a pipe, ``/dev/null``, a file system that refuses ``O_DIRECT``, the
``bytearray`` buffer) the buffer is drained into the file with plain writes of about 256 KB
(:class:`BufferedLog`). The bytes in the file are the same either way.
"""

from __future__ import annotations

import errno
import fcntl
import mmap
import os
import stat
from pathlib import Path
from typing import Any, Final

from bot.rules.royale.fast_sink import TAKE_BYTES, ByteBuffer
from bot.sim.drain import capacity, drain, layout_known, located, viewed
from bot.sim.logfile import LogFile

BLOCK: Final = 4096  # what O_DIRECT writes are aligned to: address, offset and length
DIRECT_BYTES: Final = 1 << 23  # write the buffer when it holds this much
O_DIRECT: Final = getattr(os, "O_DIRECT", 0)
SMALL: Final = 1 << 18  # past the C library's threshold for memory mapped on its own
PAGE: Final = mmap.PAGESIZE
CHUNK_HEADER: Final = 16  # what the C library keeps before a chunk it maps (two words)
MADV_HUGEPAGE: Final = getattr(mmap, "MADV_HUGEPAGE", 14)
MADV_COLLAPSE: Final = 25  # linux/mman.h
HUGE: Final = 1 << 21  # a transparent huge page (x86-64; arm64 with 4 KiB pages)


class BufferedLog:
    """The log file written with plain writes: the buffer's bytes, drained in place."""

    take_at = TAKE_BYTES
    direct = False
    how = "plain writes"

    def __init__(self, log: LogFile) -> None:
        self.log = log

    def drain(self, buffer: Any) -> None:
        """Write the buffer's bytes; empty it."""
        drain(buffer, self.log.write)

    finish = drain  # the end of the log: what the buffer still holds, the same way

    def close(self) -> None:
        self.log.close()


class DirectLog:
    """The log file written with ``O_DIRECT`` straight from a ``BytesWriter``.

    ``O_DIRECT`` takes whole blocks from an aligned address. The buffer keeps ``start`` bytes
    of filler before the log's bytes so that they begin on a block boundary; :meth:`drain`
    writes their whole blocks and moves the rest (less than a block) back behind the filler.
    If the buffer grew and moved, the bytes are realigned first. :meth:`finish` writes the last
    partial block without ``O_DIRECT``. If the file refuses a direct write (``EINVAL``: an
    alignment it does not take), every later write is a plain one.
    """

    take_at = DIRECT_BYTES

    def __init__(self, log: LogFile, buffer: Any) -> None:
        self.log = log
        self.direct = True
        self.how = "written with O_DIRECT"  # how the log went to the file, for the summary
        self.start = 0
        rest = bytes(viewed(*located(buffer)))
        buffer.truncate(0)
        buffer.write(bytes(SMALL))  # memory of its own (the C library maps it)
        self.huge = huge_pages(located(buffer)[0], capacity(buffer))
        buffer.write(bytes(DIRECT_BYTES))  # room: it grows once, into huge pages, then stays
        self.huge += collapse(*located(buffer))
        self._realign(buffer, rest)

    def _realign(self, buffer: Any, rest: bytes) -> None:
        buffer.truncate(0)
        address, _ = located(buffer)
        self.start = -address % BLOCK
        buffer.write(bytes(self.start))
        buffer.write(rest)

    def drain(self, buffer: Any) -> None:
        """Write the buffer's whole blocks; keep the rest (less than a block)."""
        address, length = located(buffer)
        if (address + self.start) % BLOCK:  # the buffer grew and moved
            self._realign(buffer, bytes(viewed(address + self.start, length - self.start)))
            address, length = located(buffer)
        whole = (length - self.start) // BLOCK * BLOCK
        if whole:
            with viewed(address + self.start, whole) as view:
                self._write(view)
            rest = bytes(viewed(address + self.start + whole, length - self.start - whole))
            buffer.truncate(self.start)
            buffer.write(rest)

    def finish(self, buffer: Any) -> None:
        """Write what the buffer still holds; the last partial block with a plain write."""
        self.drain(buffer)
        address, length = located(buffer)
        if length > self.start:
            self._buffered()
            with viewed(address + self.start, length - self.start) as view:
                self._write(view)
        buffer.truncate(0)

    def close(self) -> None:
        self.log.close()

    def _write(self, view: memoryview) -> None:
        log = self.log
        log.make_room(len(view))
        while view:
            try:
                written = os.write(log.fd, view)
            except OSError as error:
                if error.errno != errno.EINVAL or not self.direct:
                    raise
                self._buffered()  # this file takes no direct write of this alignment
                self.how = "plain writes (O_DIRECT refused)"
                continue
            view = view[written:]
            log.size += written

    def _buffered(self) -> None:
        if self.direct:
            set_direct(self.log.fd, False)
            self.direct = False


def set_direct(fd: int, on: bool) -> None:
    """Turn ``O_DIRECT`` on or off for the open file ``fd`` (``OSError`` where refused)."""
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags | O_DIRECT if on else flags & ~O_DIRECT)


def huge_pages(address: int, size: int) -> int:
    """Ask Linux to back the memory at ``address`` (its ``size`` bytes, and what it grows into)
    with transparent huge pages where it can (``madvise(MADV_HUGEPAGE)``); the bytes it holds
    stay the same. Returns how many bytes were marked: 0 where refused (huge pages off,
    another system).

    Marked before the buffer grows, its 8 MiB are faulted in as four 2 MiB pages: a direct
    write pins 4 pages instead of 2,048, and the game loop writes through them with fewer TLB
    misses. (Collapsing 4 KiB pages afterwards costs as much again as touching them.)
    """
    start = (address - CHUNK_HEADER) // PAGE * PAGE  # the chunk's header is on that page
    end = -(-(address + size) // PAGE) * PAGE
    return end - start if _madvise(start, end - start, MADV_HUGEPAGE) else 0


def collapse(address: int, size: int) -> int:
    """Make the whole 2 MiB pages of the memory at ``address`` huge pages if they are not yet
    (``madvise(MADV_COLLAPSE)``, Linux 6.1 and later: nothing to do where :func:`huge_pages`
    worked; where the memory came from the C library's heap, a copy). Returns the bytes.
    """
    start = -(-address // HUGE) * HUGE
    length = (address + size) // HUGE * HUGE - start
    return length if length > 0 and _madvise(start, length, MADV_COLLAPSE) else 0


def _madvise(start: int, length: int, advice: int) -> bool:
    import ctypes

    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):  # pragma: no cover - no dlopen(NULL), no madvise
        return False
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    madvise.restype = ctypes.c_int
    done: int = madvise(start, length, advice)
    return done == 0


def open_log(path: Path, buffer: Any) -> BufferedLog | DirectLog:
    """A new log file at ``path`` (created or emptied), written from ``buffer``."""
    log = LogFile(path.open("wb", buffering=0))
    try:
        if (O_DIRECT and not isinstance(buffer, ByteBuffer)
                and layout_known(buffer.__class__)
                and stat.S_ISREG(os.fstat(log.fd).st_mode)):
            set_direct(log.fd, True)
            return DirectLog(log, buffer)
    except OSError:  # a file system without O_DIRECT: plain writes
        pass
    return BufferedLog(log)


__all__ = ["BLOCK", "DIRECT_BYTES", "BufferedLog", "DirectLog", "collapse", "huge_pages",
           "open_log", "set_direct"]
