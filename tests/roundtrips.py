"""The PostgreSQL round trips storage makes, counted (and slowed down) at the driver.

Every statement the storage helpers send (``PgConn.execute``, ``fetch_all``, ``execute_many``:
one round trip each; asyncpg pipelines an ``executemany``) and every transaction's ``BEGIN``,
``COMMIT`` and ``ROLLBACK`` is one round trip. :func:`round_trips` counts them while it is
entered; with ``delay`` each one also waits that long first (asyncio's clock: SimCord's virtual
clock inside the bot), as a database that answers slowly would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from asyncpg.transaction import Transaction

from storage.pgconn import PgConn


@dataclass
class RoundTrips:
    """What was sent, in order (the statements' first words, ``BEGIN``, ``COMMIT``)."""

    sent: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.sent)

    def clear(self) -> None:
        self.sent.clear()


@contextmanager
def round_trips(monkeypatch: pytest.MonkeyPatch, delay: float = 0.0) -> Iterator[RoundTrips]:
    """Count (and delay by ``delay`` seconds) every round trip to PostgreSQL meanwhile."""
    trips = RoundTrips()

    def wrap(cls: type, name: str, label: str | None = None) -> None:
        original = getattr(cls, name)

        async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            text = label or str(args[0]).split(None, 1)[0].upper()
            trips.sent.append(text)
            if delay:
                await asyncio.sleep(delay)
            return await original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, counted)

    with monkeypatch.context() as patch:
        monkeypatch = patch
        for name in ("execute", "fetch_all", "execute_many"):
            wrap(PgConn, name)
        wrap(Transaction, "start", "BEGIN")
        wrap(Transaction, "_Transaction__commit", "COMMIT")
        wrap(Transaction, "_Transaction__rollback", "ROLLBACK")
        yield trips
