"""The expert player's candidates for a mischief target (:mod:`bot.rules.royale.expert`).

The expert plays them out and takes the one of best win chance: a re-roll that costs the leader
less may still be worth more to the expert than one that costs a trailing player more.
"""

from __future__ import annotations

from bot.rules.royale.actions import Mischief, RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.state import RoyaleState


def mischief_candidates(state: RoyaleState, heuristic: HeuristicPlayer,
                        limit: int) -> list[RoyaleAction]:
    """The heuristic's target first, then for each other player (best ranked first) the die of
    theirs the heuristic ranks best, at most ``limit`` in all.
    """
    seat = state.queue[0][0]
    out: list[RoyaleAction] = []
    owners: set[int] = set()
    first = heuristic.choose(state)
    ranked = sorted(heuristic.mischief_scores(state, seat), key=lambda lm: -lm[0])
    for action in (first, *(m for _, m in ranked)):
        if len(out) >= max(1, limit):
            break
        assert isinstance(action, Mischief)
        owner = state.owner_of(action.die)
        assert owner is not None
        if owner not in owners:
            owners.add(owner)
            out.append(action)
    return out
