"""The REST benchmark: the requests of one full game, by kind."""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import TextIO

from tools.benchbot.backends import database_for
from tools.benchbot.figures import (
    RestRun,
)
from tools.benchbot.latency import (
    play,
    request_kind,
    route_key,
)
from tools.benchbot.options import Options
from tools.benchbot.simworld import (
    BenchError,
    World,
    check,
)


async def bench_rest(opts: Options, out: TextIO) -> list[RestRun]:
    """The REST requests of whole games, by kind."""
    runs: list[RestRun] = []
    rng = random.Random(opts.seed + 2)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), settle_idle=0.001, seed=opts.seed,
                      database_url=await database_for(opts))
        async with world.running():
            for computers in (False, True):
                table = world.new_table(1 if computers else opts.players)
                start = world.mark()
                interactions = 1
                check(await table.host.slash(table.channel, "royale new"), "new")
                for j in range(1, opts.players):
                    who, what = (table.host, "cpu") if computers else (table.players[j], "join")
                    check(await table.lobby_move(who, what).play(), what)
                    interactions += 1
                check(await table.lobby_move(table.host, "start").play(), "start")
                interactions += 1
                playing = world.mark()
                while (move := table.next_move(rng)) is not None:
                    await play(world, table, move)
                    interactions += 1
                last = table.channel.history()[-1]
                if not last.content.startswith("🏁 Panda Royale is over!"):
                    raise BenchError("the game did not reach its final standings")
                reqs = world.log[start:]
                label = (f"1 human + {opts.players - 1} computer players" if computers
                         else f"{opts.players} humans")
                runs.append(RestRun(f"REST requests of one full game, {label}",
                                    table.decisions, interactions,
                                    Counter(request_kind(r) for r in reqs),
                                    Counter(route_key(r) for r in reqs),
                                    world.mark() - playing))
    for r in runs:
        r.report(out)
    avoidable = sum(n for r in runs for k, n in r.by_kind.items() if "GET @original" in k)
    if avoidable:
        out.write(f"\n  avoidable: {avoidable} GET @original (the message id is already in the "
                  "callback's response: InteractionCallbackResponse.message_id)\n")
    return runs


# ---------------------------------------------------------------------- memory, start-up
