"""The REST benchmark: the requests of whole games played by people, counted against
the bot token's global limit or exempt from it.

Each game is played from ``/royale new`` to its final standings by people clicking the real
components through SimCord (``member.click`` / ``member.select``: :meth:`Move.play`), one game
alone in a world: ``--rest-tables``, by default 4 people (base game), 10 people with every
Mayhem option (mischief, cannon, mercenary), 4 people in a thread of their own, and 4 people
playing a slow game (a turn within a day) over days, every fourth decision taken after its
reminder; the reminders (each posted, then deleted once answered, with the bot token) are
counted apart.

Every request SimCord received is classified by the one rule the end-to-end tests use
(:func:`bot.request_budget.counts_against_global_limit`): sent with the bot token (counted
against Discord's 50 per second for the whole bot), or an interaction callback or a request
to the interaction's webhook (exempt). Both are given by route (method and route template,
:func:`tools.benchbot.latency.route_template`) and per human decision (a decision of the game:
a pick, a pass, a trade or mischief step, a cannon choice; the lobby's clicks and the command
are counted in the requests, not in the decisions).

From those: how many games one token keeps going at one decision every
:data:`DECISION_EVERY_S` seconds per game, ``50 × GLOBAL_RATE_SHARE ÷ (global requests per
decision ÷ DECISION_EVERY_S)``.
"""

from __future__ import annotations

import math
import random
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.request_budget import (
    DISCORD_GLOBAL_LIMIT,
    MARGIN,
    counts_against_global_limit,
)
from tools.benchbot.backends import database_for
from tools.benchbot.latency import play, route_key
from tools.benchbot.options import Options, RestTable
from tools.benchbot.simworld import BenchError, GameTable, World, check
from tools.benchbot.tables import text_of

DECISION_EVERY_S = 5.0
"""Seconds between two decisions of one game (a brisk human table)."""
MAYHEM = {"mischief": True, "cannon": True, "mercenary": True}
SLOW_WAIT_S = {False: 3 * 3600.0, True: 18 * 3600.0 + 60}
"""A slow game's wait before a move (seconds): three hours, or past the reminder."""
GAME_OVER = "🏁"
"""What the game-over card's heading shows (before the final standings)."""


@dataclass
class RestRun:
    """The requests of one whole game of people, by budget and by route."""

    players: int
    mayhem: bool
    thread: bool
    slow: bool
    decisions: int
    interactions: int
    counted: Counter[str]
    """Requests sent with the bot token (Discord's global limit), by route."""
    exempt: Counter[str]
    """Interaction callbacks and interaction webhook requests, by route."""
    pings: int
    """New messages that notify someone (the hand-over pings, the game-over)."""
    share: float
    """``GLOBAL_RATE_SHARE`` of the bot measured (its share of the 50 per second)."""
    reminders: int = 0
    """Reminders posted (slow games); each costs two bot-token requests, counted apart."""

    @property
    def label(self) -> str:
        what = "with every Mayhem option" if self.mayhem else "base game"
        where = ", in a thread" if self.thread else ""
        pace = ", slow (a turn within a day)" if self.slow else ""
        return f"{self.players} people, {what}{where}{pace}"

    @property
    def global_total(self) -> int:
        """Bot-token requests of the game, its reminders' posts and deletions left out."""
        return sum(self.counted.values()) - 2 * self.reminders

    @property
    def exempt_total(self) -> int:
        return sum(self.exempt.values())

    @property
    def global_per_decision(self) -> float:
        return self.global_total / self.decisions if self.decisions else math.nan

    @property
    def exempt_per_decision(self) -> float:
        return self.exempt_total / self.decisions if self.decisions else math.nan

    def sustained_games(self, limit: float = DISCORD_GLOBAL_LIMIT) -> float:
        """Concurrent games of this kind one token keeps going at one decision every
        :data:`DECISION_EVERY_S` s each, with ``limit`` requests per second for the whole bot
        (``inf`` when a game spends none).
        """
        per_game_second = self.global_per_decision / DECISION_EVERY_S
        if per_game_second == 0:
            return math.inf
        return limit * self.share / per_game_second

    def report(self, out: TextIO) -> None:
        out.write(f"\n{self.label}: {self.decisions} human decisions, {self.interactions} "
                  f"interactions, {self.pings} pings (new messages that notify someone)\n")
        if self.slow:
            out.write(f"  reminders: {self.reminders} ({2 * self.reminders} bot-token requests: "
                      "each posted, then deleted once answered), counted apart\n")
        out.write(f"  counted against the global limit (bot token): {self.global_total} = "
                  f"{self.global_per_decision:.3f} per decision\n")
        for route, n in self.counted.most_common():
            out.write(f"    {n:5d}  {n / self.decisions:6.3f}/decision  {route}\n")
        out.write(f"  exempt (interaction callbacks, interaction webhook): {self.exempt_total} "
                  f"= {self.exempt_per_decision:.3f} per decision\n")
        for route, n in self.exempt.most_common():
            out.write(f"    {n:5d}  {n / self.decisions:6.3f}/decision  {route}\n")
        out.write(f"  concurrent games one token sustains, a decision every {DECISION_EVERY_S:g} s "
                  f"per game (50/s x GLOBAL_RATE_SHARE {self.share:g}): ")
        whole = self.sustained_games()
        if math.isinf(whole):
            out.write("no bound from the global limit (no bot-token request in the game)\n")
        else:
            planned = self.sustained_games(DISCORD_GLOBAL_LIMIT * MARGIN)
            out.write(f"{whole:,.0f} ({planned:,.0f} within the bot's own budget, "
                      f"{MARGIN:.0%} of the limit)\n")


