"""Play whole games between computer players (headless): the simulator, demo and bench."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.api import Event
from bot.rules.registry import GameKind

AI_NAMES = ("heuristic", "random")


def ai_seed(game_seed: int, seat: int) -> int:
    """The seed of a seat's computer player in a game (distinct from the game's own)."""
    return game_seed * 1_000 + 500 + seat


@dataclass(slots=True)
class Played:
    """One finished game."""

    state: Any
    events: list[Event]
    actions: list[Any]
    totals: list[int]
    winners: list[int]


def play_game(
    kind: GameKind[Any, Any],
    players: Sequence[str],
    seed: int,
    ai: Sequence[str],
    options: Mapping[str, Any] | None = None,
    *,
    keep_events: bool = True,
) -> Played:
    """Play one game; seat i is played by ``ai[i % len(ai)]``."""
    engine = kind.engine
    state, first = engine.new_game(players, seed, options)
    events = list(first)
    bots = [kind.make_player(ai[i % len(ai)], ai_seed(seed, i)) for i in range(len(players))]
    actions: list[Any] = []
    current = engine.current_seat
    step = engine.apply_in_place
    while (seat := current(state)) is not None:
        action = bots[seat].choose(state)
        new = step(state, action)
        if keep_events:
            actions.append(action)
            events.extend(new)
    return Played(state, events if keep_events else [], actions, engine.totals(state),
                  engine.winners(state))
