"""cProfile of decisions, from dispatch to answer."""

from __future__ import annotations

import cProfile
import pstats
import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from tools.benchbot.backends import database_for
from tools.benchbot.options import Options
from tools.benchbot.resident import (
    OTHER,
    _attributed,
    _short,
)
from tools.benchbot.simworld import (
    World,
    check,
)


async def bench_profile(opts: Options, out: TextIO) -> str:
    """CProfile of sequential decisions in a ``--games`` world, from dispatch to answer, for
    decisions without and with a new round picture, split by who spends the time.
    """
    rng = random.Random(opts.seed + 4)
    groups: dict[bool, pstats.Stats | None] = {False: None, True: None}
    counts: Counter[bool] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=opts.settle_idle, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            tables = await world.open_games(opts.games, opts.players)
            made = 0
            while made < opts.profile_decisions:
                progressed = False
                for t in tables:
                    move = t.next_move(rng)
                    if move is None:
                        continue
                    prof = cProfile.Profile()
                    drawn = len(world.card_draws)
                    [res] = await world.burst([move], on_emit=prof.enable,
                                              on_answered=prof.disable)
                    prof.disable()
                    check(res, move.verb)
                    sheet = len(world.card_draws) > drawn
                    counts[sheet] += 1
                    group = groups[sheet]
                    if group is None:
                        groups[sheet] = pstats.Stats(prof)
                    else:
                        group.add(prof)
                    made += 1
                    progressed = True
                    if made >= opts.profile_decisions:
                        break
                if not progressed:
                    break
    text = ""
    for sheet, title in ((False, "decisions without a new round picture (the hot path)"),
                         (True, "decisions that draw the round picture")):
        stats = groups[sheet]
        if stats is not None:
            text += _profile_report(stats, counts[sheet], opts.games, title)
    out.write(text)
    return text


def _profile_report(stats: pstats.Stats, made: int, games: int, title: str) -> str:
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    buckets = _attributed(raw)
    total = sum(buckets.values())
    lines = [f"\nProfile, {title}: {made} decisions in a {games}-game world, from dispatch to "
             "answer (cProfile, main thread; "
             f"{total * 1000 / made:.1f} ms per decision under the profiler)"]
    for b, tt in buckets.most_common():
        lines.append(f"  {tt / total * 100:5.1f}%  {tt * 1000 / made:6.2f} ms  {b}")
    lines.append("  top functions by own time, per decision:")
    own = sorted(((tt, filename, line, name) for (filename, line, name), (_cc, _nc, tt, _ct, _c)
                  in raw.items()), reverse=True)
    for tt, filename, line, name in own[:10]:
        lines.append(f"    {tt * 1000 / made:7.2f} ms  {name} ({_short(filename)}:{line})")
    lines.append("  our code, by cumulative time, per decision:")
    ours = sorted(((ct, filename, line, name) for (filename, line, name), (_cc, _nc, _tt, ct, _c)
                   in raw.items() if any(k in filename for k in ("/bot/", "/cogs/", "/storage/"))
                   and "/site-packages/" not in filename), reverse=True)
    for ct, filename, line, name in ours[:16]:
        lines.append(f"    {ct * 1000 / made:7.2f} ms  {name} ({_short(filename)}:{line})")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- who spends it


PARTS = (("/simcord/", "SimCord"), ("/tools/benchbot/", "harness"),
         ("/discord/", "discord.py"), ("/asyncpg/", "asyncpg"), ("/aiosqlite/", "aiosqlite"),
         ("/sqlite3/", "aiosqlite"), ("/asyncio/", "asyncio"), ("/PIL/", "Pillow"))


def _part(filename: str, name: str) -> str:
    """Who spends a function's own time (:func:`resident._attributed`'s buckets)."""
    if "poll" in name and ("select" in name or "epoll" in name):
        return "waiting (epoll)"
    f = filename.replace("\\", "/")
    for key, part in PARTS:
        if key in f:
            return part
    if "/site-packages/" not in f and any(f"/{pkg}/" in f for pkg in
                                          ("bot", "cogs", "ui", "storage", "pictures")):
        return "our code"
    return OTHER


def who_spends(prof: cProfile.Profile, made: int) -> dict[str, float]:
    """Milliseconds per decision of ``made`` profiled ones, by who spends them (:func:`_part`;
    parts under 0.05 ms left out).
    """
    raw: dict[Any, Any] = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    return {part: s * 1000 / made for part, s in _attributed(raw, _part).items()
            if s * 1000 / made >= 0.05}
