"""The command line's argument checks (for :mod:`bot.cli`): the argparse types of the options,
and the checks made after parsing, where one option depends on another. A mistake is one line
that names the option (``argparse.ArgumentTypeError`` or :class:`UsageProblem`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from bot.problems import UsageProblem
from bot.rules.registry import KINDS, kind_of
from bot.sim.runner import AI_NAMES

# ---------------------------------------------------------------------- argument types


def _whole(option: str, minimum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number, at least ``minimum``."""
    least = f" of {minimum} or more" if minimum is not None else ""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{option} takes a whole number{least} (got {text!r})") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"{option} takes a whole number{least} (got {text!r})")
        return value

    parse.__name__ = option
    return parse


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


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """One ``--NAME`` for each rule option of the registered kinds (``--expansions``)."""
    for name, choices in rule_options().items():
        parser.add_argument(f"--{name}", type=_choices(name, choices), default=[],
                            dest=f"rule_{name}", metavar=name.upper(),
                            help=f"{' or '.join(kinds_with(name))} only: any of "
                                 f"{','.join(choices)}")


def _ai(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",") if p.strip()]
    bad = [n for n in names if n not in AI_NAMES]
    if not names or bad:
        got = f" (got {', '.join(bad)})" if bad else ""
        raise argparse.ArgumentTypeError(f"--ai takes {' or '.join(AI_NAMES)}, or one per seat "
                                         f"comma-separated like heuristic,random{got}")
    return names


# ---------------------------------------------------------------------- checks after parsing


def _players(game: str, players: int) -> None:
    kind = kind_of(game)
    if not kind.min_players <= players <= kind.max_players:
        raise UsageProblem(f"--players: {kind.title} is for {kind.min_players} to "
                           f"{kind.max_players} players (got {players})")


def _seats(ai: Sequence[str], players: int) -> None:
    if len(ai) not in (1, players):
        raise UsageProblem(f"--ai names {len(ai)} computer players for {players} seats: give one "
                           "name for every seat, or a single name for all of them")


def _game_players(game: str, ai: Sequence[str]) -> None:
    """Refuse a computer player of the other game (``--ai optimal`` for Panda Royale)."""
    from bot.rules.levels import player_names

    ok = player_names(game)
    bad = [n for n in ai if n not in ok]
    if bad:
        raise UsageProblem(f"--ai for {game} takes {', '.join(ok)}, not {', '.join(bad)}")


def _rules(game: str, args: argparse.Namespace) -> dict[str, list[str]]:
    """The game's rule options from the ``--NAME`` options given (each option of its rules,
    empty when not given); a ``--NAME`` its rules do not have is refused.
    """
    kind = kind_of(game)
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
            raise UsageProblem(f"--{name} for {game} takes any of "
                               f"{','.join(kind.rule_options[name])}, not {', '.join(bad)}")
        rules[name] = value
    return rules
