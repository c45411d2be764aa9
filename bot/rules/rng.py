"""The seeded random generator every game keeps in its state.

A thin wrapper over :class:`Random` (Mersenne Twister, identical on every platform
CPython runs on). The generator is part of the game state: it is copied with the state and
saved with it, so a game replays exactly from its seed and its decisions. Nothing in the rules
engines uses the module-level ``random`` functions.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable
from math import floor
from random import Random
from typing import Any, Protocol

_WORDS = 624


class Draws(Protocol):
    """What a game state draws its randomness from: :class:`Rng` (a stand-in in tests)."""

    @property
    def random(self) -> Callable[[], float]:
        ...

    def roll(self, sides: int) -> int:
        ...

    def below(self, n: int) -> int:
        ...

    def copy(self) -> Draws:
        ...

    def to_json(self) -> str:
        ...


class Rng:
    """A seeded, copyable, JSON-serialisable random generator."""

    __slots__ = ("_r", "random")

    random: Callable[[], float]
    """The next draw: a float in [0, 1). ``roll`` and ``below`` are ``floor(random() * n)``;
    the engine's busiest loops compute that themselves."""

    def __init__(self, seed: int | None = None, *, _r: Random | None = None) -> None:
        if _r is not None:
            self._r = _r
        else:
            if seed is None:
                raise ValueError("an Rng needs a seed")
            self._r = Random(seed)
        self.random = self._r.random

    def roll(self, sides: int) -> int:
        """A face index in ``0 .. sides - 1``, uniform."""
        return floor(self.random() * sides)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1`` (``n`` >= 1)."""
        return floor(self.random() * n)

    def copy(self) -> Rng:
        """An independent copy, at the same point."""
        r = Random()
        r.setstate(self._r.getstate())
        return Rng(_r=r)

    def to_json(self) -> str:
        """The generator's exact state as a compact string."""
        version, words, gauss = self._r.getstate()
        if version != 3 or gauss is not None or len(words) != _WORDS + 1:
            raise ValueError("unexpected Random state")
        packed = struct.pack(f"<{_WORDS + 1}I", *words)
        return base64.b64encode(packed).decode("ascii")

    @classmethod
    def from_json(cls, data: Any) -> Rng:
        if not isinstance(data, str):
            raise ValueError("rng state must be a string")
        raw = base64.b64decode(data.encode("ascii"), validate=True)
        words = struct.unpack(f"<{_WORDS + 1}I", raw)
        r = Random()
        r.setstate((3, tuple(words), None))
        return Rng(_r=r)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self._r.getstate() == other._r.getstate()

    def __hash__(self) -> int:  # pragma: no cover - states are not hashed
        raise TypeError("Rng is not hashable")
