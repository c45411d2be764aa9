"""A finished game again, step by step: the state after each round (Panda Royale) or each turn
(Posing Pandas), rebuilt from the game's log by its own engine.

:func:`replay_steps` starts the kind's engine from the log's ``setup`` and applies the
decisions the log records (the kind's ``log_checks``: the same reading of the log as the
validator's replay, the actions the log leaves out included). A step is over when each player's
event of the kind's :class:`~bot.rules.registry.Progress` for it has come (every ``score`` of
the round, every ``fill`` of the turn); its :class:`Frame` holds the state at that moment (the
engine's ``apply`` never changes a state it was given, so each frame keeps its own) and the
step's logged events. Pure: plain values in, plain values out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.registry import GameKind, LogObject


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a game: its number, the state once it was over, what the log says of it."""

    step: int
    """From 1: the round (Royale) or the turn (Posing)."""
    state: Any
    """The engine's state at the end of the step (up to the next decision)."""
    events: tuple[Any, ...]
    """The step's events, in order (those numbered with it): the logged objects, which the
    service reads back as the engine's events for the Discord layer (the kind's
    ``read_event``)."""


class ReplayError(ValueError):
    """A log the replay cannot follow (no setup, or a kind without steps)."""


def replay_steps(kind: GameKind[Any, Any], events: Sequence[LogObject]) -> list[Frame]:
    """The frames of a game of ``kind`` from its log objects (``events[0]`` its ``setup``, with
    the seed), one per step the log completes. A decision the engine refuses (a log it did not
    write) ends the replay there: the frames up to it are returned.
    """
    progress = kind.progress
    if progress is None:
        raise ReplayError(f"the game kind {kind.name!r} has no steps to replay")
    if not events or events[0].get("event") != "setup":
        raise ReplayError("a game log starts with its setup")
    setup = events[0]
    players = setup.get("players")
    seed = setup.get("seed")
    if not isinstance(players, list) or type(seed) is not int:
        raise ReplayError("the setup has no players and seed to replay")
    engine, checks = kind.engine, kind.log_checks
    scored: Counter[int] = Counter()
    ends: dict[int, Any] = {}

    def note(state: Any, produced: Sequence[Any]) -> None:
        for e in produced:
            obj = e.to_log()
            if obj.get("event") == progress.event:
                step = int(obj[progress.step])
                scored[step] += 1
                if scored[step] == len(players):
                    ends[step] = state

    try:
        state, produced = engine.new_game(players, seed, checks.options(setup))
        note(state, produced)
        for logged in events[1:]:
            action = checks.decision(logged, players)
            if action is None:
                continue
            while (before := checks.implicit(state, action)) is not None:
                state, produced = engine.apply(state, before)
                note(state, produced)
            state, produced = engine.apply(state, action)
            note(state, produced)
    except RulesError:
        pass
    by_step: dict[int, list[LogObject]] = {}
    for e in events:
        step = e.get(progress.step)
        if type(step) is int:
            by_step.setdefault(step, []).append(e)
    return [Frame(step, ends[step], tuple(by_step.get(step, ())))
            for step in sorted(ends)]
