"""A server's settings (migration 003): its default language, on both backends."""

from __future__ import annotations

from storage import Storage

from .storage_helpers import T0


async def test_a_servers_language_is_set_replaced_and_kept_apart(db: Storage) -> None:
    assert await db.settings.language(1) is None
    await db.settings.set_language(1, "es", T0)
    await db.settings.set_language(2, "ja", T0 + 1)
    assert await db.settings.language(1) == "es"
    await db.settings.set_language(1, "de", T0 + 2)  # one row per server: replaced
    assert (await db.settings.language(1), await db.settings.language(2)) == ("de", "ja")
    assert await db.settings.language(3) is None
