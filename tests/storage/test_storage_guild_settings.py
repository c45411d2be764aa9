"""A server's settings (migrations 003, 005 and 009) on both backends: its default language,
its defaults for new games (read by the transaction that opens a game), and the claim of the
greeting of each join (once, across connections and reopenings).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from storage import ServerDefaults, Storage

from ..conftest import Backend
from .storage_helpers import T0, seats


async def test_a_servers_language_is_set_replaced_and_kept_apart(db: Storage) -> None:
    assert await db.settings.language(1) is None
    await db.settings.set_language(1, "es", T0)
    await db.settings.set_language(2, "ja", T0 + 1)
    assert await db.settings.language(1) == "es"
    await db.settings.set_language(1, "de", T0 + 2)  # one row per server: replaced
    assert (await db.settings.language(1), await db.settings.language(2)) == ("de", "ja")
    assert await db.settings.language(3) is None


async def test_a_servers_defaults_for_new_games_are_set_cleared_and_kept_apart(
        db: Storage) -> None:
    assert await db.settings.defaults(1) == ServerDefaults()  # no row: nothing chosen
    await db.settings.set_language(1, "fr", T0)
    await db.settings.set_turn_timeout(1, 45, T0 + 1)
    await db.settings.set_mayhem(1, ("mischief", "mercenary"), T0 + 2)
    await db.settings.set_mayhem(2, (), T0)  # chosen: none (not the same as never chosen)
    assert await db.settings.defaults(1) == ServerDefaults(
        language="fr", turn_timeout=45, mayhem=("mischief", "mercenary"))
    assert await db.settings.defaults(2) == ServerDefaults(mayhem=())
    await db.settings.set_turn_timeout(1, None, T0 + 3)
    assert await db.settings.defaults(1) == ServerDefaults(
        language="fr", mayhem=("mischief", "mercenary"))  # the others stay
    await db.settings.set_mayhem(1, None, T0 + 4)
    await db.settings.set_threads(1, True, T0 + 5)
    assert await db.settings.defaults(1) == ServerDefaults(language="fr", threads=True)
    assert await db.settings.defaults(2) == ServerDefaults(mayhem=())
    with pytest.raises(Exception):  # noqa: B017 - the CHECK constraint, either backend's error
        await db.settings.set_turn_timeout(3, 0, T0)


async def test_the_transaction_that_opens_a_game_reads_the_servers_defaults(
        db: Storage) -> None:
    await db.settings.set_turn_timeout(10, 30, T0)
    await db.settings.set_mayhem(10, ("cannon",), T0)
    await db.settings.set_threads(10, False, T0)
    seen: list[ServerDefaults] = []

    def made(server: ServerDefaults) -> dict[str, Any]:
        seen.append(server)
        return {"turn_timeout": server.turn_timeout, "expansions": list(server.mayhem or ())}

    game = await db.games.create(guild_id=10, channel_id=500, kind="royale", host_id=1001,
                                 settings=made, seed=1, players=seats("Ann"), now_ms=T0)
    assert seen == [ServerDefaults(threads=False, turn_timeout=30, mayhem=("cannon",))]
    assert game.settings == {"turn_timeout": 30, "expansions": ["cannon"]}
    assert (await db.games.get(game.id)).settings == game.settings  # type: ignore[union-attr]
    await db.games.create(guild_id=11, channel_id=501, kind="royale", host_id=1001,
                          settings=made, seed=1, players=seats("Ann"), now_ms=T0)
    assert seen[-1] == ServerDefaults()  # a server without settings


async def test_a_join_is_greeted_once_across_connections_and_again_after_a_new_join(
        db: Storage, backend: Backend) -> None:
    await db.settings.set_language(10, "de", T0)
    other = await backend.open()  # another process's connection (pool) to the same database
    try:
        claims = await asyncio.gather(*[store.settings.claim_greeting(10, T0, T0 + 1)
                                        for store in (db, other, db, other)])
        assert sorted(claims) == [False, False, False, True]
        assert not await other.settings.claim_greeting(10, T0, T0 + 2)  # the same join again
        assert await db.settings.claim_greeting(11, T0, T0 + 2)  # another server's join
        # the bot removed, then added back: a later join
        assert await other.settings.claim_greeting(10, T0 + 60_000, T0 + 70_000)
        assert not await db.settings.claim_greeting(10, T0 + 60_000, T0 + 70_001)
        assert not await db.settings.claim_greeting(10, T0, T0 + 70_002)  # an older one: no
    finally:
        await other.close()
    async with await backend.open() as again:  # a process started later
        assert not await again.settings.claim_greeting(10, T0 + 60_000, T0 + 80_000)
        assert await again.settings.claim_greeting(10, T0 + 90_000, T0 + 90_000)
        assert await again.settings.defaults(10) == ServerDefaults(language="de")  # kept


async def test_a_join_whose_time_is_unknown_is_greeted_only_if_none_was(db: Storage) -> None:
    assert await db.settings.claim_greeting(12, 0, T0)
    assert not await db.settings.claim_greeting(12, 0, T0 + 1)
    assert await db.settings.claim_greeting(12, T0, T0 + 2)
    assert not await db.settings.claim_greeting(12, 0, T0 + 3)  # nor an unknown one after
