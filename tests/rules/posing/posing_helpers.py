"""Shared helpers of the Posing Pandas tests: playing whole games with computer players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.posing.actions import PosingAction
from bot.rules.posing.engine import apply_in_place, current_seat, legal_actions, new_game
from bot.rules.posing.events import PosingEvent
from bot.rules.posing.state import PosingState
from bot.rules.registry import POSING
from bot.sim.demo_posing import PANDA_NAMES

NAMES = PANDA_NAMES


def names(n: int) -> list[str]:
    """``n`` distinct player ids."""
    return list(NAMES[:n])


def play(
    n: int,
    seed: int,
    ai: Sequence[str] = ("random",),
    *,
    ai_seed: int = 0,
    check_legal: bool = False,
) -> tuple[PosingState, list[PosingEvent], list[PosingAction]]:
    """Play a whole game, seat i played by ``ai[i % len(ai)]``; returns state, events, actions."""
    state, events = new_game(names(n), seed)
    bots = [POSING.make_player(ai[i % len(ai)], ai_seed * 100 + i) for i in range(n)]
    actions: list[PosingAction] = []
    while (seat := current_seat(state)) is not None:
        action = bots[seat].choose(state)
        if check_legal:
            assert action in legal_actions(state), action
        actions.append(action)
        events.extend(apply_in_place(state, action))
    return state, events, actions


def logs(events: Sequence[PosingEvent]) -> list[dict[str, Any]]:
    """The events as docs/game-log.md objects."""
    return [e.to_log() for e in events]
