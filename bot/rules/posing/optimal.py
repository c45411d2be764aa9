"""The optimal Posing Pandas player: the strategy of highest expected final score, exactly.

Posing Pandas scores each player alone (no bonus, no interaction), so the best play for the
expected score depends only on the player's own card. Dynamic programming over
(open boxes, dice showing, rolls left) gives it exactly:

* ``value(open)``: the expected points still to come when a turn starts with the boxes ``open``
  (a bit mask over :data:`~bot.rules.posing.poses.BOX_IDS`); ``value(0) = 0``.
* Within a turn, a roll ``d`` with no roll left is worth
  ``max(points(box, d) + value(open - box))`` over the open boxes; with rolls left it is worth
  the better of that and the best keep's expectation over the re-rolled dice (multinomial odds
  of :mod:`bot.rules.posing.odds`).

The 2,047 turn-start values are the whole table: everything within a turn follows from them in
a few milliseconds, computed on demand and cached per set of open boxes. The table is shipped
as the generated module :mod:`bot.rules.posing.optimal_values` (``python -m
bot.sim.posing_table`` writes it), so no player has to build it (about four seconds of pure
Python) and the rules engine reads no file: importing it is all. A test rebuilds every table
entry of up to three open boxes from scratch and checks larger ones against the Bellman
equation.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import mul
from typing import Final

from bot.rules.posing.actions import PosingAction
from bot.rules.posing.choice import decide
from bot.rules.posing.odds import dice_odds
from bot.rules.posing.poses import BOX_COUNT, BOX_IDS, MAX_ROLLS
from bot.rules.posing.state import PosingState
from bot.rules.rng import Rng

ALL_OPEN: Final = (1 << BOX_COUNT) - 1
"""The mask of a fresh score card (every box open)."""


def mask_of(open_boxes: Sequence[str]) -> int:
    """The bit mask of a set of open boxes (bit ``i`` is ``BOX_IDS[i]``)."""
    return sum(1 << BOX_IDS.index(box) for box in set(open_boxes))


def boxes_of(mask: int) -> tuple[str, ...]:
    """The open boxes of a mask, in score-card order."""
    return tuple(box for i, box in enumerate(BOX_IDS) if mask >> i & 1)


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """A turn's values for one set of open boxes (rolls and keeps indexed as in ``DiceOdds``)."""

    stop: array[float]
    """Per roll: filling the best box now (its points plus the optimal rest of the game)."""
    keep_values: tuple[array[float], ...]
    """``keep_values[r]``: per keep, the expectation of re-rolling the other dice when ``r``
    more rolls may follow that one."""
    start: float
    """The expected points of this turn and the rest of the game, before its first roll."""


def _expect(finals: tuple[int, ...], odds: tuple[float, ...], values: array[float]) -> float:
    return float(sum(map(mul, odds, map(values.__getitem__, finals))))


def turn_plan(mask: int, value: Callable[[int], float]) -> TurnPlan:
    """The optimal values of a turn with the boxes ``mask`` open, given the turn-start values
    ``value`` of every smaller set of open boxes.
    """
    if not mask & ALL_OPEN or mask & ~ALL_OPEN:
        raise ValueError(f"not a set of open boxes: {mask!r}")
    odds = dice_odds()
    columns = [
        [points + later for points in odds.scores[box]]
        for i, box in enumerate(BOX_IDS)
        if mask >> i & 1
        for later in (value(mask & ~(1 << i)),)
    ]
    stop = array("d", map(max, *columns) if len(columns) > 1 else columns[0])
    keep_values: list[array[float]] = []
    after = stop
    for _ in range(MAX_ROLLS - 1):
        values = array("d", (_expect(*outcome, after) for outcome in odds.outcomes))
        keep_values.append(values)
        get = values.__getitem__
        after = array(
            "d",
            (max(best, *map(get, subs)) for best, subs in zip(stop, odds.sub_keeps, strict=True)),
        )
    start = _expect(*odds.outcomes[odds.keep_index[()]], after)
    return TurnPlan(stop, tuple(keep_values), start)


def compute_values(
    masks: Sequence[int] | None = None, known: Callable[[int], float] | None = None
) -> dict[int, float]:
    """Turn-start values computed from scratch: of every set of open boxes, or of ``masks`` and
    the smaller sets they need. ``known`` (optional) gives values to trust instead of
    recomputing them (a one-step check of a table).
    """
    out: dict[int, float] = {0: 0.0}

    def value(mask: int) -> float:
        if mask in out:
            return out[mask]
        if known is not None:
            return known(mask)
        raise KeyError(mask)

    wanted: set[int] = set()
    todo = list(range(1, ALL_OPEN + 1) if masks is None else masks)
    if known is None:
        while todo:  # the closure under removing boxes
            m = todo.pop()
            if m and m not in wanted:
                wanted.add(m)
                todo.extend(m & ~(1 << i) for i in range(BOX_COUNT) if m >> i & 1)
    else:
        wanted = set(todo)
    for m in sorted(wanted, key=lambda m: m.bit_count()):
        out[m] = turn_plan(m, value).start
    return out


@cache
def table() -> tuple[float, ...]:
    """The shipped turn-start values, indexed by mask (imported on first use only)."""
    from bot.rules.posing.optimal_values import VALUES

    if len(VALUES) != ALL_OPEN + 1:  # pragma: no cover - a damaged generated file
        raise RuntimeError("bot/rules/posing/optimal_values.py is damaged: regenerate it")
    return VALUES


def value(mask: int) -> float:
    """The expected points still to come when a turn starts with ``mask`` open."""
    return table()[mask]


def expected_score() -> float:
    """The optimal expected final score of a game (every box open before the first roll)."""
    return value(ALL_OPEN)


@cache
def plan(mask: int) -> TurnPlan:
    """The turn plan of ``mask`` from the shipped table, cached (about 10 kB per set)."""
    return turn_plan(mask, value)


class OptimalPosingPlayer:
    """Holds and fills to maximise the expected final score (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: PosingState) -> PosingAction:
        """The optimal action of the seat that must decide."""
        if state.is_over:
            raise ValueError("the game is over: there is nothing to choose")
        filled = state.filled[state.seat]
        boxes = [box for box in BOX_IDS if box not in filled]
        mask = mask_of(boxes)
        return decide(self.rng, state, plan(mask), boxes,
                      lambda box: value(mask & ~(1 << BOX_IDS.index(box))))


def render_values_module(values: dict[int, float]) -> str:
    """The source of :mod:`bot.rules.posing.optimal_values` for a full table."""
    lines = [
        '"""Generated by ``python -m bot.sim.posing_table``: do not edit.',
        "",
        "The optimal expected points still to come when a Posing Pandas turn starts with the",
        "open boxes ``mask`` (bit i = ``BOX_IDS[i]``), indexed by mask.",
        "See bot/rules/posing/optimal.py.",
        '"""',
        "",
        "from typing import Final",
        "",
        "VALUES: Final[tuple[float, ...]] = (",
    ]
    row: list[str] = []
    for mask in range(ALL_OPEN + 1):
        row.append(repr(values[mask]) + ",")
        if len(row) == 4:
            lines.append("    " + " ".join(row))
            row = []
    if row:
        lines.append("    " + " ".join(row))
    lines.append(")")
    return "\n".join(lines) + "\n"
