"""A server's settings (migration 003): its default language, on both backends."""

from __future__ import annotations

from storage import Storage

from .storage_helpers import T0


async def test_a_servers_language_is_set_replaced_and_kept_apart(db: Storage) -> None:
    assert await db.guild_language(1) is None
    await db.set_guild_language(1, "es", T0)
    await db.set_guild_language(2, "ja", T0 + 1)
    assert await db.guild_language(1) == "es"
    await db.set_guild_language(1, "de", T0 + 2)  # one row per server: replaced
    assert (await db.guild_language(1), await db.guild_language(2)) == ("de", "ja")
    assert await db.guild_language(3) is None
