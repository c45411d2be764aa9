"""The seven scoring columns (docs/rules.md, "Columns")."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from bot.rules.royale.dice import (
    CANNON_KIND,
    CANNON_MULTIPLIER,
    GLITTER,
    GLITTER_MULTIPLIER,
    MERCENARY_KIND,
    PURPLE_MULTIPLIER,
    Column,
    DieSpec,
)

_BLUE = Column.BLUE
_RED = Column.RED
_PURPLE = Column.PURPLE


def score_dice(
    dice: Iterable[tuple[DieSpec, int]], round_no: int = 1, scored_cannons: Collection[str] = ()
) -> list[int]:
    """The seven column scores of one hand, as ``[yellow, purple, ..., pink]``.

    ``dice`` are (die, value shown) pairs. Purple is doubled; blue is doubled once if any blue
    glitter die is held; red is the signed sum times the number of red dice held; a Mercenary
    scores value x round; a Cannon scores value x 10 if it is in ``scored_cannons``, else 0.
    """
    cols = [0, 0, 0, 0, 0, 0, 0]
    reds = 0
    glitter = False
    for spec, value in dice:
        kind = spec.kind
        if kind == MERCENARY_KIND:
            value *= round_no
        elif kind == CANNON_KIND:
            value = value * CANNON_MULTIPLIER if spec.id in scored_cannons else 0
        elif kind == GLITTER:
            glitter = True
        col = spec.column
        cols[col] += value
        if col == _RED:
            reds += 1
    cols[_PURPLE] *= PURPLE_MULTIPLIER
    if glitter:
        cols[_BLUE] *= GLITTER_MULTIPLIER
    cols[_RED] *= reds
    return cols


def score_hand(
    hand: Sequence[str],
    values: Mapping[str, int],
    specs: Mapping[str, DieSpec],
    round_no: int,
    scored_cannons: Collection[str] = (),
) -> list[int]:
    """:func:`score_dice` for a hand of die ids and the values they show."""
    return score_dice(((specs[d], values[d]) for d in hand), round_no, scored_cannons)
