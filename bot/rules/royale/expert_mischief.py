"""The expert player's candidates for a mischief target (:mod:`bot.rules.royale.expert`).

The heuristic aims a re-roll at the die whose re-roll it expects to cost most, weighted by its
owner's standing; the expert plays out the heuristic's few best targets instead and takes the
one of best win chance (a re-roll that costs the leader less may still be worth more to the
expert than one that costs a trailing player more). Dice of one kind, showing one value, in
one hand are one candidate.
"""

from __future__ import annotations

from bot.rules.royale.actions import Mischief, RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.state import RoyaleState


def mischief_candidates(state: RoyaleState, heuristic: HeuristicPlayer,
                        limit: int) -> list[RoyaleAction]:
    """The heuristic's target first, then its next best ones, at most ``limit`` in all (one
    per owner, kind of die and value shown).
    """
    seat = state.queue[0][0]
    specs = state.dice.specs
    values = state.values
    out: list[RoyaleAction] = []
    seen: set[tuple[int, str, int, str, int]] = set()
    first = heuristic.choose(state)
    ranked = sorted(heuristic.mischief_scores(state, seat), key=lambda lm: -lm[0])
    for action in (first, *(m for _, m in ranked)):
        if len(out) >= max(1, limit):
            break
        assert isinstance(action, Mischief)
        die = action.die
        spec = specs[die]
        owner = state.owner_of(die)
        assert owner is not None
        key = (owner, spec.color, spec.sides, spec.kind, values[die])
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out
