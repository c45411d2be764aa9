"""The latency benchmark: decisions timed from dispatch to answer, 1 and many games."""

from __future__ import annotations

import math
import random
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from tools.benchbot.backends import database_for
from tools.benchbot.figures import (
    Dist,
    LatencyRun,
)
from tools.benchbot.options import Options
from tools.benchbot.simworld import (
    CALLBACK,
    BenchError,
    GameTable,
    Move,
    World,
    check,
)

LITERAL = re.compile(r"@?[a-z][a-z-]*")
"""A path segment that is part of a route, not one of its parameters (``messages``,
``@original``)."""
PARAMS = {"channels": ("{channel.id}",), "messages": ("{message.id}",),
          "guilds": ("{guild.id}",), "members": ("{user.id}",), "users": ("{user.id}",),
          "interactions": ("{interaction.id}", "{interaction.token}"),
          "webhooks": ("{webhook.id}", "{webhook.token}"),
          "applications": ("{application.id}",), "commands": ("{command.id}",),
          "roles": ("{role.id}",), "thread-members": ("{user.id}",)}
"""The parameters that follow each part of a route, named as Discord's documentation names
them."""

# The decisions timed, in words (the labels of the per-decision lines).
VERBS = {"pick": "draft pick", "pass": "pass", "ttarget": "trade: player chosen",
         "tdie": "trade: die chosen", "mtarget": "mischief: player chosen",
         "mdie": "mischief: die chosen", "fire": "cannon fire", "save": "cannon save"}


def route_template(method: str, path: str, application_id: int | None = None) -> str:
    """A REST request's method and route template, its parameters named as Discord names
    them: ``POST /channels/{channel.id}/messages``; an interaction's webhook (the
    application's own id) is ``/webhooks/{application.id}/{interaction.token}``.
    """
    parts = path.strip("/").split("/")
    out: list[str] = []
    params: tuple[str, ...] = ()
    for i, seg in enumerate(parts):
        if params and (params[0].endswith(".token}") or not LITERAL.fullmatch(seg)):
            name, params = params[0], params[1:]
            if name == "{webhook.id}" and application_id is not None \
                    and seg == str(application_id):
                name, params = "{application.id}", ("{interaction.token}",)
            out.append(name)
            continue
        if not LITERAL.fullmatch(seg):  # a parameter after an unknown part
            out.append("{id}")
            params = ()
            continue
        out.append(seg)
        params = PARAMS.get(seg, ()) if i + 1 < len(parts) else ()
    return f"{method} /{'/'.join(out)}"


def route_key(entry: Any, application_id: int | None = None) -> str:
    """A REST request's route template (:func:`route_template`), for counting by route."""
    return route_template(entry.method, entry.path, application_id)


CALLBACK_TYPES = {4: "message", 5: "deferred message", 6: "deferred update", 7: "update message",
                  9: "modal"}


def request_kind(entry: Any) -> str:
    """A REST request in words (post, edit, interaction callback of a type...)."""
    path = entry.path
    if CALLBACK.match(path):
        kind = (entry.json or {}).get("type") if isinstance(entry.json, dict) else None
        return f"interaction callback ({CALLBACK_TYPES.get(kind or 0, kind)})"
    if path.startswith("/webhooks/"):
        if path.endswith("/@original"):
            return f"interaction webhook {entry.method} @original"
        return f"interaction webhook {entry.method} (follow-up)"
    if re.fullmatch(r"/channels/\d+/messages", path) and entry.method == "POST":
        return "channel message post"
    if re.fullmatch(r"/channels/\d+/messages/\d+", path) and entry.method == "PATCH":
        return "channel message edit"
    return f"other: {route_key(entry)}"


async def play(world: World, table: GameTable, move: Move) -> tuple[float, int]:
    """One decision through SimCord's click/select: its click time and interaction id."""
    t0 = time.perf_counter()
    res = await move.play()
    elapsed = time.perf_counter() - t0
    check(res, move.verb)
    table.decisions += 1
    return elapsed, int(res._interaction.id)


async def decide(world: World, table: GameTable, move: Move) -> int:
    """One decision through :meth:`World.burst` (no SimCord polling until it is answered):
    its interaction id.
    """
    [res] = await world.burst([move])
    check(res, move.verb)
    table.decisions += 1
    return int(res._interaction.id)


@dataclass
class Sample:
    iid: int
    verb: str
    via_click: bool
    drew_sheet: bool
    click: float = math.nan  # click -> settled, SimCord's click only
    last: float = math.nan  # dispatch -> the last request the decision caused


