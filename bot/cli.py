"""The command line: ``python -m bot [run|sync|invite|demo|validate|health|db|...]``.

The game kinds, their seats, options (one ``--NAME`` per rule option), computer players and
demos come from the registry (:mod:`bot.rules.registry`).

Every failure ends in one or two plain lines on stderr that say what went wrong and what to do:
exit code 2 for a usage error, 1 for a failure at run time, never a traceback (the global
``--debug`` flag, or LOG_LEVEL=DEBUG, shows it). What a command needs beyond the registry (the
settings, the service, storage, Discord) is imported when it runs: ``demo`` starts fast. The
developer commands on the engine alone (``./dev simulate``, ``./dev bench``) are
:mod:`tools.sim`, built from this module's parser and error path.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import re
import sys
import traceback
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from bot.problems import USAGE, Problem, UsageProblem
from bot.rules.errors import RulesError
from bot.rules.registry import KINDS, GameKind, default_kind, kind_of
from bot.sim.runner import AI_NAMES

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger("bot.cli")

PROG = os.environ.get("PANDA_PROG", "python -m bot")
"""How the person typed the command (``./dev`` sets PANDA_PROG=./dev)."""

# One line per command, for `help` and `--help`.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("run", "start the bot (the default; a demo game when no DISCORD_TOKEN is set)"),
    ("sync [--guild ID]", "register the slash commands with Discord (a guild: instantly)"),
    ("invite", "print the links that add the bot to a server and the app to your account"),
    ("demo", "one game of computer players in the terminal"),
    ("validate FILE.jsonl", "check game logs: replay each game and check every rule"),
    ("health", "exit 0 if the running bot's heartbeat is fresh (the container's check)"),
    ("db copy SOURCE TARGET", "copy a database (SQLite file -> postgresql:// URL) and check it"),
    ("db purge [--dry-run]", "delete the data of servers that removed the bot past the retention"),
    ("forget-user ID", "forget a Discord user everywhere (a deleted account, a request by mail)"),
    ("help [COMMAND]", "this list, or one command's options"),
)
DEV_COMMANDS: tuple[tuple[str, str], ...] = (
    ("test [ARGS]", "the test suite (pytest; ARGS go to pytest)"),
    ("lint", "ruff, mypy and the import contracts (lint-imports)"),
    ("simulate", "many headless games, their JSON Lines game log and a one-line summary"),
    ("bench", "engine speed: full games per second (one core)"),
    ("crash-drill", "kill the game service at random points, check nothing was lost"),
    ("bench-bot", "the bot's latency, requests, memory and start-up time in a simulated Discord"),
    ("i18n-extract", "rebuild ui/locales/messages.pot from the code, update every language's .po"),
    ("i18n-check", "check every message catalogue (complete, placeholders, plurals, limits)"),
    ("discord-spec", "vendor Discord's OpenAPI description, which the tests hold requests to"),
)

GO_LIVE = """\
No DISCORD_TOKEN is set, so here is a demo game instead.

To go live:
  1. Create an application at https://discord.com/developers/applications, add a Bot,
     and copy its token (Bot > Reset Token).
  2. Put it in .env (copy .env.example) as DISCORD_TOKEN=..., or export it.
  3. ./dev invite   print the link that adds the bot to your server (with the permissions it
                    needs), the one that adds the app to your own account, and the Developer
                    Portal settings both need
  4. ./dev sync     register the slash commands (./dev sync --guild ID: one server, instantly)
  5. ./dev run      start the bot
"""

DEMO_DONE = ("That was the demo. To go live: put DISCORD_TOKEN in .env, then ./dev invite, "
             "./dev sync and ./dev run (steps at the top).")


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


# ---------------------------------------------------------------------- the parser


class Parser(argparse.ArgumentParser):
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


def whole(option: str, minimum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number, at least ``minimum``."""
    least = f" of {minimum} or more" if minimum is not None else ""

    def parse(text: str) -> int:
        try:
            value: int | None = int(text.strip())
        except ValueError:
            value = None
        if value is None or (minimum is not None and value < minimum):
            raise argparse.ArgumentTypeError(f"{option} takes a whole number{least} (got {text!r})")
        return value

    parse.__name__ = option
    return parse


