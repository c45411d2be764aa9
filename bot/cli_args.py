"""The command line's argument checks (for :mod:`bot.cli`): the argparse types of the options,
and the checks made after parsing, where one option depends on another. A mistake is one line
that names the option (``argparse.ArgumentTypeError`` or :class:`UsageProblem`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from bot.problems import UsageProblem
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


def _expansions(text: str) -> list[str]:
    from bot.rules.royale.dice import EXPANSIONS
    from bot.rules.royale.engine import normalise_expansions

    names = [p for p in (x.strip() for x in text.split(",")) if p and p != "none"]
    try:
        return list(normalise_expansions(names))
    except Exception:
        bad = ", ".join(n for n in names if n.lower() not in EXPANSIONS) or repr(text)
        raise argparse.ArgumentTypeError(
            f"--expansions takes any of {','.join(EXPANSIONS)} (or none), comma-separated "
            f"(got {bad})") from None


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
    if game == "royale":
        from bot.rules.royale.dice import MAX_PLAYERS, MIN_PLAYERS

        name = "Panda Royale"
    else:
        from bot.rules.posing.poses import MAX_PLAYERS, MIN_PLAYERS

        name = "Posing Pandas"
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UsageProblem(f"--players: {name} is for {MIN_PLAYERS} to {MAX_PLAYERS} players "
                           f"(got {players})")


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


def _royale_only(game: str, expansions: Sequence[str]) -> None:
    if game != "royale" and expansions:
        raise UsageProblem("--expansions is for --game royale only (Posing Pandas has none)")
