"""The JSON Lines game log of docs/game-log.md, as pure functions (no file I/O here).

Engines produce events with ``to_log()``; these functions add the game id and serialise them.
The caller decides where the lines go (a file, a Discord attachment, SQLite).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from bot.rules.api import Event


def log_objects(game_id: str, events: Iterable[Event]) -> Iterator[dict[str, Any]]:
    """Each event as its docs/game-log.md object, tagged with ``game_id``."""
    for e in events:
        obj = e.to_log()
        obj["game"] = game_id
        yield obj


# json.dumps with these options would build a new encoder for every call; one is enough.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps_line(obj: dict[str, Any]) -> str:
    """One JSON Lines line (with its newline) for a log object."""
    return _encode(obj) + "\n"


def log_lines(game_id: str, events: Iterable[Event]) -> Iterator[str]:
    """The game log of ``events`` as JSON Lines, one line per event."""
    for obj in log_objects(game_id, events):
        yield dumps_line(obj)
