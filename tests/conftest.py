"""Fixtures shared by the test packages: the two storage backends.

``backend`` is parametrised: every test that takes it (or ``db`` in tests/storage) runs once on
an SQLite file and once on a real PostgreSQL server that the session starts itself
(:mod:`tests.pgcluster`: one private cluster per pytest process, so ``-n 2`` gives each xdist
worker its own, stopped at the end of the session). Without the server binaries the
PostgreSQL variants fail when ``CI=true`` and are skipped with an install hint otherwise.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from storage import Migration, Storage, open_database
from storage.migrator import Dialect, load_migrations
from storage.pgconn import to_pg

from .discord_requests import CHECKED, watch
from .pgcluster import INSTALL_HINT, Cluster, find_bindir

BACKENDS = ("sqlite", "postgresql")


def run_in_thread(coro: Any) -> Any:
    """Run a coroutine on a fresh event loop in another thread (callable from sync code)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A private PostgreSQL server for this pytest process, stopped at the session's end."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(INSTALL_HINT, pytrace=False)
        pytest.skip(INSTALL_HINT)
    cluster = Cluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


async def create_database(cluster: Cluster) -> str:
    """A new, empty database on ``cluster``; returns its URL.

    Each is a schema of its own in the cluster's ``postgres`` database, selected by the URL's
    ``search_path`` (asyncpg passes it as a server setting): ``CREATE SCHEMA`` takes well under
    a millisecond where ``CREATE DATABASE`` takes about 0.4 s, and the storage code sees an
    empty database either way (it names no schema).
    """
    import asyncpg

    name = cluster.new_name()
    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await admin.close()
    return with_search_path(cluster.url(), name)


def with_search_path(url: str, schema: str) -> str:
    """``url`` selecting ``schema``: its own query (``sslmode``, ...) kept, ``search_path`` set."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if k != "search_path"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("search_path", schema)])))


@dataclass
class Backend:
    """One storage backend for one test: where its database is and how to look inside."""

    name: Dialect
    target: str | Path
    cluster: Cluster | None = None

    async def open(self, migrations: Sequence[Migration] | None = None) -> Storage:
        """Open the test's database (migrating it)."""
        return await open_database(self.target, migrations=migrations)

    def migrations(self) -> list[Migration]:
        """The migrations shipped for this backend."""
        return load_migrations(self.name)

    async def new_target(self) -> str | Path:
        """Another empty database of the same backend."""
        if self.cluster is None:
            assert isinstance(self.target, Path)
            return self.target.with_name(f"other-{os.urandom(4).hex()}.db")
        return await create_database(self.cluster)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement on a separate connection (another process's view); sync."""
        if self.name == "sqlite":
            import sqlite3

            conn = sqlite3.connect(self.target, isolation_level=None)
            try:
                conn.execute("PRAGMA foreign_keys = ON")
                return [tuple(row) for row in conn.execute(sql, params).fetchall()]
            finally:
                conn.close()

        async def run() -> list[tuple[Any, ...]]:
            import asyncpg

            conn = await asyncpg.connect(str(self.target))
            try:
                return [tuple(row) for row in await conn.fetch(to_pg(sql), *params)]
            finally:
                await conn.close()

        result: list[tuple[Any, ...]] = run_in_thread(run())
        return result


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database of each backend (an SQLite path, or a new PostgreSQL database)."""
    if request.param == "sqlite":
        return Backend("sqlite", tmp_path / "data" / "bot.db")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return Backend("postgresql", await create_database(cluster), cluster)


@pytest.fixture
async def pg_backend(pg_cluster: Cluster) -> Backend:
    """An empty PostgreSQL database (for the PostgreSQL-only tests)."""
    return Backend("postgresql", await create_database(pg_cluster), pg_cluster)


@pytest.fixture
def checked_requests(monkeypatch: pytest.MonkeyPatch,
                     request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """The SimCord environments this test starts; after the test (and the fixtures that
    started them) their requests are held to Discord's OpenAPI description
    (:mod:`tests.discord_requests`). The e2e and cluster conftests make it autouse."""
    yield from watch(monkeypatch, request.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands what it checked of the bots' requests to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["discord_requests_checked"] = session.config.stash.get(CHECKED, (0, 0.0))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any) -> None:
    """The controller adds up its workers' figures (xdist hook)."""
    count, seconds = node.config.stash.get(CHECKED, (0, 0.0))
    got = getattr(node, "workeroutput", {}).get("discord_requests_checked", (0, 0.0))
    node.config.stash[CHECKED] = (count + got[0], seconds + got[1])


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Say how many requests were held to Discord's description, when any were."""
    count, seconds = config.stash.get(CHECKED, (0, 0.0))
    if getattr(config, "workerinput", None) is None and count:
        terminalreporter.write_line(f"{count} requests of the bots checked against Discord's "
                                    f"OpenAPI description ({seconds:.1f} s of checking)")
