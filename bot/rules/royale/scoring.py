"""The seven scoring columns (docs/rules.md, "Columns"): :func:`score_hand`, the one scoring
function of the engine, the validator and the computer players.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from bot.rules.royale.dice import (
    CANNON_KIND,
    CANNON_MULTIPLIER,
    GLITTER,
    GLITTER_MULTIPLIER,
    MERCENARY_KIND,
    PURPLE_MULTIPLIER,
    STANDARD,
    Column,
    DieSpec,
)

_BLUE = Column.BLUE.value
_RED = Column.RED.value
_PURPLE = Column.PURPLE.value


def score_hand(
    hand: Sequence[str],
    values: Mapping[str, int],
    specs: Mapping[str, DieSpec],
    round_no: int = 1,
    scored_cannons: Collection[str] = (),
) -> list[int]:
    """The seven column scores of a hand of die ids, as ``[yellow, purple, ..., pink]``.

    Purple is doubled; blue is doubled once if any blue glitter die is held; red is the signed
    sum times the number of red dice held; a Mercenary scores value x round; a Cannon scores
    value x 10 if it is in ``scored_cannons``, else 0.
    """
    cols = [0, 0, 0, 0, 0, 0, 0]
    reds = 0
    glitter = False
    for d in hand:
        spec = specs[d]
        col = spec.column
        if spec.kind == STANDARD:  # most dice: the value shown, in the die's column
            cols[col] = cols[col] + values[d]  # (not +=: compiled, a generic add)
        else:
            value = values[d]
            kind = spec.kind
            if kind == MERCENARY_KIND:
                value *= round_no
            elif kind == CANNON_KIND:
                value = value * CANNON_MULTIPLIER if d in scored_cannons else 0
            elif kind == GLITTER:
                glitter = True
            cols[col] = cols[col] + value
        if col == _RED:
            reds += 1
    cols[_PURPLE] *= PURPLE_MULTIPLIER
    if glitter:
        cols[_BLUE] *= GLITTER_MULTIPLIER
    cols[_RED] *= reds
    return cols


def score_dice(
    dice: Iterable[tuple[DieSpec, int]], round_no: int = 1, scored_cannons: Collection[str] = ()
) -> list[int]:
    """:func:`score_hand` for (die, value shown) pairs."""
    pairs = list(dice)
    return score_hand([spec.id for spec, _ in pairs], {spec.id: v for spec, v in pairs},
                      {spec.id: spec for spec, _ in pairs}, round_no, scored_cannons)
