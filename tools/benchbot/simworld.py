"""The benchmark harness: the real bot (``PandaBot`` on a SQLite file) inside SimCord, simulated
players who make the decision their game message waits on, and timing hooks.

Timing hooks (installed on SimCord's backend, which survives bot restarts):

* every ``INTERACTION_CREATE`` the backend emits is stamped with ``time.perf_counter()``;
* SimCord's request log (``env.http_requests``) becomes a :class:`TimedLog`, which stamps each
  request the bot makes, so the time from a click's dispatch to the bot's interaction callback
  (its answer) is ``log.times[i] - dispatched[interaction_id]``.

Two ways to make a decision:

* SimCord's public actors (``member.click`` / ``member.select``, :meth:`Move.play`) dispatch the
  interaction and *settle*: SimCord polls the loop until the bot is idle. Each poll scans every
  pending task against every scheduled timer, so with one parked turn timer per game it costs
  O(games²), and it runs on the bot's event loop while the bot works.
* :meth:`World.burst` emits the interactions (one, or one per game at the same instant), waits
  for their callbacks without polling, and only then settles: the bot runs undisturbed until it
  has answered, as it would in production.

The players' side (:class:`GameTable`, :class:`Move`) is in :mod:`tools.benchbot.tables`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import simcord
from pydantic import SecretStr

from bot.client import PandaBot
from bot.settings import Settings
from tools.benchbot.idle import CALM_LIMIT, at_work, calm
from tools.benchbot.payloads import click_payload, slash_payload
from tools.benchbot.simcord_costs import (
    records_by_identity,
    tidy_callback_records,
    wall_clock_sleep,
)
from tools.benchbot.tables import BenchError, GameTable, Move, text_of
from ui.cards import Emojis
from ui.items import bot_of

CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")
# Turn timers never fire during a benchmark (virtual time only moves when asked to).
TURN_TIMEOUT = 3600
# Channels per simulated guild (at most the bot's open games per server, GUILD_OPEN_GAMES).
CHANNELS_PER_GUILD = 50
# SimCord fails a settle that takes longer than this (real seconds): bursts of many clicks can
# take a while on a slow machine.
SETTLE_TIMEOUT = 120.0
# How long (real seconds) a burst waits for the bot's answers before giving up.
ANSWER_TIMEOUT = 120.0
# The settle poll interval used while building worlds (not measured).
FAST_IDLE = 0.01


class TimedLog(list[Any]):
    """SimCord's request log, with the ``perf_counter()`` time each request was made."""

    def __init__(self, items: Sequence[Any], listener: Callable[[Any], None]) -> None:
        super().__init__(items)
        self.times: list[float] = [0.0] * len(items)
        self.listener = listener

    def append(self, item: Any) -> None:
        self.times.append(time.perf_counter())
        super().append(item)
        self.listener(item)


