"""The expert player's look-ahead (:mod:`bot.rules.royale.expert`): a decision's candidates,
their play-outs in the same futures (the same seeds for the game's generator and the
heuristic's, so two candidates differ mostly by themselves), the choice.

A trading turn's candidates include the heuristic's best trade for a Mischief die, which it
ranks low although a second Mischief die is one more chance to cause mischief each round and
one fewer for the player it is taken from (an effect the play-outs count).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.actions import Pass, Pick, RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.dice import MISCHIEF_KIND, DieSpec
from bot.rules.royale.expert_playout import play_out
from bot.rules.royale.round_odds import win_chance
from bot.rules.royale.state import RoyaleState


def die_kind(spec: DieSpec) -> tuple[str, int, str]:
    """A die's kind (colour, sides, kind): the look-ahead weighs dice of one kind as one."""
    return (spec.color, spec.sides, spec.kind)


def pick_candidates(state: RoyaleState, limit: int) -> list[RoyaleAction]:
    """The heuristic's best picks, one per kind of die, best first (pool order on ties)."""
    seat = state.queue[0][0]
    specs = state.dice.specs
    seen: dict[tuple[str, int, str], tuple[float, str]] = {}
    for d, gain in zip(state.pool, HeuristicPlayer.pick_gains(state, seat), strict=True):
        seen.setdefault(die_kind(specs[d]), (gain, d))
    ranked = sorted(seen.values(), key=lambda gd: -gd[0])  # stable: pool order on ties
    return [Pick(seat, d) for _, d in ranked[: max(1, limit)]]


def trade_candidates(state: RoyaleState, heuristic: HeuristicPlayer,
                     limit: int) -> list[RoyaleAction]:
    """The heuristic's choice first, then Pass and its best other trades (one per player and
    kind of die), at most ``limit`` + 1 in all, and then the heuristic's best trade that takes
    a Mischief die (when there is one) if it is not among them already.
    """
    seat = state.queue[0][0]
    specs = state.dice.specs
    out: list[RoyaleAction] = [heuristic.choose(state)]
    if not isinstance(out[0], Pass):
        out.append(Pass(seat))
    seen: set[tuple[int, tuple[str, int, str]]] = set()
    ranked = sorted(heuristic.trade_scores(state, seat), key=lambda st: -st[0])
    for _, trade in ranked:
        if len(out) > limit:
            break
        key = (trade.target, die_kind(specs[trade.take]))
        if key not in seen and trade not in out:
            seen.add(key)
            out.append(trade)
    steal = next((t for _, t in ranked if specs[t.take].kind == MISCHIEF_KIND), None)
    if steal is not None and steal not in out:
        out.append(steal)
    return out


def outcome(state: RoyaleState, action: RoyaleAction, seed: int, policy: HeuristicPlayer,
            chance: bool = True) -> tuple[float, float]:
    """What ``action`` is worth to the seat deciding now in the future of ``seed``: its win
    chance (0.0 unless ``chance``) and its expected final total.
    """
    seat = state.queue[0][0]
    totals = state.totals()
    gained, spread = play_out(state, action, seed, policy)
    mine = (totals[seat] + gained[seat], spread[seat])
    if not chance:
        return 0.0, mine[0]
    others = [(totals[i] + gained[i], spread[i]) for i in range(len(totals)) if i != seat]
    return win_chance(mine, others), mine[0]


def worth(state: RoyaleState, action: RoyaleAction, seeds: Sequence[int],
          policy: HeuristicPlayer) -> tuple[float, float]:
    """What ``action`` is worth to the seat deciding now, over the futures of ``seeds``: its
    mean win chance and its mean expected final total (:func:`outcome` in each).
    """
    chance = points = 0.0
    for seed in seeds:
        c, p = outcome(state, action, seed, policy)
        chance += c
        points += p
    k = max(1, len(seeds))
    return chance / k, points / k


def choose_best(state: RoyaleState, candidates: Sequence[RoyaleAction], seeds: Sequence[int],
                policy: HeuristicPlayer) -> RoyaleAction:
    """The candidate of best mean win chance over the futures of ``seeds`` (the first on ties)."""
    best = candidates[0]
    best_worth = -1.0
    for action in candidates:
        chance = worth(state, action, seeds, policy)[0]
        if chance > best_worth:
            best, best_worth = action, chance
    return best
