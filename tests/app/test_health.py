"""The heartbeat the container's HEALTHCHECK reads: written once the bot is ready, every
interval, until the bot closes; a heartbeat that cannot be written is a warning, not a crash."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.health import check_health, start_heartbeat


class FakeClient:
    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.closed = False

    async def wait_until_ready(self) -> None:
        await self.ready.wait()

    def is_closed(self) -> bool:
        return self.closed


async def test_heartbeat_once_ready_until_closed(tmp_path: Path) -> None:
    beat = tmp_path / "health"
    client = FakeClient()
    task = start_heartbeat(beat, client, interval=0.01)
    await asyncio.sleep(0.05)
    assert not beat.exists()  # not connected yet: unhealthy
    client.ready.set()
    for _ in range(100):
        if beat.exists():
            break
        await asyncio.sleep(0.01)
    assert check_health(beat)[0] == 0
    first = beat.read_text()
    await asyncio.sleep(0.05)
    assert beat.read_text() != first  # rewritten
    client.closed = True
    await asyncio.wait_for(task, 1)
    assert [p.name for p in tmp_path.iterdir()] == ["health"]  # no temporary file left


async def test_unwritable_heartbeat_warns_once(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    client = FakeClient()
    client.ready.set()
    task = start_heartbeat(tmp_path / "missing" / "health", client, interval=0.01)
    await asyncio.sleep(0.1)
    client.closed = True
    await asyncio.wait_for(task, 1)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "set HEALTH_FILE to a writable path" in warnings[0].message