class ErrorCounter(logging.Handler):
    """Counts ERROR records of the bot, its cogs, storage and discord.py."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "cogs", "ui", "pictures", "storage", "discord")):
            self.records.append(record)


class World:
    """A running SimCord environment around the real bot, on a SQLite file in ``directory``."""

    def __init__(self, directory: Path, *, settle_idle: float | None = None,
                 seed: int = 1, database_url: str | None = None) -> None:
        self.db_path = directory / "panda.db"
        self.database_url = database_url  # PostgreSQL instead of the file (--backend postgres)
        self._seeds = itertools.count(seed * 100_000)  # games get fixed seeds: runs repeat
        self.settle_idle = settle_idle  # None: SimCord's own settle poll interval
        self.bots: list[PandaBot] = []
        self.dispatched: dict[int, float] = {}
        self.tokens: dict[str, int] = {}  # interaction token -> interaction id
        self.env: Any = None
        self.card_draws: list[float] = []  # seconds each round picture took to draw
        self._fast = False
        self._want: set[int] = set()
        self._answered = asyncio.Event()
        self._on_answered: Callable[[], None] | None = None
        self._guild: Any = None
        self._channels = 0

    # ------------------------------------------------------------------ lifecycle

    def make_bot(self) -> PandaBot:
        """A fresh, unstarted bot on the world's database file."""
        settings = Settings(_env_file=None, database_path=self.db_path,  # type: ignore[call-arg]
                            database_url=SecretStr(self.database_url) if self.database_url
                            else None, discord_token=None,
                            default_turn_timeout=TURN_TIMEOUT)
        bot = PandaBot(settings, seed_source=lambda: next(self._seeds))
        self.bots.append(bot)
        return bot

    @property
    def bot(self) -> PandaBot:
        return self.env.bot  # type: ignore[no-any-return]

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[World]:
        """Start SimCord with a new bot; close every bot made on the way out."""
        import cogs.royale.card as card

        # The round card's picture is drawn by the module's global in a worker thread: time it
        # there.
        namespace = vars(card)
        draw: Callable[[Any], bytes] = namespace["render_round_card"]

        def timed_draw(data: Any) -> bytes:  # runs in a worker thread
            t0 = time.perf_counter()
            try:
                return draw(data)
            finally:
                self.card_draws.append(time.perf_counter() - t0)

        namespace["render_round_card"] = timed_draw
        try:
            with records_by_identity():
                run = simcord.run(self.make_bot(), settle_timeout=SETTLE_TIMEOUT)
                # The dice emojis a deploy before left (the first start creates them): the
                # bot finds them and creates none, as every start but the very first.
                for full in Emojis.wanted():
                    run._env.backend.create_application_emoji(full)
                async with run as env:
                    self.env = env
                    self._install_hooks()
                    await self.bot.tree.sync()
                    yield self
        finally:
            namespace["render_round_card"] = draw
            for bot in self.bots:
                if not bot.is_closed():
                    await bot.close()

    def _install_hooks(self) -> None:
        env = self.env
        backend = env.backend
        backend.http_requests = TimedLog(backend.http_requests, self._seen)
        emit = backend.emit
        dispatched = self.dispatched
        tokens = self.tokens

        wall_sleep = wall_clock_sleep(env)

        def timed_emit(event: str, payload: Any) -> None:
            if event == "INTERACTION_CREATE":
                # the bot now (a benchmark may have restarted it): deferrals on the wall clock
                boards = bot_of(env.bot).boards
                boards.sleep, boards.now = wall_sleep, time.perf_counter
                dispatched[int(payload["id"])] = time.perf_counter()
                tokens[str(payload["token"])] = int(payload["id"])
                tidy_callback_records(env)
            emit(event, payload)

        backend.emit = timed_emit
        settle = env._settle_internal

        async def settle_with_idle(**kw: Any) -> None:
            idle = FAST_IDLE if self._fast else self.settle_idle
            if idle is not None:
                kw.setdefault("idle", idle)
            await settle(**kw)

        env._settle_internal = settle_with_idle

    def _seen(self, entry: Any) -> None:
        """A request reached SimCord: is it the answer a burst waits for?"""
        if not self._want:
            return
        m = CALLBACK.match(entry.path)
        if m is not None and int(m.group(1)) in self._want:
            self._want.discard(int(m.group(1)))
            if not self._want:
                if self._on_answered is not None:
                    self._on_answered()
                self._answered.set()

    def at_work(self) -> int:
        """How many of the bot's tasks are at work (:func:`tools.benchbot.idle.at_work`)."""
        return at_work(self.env)

    async def calm(self, limit: float = CALM_LIMIT) -> None:
        """Wait until the bot has nothing at work (:func:`tools.benchbot.idle.calm`)."""
        await calm(self.env, limit)

    @contextlib.contextmanager
    def fast(self) -> Iterator[None]:
        """Settle with a short poll interval (to build worlds quickly; nothing is measured)."""
        before, self._fast = self._fast, True
        try:
            yield
        finally:
            self._fast = before

    # ------------------------------------------------------------------ requests

    @property
    def log(self) -> TimedLog:
        return self.env.http_requests  # type: ignore[no-any-return]

    def mark(self) -> int:
        """The request log's position now (slice the requests made after it)."""
        return len(self.log)

    def callback_times(self, start: int, end: int | None = None) -> dict[int, tuple[float, Any]]:
        """For each interaction answered in the log slice: (seconds from its dispatch to its
        first callback, the callback request).
        """
        log = self.log
        out: dict[int, tuple[float, Any]] = {}
        for i in range(start, len(log) if end is None else end):
            entry = log[i]
            m = CALLBACK.match(entry.path)
            if m is None:
                continue
            iid = int(m.group(1))
            if iid in self.dispatched and iid not in out:
                out[iid] = (log.times[i] - self.dispatched[iid], entry)
        return out

    # ------------------------------------------------------------------ building

    def new_table(self, n_humans: int, per_guild: int | None = None) -> GameTable:
        """A new channel with ``n_humans`` members of its own (``per_guild`` channels per
        guild: unless asked, 50 or the bot's limit of open games per server if lower).
        """
        env = self.env
        if per_guild is None:
            per_guild = min(CHANNELS_PER_GUILD, self.bot.settings.guild_open_games)
        if self._guild is None or self._channels % per_guild == 0:
            self._guild = env.create_guild(f"Pandas {self._channels // per_guild + 1}")
        self._channels += 1
        k = self._channels
        channel = self._guild.create_text_channel(f"games-{k}")
        members = [self._guild.add_member(env.create_user(f"p{k}-{j + 1}"))
                   for j in range(n_humans)]
        return GameTable(channel, members)

    async def open_games(self, n: int, players: int, *, computers: bool = False
                         ) -> list[GameTable]:
        """``n`` started games in ``n`` new channels: ``players`` humans each, or one human
        and ``players - 1`` computer players. Lobby clicks are emitted in bursts.
        """
        tables = [self.new_table(1 if computers else players) for _ in range(n)]
        with self.fast():
            for t in tables:
                res = await t.host.slash(t.channel, "royale new")
                check(res, "/royale new")
            for j in range(1, players):
                await self.burst_checked(
                    [t.lobby_move(t.host, "cpu") if computers else t.lobby_move(t.players[j],
                                                                                 "join")
                     for t in tables])
            await self.burst_checked([t.lobby_move(t.host, "start") for t in tables])
        return tables

    # ------------------------------------------------------------------ bursts

    async def burst(self, moves: Sequence[Move], *,
                    on_emit: Callable[[], None] | None = None,
                    on_answered: Callable[[], None] | None = None,
                    spacing: float = 0.0, calm: bool = False, settle: bool = True
                    ) -> list[Any]:
        """Emit every move at the same instant, wait (without SimCord polling) until the bot
        has answered each one, then settle. ``on_emit`` is called just before the first
        dispatch, ``on_answered`` right when the last answer is sent. Returns SimCord's
        ``InteractionResult`` of each move.

        ``spacing``: the moves are emitted one every ``spacing`` seconds instead (real time;
        one that is late goes at once, but one loop turn after the one before it). ``calm``: wait
        for the bot to finish its work (:meth:`calm`) before settling; ``settle=False``: do
        not settle (the caller settles later).
        """
        return await self._emit([click_payload(self.env, m) for m in moves], on_emit=on_emit,
                                on_answered=on_answered, spacing=spacing, calm=calm,
                                settle=settle)

    async def slash(self, actor: Any, channel: Any, name: str, **options: Any) -> Any:
        """``/name`` emitted as :meth:`burst` emits clicks (no SimCord polling until the bot
        has answered): SimCord's ``InteractionResult``.
        """
        [res] = await self._emit([slash_payload(self.env, actor, channel, name, options)])
        return res

    async def slashes(self, commands: Sequence[tuple[Any, Any, str, dict[str, Any]]], *,
                      calm: bool = False) -> list[Any]:
        """Several ``(actor, channel, name, options)`` commands emitted at the same instant,
        as :meth:`burst` emits clicks: SimCord's ``InteractionResult`` of each.
        """
        return await self._emit([slash_payload(self.env, *c) for c in commands], calm=calm)

    async def _emit(self, prepared: Sequence[tuple[Any, dict[str, Any]]], *,
                    on_emit: Callable[[], None] | None = None,
                    on_answered: Callable[[], None] | None = None,
                    spacing: float = 0.0, calm: bool = False, settle: bool = True
                    ) -> list[Any]:
        from simcord.results import InteractionResult

        backend = self.env.backend
        self._want = {int(record.id) for record, _ in prepared}
        self._answered = asyncio.Event()
        self._on_answered = on_answered
        try:
            if on_emit is not None:
                on_emit()
            start = time.perf_counter()
            for i, (record, payload) in enumerate(prepared):
                if spacing > 0:
                    # Paced: each click on its own, as events a few ms apart reach a bot; one
                    # that is late (the harness got the loop back late) goes at once, but
                    # after the bot had its turn with the one before it.
                    wait = start + i * spacing - time.perf_counter()
                    await asyncio.sleep(max(0.0, wait))
                self.env._notify_dispatch_observers(record)
                backend.emit("INTERACTION_CREATE", payload)
            if self._want:
                await asyncio.wait_for(self._answered.wait(), ANSWER_TIMEOUT)
        except TimeoutError:
            raise BenchError(f"{len(self._want)} interaction(s) not answered within "
                             f"{ANSWER_TIMEOUT:.0f} s") from None
        finally:
            self._want = set()
            self._on_answered = None
        if calm:
            await self.calm()
        if settle:
            await self.env._settle_internal(dispatch="INTERACTION_CREATE")
        return [InteractionResult(self.env, record) for record, _ in prepared]

    async def settle(self) -> None:
        """Let SimCord settle the bot (after moves emitted with ``settle=False``)."""
        await self.calm()
        await self.env._settle_internal(dispatch="INTERACTION_CREATE")

    async def burst_checked(self, moves: Sequence[Move], chunk: int = 50, *,
                            calm: bool = False) -> None:
        for i in range(0, len(moves), chunk):
            part = moves[i:i + chunk]
            for move, res in zip(part, await self.burst(part, calm=calm), strict=True):
                check(res, move.verb)


def check(res: Any, what: str) -> None:
    """A click must be answered, and not with a private refusal."""
    if not res.acknowledged:
        raise BenchError(f"{what}: not answered")
    refusals = [r for r in (res.response, *res.followups) if r is not None and r.ephemeral]
    if refusals:
        raise BenchError(f"{what}: refused: {' / '.join(text_of(r) for r in refusals)}")


__all__ = [
    "CALLBACK",
    "BenchError",
    "ErrorCounter",
    "GameTable",
    "Move",
    "TimedLog",
    "World",
    "check",
]
