"""The command line: ``python -m bot [run|sync|demo|simulate|bench|validate]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.rules.registry import GAME_KINDS
from bot.sim.runner import AI_NAMES

GO_LIVE = """\
No DISCORD_TOKEN is set, so here is a demo game instead.

To go live:
  1. Create an application at https://discord.com/developers/applications, add a Bot,
     and copy its token (Bot > Reset Token).
  2. Put it in .env (copy .env.example) as DISCORD_TOKEN=..., or export it.
  3. Invite the bot with the scopes 'bot' and 'applications.commands' and the permissions
     View Channel, Send Messages, Embed Links, Attach Files, Read Message History.
  4. Run `python -m bot sync` once (or `--guild ID` while developing), then `python -m bot`.
"""


def _expansions(text: str) -> list[str]:
    from bot.rules.royale.engine import normalise_expansions

    names = [p for p in (x.strip() for x in text.split(",")) if p and p != "none"]
    try:
        return list(normalise_expansions(names))
    except Exception as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _ai(text: str) -> list[str]:
    names = [p.strip().lower() for p in text.split(",") if p.strip()]
    bad = [n for n in names if n not in AI_NAMES]
    if not names or bad:
        raise argparse.ArgumentTypeError(f"--ai takes {', '.join(AI_NAMES)} (comma-separated "
                                         "for one per seat)")
    return names


def _ai_problem(game: str, names: Sequence[str]) -> str | None:
    """Why ``names`` can't play ``game`` (a name of the other game's engine), or None."""
    from bot.rules.levels import player_names

    ok = player_names(game)
    bad = [n for n in names if n not in ok]
    if bad:
        return f"--ai for {game} takes {', '.join(ok)}, not {', '.join(bad)}"
    return None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="The Panda Royale bot.")
    sub = p.add_subparsers(dest="command")
    sub.add_parser("run", help="start the bot (the default; the demo when no token is set)")
    sync = sub.add_parser("sync", help="sync the slash commands with Discord")
    sync.add_argument("--guild", type=int, default=None, help="sync to one guild only")

    demo = sub.add_parser("demo", help="one game of computer players in the terminal")
    demo.add_argument("--game", choices=GAME_KINDS, default="royale")
    demo.add_argument("--players", type=int, default=None)
    demo.add_argument("--seed", type=int, default=None)
    demo.add_argument("--ai", type=_ai, default=["heuristic"])
    demo.add_argument("--expansions", type=_expansions, default=[])

    sim = sub.add_parser("simulate", help="many headless games and their game log")
    sim.add_argument("--game", choices=GAME_KINDS, default="royale")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--ai", type=_ai, default=["heuristic"],
                     help="a level (easy, normal, hard) or a player (random, heuristic; expert "
                          "for royale, optimal for posing), or one per seat: "
                          "hard,normal,normal,normal")
    sim.add_argument("--expansions", type=_expansions, default=[],
                     help="any of mischief,cannon,mercenary")
    sim.add_argument("--log", type=Path, default=None, help="write the JSON Lines game log")

    val = sub.add_parser("validate", help="check JSON Lines game logs: replay and rules")
    val.add_argument("files", nargs="+", type=Path, metavar="FILE.jsonl")
    val.add_argument("--allow-unfinished", action="store_true",
                     help="a game whose log stops before game_end is not a problem")
    val.add_argument("-v", "--verbose", action="store_true",
                     help="list every problem of each invalid game, not only the first")

    bench = sub.add_parser("bench", help="engine speed: full games per second")
    bench.add_argument("--games", type=int, default=2000)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--game", choices=GAME_KINDS, default=None)
    try:
        from benchmarks import bot_bench
    except ImportError:  # an installed wheel: benchmarks/ lives in the repository only
        pass
    else:
        bot_bench.add_arguments(sub.add_parser(
            "bench-bot", help="the bot inside SimCord: latency, REST requests, memory, start-up"))

    from bot.crashdrill.drill import add_arguments as add_crash_drill_arguments

    crash = sub.add_parser("crash-drill",
                           help="SIGKILL the service mid-game again and again, restart, check")
    add_crash_drill_arguments(crash)
    return p


def _seed() -> int:
    import secrets

    return secrets.randbelow(1_000_000)


def _validate(files: Sequence[Path], allow_unfinished: bool, verbose: bool, out: TextIO) -> int:
    """Validate each file; one line per invalid game, then the summary. 0 if all valid."""
    from bot.rules.validate import GameReport, ValidationReport, validate_lines

    games: list[GameReport] = []
    problems: list[str] = []
    for path in files:
        name = f"{path}: " if len(files) > 1 else ""
        try:
            with path.open(encoding="utf-8", errors="replace") as fh:
                report = validate_lines(fh, allow_unfinished=allow_unfinished)
        except OSError as exc:
            problems.append(f"{path}: cannot read ({exc.strerror or exc})")
            out.write(f"{problems[-1]}\n")
            continue
        for line in report.lines(verbose=verbose):
            out.write(f"{name}{line}\n")
        games.extend(report.games)
        problems.extend(report.problems)
    total = ValidationReport(tuple(games), tuple(problems))
    out.write(total.summary() + "\n")
    return 0 if total.ok else 1


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run one command; returns the exit code."""
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    cmd = args.command or "run"
    if cmd in ("demo", "simulate") and (problem := _ai_problem(args.game, args.ai)):
        out.write(problem + "\n")
        return 2
    if cmd == "demo":
        seed = args.seed if args.seed is not None else _seed()
        if args.game == "royale":
            from bot.sim.demo_royale import run_royale_demo

            run_royale_demo(players=args.players or 4, seed=seed, ai=args.ai,
                            expansions=args.expansions, out=out)
        else:
            from bot.sim.demo_posing import run_posing_demo

            run_posing_demo(players=args.players or 2, seed=seed, ai=args.ai[0], out=out)
        return 0
    if cmd == "simulate":
        from bot.sim.simulate import simulate

        if args.games < 0:
            out.write("--games must be 0 or more\n")
            return 2
        if args.game == "royale" and args.expansions is None:
            args.expansions = []
        try:
            simulate(game=args.game, players=args.players, games=args.games, seed=args.seed,
                     ai=args.ai, expansions=args.expansions if args.game == "royale" else [],
                     log_path=args.log, out=out)
        except Exception as exc:
            from bot.rules.errors import RulesError

            if isinstance(exc, RulesError):
                out.write(f"{exc.message}\n")
                return 2
            raise
        return 0
    if cmd == "validate":
        return _validate(args.files, args.allow_unfinished, args.verbose, out)
    if cmd == "bench":
        from bot.sim.bench import run_bench

        run_bench(games=args.games, seed=args.seed, out=out, only=args.game)
        return 0
    if cmd == "bench-bot":
        from benchmarks import bot_bench

        return bot_bench.run_from_args(args, out)
    if cmd == "crash-drill":
        from bot.crashdrill.drill import run_from_args

        return run_from_args(args, out)
    from bot.settings import Settings

    settings = Settings()
    if cmd == "sync":
        from bot.app import sync_commands

        return sync_commands(settings, guild_id=args.guild)
    if not settings.has_token:
        out.write(GO_LIVE + "\n")
        from bot.sim.demo_royale import run_royale_demo

        run_royale_demo(players=4, seed=_seed(), ai=["heuristic"], expansions=[], out=out)
        return 0
    from bot.app import run_bot

    return run_bot(settings)
