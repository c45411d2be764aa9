"""What the benchmarks' world changes in SimCord so that it measures the bot, not SimCord: a
click's deferral waits on the wall clock (SimCord's virtual clock stands still there), and
SimCord's callback records compare by identity (list.remove over 500 parked turn timers)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from simcord import _runtime

from tools.benchbot.simcord_costs import records_by_identity, wall_clock_sleep
from tools.benchbot.simworld import World
from ui.hub import hub_of


def test_callback_records_compare_by_identity_inside_the_block_only() -> None:
    a = _runtime._CallbackRecord(None, 1.0, "x")
    b = _runtime._CallbackRecord(None, 1.0, "x")
    assert a == b
    with records_by_identity():
        assert a != b and a == a
        records = [a, b]
        records.remove(b)
        assert records[0] is a and len(records) == 1
    assert a == b


async def test_the_world_defers_clicks_on_the_wall_clock(tmp_path: Path) -> None:
    world = World(tmp_path)
    async with world.running():
        env = world.env
        virtual = env.backend.clock.elapsed
        sleep = wall_clock_sleep(env)
        t0 = time.perf_counter()
        await sleep(0.05)
        waited = time.perf_counter() - t0
        assert 0.05 <= waited < 2.0
        assert env.backend.clock.elapsed == virtual  # SimCord's clock did not move
        table = world.new_table(2)
        await world.slashes([(table.host, table.channel, "royale new", {})])
        # once an interaction has come in, the bot's deliveries defer on the wall clock
        assert hub_of(world.bot).messages.delivery.sleep is not asyncio.sleep
