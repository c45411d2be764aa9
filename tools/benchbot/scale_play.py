"""How the scale benchmark (:mod:`tools.benchbot.scale`) drives its games: a warm-up game,
``n`` games opened, joined and started by their people's clicks, decisions made one at a time
or paced (one per game every ``DECISION_EVERY_S``), and each decision's two times (answered,
shown) read from SimCord's log.
"""

from __future__ import annotations

import cProfile
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from tools.benchbot.profile import who_spends
from tools.benchbot.rest import DECISION_EVERY_S
from tools.benchbot.simworld import BenchError, GameTable, Move, World, check

PER_GUILD = 20
OPEN_CHUNK = 100
"""Lobby commands and clicks emitted at the same instant while the games are opened."""
DRAIN_LIMIT = 900.0
"""Real seconds a paced round's work may go on after its last decision (then SimCord's
settle reports what is still at work)."""


def progress(text: str) -> None:
    """A line on stderr while the benchmark runs (its figures come at the end)."""
    sys.stderr.write(f"  (scale: {text})\n")
    sys.stderr.flush()


async def warm_up(world: World, players: int, rng: random.Random) -> None:
    """One game played until a round picture is drawn (imports, fonts, caches: not counted)."""
    [table] = await open_games(world, 1, players)
    with world.fast():
        while not world.card_draws:
            move = table.next_move(rng)
            if move is None:
                break
            await world.burst_checked([move], calm=True)


async def open_games(world: World, n: int, players: int) -> list[GameTable]:
    """``n`` games of ``players`` people each, opened, joined and started by their people
    (the commands and clicks of ``OPEN_CHUNK`` games emitted at once).
    """
    tables = [world.new_table(players, per_guild=PER_GUILD) for _ in range(n)]
    with world.fast():
        t0 = time.perf_counter()
        # One channel of each server after another: the commands of one server wait for each
        # other (its open games are counted under a lock), the servers' need not.
        across = [tables[i] for i in sorted(range(n), key=lambda i: (i % PER_GUILD, i))]
        for i in range(0, n, OPEN_CHUNK):
            part = across[i:i + OPEN_CHUNK]
            results = await world.slashes([(t.host, t.channel, "royale new", {}) for t in part],
                                          calm=True)
            for res in results:
                check(res, "/royale new")
        if n > 1:
            progress(f"{n} lobbies in {time.perf_counter() - t0:.0f} s")
        for j in range(1, players):
            await world.burst_checked([t.lobby_move(t.players[j], "join") for t in tables],
                                      OPEN_CHUNK, calm=True)
            if n > 1:
                progress(f"{j} joined in {time.perf_counter() - t0:.0f} s")
        await world.burst_checked([t.lobby_move(t.host, "start") for t in tables], OPEN_CHUNK,
                                  calm=True)
    return tables


async def spread(world: World, tables: Sequence[GameTable], span: int, rng: random.Random
                 ) -> int:
    """Each game makes 0 to ``span - 1`` decisions (unmeasured, ``OPEN_CHUNK`` games' at
    once), so that the games are at different points of a round: games started together move
    in step and would all end a round, and draw its card, in the same paced round. Returns the
    decisions made.
    """
    extra = [rng.randrange(span) if span > 1 else 0 for _ in tables]
    made = 0
    with world.fast():
        for step in range(max(extra, default=0)):
            moves = [(t, m) for t, k in zip(tables, extra, strict=True)
                     if k > step and (m := t.next_move(rng)) is not None]
            await world.burst_checked([m for _, m in moves], OPEN_CHUNK, calm=True)
            for table, _ in moves:
                table.decisions += 1
            made += len(moves)
    return made


