"""The limits on open games hold under concurrency: they are counted in the transaction that
opens the lobby, serialised per host and per server, on both backends and across processes; and
a write that loses its race to another process is refused with a polite message."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import pytest_asyncio

from bot.errors import GameNotRunning, LobbyError
from bot.service import GameService, Limits, Person, Place
from storage import open_database

from ..conftest import Backend

HOST = Person(7, "host")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest_asyncio.fixture
async def two_services(backend: Backend) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two services on one database (on PostgreSQL two connections pools: two clusters)."""
    db1, db2 = await backend.open(), await backend.open()
    clock = Clock()
    seeds = iter(range(1, 10_000))
    a = GameService(db1, clock=clock, seed_source=lambda: next(seeds),
                    limits=Limits(per_server=25))
    b = GameService(db2, clock=clock, seed_source=lambda: next(seeds),
                    limits=Limits(per_server=25))
    yield a, b
    for svc, db in ((a, db1), (b, db2)):
        await svc.close()
        await db.close()


async def _open(svc: GameService, guild: int, channel: int, host: Person = HOST
                ) -> bool:
    try:
        await svc.new_lobby(kind="royale", place=Place(guild, channel), host=host,
                            settings={})
    except LobbyError:
        return False
    return True


async def test_one_host_in_a_hundred_channels_at_once_opens_three(
        two_services: tuple[GameService, GameService]) -> None:
    a, b = two_services
    opened = await asyncio.gather(*(_open(a if c % 2 else b, 1, 100 + c) for c in range(100)))
    assert sum(opened) == 3
    assert len([g for g in await a.db.games.all_open() if g.host_id == HOST.id]) == 3


async def test_a_server_at_its_limit_opens_no_more(
        two_services: tuple[GameService, GameService]) -> None:
    a, b = two_services
    hosts = [Person(1000 + i, f"p{i}") for i in range(60)]
    opened = await asyncio.gather(*(_open(a if i % 2 else b, 5, 500 + i, h)
                                    for i, h in enumerate(hosts)))
    assert sum(opened) == 25
    assert len(await a.open_games_of_guild(5)) == 25
    assert await _open(a, 6, 900, hosts[-1])  # another server is not affected
    with pytest.raises(LobbyError, match="This server already has 25 open games"):
        await a.new_lobby(kind="royale", place=Place(5, 999), host=Person(1, "x"),
                          settings={})


async def test_cancelling_frees_a_slot(two_services: tuple[GameService, GameService]) -> None:
    a, _ = two_services
    for channel in (1, 2, 3):
        assert await _open(a, 1, channel)
    assert not await _open(a, 1, 4)
    game = await a.open_game(2)
    assert game is not None
    await a.cancel(game.id, HOST, manager=False)
    assert await _open(a, 1, 4)


# ---------------------------------------------------------------------------- lost races
# Another process changes the game between this one's read and its write: the write's guard
# (status and version in the UPDATE) refuses it, and the player is told so politely.


def _first(svc: GameService, method: str, before: Callable[[], Awaitable[object]]) -> None:
    """Make ``svc``'s storage run ``before`` (the other process's write) just before its own
    write ``method``: the race lost, every time."""
    games = svc.db.games
    write = getattr(games, method)

    async def late(*args: Any, **kwargs: Any) -> Any:
        await before()
        return await write(*args, **kwargs)

    setattr(games, method, late)


async def test_a_lobby_closed_by_another_process_is_refused_politely(
        two_services: tuple[GameService, GameService]) -> None:
    a, b = two_services
    assert await _open(a, 1, 10)
    game = await a.open_game(10)
    assert game is not None
    _first(b, "set_players", lambda: a.cancel(game.id, HOST, manager=False))
    with pytest.raises(GameNotRunning, match="already started or ended"):
        await b.join(game.id, Person(8, "guest"))


async def test_a_cancel_after_another_process_cancelled_is_refused_politely(
        two_services: tuple[GameService, GameService]) -> None:
    a, b = two_services
    assert await _open(a, 1, 11)
    game = await a.open_game(11)
    assert game is not None
    _first(b, "end", lambda: a.cancel(game.id, HOST, manager=False))
    with pytest.raises(GameNotRunning, match="already over"):
        await b.cancel(game.id, HOST, manager=False)


async def test_a_resignation_after_another_process_ended_the_game_is_refused_politely(
        two_services: tuple[GameService, GameService]) -> None:
    a, b = two_services
    assert await _open(a, 1, 12)
    game = await a.open_game(12)
    assert game is not None
    await a.join(game.id, Person(8, "guest"))
    await a.start(game.id, HOST)
    _first(b, "stand_in", lambda: a.cancel(game.id, HOST, manager=True))
    with pytest.raises(GameNotRunning, match="just ended"):
        await b.resign(game.id, Person(8, ""))


async def test_the_limit_holds_where_the_server_defaults_to_repeatable_read(
        pg_backend: Backend) -> None:
    """A PostgreSQL server whose sessions default to repeatable read: a write transaction's
    snapshot would be taken before the host's lock and miss the lobby just opened. Writes run
    at read committed whatever the default is, so the host still opens three."""
    url = str(pg_backend.target) + "&default_transaction_isolation=repeatable%20read"
    dbs = [await open_database(url), await open_database(url)]
    clock = Clock()
    seeds = iter(range(1, 10_000))
    services = [GameService(db, clock=clock, seed_source=lambda: next(seeds)) for db in dbs]
    try:
        async def isolation(conn: Any) -> str:
            return str(await conn.raw.fetchval("SHOW default_transaction_isolation"))

        assert await dbs[0].read(isolation) == "repeatable read"
        opened = await asyncio.gather(*(_open(services[c % 2], 1, 100 + c)
                                        for c in range(40)))
        assert sum(opened) == 3
        assert len([g for g in await dbs[0].games.all_open() if g.host_id == HOST.id]) == 3
    finally:
        for svc, db in zip(services, dbs, strict=True):
            await svc.close()
            await db.close()
