"""``python -m tools.sim simulate|bench`` (``./dev simulate``, ``./dev bench``): the command line
of :mod:`bot.cli`'s parser and error path, with the developer commands on the engine alone.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.cli import Parser, game_options, game_setup, run_command, whole
from bot.problems import Problem
from bot.rules.registry import KINDS


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m tools.sim``."""
    parser = Parser(prog=os.environ.get("PANDA_PROG", "python -m tools.sim"),
                    description="The engine alone: simulate and bench.")
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failure")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND",
                                required=True)
    sim = sub.add_parser("simulate", help="many headless games and their game log")
    game_options(sim, players=4, players_help="4", seed=1, games=True)
    sim.add_argument("--log", type=Path, default=None, help="write the JSON Lines game log")
    sim.add_argument("--jobs", type=whole("--jobs", 1), default=None,
                     help="processes to play the games on (default: this machine's cores); "
                          "the log is the same whatever the number")
    bench = sub.add_parser("bench", help="engine speed: full games per second")
    bench.add_argument("--games", type=whole("--games", 1), default=2000)
    bench.add_argument("--seed", type=whole("--seed", 0), default=1)
    bench.add_argument("--game", choices=tuple(KINDS), default=None)
    bench.add_argument("--no-startup", action="store_true",
                       help="skip the start-up time of simulate (a subprocess)")
    return parser


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    from tools.sim.simulate import simulate

    rules = game_setup(args, args.players)
    try:
        simulate(game=args.game, players=args.players, games=args.games, seed=args.seed,
                 ai=args.ai, expansions=rules.get("expansions", ()), log_path=args.log,
                 jobs=args.jobs, out=out)
    except OSError as exc:
        if args.log is None:
            raise
        raise Problem(f"Cannot write the game log {args.log} ({exc.strerror or exc}): give --log "
                      "a file in a folder you can write to") from exc
    return 0


def _bench(args: argparse.Namespace, out: TextIO) -> int:
    from tools.sim import bench

    bench.run_bench(games=args.games, seed=args.seed, out=out, only=args.game,
                    startup=not args.no_startup)
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    """Run ``simulate`` or ``bench``; returns the exit code."""
    runners = {"simulate": _simulate, "bench": _bench}
    return run_command(build_parser(), lambda args, out: runners[args.command](args, out),
                       argv, out, err)


if __name__ == "__main__":
    raise SystemExit(main())