def _times(world: World, start: int, iids: Sequence[int]) -> tuple[list[float], list[float]]:
    """(answered, shown) seconds of each interaction since its dispatch, from the log."""
    app = world.env.backend.application_id
    answered: dict[int, float] = {}
    shown: dict[int, float] = {}
    for iid, (t, callback) in world.callback_times(start).items():
        answered[iid] = t
        if (callback.json or {}).get("type") == UPDATE_MESSAGE:  # the move is the answer
            shown[iid] = t
    log = world.log
    prefix = f"/webhooks/{app}/"
    for i in range(start, len(log)):
        path = log[i].path
        if not path.startswith(prefix):
            continue
        by_token = world.tokens.get(path[len(prefix):].split("/", 1)[0])
        if by_token is not None and by_token not in shown and by_token in world.dispatched:
            shown[by_token] = log.times[i] - world.dispatched[by_token]
    missing = [iid for iid in iids if iid not in answered or iid not in shown]
    if missing:
        raise BenchError(f"{len(missing)} decisions never answered or never shown")
    return [answered[i] for i in iids], [shown[i] for i in iids]


UPDATE_MESSAGE = 7
"""The interaction callback's type that edits the clicked message."""

PROFILED = 40
"""Decisions made alone under cProfile after the measured ones (who spends the CPU)."""


async def profiled(world: World, tables: list[GameTable], rng: random.Random
                    ) -> dict[str, float]:
    """Milliseconds per decision by who spends them, :data:`PROFILED` decisions alone."""
    prof = cProfile.Profile()
    await one_at_a_time(world, tables, PROFILED, rng, profile=prof)
    return who_spends(prof, PROFILED)


async def one_at_a_time(world: World, tables: list[GameTable], samples: int,
                         rng: random.Random, profile: Any = None
                         ) -> tuple[list[float], list[float]]:
    """``samples`` decisions, each made alone while every other game waits (channels in
    random order, under ``profile`` when given): their (answered, shown) times.
    """
    start = world.mark()
    iids: list[int] = []
    order: list[GameTable] = []
    while len(iids) < samples:
        if not order:
            order = list(tables)
            rng.shuffle(order)
        table = order.pop()
        move = table.next_move(rng)
        if move is None:
            continue
        if profile is not None:
            profile.enable()
        [res] = await world.burst([move], calm=True, settle=False)
        if profile is not None:
            profile.disable()
        check(res, move.verb)
        table.decisions += 1
        iids.append(int(res._interaction.id))
    await world.settle()
    return _times(world, start, iids)


async def paced_rounds(world: World, tables: list[GameTable], rounds: int, rng: random.Random,
                      between: Callable[[], object] | None = None
                      ) -> tuple[tuple[list[float], list[float]], float, float, float]:
    """Rounds of one decision per game, one every ``DECISION_EVERY_S / games`` seconds: the
    (answered, shown) times, the decisions per second that arrived, the longest drain, the
    decisions per second the bot worked through. ``between`` is called after each round but
    the last, once the bot is idle again (outside the times).
    """
    busy = 0.0
    start = world.mark()
    iids: list[int] = []
    emitted = 0
    seconds = 0.0
    drain = 0.0
    for done in range(rounds):
        if done and between is not None:
            between()
        order = list(tables)
        rng.shuffle(order)
        moves: list[tuple[GameTable, Move]] = [(t, m) for t in order
                                               if (m := t.next_move(rng)) is not None]
        if not moves:
            break
        first = len(world.dispatched)
        results = await world.burst([m for _, m in moves],
                                    spacing=DECISION_EVERY_S / len(tables), settle=False)
        stamps = list(world.dispatched.values())[first:]
        await world.calm(DRAIN_LIMIT)  # however far behind the bot is, it catches up
        drain = max(drain, time.perf_counter() - max(stamps))
        busy += time.perf_counter() - min(stamps)
        await world.settle()
        emitted += len(moves)
        seconds += max(stamps) - min(stamps) if len(stamps) > 1 else 0.0
        for (table, move), res in zip(moves, results, strict=True):
            check(res, move.verb)
            table.decisions += 1
            iids.append(int(res._interaction.id))
    rate = (emitted - rounds) / seconds if seconds > 0 else float("nan")
    return _times(world, start, iids), rate, drain, emitted / busy if busy else float("nan")
