"""Which database the benchmarked bot uses (``--backend sqlite|postgres``).

``sqlite``: a file in each benchmark's temporary directory (the default). ``postgres``: a new,
empty schema per benchmark world on the server of ``--postgres-url``, or on a private server
started from the machine's PostgreSQL binaries for the run (tests/pgcluster.py).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from tools.benchbot.options import Options

BACKENDS = ("sqlite", "postgres")


async def database_for(opts: Options) -> str | None:
    """The ``DATABASE_URL`` of a new benchmark world: None (SQLite) or a new empty schema on
    the server (made the way the tests make theirs: ``tests.conftest.create_database``).
    """
    if opts.backend == "sqlite":
        return None
    assert opts.postgres_url is not None
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.conftest import create_database

    url: str = await create_database(_Server(opts.postgres_url))  # type: ignore[arg-type]
    return url


class _Server:
    """The part of tests.pgcluster.Cluster that ``create_database`` uses, for any server."""

    def __init__(self, url: str) -> None:
        self._url = url

    def url(self) -> str:
        return self._url

    def new_name(self) -> str:
        return f"bench_{os.getpid()}_{os.urandom(4).hex()}"


@contextlib.contextmanager
def postgres_server(given: str | None) -> Iterator[str]:
    """``given``, or the URL of a private PostgreSQL server running until the block ends."""
    if given is not None:
        yield given
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.pgcluster import INSTALL_HINT, Cluster, find_bindir

    bindir = find_bindir()
    if bindir is None:
        raise SystemExit(f"--backend postgres: {INSTALL_HINT} Or pass --postgres-url.")
    cluster = Cluster(bindir)
    try:
        cluster.start()
        yield cluster.url()
    finally:
        cluster.stop()
