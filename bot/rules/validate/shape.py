"""The shape of each docs/game-log.md event: its required keys and their JSON types.

Extra keys are allowed (docs/game-log.md). Here, the checks every kind's schema is made of;
each kind's schema is in its log checks (:mod:`.royale_log`, :mod:`.posing_log`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Check = Callable[[Any, Sequence[str]], str | None]
Schema = dict[str, tuple[tuple[str, Check, bool], ...]]
"""(key, check, required) per event name; a missing optional key is fine."""


def INT(v: Any, players: Sequence[str]) -> str | None:
    """A whole number."""
    return None if type(v) is int else "must be a whole number"


def STR(v: Any, players: Sequence[str]) -> str | None:
    """Non-empty text."""
    return None if isinstance(v, str) and v else "must be non-empty text"


def PLAYER(v: Any, players: Sequence[str]) -> str | None:
    """One of the game's player ids."""
    if not isinstance(v, str):
        return "must be a player id (text)"
    return None if v in players else f"{v!r} is not a player of this game"


def list_of(item: Check) -> Check:
    """A check of a list whose every item passes ``item``."""
    def check(v: Any, players: Sequence[str]) -> str | None:
        if not isinstance(v, list):
            return "must be a list"
        for i, x in enumerate(v):
            err = item(x, players)
            if err:
                return f"item {i}: {err}"
        return None

    return check


def by_player(value: Check, *, every: bool) -> Check:
    """An object keyed by player ids (all of them if ``every``)."""

    def check(v: Any, players: Sequence[str]) -> str | None:
        if not isinstance(v, dict):
            return "must be an object keyed by player"
        for k, x in v.items():
            if k not in players:
                return f"{k!r} is not a player of this game"
            err = value(x, players)
            if err:
                return f"{k}: {err}"
        if every and len(v) != len(players):
            missing = [p for p in players if p not in v]
            return f"has no entry for {', '.join(missing)}"
        return None

    return check


def one_of(*allowed: str) -> Check:
    """A check of a string that must be one of ``allowed``."""
    def check(v: Any, players: Sequence[str]) -> str | None:
        return None if v in allowed else f"must be one of {', '.join(allowed)}"

    return check


def PLAYERS(v: Any, players: Sequence[str]) -> str | None:
    """A non-empty list of distinct player ids."""
    if not isinstance(v, list) or not v:
        return "must be a non-empty list of player ids"
    if not all(isinstance(p, str) and p for p in v):
        return "must hold non-empty text ids"
    return None if len(set(v)) == len(v) else "names a player twice"


def PLAYER_LIST(v: Any, players: Sequence[str]) -> str | None:
    """A list of the game's player ids."""
    if not isinstance(v, list):
        return "must be a list of player ids"
    for p in v:
        err = PLAYER(p, players)
        if err:
            return err
    return None if len(set(v)) == len(v) else "names a player twice"


GAME_END: tuple[tuple[str, Check, bool], ...] = (
    ("totals", by_player(INT, every=True), True), ("winners", PLAYER_LIST, True))
"""The ``game_end`` event every kind logs (docs/game-log.md)."""


def shape_problem(obj: Mapping[str, Any], schema: Schema, players: Sequence[str]) -> str | None:
    """What is wrong with the keys of ``obj`` (an event of a known kind), or None."""
    name = obj.get("event")
    keys = schema.get(name) if isinstance(name, str) else None
    if keys is None:
        return f"unknown event {name!r}"
    for key, check, required in keys:
        if key not in obj:
            if required:
                return f"{name} has no {key!r}"
            continue
        err = check(obj[key], players)
        if err:
            return f"{name} {key!r} {err}"
    return None
