"""The container's health check: a heartbeat file the running bot rewrites every 30 seconds
once it is connected, and ``python -m bot health`` that reads it (exit 0 when fresh)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from pathlib import Path
from typing import Final, Protocol

log = logging.getLogger("bot.health")

INTERVAL_S: Final = 30.0
FRESH_S: Final = 90.0


class ReadyClient(Protocol):
    """What the heartbeat needs of the client: wait for the gateway, know when it closed."""

    async def wait_until_ready(self) -> None: ...

    def is_closed(self) -> bool: ...


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Write the time (epoch seconds) atomically: a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(f"{time.time() if now is None else now:.3f}\n", encoding="ascii")
    os.replace(tmp, path)


async def heartbeat(path: Path, client: ReadyClient | None = None,
                    interval: float = INTERVAL_S) -> None:
    """Once ``client`` is ready, write the heartbeat every ``interval`` seconds until it closes.
    A heartbeat that cannot be written is logged once, not fatal."""
    if client is not None:
        await client.wait_until_ready()
    warned = False
    while client is None or not client.is_closed():
        try:
            await asyncio.to_thread(write_heartbeat, path)
        except OSError as exc:
            if not warned:
                log.warning("Cannot write the health file %s (%s): the container's health "
                            "check will fail; set HEALTH_FILE to a writable path", path,
                            exc.strerror or exc)
                warned = True
        await asyncio.sleep(interval)


_tasks: set[asyncio.Task[None]] = set()


def start_heartbeat(path: Path, client: ReadyClient | None = None,
                    interval: float = INTERVAL_S) -> asyncio.Task[None]:
    """Start :func:`heartbeat` in the background (the task is kept until it ends)."""
    task = asyncio.get_running_loop().create_task(heartbeat(path, client, interval),
                                                 name="heartbeat")
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
    return task


def check_health(path: Path, *, now: float | None = None,
                 fresh: float = FRESH_S) -> tuple[int, str]:
    """(exit code, one line): 0 when the heartbeat is younger than ``fresh`` seconds."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return 1, (f"unhealthy: no heartbeat file {path} (the bot is not connected yet, or "
                   "HEALTH_FILE differs between the bot and this check)")
    except (OSError, UnicodeDecodeError) as exc:
        return 1, f"unhealthy: cannot read the heartbeat file {path} ({exc})"
    try:
        stamp = float(text)
    except ValueError:
        return 1, f"unhealthy: the heartbeat file {path} does not hold a time ({text[:40]!r})"
    age = (time.time() if now is None else now) - stamp
    if age >= fresh:
        return 1, f"unhealthy: last heartbeat {age:.0f} s ago (more than {fresh:.0f} s)"
    return 0, f"healthy: last heartbeat {max(age, 0):.0f} s ago"


async def stop_heartbeats() -> None:
    """Cancel every running heartbeat (tests)."""
    for task in list(_tasks):
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
