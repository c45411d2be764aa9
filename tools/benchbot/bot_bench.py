"""Benchmarks of the bot inside SimCord: interaction latency, REST requests per game, memory
and start-up time with many games in progress, ``/royale new`` with other servers' open games in
the database, memory after many finished games, the board under Discord's message limit.

    python -m tools.benchbot.bot_bench --which all          # (wired as: ./dev bench-bot)

This module is the command line only (nothing heavy is imported until the benchmarks run);
the benchmarks are in :mod:`tools.benchbot.bot_runs`, the harness in :mod:`tools.benchbot.simworld`.

Figures are measurements, printed; nothing here asserts a timing. Each benchmark runs the real
``PandaBot`` (cogs, game service, SQLite file in a temporary directory) against SimCord.

* ``latency``: simulated players make the decisions their game messages wait on (picks,
  passes, trades, mischief, cannons), alternately in two ways. Half go through SimCord's
  ``click``/``select``, timed with ``perf_counter()``: *click -> settled* includes SimCord's
  own work and its settle polling, which scans every task against every timer on the bot's
  event loop. The other half are emitted directly and SimCord is only asked to settle once
  the bot has answered: *answer* is the time from the INTERACTION_CREATE dispatch to the
  bot's interaction callback request (a click's acknowledgement: ui/dispatch.py defers
  every click before the database is touched; the move is committed and shown after it, see
  ``scale``'s *shown* time), free of the settle polling (SimCord's runtime hooks and
  request routing still run). With 1 game, with ``--games`` games played one decision each
  in a random channel order, then ``--bursts`` bursts where every game's next decision
  arrives at the same instant.
* ``rest``: the requests of whole games played by people, from ``/royale new`` to the final
  standings (``--rest-tables``: 4 people, 10 people with every Mayhem option, 4 people in a
  thread), counted against the bot token's global limit or exempt from it (interaction
  callbacks and webhook), by route and per decision; the concurrent games one token sustains
  at a decision every 5 s per game (:mod:`tools.benchbot.rest`).
* ``scale``: ``--scale-games`` games in progress at once (500), on SQLite and on PostgreSQL,
  each in a process of its own: answer and move-shown p50/p99, decisions one at a time and
  paced at one per 5 s per game; RSS and its growth per game (:mod:`tools.benchbot.scale`).
* ``memory``: RSS with ``--resident`` games in progress, tracemalloc's growth over
  ``--traced`` games of their own, and the deep size of what the bot object holds.
* ``startup``: restarting the bot with those games in progress; ``GameService.restore`` alone.
* ``new``: ``/royale new`` p50/p99 from dispatch to answer, with no open game elsewhere and
  with ``--elsewhere`` open games of other servers in the database
  (:mod:`tools.benchbot.lobbies`).
* ``finished``: RSS and every per-game structure after ``--finished`` games played to their
  end, ``--people-games`` of them clicked by people through SimCord; RSS growth per game after
  a warm-up; the pictures' text caches (:mod:`tools.benchbot.finished`).
* ``ratelimit``: ``--rl-games`` games at once behind a model of Discord's per-channel message
  limit: seconds from a click to the applied request that shows the move
  (:mod:`tools.benchbot.ratelimit`).
* ``profile`` (only with ``--which profile``): cProfile of decisions in the ``--games``
  world, from dispatch to answer (where the time goes).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from typing import TextIO

from tools.benchbot.options import REST_TABLES, WHICH, Options, RestTable


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``./dev bench-bot``."""
    p = argparse.ArgumentParser(prog="./dev bench-bot",
                                description="Benchmarks of the bot inside SimCord.")
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options (``./dev bench-bot``)."""
    p.add_argument("--which", choices=(*WHICH, "all"), default="all",
                   help="one benchmark, or all (latency, rest, scale, memory, startup, new, "
                        "finished, ratelimit; profile only when asked)")
    p.add_argument("--games", type=int, default=50,
                   help="games in progress at once for the latency benchmark (default 50)")
    p.add_argument("--resident", type=int, default=200,
                   help="games in progress for the memory and start-up benchmarks (200)")
    p.add_argument("--traced", type=int, default=10,
                   help="games opened under tracemalloc for the per-game breakdown (10)")
    p.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    p.add_argument("--samples", type=int, default=200,
                   help="decisions measured with a single game (default 200)")
    p.add_argument("--decisions", type=int, default=10,
                   help="decisions per game measured with --games games (default 10)")
    p.add_argument("--bursts", type=int, default=5,
                   help="bursts of one simultaneous decision per game (default 5)")
    p.add_argument("--new-samples", type=int, default=200,
                   help="/royale new commands timed with none and with --elsewhere open games "
                        "in other servers (default 200 each)")
    p.add_argument("--elsewhere", type=int, default=100_000,
                   help="open games of other servers written into the database for the second "
                        "/royale new series (default 100,000)")
    p.add_argument("--finished", type=int, default=1_000,
                   help="games played to their end for the memory-after-games figures (1,000)")
    p.add_argument("--people-games", type=int, default=20,
                   help="of those, games played by two people through SimCord (default 20)")
    p.add_argument("--rl-games", type=int, default=10,
                   help="games at once under Discord's per-channel message limit (default 10)")
    p.add_argument("--rest-tables", type=rest_tables, default=REST_TABLES,
                   metavar="N[:mayhem][:thread],...",
                   help="the games of people the rest benchmark plays (default "
                        "4,10:mayhem,4:thread)")
    p.add_argument("--scale-games", type=int, default=500,
                   help="games in progress at once for the scale benchmark (default 500)")
    p.add_argument("--scale-samples", type=int, default=200,
                   help="decisions made one at a time among them (default 200)")
    p.add_argument("--scale-rounds", type=int, default=1,
                   help="rounds of one decision per game, paced at one per 5 s per game (1)")
    p.add_argument("--scale-spread", type=int, default=8,
                   help="each game first makes 0 to N-1 decisions, unmeasured, so the games "
                        "are at different points of a round (default 8; 0: all in step)")
    p.add_argument("--scale-backends", type=scale_backends, default=("sqlite", "postgres"),
                   metavar="sqlite,postgres",
                   help="the backends the scale benchmark runs on (default both)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite",
                   help="where the bot keeps its games: an SQLite file (default) or PostgreSQL")
    p.add_argument("--postgres-url", default=None,
                   help="with --backend postgres: a server to use (postgresql://...); default: "
                        "a private server started from the machine's PostgreSQL binaries")
    p.add_argument("--settle-idle", type=float, default=None,
                   help="SimCord's settle poll interval in seconds for measured clicks "
                        "(default: SimCord's own, 0.05)")


def rest_tables(text: str) -> tuple[RestTable, ...]:
    """``--rest-tables``: ``4,10:mayhem,4:thread,4:slow`` -> ((4, False, False, False),
    (10, True, False, False), (4, False, True, False), (4, False, False, True)).
    """
    tables: list[RestTable] = []
    for item in text.split(","):
        count, *flags = item.strip().split(":")
        if not count.isdigit() or not 2 <= int(count) <= 10 \
                or not set(flags) <= {"mayhem", "thread", "slow"}:
            raise argparse.ArgumentTypeError(
                f"{item!r}: a game is 2 to 10 people, then :mayhem, :thread and/or :slow")
        tables.append((int(count), "mayhem" in flags, "thread" in flags, "slow" in flags))
    return tuple(tables)


def scale_backends(text: str) -> tuple[str, ...]:
    """``--scale-backends``: ``sqlite,postgres`` -> ("sqlite", "postgres")."""
    names = tuple(n.strip() for n in text.split(","))
    if not names or not set(names) <= {"sqlite", "postgres"}:
        raise argparse.ArgumentTypeError(f"{text!r}: sqlite and/or postgres")
    return names


def options_from(args: argparse.Namespace) -> Options:
    """The benchmark options of parsed arguments."""
    which = tuple(w for w in WHICH if w != "profile") if args.which == "all" else (args.which,)
    return Options(which=which, games=args.games, resident=args.resident, traced=args.traced,
                   players=args.players, samples=args.samples, decisions=args.decisions,
                   bursts=args.bursts, seed=args.seed, settle_idle=args.settle_idle,
                   new_samples=args.new_samples, elsewhere=args.elsewhere,
                   finished=args.finished, people_games=args.people_games,
                   rl_games=args.rl_games, rest_tables=args.rest_tables,
                   scale_games=args.scale_games, scale_samples=args.scale_samples,
                   scale_rounds=args.scale_rounds, scale_spread=args.scale_spread,
                   scale_backends=args.scale_backends,
                   backend=args.backend, postgres_url=args.postgres_url)


def run_from_args(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the benchmarks of parsed arguments (``./dev bench-bot``); returns the
    exit code: 0, or 1 when a benchmark failed or the bot logged an error.
    """
    if args.games < 1 or args.resident < 1 or args.traced < 1 or not 2 <= args.players <= 10:
        (out or sys.stdout).write("--games, --resident and --traced need at least 1 game; "
                                  "--players takes 2 to 10\n")
        return 2
    if args.scale_games < 1 or args.scale_samples < 1 or args.scale_rounds < 1 \
            or args.scale_spread < 0:
        (out or sys.stdout).write("--scale-games, --scale-samples and --scale-rounds need at "
                                  "least 1, --scale-spread at least 0\n")
        return 2
    if args.new_samples < 1 or args.elsewhere < 0 or args.finished < 1 \
            or not 0 <= args.people_games <= args.finished or args.rl_games < 1:
        (out or sys.stdout).write("--new-samples, --finished and --rl-games need at least 1; "
                                  "--elsewhere 0 or more; --people-games 0 to --finished\n")
        return 2
    import dataclasses

    from tools.benchbot.backends import postgres_server
    from tools.benchbot.bot_runs import run_benchmarks
    from tools.benchbot.simworld import BenchError

    out = out or sys.stdout
    opts = options_from(args)
    try:
        if opts.backend == "postgres":
            with postgres_server(args.postgres_url) as url:
                results = asyncio.run(run_benchmarks(
                    dataclasses.replace(opts, postgres_url=url), out))
        else:
            results = asyncio.run(run_benchmarks(opts, out))
    except BenchError as exc:
        out.write(f"benchmark failed: {exc}\n")
        return 1
    return 1 if results.errors_logged else 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """``python -m tools.benchbot.bot_bench [options]``; returns the exit code."""
    return run_from_args(build_parser().parse_args(argv), out)


if __name__ == "__main__":
    raise SystemExit(main())
