"""The JSON Lines game log of docs/game-log.md, as pure functions (no file I/O here).

:func:`log_lines` writes events as the log's lines; :func:`log_objects` gives their objects to
callers that keep objects (the service). The caller decides where the lines go (a file, a
Discord attachment, SQLite).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from bot.rules.api import Event

# json.dumps with these options would build a new encoder for every call; one is enough.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class Quoted(dict[str, str]):
    """Each text's JSON string, made on first use (player ids, die ids, option names)."""

    def __missing__(self, text: str) -> str:
        if len(self) > 100_000:  # many games' player ids: start again rather than grow
            self.clear()
        quoted = self[text] = _encode(text)
        return quoted


_QUOTED = Quoted()


def log_objects(game_id: str, events: Iterable[Event]) -> Iterator[dict[str, Any]]:
    """Each event as its docs/game-log.md object, tagged with ``game_id``."""
    for e in events:
        obj = e.to_log()
        obj["game"] = game_id
        yield obj


def dumps_line(obj: dict[str, Any]) -> str:
    """One JSON Lines line (with its newline) for a log object."""
    return _encode(obj) + "\n"


def log_lines(game_id: str, events: Iterable[Event]) -> Iterator[str]:
    """The game log of ``events`` as JSON Lines: each line as :func:`dumps_line` writes it."""
    tail = f',"game":{_encode(game_id)}}}\n'
    quoted = _QUOTED
    for e in events:
        yield e.log_line(quoted, tail)
