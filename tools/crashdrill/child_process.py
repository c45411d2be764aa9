"""The crash drill's side of one child process: spawned with pipes, its stdout read line by
line with deadlines, let commit, SIGKILLed and closed; and what one child printed
(:class:`Cycle`).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import BinaryIO


class Child:
    """One child process and its stdout, read line by line with deadlines."""

    def __init__(self, cmd: list[str], stderr: BinaryIO) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, bufsize=0)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.fd = self.proc.stdout.fileno()
        self.stdin = self.proc.stdin
        self.buf = b""
        self.eof = False

    def line(self, deadline: float) -> str | None:
        """The next line; ``None`` when ``deadline`` (perf_counter) passes first; ``""`` at EOF."""
        while b"\n" not in self.buf:
            if self.eof:
                rest, self.buf = self.buf, b""
                return rest.decode()
            wait = deadline - time.perf_counter()
            if wait <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.buf += chunk
            else:
                self.eof = True
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode()

    def go(self) -> None:
        """Let the held transaction commit."""
        with contextlib.suppress(BrokenPipeError):
            self.stdin.write(b"\n")

    def kill(self) -> list[str]:
        """SIGKILL; returns the lines it printed that were not read yet."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        return self.drain()

    def drain(self) -> list[str]:
        rest: list[str] = []
        while (line := self.line(time.perf_counter() + 5.0)) not in ("", None):
            assert line is not None
            rest.append(line)
        return rest

    def close(self) -> None:
        for stream in (self.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


@dataclass(slots=True)
class Cycle:
    """What one child printed."""

    first: str | None = None
    answers: int = 0
    commits: int = 0
    holding: tuple[int, int] | None = None
    finished: list[int] = field(default_factory=list)
    done: bool = False
