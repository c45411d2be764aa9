"""Prometheus metrics, off unless ``METRICS_PORT`` is set (``prometheus-client``).

Per cluster (label ``cluster``: its shard ids, or ``all``):

``panda_games_in_progress``          games in play that this cluster owns (refreshed every 15 s)
``panda_interactions_total``         interactions received, by type (``rate()`` gives per second)
``panda_answer_latency_seconds``     from receiving an interaction to its first answer (the
                                     acknowledgement, a message, or a deferral), a histogram

The endpoint is prometheus-client's HTTP server on its own thread: ``GET /metrics`` on
``METRICS_PORT``. Each bot has its own registry (several bots in one test process never mix).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from typing import Any, Final

import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from bot.shards import ShardPlan
from storage import Storage

log = logging.getLogger("bot.metrics")

REFRESH_S: Final = 15.0
"""Seconds between two counts of the games in progress."""
LATENCY_BUCKETS: Final = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
PENDING_LIMIT: Final = 10_000
"""Interactions waiting for their answer that are remembered (older ones are forgotten)."""
_KINDS: Final = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal"}


class BotMetrics:
    """The metrics of one bot (one cluster) and the HTTP server that shows them."""

    def __init__(self, plan: ShardPlan) -> None:
        """Empty metrics labelled with ``plan``'s cluster name; no server yet."""
        self.plan = plan
        self.cluster = plan.label
        self.registry = CollectorRegistry()
        self.games = Gauge("panda_games_in_progress", "Games in play owned by this cluster",
                           ["cluster"], registry=self.registry)
        self.interactions = Counter("panda_interactions", "Interactions received",
                                    ["cluster", "type"], registry=self.registry)
        self.latency = Histogram("panda_answer_latency_seconds",
                                 "Seconds from receiving an interaction to its first answer",
                                 ["cluster"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self._pending: OrderedDict[int, float] = OrderedDict()
        self._server: Any = None
        self._refresher: asyncio.Task[None] | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ events

    def received(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction arrived (before any handler ran)."""
        kind = _KINDS.get(int(interaction.type.value), "other")
        self.interactions.labels(self.cluster, kind).inc()
        self._pending[interaction.id] = time.perf_counter()
        while len(self._pending) > PENDING_LIMIT:
            self._pending.popitem(last=False)

    def answered(self, interaction: discord.Interaction[Any]) -> None:
        """The interaction got its first answer."""
        start = self._pending.pop(interaction.id, None)
        if start is not None:
            self.latency.labels(self.cluster).observe(time.perf_counter() - start)

    async def refresh(self, db: Storage) -> int:
        """Count the games in play that this cluster owns."""
        count = sum(n for guild_id, n in (await db.games.in_play_by_guild()).items()
                    if self.plan.owns(guild_id))
        self.games.labels(self.cluster).set(count)
        return count

    # ------------------------------------------------------------------ running

    def serve(self, port: int, addr: str = "0.0.0.0") -> int:
        """Start the HTTP endpoint (``port`` 0: any free port); returns the port."""
        self._server, _thread = start_http_server(port, addr=addr, registry=self.registry)
        self.port = int(self._server.server_port)
        log.info("Metrics of cluster %s on http://%s:%d/metrics", self.cluster, addr, self.port)
        return self.port

    def start_refreshing(self, db: Storage) -> None:
        """Count the games in progress now and every :data:`REFRESH_S` seconds."""
        self._refresher = asyncio.create_task(self._refreshing(db), name="metrics-refresh")

    async def _refreshing(self, db: Storage) -> None:
        while True:
            try:
                await self.refresh(db)
            except Exception as exc:  # a database hiccup: the next round tries again
                log.warning("could not count the games in progress (%s)", exc)
            await asyncio.sleep(REFRESH_S)

    async def close(self) -> None:
        """Stop the refresher and the HTTP server."""
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresher
            self._refresher = None
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
