"""Which of a Panda Royale game's logged events its message shows: :func:`recent_events`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

TAIL_LIMIT: Final = 160
"""Events kept before two rounds have ended (more than a first round logs)."""


def recent_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log objects of the round just finished and the current one (each round ends with
    ``draft_return``); before that, the last :data:`TAIL_LIMIT`.
    """
    ends = [i for i, e in enumerate(events) if e.get("event") == "draft_return"]
    if len(ends) >= 2:
        return list(events[ends[-2] + 1:])
    return list(events[-TAIL_LIMIT:])
