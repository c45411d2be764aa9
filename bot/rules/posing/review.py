"""The Posing Pandas judge of a game review (:mod:`bot.rules.review`): the exact optimal table
(:mod:`bot.rules.posing.optimal`), so "best" is the option of highest expected final score,
exactly.

Every option of a decision is weighed (:func:`bot.rules.posing.optimal.option_values`). A hold
is named by the poses it keeps, so holding either of two dice showing the same pose is one
option.
"""

from __future__ import annotations

from typing import Final

from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.posing.engine import totals
from bot.rules.posing.optimal import optimal_options
from bot.rules.posing.state import PosingState
from bot.rules.review import Option, Reviewer, Verdict

MARGIN: Final = 0.25
"""A decision within this many expected points of the best one counts as accurate."""


def options(state: PosingState) -> dict[tuple[str, tuple[str, ...]], float]:
    """Every option of the decision in ``state`` (``("fill", (box,))`` or ``("hold",
    poses)``, poses as sorted digits), with the seat's expected final score.
    """
    have = float(totals(state)[state.seat])
    return {_key(state, action): have + v for v, action in optimal_options(state)}


def _key(state: PosingState, action: PosingAction) -> tuple[str, tuple[str, ...]]:
    if isinstance(action, Fill):
        return ("fill", (action.box,))
    assert isinstance(action, Roll)
    return ("hold", tuple(str(p) for p in sorted(state.dice[i] for i in action.hold)))


def judge(state: PosingState, action: PosingAction, seed: int) -> Verdict | None:
    """The verdict on ``action`` (None with one option); ``seed`` is unused: the table is exact."""
    table = options(state)
    if len(table) < 2:
        return None
    mine = _key(state, action)
    best = max(table, key=lambda k: table[k])  # the first of the best, in option order
    if table[best] - table[mine] <= 1e-9:
        best = mine
    return Verdict(-1, state.turn, Option(*mine, table[mine]), Option(*best, table[best]))


REVIEWER: Final = Reviewer(judge, MARGIN)
"""Posing Pandas' judge for :func:`bot.rules.review.review_seat`."""
