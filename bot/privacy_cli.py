"""The bot owner's data commands: ``forget-user ID`` (a person's data, for Discord's
deleted-user requests or a request by mail) and ``db purge [--dry-run]`` (the data of servers
that removed the bot longer ago than ``GUILD_RETENTION_DAYS``).
"""

from __future__ import annotations

import asyncio
from typing import TextIO

from bot.service import GameService
from bot.settings import Settings
from storage import StorageError, open_database


def _rows(counts: dict[str, int]) -> str:
    return ", ".join(f"{table} {n}" for table, n in sorted(counts.items()) if n) or "no rows"


async def _forget_user(settings: Settings, user_id: int, out: TextIO) -> int:
    async with await open_database(settings.database_target) as db:
        service = GameService(db, retention_days=settings.guild_retention_days)
        try:
            gone = await service.privacy.forget(user_id)
        finally:
            await service.close()
    if not any(gone.rows.values()) and not gone.stood_in and not gone.lobbies:
        out.write(f"nothing is held about user {user_id}\n")
        return 0
    out.write(f"user {user_id} forgotten: now {gone.pseudonym} ({_rows(gone.rows)});"
              f" {len(gone.stood_in)} game(s) in play go on with the computer in their seat,"
              f" {len(gone.lobbies)} lobby(ies) left or closed\n")
    return 0


async def _purge(settings: Settings, dry_run: bool, out: TextIO) -> int:
    async with await open_database(settings.database_target) as db:
        service = GameService(db, retention_days=settings.guild_retention_days)
        try:
            due = await service.privacy.purge(dry_run=dry_run)
            kept = len(await service.privacy.departures())
        finally:
            await service.close()
    verb = "would delete" if dry_run else "deleted"
    for guild_id, counts in due.items():
        out.write(f"server {guild_id}: {verb} {_rows(counts)}\n")
    waiting = kept - len(due) if dry_run else kept
    out.write(f"{len(due)} server(s) past the {settings.guild_retention_days}-day retention"
              f" ({verb} their data); {waiting} other server(s) that removed the bot are kept"
              " until theirs runs out\n")
    return 0


def forget_user(settings: Settings, user_id: str, out: TextIO) -> int:
    """``forget-user ID``: 0 done, 1 failed, 2 not a Discord user id."""
    if not user_id.isdigit() or not 0 < int(user_id) < 2**64:
        out.write(f"error: {user_id[:40]!r} is not a Discord user id (digits only)\n")
        return 2
    try:
        return asyncio.run(_forget_user(settings, int(user_id), out))
    except StorageError as error:
        out.write(f"error: {error}\n")
        return 1


def purge(settings: Settings, dry_run: bool, out: TextIO) -> int:
    """``db purge [--dry-run]``: 0 done, 1 failed."""
    try:
        return asyncio.run(_purge(settings, dry_run, out))
    except StorageError as error:
        out.write(f"error: {error}\n")
        return 1
