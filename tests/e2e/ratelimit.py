"""Discord's per-channel message limit, as a real bot meets it, in front of SimCord.

Discord lets a bot create, edit or delete about 5 messages per 5 seconds in one channel. Past
that it answers 429 with ``retry_after`` in the body and, here, without the ``X-RateLimit-*``
headers that would let discord.py wait before sending; discord.py then sleeps ``retry_after``
and sends the same request again, up to 5 tries (``HTTPClient.request`` and the webhook
adapter's ``request`` both do this). SimCord replaces those two methods, so this module wraps
them with that behaviour, on SimCord's virtual clock, and records every request: when the bot
started it, whether and when Discord applied it, and to which message.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

import discord
import pytest
from simcord.http import client as fake

LIMIT = 5
WINDOW = 5.0
TRIES = 5


class _Response:
    status = 429
    reason = "Too Many Requests"
    headers: ClassVar[dict[str, str]] = {}  # announced by no header


@dataclass
class Request:
    """One message request the bot made (all its tries)."""

    started: int  # the order the bot started it in
    method: str
    path: str
    tries: int = 0
    applied_at: float | None = None
    applied: int | None = None  # the order Discord applied it in
    message_id: int | None = None  # the message it created, edited or deleted


@dataclass
class ChannelLimits:
    """Fixed 5-second windows per channel; every message request of the bot, in order."""

    clock: Any
    jitter: random.Random
    """Network latency: a retry reaches Discord up to 0.8 s after its ``retry_after``."""
    requests: list[Request] = field(default_factory=list)
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)
    refused: int = 0
    applied_count: int = 0

    def _take(self, key: str) -> float | None:
        """None if a request on ``key`` may go now, else the seconds to wait."""
        now = self.clock.elapsed
        start, used = self.windows.get(key, (now, 0))
        if now >= start + WINDOW:
            start, used = now, 0
        if used < LIMIT:
            self.windows[key] = (start, used + 1)
            return None
        self.windows[key] = (start, used)
        return start + WINDOW - now

    async def send(self, method: str, path: str, call: Any) -> Any:
        """Send ``call()`` under the limit of its channel, as discord.py would."""
        key = _limited(method, path)
        if key is None:
            return await call()
        req = Request(len(self.requests), method, path)
        self.requests.append(req)
        for _ in range(TRIES):
            req.tries += 1
            wait = self._take(key)
            if wait is None:
                result = await call()
                req.applied_at = self.clock.elapsed
                req.applied = self.applied_count
                self.applied_count += 1
                req.message_id = _message_id(path, result)
                return result
            self.refused += 1
            await asyncio.sleep(wait + self.jitter.uniform(0.0, 0.8))
        raise discord.HTTPException(_Response(), {"message": "You are being rate limited.",  # type: ignore[arg-type]
                                                  "retry_after": WINDOW, "global": False})

    def applied(self) -> list[Request]:
        """The requests Discord applied, in the order it applied them."""
        return sorted((r for r in self.requests if r.applied is not None),
                      key=lambda r: r.applied or 0)


def _limited(method: str, path: str) -> str | None:
    """The limit a message request counts against (the game channel's), or None."""
    parts = path.strip("/").split("/")
    if parts[:1] == ["channels"] and len(parts) >= 3 and parts[2] == "messages":
        return "channel"
    if parts[:1] == ["webhooks"] and len(parts) >= 5 and parts[3] == "messages" \
            and method in ("PATCH", "DELETE"):
        return "channel"  # an interaction's message is a message of the game's channel
    return None


def _message_id(path: str, result: Any) -> int | None:
    if isinstance(result, dict) and "id" in result:
        return int(result["id"])
    tail = path.strip("/").split("/")[-1]
    return int(tail) if tail.isdigit() else None


@contextmanager
def channel_limits(env: Any, monkeypatch: pytest.MonkeyPatch, seed: int
                   ) -> Iterator[ChannelLimits]:
    """Put Discord's per-channel limit between the bot and SimCord for the ``with`` body."""
    limits = ChannelLimits(env.backend.clock, random.Random(seed))
    http_request = fake.FakeHTTPClient.request
    hook_request = fake.FakeWebhookAdapter.request

    async def limited_http(self: Any, route: Any, **kwargs: Any) -> Any:
        return await limits.send(route.method, fake._path_of(route.url),
                                 lambda: http_request(self, route, **kwargs))

    async def limited_hook(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        return await limits.send(route.method, fake._path_of(route.url),
                                 lambda: hook_request(self, route, session, **kwargs))

    acquire = asyncio.Lock.acquire

    async def parked_acquire(self: asyncio.Lock) -> bool:
        """A bot task waiting for a lock whose holder waits out a 429 on the virtual clock
        is parked, not stuck: SimCord sees through sleeps, not through a lock held across one,
        so the wait is declared to it."""
        task = asyncio.current_task()
        if task is None or task not in env._work.tasks or task in env._work.external_waits:
            return await acquire(self)
        return bool(await env.external_wait(acquire(self), reason="a lock held across a 429"))

    with monkeypatch.context() as m:
        m.setattr(fake.FakeHTTPClient, "request", limited_http)
        m.setattr(fake.FakeWebhookAdapter, "request", limited_hook)
        m.setattr(asyncio.Lock, "acquire", parked_acquire)
        yield limits
