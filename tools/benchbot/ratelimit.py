"""The board's latency under Discord's per-channel message limit (the game's lock
covers the game, not Discord's queue).

``--rl-games`` games (two people and a Normal computer each) are played at once in channels of
one server, behind a model of Discord's limit put between the bot and SimCord: about 5 message
requests per 5 seconds per channel, fixed windows, a 429 with ``retry_after`` and no
``X-RateLimit-*`` headers, after which discord.py sleeps and sends the same request again (up to
5 tries) — the model of tests/e2e/ratelimit.py, made again here (tools never import tests):
channel message posts, edits and deletes count against their channel, and so do edits and
deletes of an interaction's messages through its webhook; interaction callbacks and followup
posts do not. Everything runs on SimCord's virtual clock; a retry reaches Discord up to 0.8 s
after its ``retry_after`` (network latency, seeded).

Each player clicks what the board shows them 0.3-1.2 s (seeded) after it shows it. The figure:
for every click that was taken (not refused as stale), the virtual seconds from the click to the
moment Discord applied the first request that shows the game past the clicked version (the
custom_ids of a message carry the game's version): an edit of the board, or the next round's
board. Two limits: one per channel (as Discord limits), and, as a worst case, one window shared
by all the games' channels (``shared``: the model of tests/e2e/ratelimit.py counts every limited
request against one key).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import re
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TextIO

import discord

from tools.benchbot.backends import database_for
from tools.benchbot.options import Options
from tools.benchbot.simworld import BenchError, GameTable, World, check
from tools.benchbot.tables import components, verb

LIMIT = 5
WINDOW = 5.0
TRIES = 5
THINKING = {"quick": (0.3, 1.2), "steady": (2.0, 6.0)}
"""Seconds a player takes to click once the board shows their decision: quick players (as
tests/e2e/test_channel_limits.py plays) and steady ones."""
TICK = 0.2
"""Virtual seconds between two looks at the boards (when players click; Discord applies a
retried request at its own instant)."""
BOARD_AFTER_S = 20.0
"""Virtual seconds a player waits for the board to show their click before asking for it."""
GIVE_UP_S = 3_600.0
"""Virtual seconds after which a run stops (the games would be stuck)."""
CUSTOM_ID = re.compile(r"^p[a-z]:[a-z]+:(\d+):(\d+):")


class _Response:
    status = 429
    reason = "Too Many Requests"
    headers: ClassVar[dict[str, str]] = {}


def shown_versions(payload: Any) -> dict[int, int]:
    """Game id -> the highest state version among a message payload's custom_ids."""
    out: dict[int, int] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            cid = node.get("custom_id")
            if isinstance(cid, str) and (m := CUSTOM_ID.match(cid)):
                game, version = int(m.group(1)), int(m.group(2))
                out[game] = max(out.get(game, -1), version)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(payload)
    return out


@dataclass
class Limiter:
    """Fixed windows per key; every applied request that shows a game's version."""

    clock: Any
    jitter: random.Random
    shared: bool
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    channel_of_token: dict[str, int] = field(default_factory=dict)
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)
    shown: list[tuple[float, int, int]] = field(default_factory=list)
    """(virtual time, game id, version) of each applied request showing a game."""
    limited: int = 0
    refused: int = 0
    failed: int = 0
    on: bool = False
    """Whether the limit applies yet (the games are set up without it)."""
    kinds: dict[str, int] = field(default_factory=dict)
    """Limited requests by kind."""

    def key(self, method: str, path: str) -> str | None:
        """The window a request counts against, or None (not limited)."""
        parts = path.strip("/").split("/")
        channel: str | None = None
        if parts[:1] == ["channels"] and len(parts) >= 3 and parts[2] == "messages":
            channel = parts[1]
        elif parts[:1] == ["webhooks"] and len(parts) >= 5 and parts[3] == "messages" \
                and method in ("PATCH", "DELETE"):
            channel = str(self.channel_of_token.get(parts[2], "webhook"))
        if channel is None:
            return None
        return "all" if self.shared else channel

    def _take(self, key: str) -> float | None:
        now = float(self.clock.elapsed)
        start, used = self.windows.get(key, (now, 0))
        if now >= start + WINDOW:
            start, used = now, 0
        if used < LIMIT:
            self.windows[key] = (start, used + 1)
            return None
        self.windows[key] = (start, used)
        return start + WINDOW - now

    async def send(self, method: str, path: str, call: Callable[[], Awaitable[Any]]) -> Any:
        key = self.key(method, path) if self.on else None
        if key is not None:
            self.limited += 1
            kind = f"{method} {'webhook' if path.startswith('/webhooks') else 'channel'}"
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            for _ in range(TRIES):
                wait = self._take(key)
                if wait is None:
                    break
                self.refused += 1
                await self.sleep(wait + self.jitter.uniform(0.0, 0.8))
            else:
                self.failed += 1
                raise discord.HTTPException(_Response(), {
                    "message": "You are being rate limited.", "retry_after": WINDOW,
                    "global": False})
        result = await call()
        for game, version in shown_versions(result).items():
            self.shown.append((self.clock.elapsed, game, version))
        return result


