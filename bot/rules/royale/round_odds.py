"""The odds the expert player reasons with: what a die adds to its hand's points in one round,
in expectation and variance (:func:`round_parts`; a hand's: :func:`moments`), and the chance
that a normal total beats every other (:func:`win_chance`). See :mod:`bot.rules.royale.expert`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.rules.royale.ai import mean
from bot.rules.royale.dice import (
    CANNON_KIND,
    GLITTER,
    GLITTER_MULTIPLIER,
    MERCENARY_KIND,
    PURPLE_MULTIPLIER,
    Column,
    DieSpec,
)

# One die's share of its hand's points in one round: (flat, blue, red, red dice, glitter dice)
# means, then the variances of the flat, blue and red parts (before the column multipliers).
RoundParts = tuple[float, float, float, int, int, float, float, float]


def _variance(spec: DieSpec) -> float:
    m = mean(spec)
    return sum((f - m) ** 2 for f in spec.faces) / spec.sides


def round_parts(spec: DieSpec, round_no: int) -> RoundParts:
    """What one die adds to its hand's points in round ``round_no``, in expectation and
    variance (a Cannon counts when it is fired, not here).
    """
    kind = spec.kind
    if kind == CANNON_KIND:
        return (0.0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0)
    m, v = mean(spec), _variance(spec)
    if kind == MERCENARY_KIND:
        return (m * round_no, 0.0, 0.0, 0, 0, v * round_no**2, 0.0, 0.0)
    col = spec.column
    if col == Column.RED:
        return (0.0, 0.0, m, 1, 0, 0.0, 0.0, v)
    if col == Column.BLUE:
        return (0.0, m, 0.0, 0, int(kind == GLITTER), 0.0, v, 0.0)
    if col == Column.PURPLE:
        return (m * PURPLE_MULTIPLIER, 0.0, 0.0, 0, 0, v * PURPLE_MULTIPLIER**2, 0.0, 0.0)
    return (m, 0.0, 0.0, 0, 0, v, 0.0, 0.0)


def moments(parts: Sequence[RoundParts]) -> tuple[float, float]:
    """The expectation and variance of a hand's points in one round."""
    flat = blue = red = flat_var = blue_var = red_var = 0.0
    reds = glitters = 0
    for p in parts:
        flat += p[0]
        blue += p[1]
        red += p[2]
        reds += p[3]
        glitters += p[4]
        flat_var += p[5]
        blue_var += p[6]
        red_var += p[7]
    double = GLITTER_MULTIPLIER if glitters else 1
    return (flat + blue * double + red * reds,
            flat_var + blue_var * double**2 + red_var * reds**2)


# Win chance of normal totals: Simpson's rule over the expert's total, +-5 standard deviations.
_STEPS = 20
_NODES = [-5 + 10 * i / _STEPS for i in range(_STEPS + 1)]
_WEIGHTS = [
    (1 if i in (0, _STEPS) else 4 if i % 2 else 2) * (10 / _STEPS / 3)
    * math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    for i, x in enumerate(_NODES)
]


def win_chance(mine: tuple[float, float], others: Sequence[tuple[float, float]]) -> float:
    """P(a normal total (mean, variance) ``mine`` beats every one of ``others``)."""
    m0, s0 = mine[0], math.sqrt(max(mine[1], 1.0))
    sd = [(m, math.sqrt(2 * max(v, 1.0))) for m, v in others]
    total = 0.0
    for x, w in zip(_NODES, _WEIGHTS, strict=True):
        at = m0 + s0 * x
        p = w
        for m, s in sd:
            p *= 0.5 * (1 + math.erf((at - m) / s))
        total += p
    return total
