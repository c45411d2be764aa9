"""Choosing the backend: :func:`open_database`."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .base import Storage
from .migrator import Migration


async def open_database(
    target: str | os.PathLike[str], *, migrations: Sequence[Migration] | None = None
) -> Storage:
    """Open the storage at ``target``: a ``postgresql://`` URL (PostgreSQL through asyncpg) or
    a path to an SQLite file (created if missing; ``:memory:`` works too). Pending migrations
    are applied either way.
    """
    from .postgres import PgDatabase, is_postgres_url

    if is_postgres_url(target):
        return await PgDatabase.open(str(target), migrations=migrations)
    from .database import Database

    return await Database.open(target, migrations=migrations)
