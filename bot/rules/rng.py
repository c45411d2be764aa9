"""The seeded random generator every game keeps in its state.

A thin wrapper over :class:`random.Random` (Mersenne Twister, identical on every platform
CPython runs on). The generator is part of the game state: it is copied with the state and
saved with it, so a game replays exactly from its seed and its decisions. Nothing in the rules
engines uses the module-level ``random`` functions.
"""

from __future__ import annotations

import base64
import random
import struct
from typing import Any

_WORDS = 624


class Rng:
    """A seeded, copyable, JSON-serialisable random generator."""

    __slots__ = ("_r",)

    def __init__(self, seed: int | None = None, *, _r: random.Random | None = None) -> None:
        if _r is not None:
            self._r = _r
        else:
            if seed is None:
                raise ValueError("an Rng needs a seed")
            self._r = random.Random(seed)

    def roll(self, sides: int) -> int:
        """A face index in ``0 .. sides - 1``, uniform."""
        return int(self._r.random() * sides)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1`` (``n`` >= 1)."""
        return int(self._r.random() * n)

    def copy(self) -> Rng:
        r = random.Random()
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
        r = random.Random()
        r.setstate((3, tuple(words), None))
        return Rng(_r=r)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self._r.getstate() == other._r.getstate()

    def __hash__(self) -> int:  # pragma: no cover - states are not hashed
        raise TypeError("Rng is not hashable")