def _ai(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",") if p.strip()]
    bad = [n for n in names if n not in AI_NAMES]
    if not names or bad:
        got = f" (got {', '.join(bad)})" if bad else ""
        raise argparse.ArgumentTypeError(f"--ai takes {' or '.join(AI_NAMES)}, or one per seat "
                                         f"comma-separated like heuristic,random{got}")
    return names


def rule_options() -> dict[str, tuple[str, ...]]:
    """Every rule option of a registered kind (one ``--NAME`` each), with the choices any
    kind gives it, in the registry's order.
    """
    options: dict[str, list[str]] = {}
    for kind in KINDS.values():
        for name, choices in kind.rule_options.items():
            known = options.setdefault(name, [])
            known += [c for c in choices if c not in known]
    return {name: tuple(choices) for name, choices in options.items()}


def kinds_with(option: str) -> list[str]:
    """The kinds whose rules have ``option``."""
    return [k.name for k in KINDS.values() if option in k.rule_options]


def _choices(option: str, choices: Sequence[str]) -> Callable[[str], list[str]]:
    """An argparse type: some of ``choices``, comma-separated (``none``: none), in the order
    of ``choices``.
    """

    def parse(text: str) -> list[str]:
        names = [p for p in (x.strip() for x in text.split(",")) if p and p.lower() != "none"]
        bad = [n for n in names if n.lower() not in choices]
        if bad:
            raise argparse.ArgumentTypeError(
                f"--{option} takes any of {','.join(choices)} (or none), comma-separated "
                f"(got {', '.join(bad)})")
        wanted = {n.lower() for n in names}
        return [c for c in choices if c in wanted]

    parse.__name__ = f"--{option}"
    return parse