def report(runs: list[RestRun], out: TextIO) -> None:
    """Print the runs' figures."""
    out.write("\nREST requests of whole games played by people (SimCord's request log, from "
              "/royale new to the final standings)\n")
    for run in runs:
        run.report(out)


async def people_game(world: World, table: GameTable, rng: random.Random, *,
                      mayhem: bool = False, thread: bool = False, slow: bool = False
                      ) -> RestRun:
    """Play one game of ``table``'s people from ``/royale new`` to the final standings, every
    click through SimCord's components; its requests by budget and route.
    """
    start = world.mark()
    options: dict[str, Any] = dict(MAYHEM) if mayhem else {}
    if thread:
        options["thread"] = True
    if slow:
        options["pace"] = "1d"
    check(await table.host.slash(table.channel, "royale new", **options), "/royale new")
    interactions = 1
    for who in table.players[1:]:
        check(await table.lobby_move(who, "join").play(), "join")
        interactions += 1
    check(await table.lobby_move(table.host, "start").play(), "start")
    interactions += 1
    lobby_channel = table.channel
    if thread:
        threads = lobby_channel.threads
        if len(threads) != 1:
            raise BenchError(f"{len(threads)} threads opened for one game")
        table = GameTable(threads[0], table.players)
    while (move := table.next_move(rng)) is not None:
        if slow:  # a move within hours; every fourth after its reminder (18 hours in)
            await world.env.advance_time(SLOW_WAIT_S[table.decisions % 4 == 3])
        await play(world, table, move)
        interactions += 1
    if GAME_OVER not in text_of(table.channel.history()[-1]):
        raise BenchError("the game did not reach its final standings")
    app = world.env.backend.application_id
    counted: Counter[str] = Counter()
    exempt: Counter[str] = Counter()
    pings = reminders = 0
    for entry in world.log[start:]:
        bucket = counted if counts_against_global_limit(entry.path, app) else exempt
        bucket[route_key(entry, app)] += 1
        pings += _is_ping(entry)
        reminders += _is_ping(entry) and "⏰" in str((entry.json or {}).get("content"))
    return RestRun(len(table.players), mayhem, thread, slow, table.decisions, interactions,
                   counted, exempt, pings, world.bot.settings.global_rate_share, reminders)


def _is_ping(entry: Any) -> bool:
    """A new message (a channel post, or a followup) that notifies someone: its content
    begins with a mention, or it names the people it pings (a board posted anew for whoever
    decides next).
    """
    new = entry.method == "POST" and (entry.path.endswith("/messages") or (
        entry.path.startswith("/webhooks/") and entry.path.count("/") == 3))
    body = entry.json if isinstance(entry.json, dict) else {}
    named = (body.get("allowed_mentions") or {}).get("users")
    return new and (str(body.get("content") or "").startswith("<@") or bool(named))


async def bench_rest(opts: Options, out: TextIO) -> list[RestRun]:
    """Whole games of people (``opts.rest_tables``), each in a world of its own."""
    runs: list[RestRun] = []
    for i, spec in enumerate(opts.rest_tables):
        runs.append(await _one(opts, spec, random.Random(opts.seed * 1000 + i)))
    report(runs, out)
    return runs


async def _one(opts: Options, spec: RestTable, rng: random.Random) -> RestRun:
    players, mayhem, thread, slow = spec
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=0.001, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            return await people_game(world, world.new_table(players), rng, mayhem=mayhem,
                                     thread=thread, slow=slow)