class Sampler:
    """Sequential decisions, alternately through SimCord's click and through a burst of one."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.samples: list[Sample] = []
        self.start = world.mark()
        self.draws = len(world.card_draws)

    async def decide(self, table: GameTable, move: Move) -> None:
        world = self.world
        via_click = len(self.samples) % 2 == 0
        drawn = len(world.card_draws)
        if via_click:
            elapsed, iid = await play(world, table, move)
            sample = Sample(iid, move.verb, True, len(world.card_draws) > drawn, elapsed)
        else:
            iid = await decide(world, table, move)
            sample = Sample(iid, move.verb, False, len(world.card_draws) > drawn)
            sample.last = world.log.times[-1] - world.dispatched[iid]
        self.samples.append(sample)

    def run(self, label: str, games: int) -> LatencyRun:
        times = self.world.callback_times(self.start)
        for s in self.samples:
            if s.iid not in times:
                raise BenchError(f"interaction {s.iid} ({s.verb}) has no callback")
        clean = [s for s in self.samples if not s.via_click]
        clicked = [s for s in self.samples if s.via_click]

        def answers(xs: list[Sample]) -> list[float]:
            return [times[s.iid][0] for s in xs]

        by_verb = {v: Dist(f"answer to a {what}", answers([s for s in clean if s.verb == v]))
                   for v, what in VERBS.items() if any(s.verb == v for s in clean)}
        return LatencyRun(
            label, games,
            click=Dist("whole click, as a player waits (until all settled)",
                       [s.click for s in clicked]),
            click_answer=Dist("  of which the bot's answer", answers(clicked)),
            answer=Dist("answer to a decision (click received -> reply)", answers(clean)),
            answer_plain=Dist("  decisions without a new round picture",
                              answers([s for s in clean if not s.drew_sheet])),
            answer_sheet=Dist("  decisions that draw the round picture",
                              answers([s for s in clean if s.drew_sheet])),
            last=Dist("until the bot's last request (e.g. next round)",
                      [s.last for s in clean]),
            by_verb=by_verb,
            sheet_draw=Dist("drawing the round picture alone (worker thread)",
                            self.world.card_draws[self.draws:]))


# ---------------------------------------------------------------------- latency


async def bench_latency(opts: Options, out: TextIO) -> list[LatencyRun]:
    """The latency benchmark with one game, then with many."""
    runs = [await _latency_one_game(opts), await _latency_many(opts)]
    for r in runs:
        r.report(out)
    return runs


async def _restart_game(world: World, table: GameTable) -> None:
    """The same players open and start the channel's next game."""
    with world.fast():
        check(await table.host.slash(table.channel, "royale new"), "new")
        await world.burst_checked([table.lobby_move(p, "join") for p in table.players[1:2]])
        for p in table.players[2:]:
            await world.burst_checked([table.lobby_move(p, "join")])
        await world.burst_checked([table.lobby_move(table.host, "start")])


async def _latency_one_game(opts: Options) -> LatencyRun:
    rng = random.Random(opts.seed)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            [table] = await world.open_games(1, opts.players)
            sampler = Sampler(world)
            games = 1
            while len(sampler.samples) < opts.samples:
                move = table.next_move(rng)
                if move is None:  # game over: the same players start the next one
                    games += 1
                    await _restart_game(world, table)
                    continue
                await sampler.decide(table, move)
            return sampler.run(f"Latency, 1 game in progress ({opts.players} players; "
                               f"{games} game(s) played one after another)", 1)


async def _latency_many(opts: Options) -> LatencyRun:
    rng = random.Random(opts.seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            tables = await world.open_games(opts.games, opts.players)
            sampler = Sampler(world)
            for _ in range(opts.decisions):
                order = list(tables)
                rng.shuffle(order)
                for t in order:
                    move = t.next_move(rng)
                    if move is not None:
                        await sampler.decide(t, move)
            run = sampler.run(f"Latency, {opts.games} games in progress ({opts.players} players "
                              "each): one decision per game per turn, channels in random "
                              "order", opts.games)
            burst: list[float] = []
            spans: list[float] = []
            for _ in range(opts.bursts):
                moves = [m for t in tables if (m := t.next_move(rng)) is not None]
                if not moves:
                    break
                start = world.mark()
                results = await world.burst(moves)
                times = world.callback_times(start)
                answered = []
                for move, res in zip(moves, results, strict=True):
                    check(res, move.verb)
                    answered.append(times[int(res._interaction.id)][0])
                burst.extend(answered)
                spans.append(max(answered))
            run.burst = Dist(f"burst: {len(tables)} decisions at the same instant", burst)
            run.burst_size = len(tables)
            return run


# ---------------------------------------------------------------------- requests