def game_options(parser: argparse.ArgumentParser, *, players: int | None, players_help: str,
                  seed: int | None, games: bool) -> None:
    """The options ``demo`` and ``simulate`` share: the game, its seats (``--games`` after
    them if ``games``), the seed, its computer players and one ``--NAME`` for each rule option
    of the registered kinds (``--expansions``).
    """
    parser.add_argument("--game", choices=tuple(KINDS), default=default_kind().name)
    seats = ", ".join(f"{k.min_players} to {k.max_players} for {k.name}" for k in KINDS.values())
    parser.add_argument("--players", type=whole("--players"), default=players,
                        help=f"players: {seats} (default {players_help})")
    if games:
        parser.add_argument("--games", type=whole("--games", 0), default=100)
    parser.add_argument("--seed", type=whole("--seed", 0), default=seed)
    parser.add_argument("--ai", type=_ai, default=["heuristic"],
                        help="heuristic or random, or one per seat: heuristic,random,random,random")
    for name, choices in rule_options().items():
        parser.add_argument(f"--{name}", type=_choices(name, choices), default=[],
                            dest=f"rule_{name}", metavar=name.upper(),
                            help=f"{' or '.join(kinds_with(name))} only: any of "
                                 f"{','.join(choices)}")


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m bot``."""
    common = Parser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of a failure")
    p = Parser(prog=PROG, description="The Panda Royale bot.", add_help=False)
    p.add_argument("-h", "--help", action=_HelpAction, help="list the commands")
    p.add_argument("--debug", action="store_true", default=False,
                   help="show the traceback of a failure")
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")

    def command(name: str, what: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=what, description=what, parents=[common])

    command("run", "start the bot (the default; the demo when no token is set)")
    sync = command("sync", "sync the slash commands with Discord")
    sync.add_argument("--guild", type=whole("--guild", 1), default=None,
                      help="sync to one guild (server) only: instant")
    command("invite", "print the server and the user install links, and the portal settings")

    demos = ", ".join(f"{k.demo.players} {k.name}" for k in KINDS.values() if k.demo)
    game_options(command("demo", "one game of computer players in the terminal"),
                  players=None, players_help=demos, seed=None, games=False)
    val = command("validate", "check JSON Lines game logs: replay and rules")
    val.add_argument("files", nargs="+", type=Path, metavar="FILE.jsonl")
    val.add_argument("--allow-unfinished", action="store_true",
                     help="a game whose log stops before game_end is not a problem")
    val.add_argument("-v", "--verbose", action="store_true",
                     help="list every problem of each invalid game, not only the first")

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


# ---------------------------------------------------------------------- checks after parsing


def game_setup(args: argparse.Namespace, players: int) -> dict[str, list[str]]:
    """Check the game's seats, computer players and rule options against its registry entry;
    the game's rule options from the ``--NAME`` options given (each option of its rules, empty
    when not given). A ``--NAME`` its rules do not have is refused, and so is a computer player
    of the other game (``--ai optimal`` for Panda Royale).
    """
    kind = kind_of(args.game)
    if not kind.min_players <= players <= kind.max_players:
        raise UsageProblem(f"--players: {kind.title} is for {kind.min_players} to "
                           f"{kind.max_players} players (got {players})")
    if len(args.ai) not in (1, players):
        raise UsageProblem(f"--ai names {len(args.ai)} computer players for {players} seats: "
                           "give one name for every seat, or a single name for all of them")
    bad = [n for n in args.ai if n not in kind.player_names]
    if bad:
        raise UsageProblem(f"--ai for {kind.name} takes {', '.join(kind.player_names)}, "
                           f"not {', '.join(bad)}")
    rules: dict[str, list[str]] = {}
    for name in rule_options():
        value: list[str] = getattr(args, f"rule_{name}", [])
        if name not in kind.rule_options:
            if value:
                raise UsageProblem(f"--{name} is for --game {' or '.join(kinds_with(name))} "
                                   f"only ({kind.title} has none)")
            continue
        bad = [v for v in value if v not in kind.rule_options[name]]
        if bad:
            raise UsageProblem(f"--{name} for {kind.name} takes any of "
                               f"{','.join(kind.rule_options[name])}, not {', '.join(bad)}")
        rules[name] = value
    return rules


# ---------------------------------------------------------------------- the commands


def _seed() -> int:
    import secrets

    return secrets.randbelow(1_000_000)


def _validate(args: argparse.Namespace, out: TextIO) -> int:
    """Validate each file; one line per invalid game, then the summary. 0 if all valid.

    A file that cannot be read, is empty, or holds no game is one line and makes the exit code 1.
    """
    from bot.rules.validate import GameReport, ValidationReport, validate_lines

    files: list[Path] = args.files
    games: list[GameReport] = []
    problems: list[str] = []
    for path in files:
        name = f"{path}: " if len(files) > 1 else ""
        try:
            with path.open(encoding="utf-8", errors="replace") as fh:
                report = validate_lines(fh, allow_unfinished=args.allow_unfinished)
        except OSError as exc:
            problems.append(f"{path}: cannot read ({exc.strerror or exc})")
            out.write(f"{problems[-1]}\n")
            continue
        if not report.games:
            problems.append(_no_game(path, report.problems))
            out.write(f"{problems[-1]}\n")
            continue
        for line in report.lines(verbose=args.verbose):
            out.write(f"{name}{line}\n")
        games.extend(report.games)
        problems.extend(report.problems)
    if not games:
        return 1
    total = ValidationReport(tuple(games), tuple(problems))
    out.write(total.summary() + "\n")
    return 0 if total.ok else 1


def _no_game(path: Path, problems: Sequence[str]) -> str:
    if not problems:
        return (f"{path}: no game in this file (it is empty): a game log is the JSON Lines "
                f"that simulate --log or /{default_kind().name} log write")
    return (f"{path}: no game in this file, it is not a JSON Lines game log ({problems[0]}; "
            f"{len(problems)} bad line{'s' if len(problems) != 1 else ''})")


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    kind = kind_of(args.game)
    if kind.demo is None:
        raise Problem(f"{kind.title} has no terminal demo: try simulate --game {kind.name}")
    players = args.players if args.players is not None else kind.demo.players
    rules = game_setup(args, players)
    seed = args.seed if args.seed is not None else _seed()
    _play_demo(kind, players=players, seed=seed, ai=args.ai, rules=rules, out=out)
    return 0


def _play_demo(kind: GameKind[Any, Any], *, players: int | None, seed: int, ai: Sequence[str],
               rules: dict[str, Any], out: TextIO) -> None:
    """Run the kind's terminal demo (its entry names it: the demos sit above the rules), with
    its own number of seats if ``players`` is None.
    """
    if kind.demo is None:  # pragma: no cover - the callers check
        raise Problem(f"{kind.title} has no terminal demo")
    module, _, function = kind.demo.runner.partition(":")
    run = getattr(importlib.import_module(module), function)
    run(players=kind.demo.players if players is None else players, seed=seed, ai=ai, out=out,
        **rules)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    settings = _settings()
    if not settings.has_token:
        kind = default_kind()
        out.write(GO_LIVE + "\n")
        _play_demo(kind, players=None, seed=_seed(), ai=["heuristic"],
                   rules={name: [] for name in kind.rule_options}, out=out)
        out.write("\n" + DEMO_DONE + "\n")
        return 0
    from bot.app import run_bot

    return run_bot(settings)


def _settings() -> Settings:
    from bot.settings import load_settings

    return load_settings()


def _sync(args: argparse.Namespace, out: TextIO) -> int:
    from bot.app import sync_commands

    return sync_commands(_settings(), guild_id=args.guild)


def _invite(args: argparse.Namespace, out: TextIO) -> int:
    from bot.invite import invite_text

    out.write(invite_text(_settings()))
    return 0


def _health(args: argparse.Namespace, out: TextIO) -> int:
    from bot.health import check_health

    code, line = check_health(_settings().health_file)
    out.write(line + "\n")
    return code


def _db(args: argparse.Namespace, out: TextIO) -> int:
    if args.db_command == "copy":
        return _copy(args.source, args.target, args.force, out)
    return _on_storage(_purge(_settings(), args.dry_run, out), out)


def _copy(source: str, target: str, force: bool, out: TextIO) -> int:
    """``db copy SOURCE TARGET [--force]``: one line out; 0 ok, 1 failed or refused, 2 bad
    arguments.
    """
    from storage import StorageError
    from storage.copy import copy_database
    from storage.postgres import is_postgres_url, redact

    if not is_postgres_url(source) and not Path(source).is_file():
        out.write(f"error: no SQLite database at {source}\n")
        return 2
    try:
        report = asyncio.run(copy_database(source, target, force))
    except StorageError as error:
        out.write(f"error: {error}\n")
        return 1
    except (OSError, ValueError) as error:
        out.write(f"error: {error}\n")
        return 2
    names = [redact(t) if is_postgres_url(t) else t for t in (source, target)]
    out.write(f"{report.summary()} ({names[0]} -> {names[1]})\n")
    return 0


def _forget_user(args: argparse.Namespace, out: TextIO) -> int:
    """``forget-user ID``: 0 done, 1 failed, 2 not a Discord user id."""
    settings = _settings()
    user_id: str = args.user_id
    if not user_id.isdigit() or not 0 < int(user_id) < 2**64:
        out.write(f"error: {user_id[:40]!r} is not a Discord user id (digits only)\n")
        return 2
    return _on_storage(_forget(settings, int(user_id), out), out)


def _on_storage(work: Coroutine[Any, Any, int], out: TextIO) -> int:
    """Run a command on the bot's database: a storage error is one line and exit code 1."""
    from storage import StorageError

    try:
        return asyncio.run(work)
    except StorageError as error:
        out.write(f"error: {error}\n")
        return 1


