"""The decisions of Panda Royale, as plain values.

Every action names the seat that takes it; the engine checks that it is that seat's turn.
Actions are hashable dataclasses that nothing changes once made (not ``frozen``, whose
set-up costs every decision: python-chess's ``Move`` is the same kind of value). Each writes
its own ``__init__`` (the dataclass gives equality, hashing and repr): compiled with mypyc
(setup.py) it is then native code, where a generated one would still run as Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.errors import StateFormatError


@dataclass(slots=True, unsafe_hash=True)
class Mischief:
    """Force a re-roll of ``die``, a non-yellow die of another player."""

    seat: int
    die: str

    def __init__(self, seat: int, die: str) -> None:
        self.seat = seat
        self.die = die

    def to_json(self) -> dict[str, Any]:
        return {"type": "mischief", "seat": self.seat, "die": self.die}


@dataclass(slots=True, unsafe_hash=True)
class Cannon:
    """Score the Cannon die ``die`` now (``score=True``) or save it for a later round."""

    seat: int
    die: str
    score: bool

    def __init__(self, seat: int, die: str, score: bool) -> None:
        self.seat = seat
        self.die = die
        self.score = score

    def to_json(self) -> dict[str, Any]:
        return {"type": "cannon", "seat": self.seat, "die": self.die, "score": self.score}


@dataclass(slots=True, unsafe_hash=True)
class Trade:
    """Give the clear d6 ``give`` to seat ``target`` and take its die ``take``."""

    seat: int
    give: str
    target: int
    take: str

    def __init__(self, seat: int, give: str, target: int, take: str) -> None:
        self.seat = seat
        self.give = give
        self.target = target
        self.take = take

    def to_json(self) -> dict[str, Any]:
        return {"type": "trade", "seat": self.seat, "give": self.give, "target": self.target,
                "take": self.take}


@dataclass(slots=True, unsafe_hash=True)
class Pass:
    """End this seat's trading turn."""

    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


@dataclass(slots=True, unsafe_hash=True)
class Pick:
    """Take ``die`` from the draft pool."""

    seat: int
    die: str

    def __init__(self, seat: int, die: str) -> None:
        self.seat = seat
        self.die = die

    def to_json(self) -> dict[str, Any]:
        return {"type": "pick", "seat": self.seat, "die": self.die}


RoyaleAction = Mischief | Cannon | Trade | Pass | Pick


def _int(data: Mapping[str, Any], key: str) -> int:
    v = data.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise StateFormatError(f"Action field {key!r} must be a whole number.")
    return v


def _str(data: Mapping[str, Any], key: str) -> str:
    v = data.get(key)
    if not isinstance(v, str):
        raise StateFormatError(f"Action field {key!r} must be text.")
    return v


def action_from_json(data: Mapping[str, Any]) -> RoyaleAction:
    """Read an action back from :meth:`to_json` output."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind == "mischief":
        return Mischief(_int(data, "seat"), _str(data, "die"))
    if kind == "cannon":
        score = data.get("score")
        if not isinstance(score, bool):
            raise StateFormatError("Action field 'score' must be true or false.")
        return Cannon(_int(data, "seat"), _str(data, "die"), score)
    if kind == "trade":
        return Trade(_int(data, "seat"), _str(data, "give"), _int(data, "target"),
                     _str(data, "take"))
    if kind == "pass":
        return Pass(_int(data, "seat"))
    if kind == "pick":
        return Pick(_int(data, "seat"), _str(data, "die"))
    raise StateFormatError(f"Unknown action type {kind!r}.")
