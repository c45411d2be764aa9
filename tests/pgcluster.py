"""A throw-away PostgreSQL cluster for the tests: initdb + pg_ctl into a temporary directory.

:func:`find_bindir` looks for the server binaries (``$PG_BINDIR`` alone when set; else
``pg_config --bindir``, then ``/usr/lib/postgresql/<version>/bin``, newest first).
:class:`Cluster` starts a private server on a free loopback port (durability off: fsync,
synchronous commit and full-page writes), with its socket in its own directory, and stops it
with ``pg_ctl stop -m immediate``. initdb refuses to run as root: as root the cluster belongs
to an unprivileged user (``postgres`` if it exists, else ``nobody``) and every server command
runs through ``runuser``.

Each test gets an empty database of its own: a new schema, selected by the URL's
``search_path`` (see ``create_database`` in tests/conftest.py), so tests never share rows.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl) not found: the PostgreSQL variants of the "
    "storage tests need them. Install them with `apt-get install postgresql` (Debian/Ubuntu; "
    "any version) or point PG_BINDIR at their directory."
)


def find_bindir() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``, or ``None``."""
    candidates: list[str] = []
    if os.environ.get("PG_BINDIR"):  # an explicit choice: that directory or nothing
        candidates.append(os.environ["PG_BINDIR"])
        return _first_with_server(candidates)
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            candidates.append(
                subprocess.run(
                    [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=10
                ).stdout.strip()
            )

    def version(path: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path))

    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    return _first_with_server(candidates)


def _first_with_server(candidates: list[str]) -> Path | None:
    for folder in candidates:
        if all((Path(folder) / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unprivileged_user() -> str:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("running as root and neither a 'postgres' nor a 'nobody' user exists")


class Cluster:
    """One private PostgreSQL server: ``start()``, ``url()``, ``new_name()``, ``stop()``."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="panda-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self._names = itertools.count(1)
        self._running = False
        self._user = _unprivileged_user() if os.geteuid() == 0 else None

    def _run(self, *args: str, timeout: float = 120) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:1])} failed ({done.returncode}):\n"
                               f"{done.stdout}\n{done.stderr}\n{self.log_tail()}")

    def log_tail(self) -> str:
        log = self.root / "server.log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""

    def start(self) -> None:
        """initdb, then start the server (retrying on another port if one was taken)."""
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")
        for attempt in range(5):
            self.port = _free_port()
            options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
                       " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                       " -c max_connections=200 -c shared_buffers=64MB")
            try:
                self._run("pg_ctl", "-D", str(self.data), "-o", options,
                          "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")
            except RuntimeError:
                if attempt == 4:
                    raise
                continue
            self._running = True
            return

    def stop(self) -> None:
        """Stop the server (immediately: nothing in it matters) and delete its directory."""
        try:
            if self._running:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
                self._running = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_name(self, prefix: str = "t") -> str:
        return f"{prefix}_{os.getpid()}_{next(self._names)}"