def _rows(counts: dict[str, int]) -> str:
    return ", ".join(f"{table} {n}" for table, n in sorted(counts.items()) if n) or "no rows"


async def _forget(settings: Settings, user_id: int, out: TextIO) -> int:
    from bot.service import GameService, PersonalData
    from storage import open_database

    async with await open_database(settings.database_target) as db:
        service = GameService(db)
        privacy = PersonalData(db, service, retention_days=settings.guild_retention_days)
        try:
            gone = await privacy.forget(user_id)
        finally:
            await service.close()
    if not any(gone.rows.values()) and not gone.stood_in and not gone.lobbies:
        out.write(f"nothing is held about user {user_id}\n")
        return 0
    out.write(f"user {user_id} forgotten: now {gone.pseudonym} ({_rows(gone.rows)});"
              f" {len(gone.stood_in)} game(s) in play go on with the computer in their seat,"
              f" {len(gone.lobbies)} lobby(ies) left or closed\n")
    return 0


async def _purge(settings: Settings, dry_run: bool, out: TextIO) -> int:
    """``db purge [--dry-run]``: the data of servers that removed the bot longer ago than
    ``GUILD_RETENTION_DAYS``.
    """
    from bot.service import GameService, PersonalData
    from storage import open_database

    async with await open_database(settings.database_target) as db:
        service = GameService(db)
        privacy = PersonalData(db, service, retention_days=settings.guild_retention_days)
        try:
            due = await privacy.purge(dry_run=dry_run)
            kept = len(await privacy.departures())
        finally:
            await service.close()
    verb = "would delete" if dry_run else "deleted"
    for guild_id, counts in due.items():
        out.write(f"server {guild_id}: {verb} {_rows(counts)}\n")
    waiting = kept - len(due) if dry_run else kept
    out.write(f"{len(due)} server(s) past the {settings.guild_retention_days}-day retention"
              f" ({verb} their data); {waiting} other server(s) that removed the bot are kept"
              " until theirs runs out\n")
    return 0


