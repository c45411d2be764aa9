"""The command line's runners (for :mod:`bot.cli`): ``run`` (or the demo when no token is set),
``demo``, ``simulate`` and ``validate``, each returning the exit code; and the texts that say
how to go live.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.cli_args import _game_players, _players, _rules, _seats
from bot.problems import Problem
from bot.rules.registry import ROYALE, GameKind, kind_of

GO_LIVE = """\
No DISCORD_TOKEN is set, so here is a demo game instead.

To go live:
  1. Create an application at https://discord.com/developers/applications, add a Bot,
     and copy its token (Bot > Reset Token).
  2. Put it in .env (copy .env.example) as DISCORD_TOKEN=..., or export it.
  3. ./dev invite   print the link that adds the bot to your server with the permissions it
                    needs (View Channel, Send Messages, Embed Links, Attach Files,
                    Read Message History)
  4. ./dev sync     register the slash commands (./dev sync --guild ID: one server, instantly)
  5. ./dev run      start the bot
"""

DEMO_DONE = ("That was the demo. To go live: put DISCORD_TOKEN in .env, then ./dev invite, "
             "./dev sync and ./dev run (steps at the top).")


def _seed() -> int:
    import secrets

    return secrets.randbelow(1_000_000)


# ---------------------------------------------------------------------- commands


def _validate(files: Sequence[Path], allow_unfinished: bool, verbose: bool, out: TextIO) -> int:
    """Validate each file; one line per invalid game, then the summary. 0 if all valid.

    A file that cannot be read, is empty, or holds no game is one line and makes the exit code 1.
    """
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
        if not report.games:
            problems.append(_no_game(path, report.problems))
            out.write(f"{problems[-1]}\n")
            continue
        for line in report.lines(verbose=verbose):
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
                "that simulate --log or /royale log write")
    return (f"{path}: no game in this file, it is not a JSON Lines game log ({problems[0]}; "
            f"{len(problems)} bad line{'s' if len(problems) != 1 else ''})")


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    kind = kind_of(args.game)
    if kind.demo is None:
        raise Problem(f"{kind.title} has no terminal demo: try simulate --game {kind.name}")
    players = args.players if args.players is not None else kind.demo.players
    _players(args.game, players)
    _seats(args.ai, players)
    _game_players(args.game, args.ai)
    rules = _rules(args.game, args)
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


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    from bot.sim.simulate import simulate

    _players(args.game, args.players)
    _seats(args.ai, args.players)
    _game_players(args.game, args.ai)
    rules = _rules(args.game, args)
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


def _run(out: TextIO) -> int:
    from bot.settings import load_settings

    settings = load_settings()
    if not settings.has_token:
        out.write(GO_LIVE + "\n")
        _play_demo(ROYALE, players=None, seed=_seed(), ai=["heuristic"],
                   rules={name: [] for name in ROYALE.rule_options}, out=out)
        out.write("\n" + DEMO_DONE + "\n")
        return 0
    from bot.app import run_bot

    return run_bot(settings)
