"""The heartbeat the container's HEALTHCHECK reads: written once the bot is ready, every
interval while the event loop answers, until the bot closes; a heartbeat that cannot be written
is a warning, not a crash."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from bot import health
from bot.health import check_health, start_heartbeat


class FakeClient:
    def __init__(self) -> None:
        self.ready = False
        self.closed = False

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


async def wait_for(condition: object, seconds: float = 5) -> None:
    give_up = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < give_up, "timed out"
        await asyncio.sleep(0.01)


async def test_heartbeat_once_ready_until_closed(tmp_path: Path) -> None:
    beat = tmp_path / "health"
    client = FakeClient()
    thread = start_heartbeat(beat, client, interval=0.05)
    await asyncio.sleep(0.2)
    assert not beat.exists()  # not connected yet: unhealthy
    client.ready = True
    await wait_for(beat.exists)
    assert check_health(beat)[0] == 0
    first = beat.read_text()
    await wait_for(lambda: beat.read_text() != first)  # rewritten
    client.closed = True
    await wait_for(lambda: not thread.is_alive())
    assert [p.name for p in tmp_path.iterdir()] == ["health"]  # no temporary file left


async def test_a_stuck_loop_stops_the_heartbeat(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "LOOP_ANSWER_S", 0.05)
    beat = tmp_path / "health"
    client = FakeClient()
    client.ready = True
    thread = start_heartbeat(beat, client, interval=0.05)
    time.sleep(0.5)  # blocks the event loop: no heartbeat
    assert not beat.exists()
    await wait_for(beat.exists)  # the loop answers again
    client.closed = True
    await wait_for(lambda: not thread.is_alive())


async def test_unwritable_heartbeat_warns_once(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    client = FakeClient()
    client.ready = True
    thread = start_heartbeat(tmp_path / "missing" / "health", client, interval=0.02)
    await asyncio.sleep(0.3)
    client.closed = True
    await wait_for(lambda: not thread.is_alive())
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "set HEALTH_FILE to a writable path" in warnings[0].message