_RUNNERS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "run": _run, "sync": _sync, "invite": _invite, "demo": _demo, "validate": _validate,
    "health": _health, "db": _db,
    "forget-user": _forget_user,
}
"""Each command's runner (``help`` is :func:`_dispatch`'s own)."""


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser, out: TextIO) -> int:
    cmd = args.command or "run"
    if cmd != "help":
        return _RUNNERS[cmd](args, out)
    if args.topic is None:
        out.write(help_text())
        return 0
    choices = next(dict(a.choices) for a in parser._actions
                   if isinstance(a, argparse._SubParsersAction))
    if args.topic not in choices:
        raise UsageProblem(f"no command {args.topic!r}: choose from {', '.join(choices)}")
    out.write(choices[args.topic].format_help())
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    """Run one command of ``python -m bot``; returns the exit code (see :func:`run_command`)."""
    parser = build_parser()
    return run_command(parser, lambda args, out: _dispatch(args, parser, out), argv, out, err)


Dispatch = Callable[[argparse.Namespace, TextIO], int]
"""Runs the parsed command, writing to the given output; returns the exit code."""


def run_command(parser: argparse.ArgumentParser, dispatch: Dispatch,
                argv: Sequence[str] | None = None, out: TextIO | None = None,
                err: TextIO | None = None) -> int:
    """Parse ``argv`` with ``parser`` and run the command ``dispatch`` picks; returns the exit
    code, every failure told in one or two lines.

    Output goes to ``out`` (stdout); failures to ``err`` (stderr, or ``out`` when only ``out``
    is given). A bad argument raises ``SystemExit(2)`` after its message, as argparse does.
    """
    err = err or (out if out is not None else sys.stderr)
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        args = parser.parse_args(argv)
    except UsageProblem as problem:
        err.write(problem.message + "\n")
        raise SystemExit(USAGE) from None
    try:
        return dispatch(args, out)
    except Problem as problem:
        _trace(problem, debug, err)
        if isinstance(problem, UsageProblem) and "\n" not in problem.message:
            cmd = args.command or "run"
            err.write(f"{parser.prog} {cmd}: {problem.message}\n"
                      f"Run '{parser.prog} {cmd} --help' for the options.\n")
        else:
            err.write(problem.message + "\n")
        return problem.code
    except RulesError as exc:
        _trace(exc, debug, err)
        err.write(f"{parser.prog} {args.command or 'run'}: {exc.message}\n")
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
