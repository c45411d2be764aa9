"""Which of a Posing Pandas game's logged events its message shows: :func:`recent_events`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

TAIL_LIMIT: Final = 160
"""Events kept: the last turns of every player (a turn logs at most four)."""


def recent_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last :data:`TAIL_LIMIT` log objects (the message shows the last turns)."""
    return list(events[-TAIL_LIMIT:])
