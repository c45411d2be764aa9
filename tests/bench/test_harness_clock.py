"""What the benchmarks' world changes in SimCord so that it measures the bot, not SimCord: a
click's deferral waits on the wall clock (SimCord's virtual clock stands still there),
SimCord's callback records compare by identity (list.remove over 500 parked turn timers), and
the records of cancelled timers do not pile up between two settles, and a callback that ran
leaves no reference cycle behind."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import time
import weakref
from pathlib import Path

from simcord import _runtime

from tools.benchbot.simcord_costs import (
    records_by_identity,
    tidy_callback_records,
    wall_clock_sleep,
)
from tools.benchbot.simworld import World
from ui.items import bot_of


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
        # once an interaction has come in, the bot's boards defer clicks on the wall clock
        boards = bot_of(world.bot).boards
        assert boards.sleep is not asyncio.sleep and boards.now is time.perf_counter


async def test_cancelled_timers_records_are_dropped_and_their_real_wake_ups_cancelled(
        tmp_path: Path) -> None:
    world = World(tmp_path)
    async with world.running():
        env = world.env
        await env.settle()
        tidy_callback_records(env)
        work = env._work
        loop = asyncio.get_running_loop()
        fired: list[int] = []

        def arm() -> list[asyncio.TimerHandle]:
            return [loop.call_later(30 + i, fired.append, i) for i in range(200)]

        # as the bot arms them: SimCord tracks the callbacks scheduled in the bot's scope
        bot_side = contextvars.copy_context()
        bot_side.run(_runtime._BOT_SCOPE.set, (env, env._generation))
        handles = bot_side.run(arm)
        ours = [r for r in work.callbacks if r.handle in handles]
        assert len(ours) == 200  # SimCord keeps a record of each, with a real-clock wake-up
        assert all(r.real_handle is not None for r in ours)
        kept_timer = handles[0]
        for handle in handles[1:]:
            handle.cancel()
        tidy_callback_records(env)  # the list more than doubled: cancelled ones go
        left = [r for r in work.callbacks if r.handle in handles]
        assert [r.handle for r in left] == [kept_timer]
        assert left[0].real_handle is not None and not left[0].real_handle.cancelled()
        assert all(r.real_handle is None for r in ours[1:])  # their wake-ups were cancelled
        # the list removes from its newest end and still refuses what it does not hold
        records = work.callbacks
        newest = records[-1]
        records.remove(newest)
        assert newest not in records
        try:
            records.remove(newest)
        except ValueError:
            pass
        else:
            raise AssertionError("removing a record twice must fail")
        kept_timer.cancel()
        assert fired == []


async def test_a_callback_that_ran_leaves_no_cycle_for_the_collector(tmp_path: Path) -> None:
    world = World(tmp_path)
    async with world.running():
        env = world.env
        await env.settle()
        tidy_callback_records(env)
        loop = asyncio.get_running_loop()
        fired: list[int] = []
        bot_side = contextvars.copy_context()
        bot_side.run(_runtime._BOT_SCOPE.set, (env, env._generation))
        gc.disable()
        try:
            handle = bot_side.run(loop.call_soon, fired.append, 1)
            [record] = [r for r in env._work.callbacks if r.handle is handle]
            ref = weakref.ref(handle)
            del handle
            for _ in range(3):
                await asyncio.sleep(0)
            assert fired == [1]
            assert record not in env._work.callbacks
            assert record.handle is None and record.real_handle is None
            # freed by reference counting alone: SimCord's wrapper and the record no longer
            # hold each other (the collector is off)
            assert ref() is None
        finally:
            gc.enable()
