"""The parent's side of the two-cluster test: start a cluster process, send it commands, read
its answers, SIGKILL it; and the checks of a game's action log."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ANSWER_TIMEOUT_S = float(os.environ.get("CLUSTER_ANSWER_TIMEOUT", "180"))


@dataclass
class NodeProcess:
    """One running ``tests.cluster.node`` process."""

    shard: int
    proc: subprocess.Popen[bytes]
    lines: list[str] = field(default_factory=list)
    _buffer: bytes = b""

    @classmethod
    def start(cls, *, db: str, shard: int, world: Path, hold_commit: int = 0,
              log: Path) -> NodeProcess:
        command = [sys.executable, "-m", "tests.cluster.node", "--db", db, "--shard",
                   str(shard), "--world", str(world), "--hold-commit", str(hold_commit)]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING"}
        with log.open("ab") as err:
            proc = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=err)
        node = cls(shard, proc)
        ready = node.read_until("READY")
        assert ready, node.lines
        return node

    def read_until(self, prefix: str, timeout: float = ANSWER_TIMEOUT_S) -> list[str]:
        """Lines up to and including the first that starts with ``prefix``."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        out: list[str] = []
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                while b"\n" in self._buffer:
                    raw, self._buffer = self._buffer.split(b"\n", 1)
                    line = raw.decode()
                    out.append(line)
                    self.lines.append(line)
                    # A request Discord's OpenAPI description refuses (tests.cluster.node).
                    assert not line.startswith("BREACH "), f"cluster {self.shard}: {line}"
                    if line.startswith(prefix):
                        return out
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.proc.send_signal(signal.SIGUSR1)  # its tasks' stacks to the log
                    time.sleep(1)
                    raise AssertionError(f"cluster {self.shard}: no {prefix!r} in {timeout} s; "
                                         f"got {out}")
                chunk = os.read(fd, 65536)  # unbuffered: select() sees every byte not read
                if not chunk:
                    raise AssertionError(f"cluster {self.shard} exited "
                                         f"({self.proc.wait()}); got {out}")
                self._buffer += chunk

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{command}\n".encode())
        self.proc.stdin.flush()

    def ask(self, command: str) -> list[str]:
        """Send a command and return its answer lines (without the final ``OK``)."""
        self.send(command)
        return self.read_until("OK")[:-1]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs; PostgreSQL rolls back its open transactions."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def quit(self) -> None:
        self.send("quit")
        assert self.proc.wait(timeout=60) == 0

    def games(self) -> dict[int, tuple[str, int]]:
        """Each of its games: (status, version)."""
        out = {}
        for line in self.ask("status"):
            _, game, status, version = line.split()
            out[int(game)] = (status, int(version))
        return out


def timeout_firings(actions: list[Any]) -> list[tuple[int, int | None]]:
    """Each time a turn timer fired and moved the game: (seq of its first action, ms since the
    action before, None for the game's first action). One firing may commit several actions of
    the late player's turn at once.
    """
    firings: list[tuple[int, int | None]] = []
    for i, a in enumerate(actions):
        if not a.actor.startswith("timeout:"):
            continue
        if i == 0:
            firings.append((a.seq, None))
            continue
        prev = actions[i - 1]
        if prev.actor == a.actor and prev.created_ms == a.created_ms:
            continue  # the same firing's next action
        firings.append((a.seq, a.created_ms - prev.created_ms))
    return firings
