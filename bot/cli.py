"""The command line: ``python -m bot [run|sync|invite|demo|simulate|validate|bench|health|help]``.

Every failure ends in one or two plain lines on stderr that say what went wrong and what to do:
exit code 2 for a usage error, 1 for a failure at run time, never a traceback (the global
``--debug`` flag, or LOG_LEVEL=DEBUG, shows it).

The argument types and checks are in :mod:`bot.cli_args`, the runners of ``run``, ``demo``,
``simulate`` and ``validate`` in :mod:`bot.cli_commands`; here, the parser, the dispatch and
the error handling.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from bot.cli_args import _ai, _whole, add_rule_options
from bot.cli_commands import DEMO_DONE, GO_LIVE, _demo, _run, _simulate, _validate
from bot.problems import USAGE, Problem, UsageProblem
from bot.rules.errors import RulesError
from bot.rules.registry import KINDS, ROYALE

__all__ = [
    "COMMANDS",
    "DEMO_DONE",
    "DEV_COMMANDS",
    "GO_LIVE",
    "PROG",
    "build_parser",
    "help_text",
    "main",
]

log = logging.getLogger("bot.cli")

PROG = os.environ.get("PANDA_PROG", "python -m bot")
"""How the person typed the command (``./dev`` sets PANDA_PROG=./dev)."""

# One line per command, for `help` and `--help`.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("run", "start the bot (the default; a demo game when no DISCORD_TOKEN is set)"),
    ("sync [--guild ID]", "register the slash commands with Discord (a guild: instantly)"),
    ("invite", "print the link that adds the bot to a server, with the permissions it needs"),
    ("demo", "one game of computer players in the terminal"),
    ("simulate", "many headless games, their JSON Lines game log and a one-line summary"),
    ("validate FILE.jsonl", "check game logs: replay each game and check every rule"),
    ("bench", "engine speed: full games per second (one core)"),
    ("health", "exit 0 if the running bot's heartbeat is fresh (the container's check)"),
    ("db copy SOURCE TARGET", "copy a database (SQLite file -> postgresql:// URL) and check it"),
    ("db purge [--dry-run]", "delete the data of servers that removed the bot past the retention"),
    ("forget-user ID", "forget a Discord user everywhere (a deleted account, a request by mail)"),
    ("help [COMMAND]", "this list, or one command's options"),
)
DEV_COMMANDS: tuple[tuple[str, str], ...] = (
    ("test [ARGS]", "the test suite (pytest; ARGS go to pytest)"),
    ("lint", "ruff, mypy and the import contracts (lint-imports)"),
    ("crash-drill", "kill the game service at random points, check nothing was lost"),
    ("bench-bot", "the bot's latency, requests, memory and start-up time in a simulated Discord"),
    ("i18n-extract", "rebuild ui/locales/messages.pot from the code, update every language's .po"),
    ("i18n-check", "check every message catalogue (complete, placeholders, plurals, limits)"),
    ("discord-spec", "vendor Discord's OpenAPI description, which the tests hold requests to"),
)


def help_text() -> str:
    """Every command, one line each (the ./dev-only ones too)."""
    width = max(len(name) for name, _ in COMMANDS + DEV_COMMANDS) + 2
    lines = [f"Usage: {PROG} COMMAND [options]   ({PROG} COMMAND --help: that command's options)",
             "", "Commands:"]
    lines += [f"  {name:<{width}}{what}" for name, what in COMMANDS]
    lines += ["", "Developer commands (./dev only):"]
    lines += [f"  {name:<{width}}{what}" for name, what in DEV_COMMANDS]
    lines += ["", "Global option: --debug  show the traceback of a failure (for a bug report)"]
    return "\n".join(lines) + "\n"


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line plus where to find the options: no usage dump."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("argument COMMAND: invalid choice: "):
            got = message.removeprefix("argument COMMAND: invalid choice: ").split(" (choose")[0]
            raise UsageProblem(f"{self.prog}: unknown command {got}\n"
                               f"Run '{PROG} help' for the list of commands.")
        choice = re.fullmatch(r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)",
                              message)
        if choice is not None:
            option, got, among = choice.groups()
            among = among.replace(chr(39), '').replace(', ', ' or ')
            message = f"{option.split('/')[0]} takes {among} (got {got})"
        elif message.startswith("argument "):  # "argument --players: --players takes ..."
            head, _, rest = message.partition(": ")
            option = head.removeprefix("argument ").split("/")[0]
            message = rest if rest.startswith(option) else f"{option}: {rest}"
        raise UsageProblem(f"{self.prog}: {message}\nRun '{self.prog} --help' for the options.")


class _HelpAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        sys.stdout.write(help_text())
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m bot``."""
    common = _Parser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of a failure")
    p = _Parser(prog=PROG, description="The Panda Royale bot.", add_help=False)
    p.add_argument("-h", "--help", action=_HelpAction, help="list the commands")
    p.add_argument("--debug", action="store_true", default=False,
                   help="show the traceback of a failure")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    def command(name: str, what: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=what, description=what, parents=[common])

    command("run", "start the bot (the default; the demo when no token is set)")
    sync = command("sync", "sync the slash commands with Discord")
    sync.add_argument("--guild", type=_whole("--guild", 1), default=None,
                      help="sync to one guild (server) only: instant")
    command("invite", "print the invite link of the bot, with the permissions it needs")

    games = tuple(KINDS)
    players_help = "players: " + ", ".join(f"{k.min_players} to {k.max_players} for {k.name}"
                                           for k in KINDS.values())
    demos = ", ".join(f"{k.demo.players} {k.name}" for k in KINDS.values() if k.demo)
    demo = command("demo", "one game of computer players in the terminal")
    demo.add_argument("--game", choices=games, default=ROYALE.name)
    demo.add_argument("--players", type=_whole("--players"), default=None,
                      help=f"{players_help} (default {demos})")
    demo.add_argument("--seed", type=_whole("--seed", 0), default=None)
    demo.add_argument("--ai", type=_ai, default=["heuristic"],
                      help="heuristic or random, or one per seat: heuristic,random,random,random")
    add_rule_options(demo)

    sim = command("simulate", "many headless games and their game log")
    sim.add_argument("--game", choices=games, default=ROYALE.name)
    sim.add_argument("--players", type=_whole("--players"), default=4,
                     help=f"{players_help} (default 4)")
    sim.add_argument("--games", type=_whole("--games", 0), default=100)
    sim.add_argument("--seed", type=_whole("--seed", 0), default=1)
    sim.add_argument("--ai", type=_ai, default=["heuristic"],
                     help="heuristic or random, or one per seat: heuristic,random,random,random")
    add_rule_options(sim)
    sim.add_argument("--log", type=Path, default=None, help="write the JSON Lines game log")
    sim.add_argument("--jobs", type=_whole("--jobs", 1), default=None,
                     help="processes to play the games on (default: this machine's cores); "
                          "the log is the same whatever the number")

    val = command("validate", "check JSON Lines game logs: replay and rules")
    val.add_argument("files", nargs="+", type=Path, metavar="FILE.jsonl")
    val.add_argument("--allow-unfinished", action="store_true",
                     help="a game whose log stops before game_end is not a problem")
    val.add_argument("-v", "--verbose", action="store_true",
                     help="list every problem of each invalid game, not only the first")

    bench = command("bench", "engine speed: full games per second")
    bench.add_argument("--games", type=_whole("--games", 1), default=2000)
    bench.add_argument("--seed", type=_whole("--seed", 0), default=1)
    bench.add_argument("--game", choices=games, default=None)
    bench.add_argument("--no-startup", action="store_true",
                       help="skip the start-up time of simulate (a subprocess)")

    command("health", "exit 0 if the running bot's heartbeat (HEALTH_FILE) is fresh")
    helper = command("help", "list the commands, or show one command's options")
    helper.add_argument("topic", nargs="?", default=None, metavar="COMMAND")

    forget = command("forget-user", "forget a Discord user in every server: their results,"
                     " ratings and totals deleted, their seats given a pseudonym")
    forget.add_argument("user_id", metavar="ID")
    db = command("db", "database tools: db copy SOURCE TARGET [--force], db purge [--dry-run]")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    copy = db_sub.add_parser("copy", help="copy every game, result and rating to another "
                             "database (SQLite file or postgresql:// URL) and check it")
    copy.add_argument("source", metavar="SQLITE_PATH")
    copy.add_argument("target", metavar="POSTGRES_URL")
    copy.add_argument("--force", action="store_true", help="replace the target's data")
    purge = db_sub.add_parser("purge", help="delete the data of servers that removed the bot "
                              "longer ago than GUILD_RETENTION_DAYS")
    purge.add_argument("--dry-run", action="store_true",
                       help="only show what would be deleted")
    return p


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The sub-parsers by command name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}  # pragma: no cover


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser, out: TextIO) -> int:
    cmd = args.command or "run"
    if cmd == "help":
        if args.topic is None:
            out.write(help_text())
            return 0
        choices = _commands(parser)
        if args.topic not in choices:
            raise UsageProblem(f"no command {args.topic!r}: choose from {', '.join(choices)}")
        out.write(choices[args.topic].format_help())
        return 0
    if cmd == "demo":
        return _demo(args, out)
    if cmd == "simulate":
        return _simulate(args, out)
    if cmd == "validate":
        return _validate(args.files, args.allow_unfinished, args.verbose, out)
    if cmd == "bench":
        from bot.sim.bench import run_bench

        run_bench(games=args.games, seed=args.seed, out=out, only=args.game,
                  startup=not args.no_startup)
        return 0
    if cmd == "run":
        return _run(out)
    if cmd == "db" and args.db_command == "copy":
        from storage.copy import run_copy_command

        return run_copy_command(args.source, args.target, args.force, out)
    from bot.settings import load_settings

    settings = load_settings()
    if cmd == "db":
        from bot.privacy_cli import purge

        return purge(settings, args.dry_run, out)
    if cmd == "forget-user":
        from bot.privacy_cli import forget_user

        return forget_user(settings, args.user_id, out)
    if cmd == "sync":
        from bot.app import sync_commands

        return sync_commands(settings, guild_id=args.guild)
    if cmd == "invite":
        from bot.invite import invite_text

        out.write(invite_text(settings))
        return 0
    if cmd == "health":
        from bot.health import check_health

        code, line = check_health(settings.health_file)
        out.write(line + "\n")
        return code
    raise UsageProblem(f"{PROG}: unknown command {cmd!r}")  # pragma: no cover - argparse refuses


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    """Run one command; returns the exit code.

    Output goes to ``out`` (stdout); failures to ``err`` (stderr, or ``out`` when only ``out``
    is given). A bad argument raises ``SystemExit(2)`` after its message, as argparse does.
    """
    err = err or (out if out is not None else sys.stderr)
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageProblem as problem:
        err.write(problem.message + "\n")
        raise SystemExit(USAGE) from None
    try:
        return _dispatch(args, parser, out)
    except Problem as problem:
        _trace(problem, debug, err)
        if isinstance(problem, UsageProblem) and "\n" not in problem.message:
            cmd = args.command or "run"
            err.write(f"{PROG} {cmd}: {problem.message}\n"
                      f"Run '{PROG} {cmd} --help' for the options.\n")
        else:
            err.write(problem.message + "\n")
        return problem.code
    except RulesError as exc:
        _trace(exc, debug, err)
        err.write(f"{PROG} {args.command or 'run'}: {exc.message}\n")
        return USAGE
    except KeyboardInterrupt:
        err.write("Interrupted.\n")
        return 130
    except Exception as exc:
        _trace(exc, debug, err)
        err.write(f"Unexpected error: {type(exc).__name__}: {exc}\n"
                  f"This is a bug: run the command again with --debug and report what it "
                  "prints.\n")
        return 1


def _trace(exc: BaseException, debug: bool, err: TextIO) -> None:
    """The traceback: in the log at DEBUG, and on ``err`` with --debug."""
    log.debug("%s failed", type(exc).__name__, exc_info=exc)
    if debug:
        err.write("".join(traceback.format_exception(exc)))
