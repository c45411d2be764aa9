"""The problems the validator finds in one game: :class:`Problems`."""

from __future__ import annotations

from typing import Final

MAX_PROBLEMS: Final = 25
"""Problems listed per game; the rest are counted in one last line."""


class Problems:
    """The problems of one game, each prefixed with where it is, by event index (no event first)."""

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

    def result(self) -> tuple[str, ...]:
        items = [text for _, _, text in sorted(self._items)]
        if len(items) > MAX_PROBLEMS:
            dropped = len(items) - MAX_PROBLEMS
            items = [*items[:MAX_PROBLEMS], f"... and {dropped} more problem(s)"]
        return tuple(items)
