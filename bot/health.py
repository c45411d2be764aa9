"""The bot's heartbeat (docs/architecture.md, *Deploys and restarts*): a small thread asks the
event loop to run the beat, then rewrites a file that ``python -m bot health`` reads. A thread,
not an asyncio task: a stuck loop or a failing beat stops it (the check turns unhealthy), and it
adds no periodic timer to the loop (SimCord's virtual clock would spin through every period).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Final, Protocol

log = logging.getLogger("bot.health")

INTERVAL_S: Final = 5.0
"""How often the beat runs: after a crash, a deadline gets back at most this much more than it
had left when its shard last heard its players."""
FRESH_S: Final = 90.0
LOOP_ANSWER_S: Final = 10.0
"""How long the event loop may take to run the beat before a heartbeat is skipped."""

Beat = Callable[[], Coroutine[Any, Any, None]]
"""What the loop runs at each heartbeat."""


class ReadyClient(Protocol):
    """What the heartbeat needs of the client (a discord.Client has both)."""

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Write the time (epoch seconds) atomically: a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        tmp.write_text(f"{time.time() if now is None else now:.3f}\n", encoding="ascii")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


async def _noop() -> None:
    return None


def _loop_answers(loop: asyncio.AbstractEventLoop, timeout: float, beat: Beat) -> bool:
    """Whether ``loop`` runs ``beat`` within ``timeout`` seconds (it is not stuck, and what
    the beat needs, the database, works).
    """
    if loop.is_closed():
        return False
    try:
        future = asyncio.run_coroutine_threadsafe(beat(), loop)
    except RuntimeError:  # closed in the meantime
        return False
    try:
        future.result(timeout)
    except TimeoutError:
        future.cancel()
        return False
    except Exception:
        log.warning("The heartbeat failed: the health check turns unhealthy if it keeps "
                    "failing", exc_info=True)
        return False
    return True


def _beat(path: Path, client: ReadyClient | None, loop: asyncio.AbstractEventLoop,
          interval: float, beat: Beat) -> None:
    tick = min(1.0, interval)
    warned = False
    next_beat = 0.0
    while not loop.is_closed() and not (client is not None and client.is_closed()):
        now = time.monotonic()
        if now >= next_beat and (client is None or client.is_ready()):
            if _loop_answers(loop, LOOP_ANSWER_S, beat):
                try:
                    write_heartbeat(path)
                except OSError as exc:
                    if not warned:
                        log.warning("Cannot write the health file %s (%s): the container's "
                                    "health check will fail; set HEALTH_FILE to a writable "
                                    "path", path, exc.strerror or exc)
                        warned = True
            next_beat = now + interval
        time.sleep(tick)


def start_heartbeat(path: Path, client: ReadyClient | None = None,
                    interval: float = INTERVAL_S, beat: Beat = _noop) -> threading.Thread:
    """From inside the running loop: once ``client`` is ready, every ``interval`` seconds run
    ``beat`` on the loop and, when it answers in time, write the heartbeat file, until the
    client closes (or the loop does). A heartbeat file that cannot be written is logged once,
    not fatal.
    """
    loop = asyncio.get_running_loop()
    # The thread carries the caller's context, so the beat runs in it as the caller's work
    # would (the same clock and task scope).
    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run,
                              args=(_beat, path, client, loop, interval, beat),
                              name="heartbeat", daemon=True)
    thread.start()
    return thread


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