@contextlib.contextmanager
def limited(world: World, limiter: Limiter) -> Iterator[None]:
    """Put ``limiter`` between the bot and SimCord for the ``with`` body (and declare to
    SimCord a task waiting for a lock whose holder waits out a 429: it is parked, not stuck).
    """
    from simcord.http import client as fake

    env = world.env
    http_request = fake.FakeHTTPClient.request
    hook_request = fake.FakeWebhookAdapter.request
    acquire = asyncio.Lock.acquire
    emit = env.backend.emit

    async def limited_http(self: Any, route: Any, **kwargs: Any) -> Any:
        return await limiter.send(route.method, fake._path_of(route.url),
                                  lambda: http_request(self, route, **kwargs))

    async def limited_hook(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        return await limiter.send(route.method, fake._path_of(route.url),
                                  lambda: hook_request(self, route, session, **kwargs))

    async def parked_acquire(self: asyncio.Lock) -> bool:
        task = asyncio.current_task()
        if task is None or task not in env._work.tasks or task in env._work.external_waits:
            return await acquire(self)
        return bool(await env.external_wait(acquire(self), reason="a lock held across a 429"))

    async def virtual_sleep(seconds: float) -> None:
        """discord.py's sleep before a retry, on SimCord's virtual clock (declared to SimCord:
        only its ``advance_time`` wakes it, no wall-clock second is spent on it).
        """
        task = asyncio.current_task()
        if task is None or task not in env._work.tasks or task in env._work.external_waits:
            await asyncio.sleep(seconds)
            return
        await env.external_wait(asyncio.sleep(seconds), reason="a 429's retry_after")

    limiter.sleep = virtual_sleep

    def noting_emit(event: str, payload: Any) -> None:
        if event == "INTERACTION_CREATE":
            limiter.channel_of_token[str(payload.get("token"))] = int(payload["channel_id"])
        emit(event, payload)

    fake.FakeHTTPClient.request = limited_http  # type: ignore[method-assign]
    fake.FakeWebhookAdapter.request = limited_hook  # type: ignore[method-assign]
    asyncio.Lock.acquire = parked_acquire  # type: ignore[method-assign,assignment]
    env.backend.emit = noting_emit
    try:
        yield
    finally:
        fake.FakeHTTPClient.request = http_request  # type: ignore[method-assign]
        fake.FakeWebhookAdapter.request = hook_request  # type: ignore[method-assign]
        asyncio.Lock.acquire = acquire  # type: ignore[method-assign]
        env.backend.emit = emit


@dataclass
class RateLimitedRun:
    """Click -> board latencies of one limit."""

    scope: str
    games: int
    seconds: list[float]
    stale: int
    requests: int
    refused: int
    failed: int
    virtual_s: float
    unmatched: int
    kinds: dict[str, int] = field(default_factory=dict)
    boards_asked: int = 0

    def pct(self, p: float) -> float:
        if not self.seconds:
            return float("nan")
        s = sorted(self.seconds)
        return s[max(0, math.ceil(p / 100 * len(s)) - 1)]

    def line(self) -> str:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.kinds.items()))
        return (f"  {self.scope}: {len(self.seconds)} moves, p50 {self.pct(50):.2f} s, "
                f"p95 {self.pct(95):.2f} s, max {self.pct(100):.2f} s\n"
                f"      {self.requests} limited requests ({kinds}), {self.refused} answered "
                f"429, {self.failed} given up after {TRIES} tries; {self.stale} stale clicks; "
                f"{self.boards_asked} boards asked for (/royale board) after {BOARD_AFTER_S:.0f} "
                f"s of a board that did not move; {self.virtual_s:.0f} s of play")


def report(runs: list[RateLimitedRun], out: TextIO) -> None:
    """Print the runs' figures."""
    games = runs[0].games if runs else 0
    out.write(f"\nThe board under Discord's message limit (5 per 5 s), {games} games at once in "
              "one server (2 people + a computer each): virtual seconds from a click to the "
              "applied request that shows the move (goal: p95 under 1 s)\n")
    for run in runs:
        out.write(run.line() + "\n")
    unmatched = sum(r.unmatched for r in runs)
    if unmatched:
        out.write(f"  ({unmatched} taken clicks never shown past their version: the last "
                  "decisions, shown by the game-over message)\n")


async def _open(world: World, n: int) -> list[GameTable]:
    tables = [world.new_table(2, per_guild=max(n, 1)) for _ in range(n)]
    with world.fast():
        for t in tables:
            check(await t.host.slash(t.channel, "royale new", turn_timeout=3600), "new")
        await world.burst_checked([t.lobby_move(t.players[1], "join") for t in tables])
        await world.burst_checked([t.lobby_move(t.host, "cpu") for t in tables])
        await world.burst_checked([t.lobby_move(t.host, "start") for t in tables])
    return tables


