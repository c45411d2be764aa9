"""What the Posing computer players share: the best option, ties broken by the player's own
seeded generator.
"""

from __future__ import annotations

from typing import Final, TypeVar

from bot.rules.rng import Rng

TIE: Final = 1e-9
"""Values closer than this are equal."""

T = TypeVar("T")


def pick_best(rng: Rng, options: list[tuple[float, T]]) -> T:
    """The option of highest value; exact ties are broken by ``rng``."""
    best = max(value for value, _ in options)
    ties = [option for value, option in options if value >= best - TIE]
    return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]
