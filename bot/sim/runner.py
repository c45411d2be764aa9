"""Play whole games between computer players (headless): the simulator, demo and bench."""

from __future__ import annotations

import time
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.api import Event
from bot.rules.registry import KINDS, GameKind

AI_NAMES = tuple(dict.fromkeys(name for kind in KINDS.values() for name in kind.player_names))
"""Every computer player name of any game: the levels, then the engines' names."""


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
    timings: MutableMapping[str, list[float]] | None = None,
) -> Played:
    """Play one game; seat i is played by ``ai[i % len(ai)]``.

    With ``timings``, the seconds each decision took (``choose``, timed here: the engines keep
    no clock) are appended to ``timings[ai name]``.
    """
    engine = kind.engine
    state, first = engine.new_game(players, seed, options, keep_events)
    events = list(first)
    seat_names = [ai[i % len(ai)] for i in range(len(players))]
    bots = [kind.make_player(name, ai_seed(seed, i)) for i, name in enumerate(seat_names)]
    actions: list[Any] = []
    current = engine.current_seat
    step = engine.apply_in_place
    clock = time.perf_counter
    times = None if timings is None else [timings.setdefault(name, []) for name in seat_names]
    while (seat := current(state)) is not None:
        if times is None:
            action = bots[seat].choose(state)
        else:
            started = clock()
            action = bots[seat].choose(state)
            times[seat].append(clock() - started)
        if keep_events:
            actions.append(action)
            events.extend(step(state, action))
        else:
            step(state, action, False)
    return Played(state, events, actions, engine.totals(state), engine.winners(state))
