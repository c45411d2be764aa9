"""What the validator found: one report per game, and the whole file's counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

MAX_PROBLEMS = 25
"""Problems listed per game; the rest are counted in one last line."""


@dataclass(frozen=True, slots=True)
class GameReport:
    """The verdict on one game of the log.

    ``kind`` is the ``game_kind`` of its ``setup`` event (``"unknown"`` without one).
    ``totals`` are the validator's own count (each player's sum of round totals, or of fill
    points), in seat order; ``winners`` the players with the top total, once the game is
    complete. Every problem is a readable sentence naming the event index in the game (0 is
    ``setup``) and, when the log was read from lines, the line number.
    """

    game: str
    kind: str
    problems: tuple[str, ...]
    totals: dict[str, int]
    winners: tuple[str, ...]
    events: int
    complete: bool

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
        """How many games of each kind (``royale`` and ``posing`` first)."""
        counts = Counter(g.kind for g in self.games)
        order = ["royale", "posing", *sorted(k for k in counts if k not in ("royale", "posing"))]
        return {k: counts[k] for k in order if counts[k] or k in ("royale", "posing")}

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


class Problems:
    """The problems of one game, each prefixed with where it is.

    They are listed by event index (problems of no event first), at most MAX_PROBLEMS.
    """

    __slots__ = ("_items", "lines")

    def __init__(self, lines: list[int | None]) -> None:
        self._items: list[tuple[int, int, str]] = []
        self.lines = lines

    def where(self, index: int | None) -> str:
        if index is None:
            return ""
        line = self.lines[index] if 0 <= index < len(self.lines) else None
        return f"event {index}" + (f" (line {line})" if line is not None else "") + ": "

    def add(self, index: int | None, text: str) -> None:
        key = -1 if index is None else index
        self._items.append((key, len(self._items), self.where(index) + text))

    def after_end(self, index: int, name: str, rest: int) -> None:
        """Events at ``index`` and after come after the game's ``game_end``."""
        if name == "setup":
            self.add(index, "a second setup: the game id is used for two games (it must be "
                            f"unique in the file); the {rest} events from here are not checked")
        else:
            self.add(index, f"{rest} event(s) after game_end")

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def result(self) -> tuple[str, ...]:
        items = [text for _, _, text in sorted(self._items)]
        if len(items) > MAX_PROBLEMS:
            dropped = len(items) - MAX_PROBLEMS
            items = [*items[:MAX_PROBLEMS], f"... and {dropped} more problem(s)"]
        return tuple(items)