@dataclass
class _Seat:
    """What one table's players are doing: waiting to click, or waiting for the board."""

    clicked: tuple[int, int, frozenset[str]] | None = None
    """(game, version, the verbs the board offered) of the last click."""
    clicked_at: float = 0.0
    click_at: float | None = None  # when they click what the board shows
    over: bool = False


@dataclass
class _Play:
    clicks: list[tuple[float, int, int]] = field(default_factory=list)
    stale: int = 0
    boards_asked: int = 0


async def _turn(world: World, table: GameTable, seat: _Seat, play: _Play, rng: random.Random,
                pace: str, now: float) -> None:
    """One look at the table's board: its player clicks once their thinking is done; a board
    that shows nothing new for ``BOARD_AFTER_S`` after a click is asked for (``/royale board``),
    as a player would.
    """
    svc = world.bot.service
    move = table.next_move(rng)
    game_id = None
    if move is not None:
        m = CUSTOM_ID.match(move.custom_id)
        assert m is not None, move.custom_id
        offered = frozenset(verb(getattr(c, "custom_id", None)) for c in components(move.message))
        at = (int(m.group(1)), int(m.group(2)), offered)
        game_id = at[0]
        if seat.clicked != at:
            if seat.click_at is None:
                seat.click_at = now + rng.uniform(*THINKING[pace])
            if seat.click_at > now:
                return
            seat.click_at = None
            seat.clicked, seat.clicked_at = at, now
            res = await move.play()
            if not res.acknowledged:
                raise BenchError(f"{move.verb}: not answered")
            if res.ephemeral or any(f.ephemeral for f in res.followups):
                play.stale += 1  # the board was behind the game: wait for it
                return
            game = await svc.db.games.get(at[0])
            if game is not None and game.version > at[1]:  # a decision (not its first step)
                play.clicks.append((now, at[0], at[1]))
            return
        if now - seat.clicked_at < BOARD_AFTER_S:
            return
    game = await svc.db.games.latest_in_channel(table.channel.id)
    if game is None or not game.is_open:
        seat.over = True
        return
    if move is None and game_id is None and now - seat.clicked_at < BOARD_AFTER_S:
        return
    # nothing has moved for a while (or no decision is shown): bring the board down
    play.boards_asked += 1
    seat.clicked_at = now
    seat.clicked = None
    await table.host.slash(table.channel, "royale board")


async def _run(opts: Options, shared: bool, pace: str, max_moves: int | None
               ) -> RateLimitedRun:
    rng = random.Random(opts.seed + 11)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            env = world.env
            limiter = Limiter(env.backend.clock, random.Random(opts.seed), shared)
            play = _Play()
            with limited(world, limiter), world.fast():  # virtual time: settle quickly
                tables = await _open(world, opts.rl_games)
                await env.advance_time(10)  # the boards are up: the limit applies from now
                limiter.on = True
                limiter.windows.clear()
                limiter.shown.clear()
                start = env.backend.clock.elapsed
                seats = [_Seat(clicked_at=start) for _ in tables]
                while not all(s.over for s in seats):
                    now = env.backend.clock.elapsed
                    if now - start > GIVE_UP_S:
                        raise BenchError("the rate-limited games did not end within "
                                         f"{GIVE_UP_S:.0f} virtual seconds")
                    if max_moves is not None and len(play.clicks) >= max_moves:
                        break
                    for table, seat in zip(tables, seats, strict=True):
                        if not seat.over:
                            await _turn(world, table, seat, play, rng, pace, now)
                    await env.advance_time(TICK)
                await env.advance_time(60)  # what still waits on the limit goes out
                played = env.backend.clock.elapsed - start
    seconds: list[float] = []
    unmatched = 0
    for at, game, version in play.clicks:
        later = [t for t, g, v in limiter.shown if g == game and v > version and t >= at]
        if later:
            seconds.append(min(later) - at)
        else:
            unmatched += 1
    scope = "a limit per channel" if not shared else "one limit for all the channels"
    low, high = THINKING[pace]
    return RateLimitedRun(f"{scope}, {pace} players ({low:g}-{high:g} s)", opts.rl_games,
                          seconds, play.stale, limiter.limited, limiter.refused, limiter.failed,
                          played, unmatched, dict(limiter.kinds), play.boards_asked)


async def bench_ratelimit(opts: Options, out: TextIO, max_moves: int | None = None
                          ) -> list[RateLimitedRun]:
    """The rate-limited board benchmark: per channel, then shared."""
    runs = [await _run(opts, shared, pace, max_moves)
            for shared, pace in ((False, "steady"), (False, "quick"), (True, "steady"))]
    report(runs, out)
    return runs
