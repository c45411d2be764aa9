"""What the validator found: one report per game, and the whole file's counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# The module, not its names: the registry imports each kind's log checks from this package.
from bot.rules import registry


@dataclass(frozen=True, slots=True)
class GameReport:
    """The verdict on one game of the log.

    ``kind`` is the ``game_kind`` of its ``setup`` event (``"unknown"`` without one). Every
    problem is a readable sentence naming the event index in the game (0 is ``setup``) and,
    when the log was read from lines, the line number.
    """

    game: str
    kind: str
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every game of a log, in the order their first event appears, and the file's problems.

    ``problems`` are those that belong to no game: malformed JSON lines, objects that are not
    JSON objects or have no ``game``.
    """

    games: tuple[GameReport, ...]
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems and all(g.ok for g in self.games)

    @property
    def invalid(self) -> tuple[GameReport, ...]:
        return tuple(g for g in self.games if not g.ok)

    @property
    def by_kind(self) -> dict[str, int]:
        """How many games of each kind: every registered kind (none too) in the registry's
        order, then the kinds the registry does not know.
        """
        counts = Counter(g.kind for g in self.games)
        known = list(registry.KINDS)
        return {k: counts[k] for k in [*known, *sorted(set(counts) - set(known))]}

    def summary(self) -> str:
        """One line: ``validated 200 games (royale 150, posing 50): all valid``."""
        kinds = ", ".join(f"{k} {n}" for k, n in self.by_kind.items())
        n = len(self.games)
        head = f"validated {n} game{'s' if n != 1 else ''} ({kinds})"
        bad = len(self.invalid)
        tail = [f"{bad} invalid"] if bad else []
        if self.problems:
            tail.append(f"{len(self.problems)} problem{'s' if len(self.problems) != 1 else ''} "
                        "outside any game")
        return f"{head}: {', '.join(tail) if tail else 'all valid'}"

    def lines(self, *, verbose: bool = False) -> list[str]:
        """One line per problem outside games and per invalid game (its first problem; with
        ``verbose``, every problem follows on its own indented line).
        """
        out = list(self.problems)
        for g in self.invalid:
            more = f" (+{len(g.problems) - 1} more)" if len(g.problems) > 1 else ""
            out.append(f"game {g.game} ({g.kind}): {g.problems[0]}{more}")
            if verbose:
                out.extend(f"    {p}" for p in g.problems[1:])
        return out
