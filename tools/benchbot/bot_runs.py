"""The bot benchmarks themselves (run through :mod:`tools.benchbot.bot_bench`, which keeps the
command line free of SimCord and discord.py imports). See :mod:`tools.benchbot.bot_bench` for
what each benchmark measures.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import TextIO

from tools.benchbot.figures import (
    Results,
)
from tools.benchbot.latency import (
    bench_latency,
)
from tools.benchbot.options import Options
from tools.benchbot.profile import (
    bench_profile,
)
from tools.benchbot.resident import (
    bench_resident,
)
from tools.benchbot.rest import (
    bench_rest,
)
from tools.benchbot.simworld import (
    ErrorCounter,
)


async def run_benchmarks(opts: Options, out: TextIO = sys.stdout) -> Results:
    """Run the benchmarks ``opts`` asks for, printing their figures to ``out``."""
    results = Results()
    started = time.perf_counter()
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.WARNING)
    errors = ErrorCounter()
    root.addHandler(errors)
    where = "an SQLite file" if opts.backend == "sqlite" else "PostgreSQL"
    out.write(f"Backend: {opts.backend} (the bot's games in {where})\n")
    try:
        if "latency" in opts.which:
            results.latency = await bench_latency(opts, out)
        if "rest" in opts.which:
            results.rest = await bench_rest(opts, out)
        if "scale" in opts.which:
            from tools.benchbot.scale import bench_scale

            results.scale = await bench_scale(opts, out)
        mem, up = "memory" in opts.which, "startup" in opts.which
        if mem or up:
            await bench_resident(opts, out, memory=mem, startup=up, results=results)
        if "new" in opts.which:
            from tools.benchbot.lobbies import bench_new_lobby

            results.new_lobby = await bench_new_lobby(opts, out)
        if "finished" in opts.which:
            from tools.benchbot.finished import bench_finished

            results.finished = await bench_finished(opts, out)
        if "ratelimit" in opts.which:
            from tools.benchbot.ratelimit import bench_ratelimit

            results.ratelimit = await bench_ratelimit(opts, out, max_moves=opts.rl_moves)
        if "profile" in opts.which:
            results.profile = await bench_profile(opts, out)
    finally:
        root.removeHandler(errors)
        root.setLevel(level)
    results.errors_logged = len(errors.records) + sum(len(r.errors) for r in results.scale)
    for record in errors.records:
        out.write(f"ERROR logged by {record.name}: {record.getMessage()}\n")
    out.write(f"\n(all benchmarks: {time.perf_counter() - started:.1f} s)\n")
    return results
