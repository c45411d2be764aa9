"""The expert player's look-ahead in games with Mayhem options: draft picks by play-outs
through the engine (:mod:`bot.rules.royale.expert` has the whole story).

With Mischief, Cannons or Mercenaries the lean base-game play-outs of
:mod:`bot.rules.royale.expert_playout` don't apply; here each candidate pick is played out on
copies of the game state by the engine itself, every seat played by
:class:`~bot.rules.royale.ai.HeuristicPlayer`, each copy with a fresh generator
seeded from the decision's own (the real game's generator is never used). A play-out counts the
*expected* points of every round it rolls (and a fired Cannon's real points), with their
variance, and a pick is worth its average win chance. Trades, Cannons and mischief are the
heuristic's.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Pick, RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer, cannon_value, hand_value
from bot.rules.royale.dice import CANNON_KIND, CANNON_MULTIPLIER, ROUNDS, DiceSet, DieSpec
from bot.rules.royale.engine import apply_in_place, current_seat
from bot.rules.royale.round_odds import _moments, _RoundParts, round_parts, win_chance
from bot.rules.royale.state import Phase, RoyaleState

_SEED_RANGE = 1 << 62


def _die_type(spec: DieSpec) -> tuple[str, int, str]:
    return (spec.color, spec.sides, spec.kind)


class MayhemLookahead:
    """Draft picks by engine play-outs: the heuristic's best ``pick_candidates`` picks (of
    distinct die types), each in the same ``futures`` determinised futures.
    """

    def __init__(self, seed: int, futures: int, pick_candidates: int) -> None:
        self.rollout = HeuristicPlayer(seed)
        self.futures = futures
        self.pick_candidates = pick_candidates
        self._round_tables: dict[tuple[int, int], dict[str, _RoundParts]] = {}

    def pick(self, state: RoyaleState, rng: Rng) -> RoyaleAction:
        """The best draft pick found, futures drawn from ``rng`` (the decision's own)."""
        candidates = self.candidates(state)
        if len(candidates) == 1 or self.futures < 1:
            return candidates[0]
        seat = state.queue[0][0]
        seeds = [rng.below(_SEED_RANGE) for _ in range(self.futures)]
        totals = state.totals()
        scores = [self._worth(state, seat, totals, a, seeds) for a in candidates]
        best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
        return candidates[best]

    def candidates(self, state: RoyaleState) -> list[RoyaleAction]:
        """The heuristic's best picks, one per die type, best first."""
        seat = state.queue[0][0]
        specs = state.dice.specs
        nxt = state.round + 1
        mine = [specs[d] for d in state.hands[seat]]
        base = hand_value(mine, nxt)
        seen: dict[tuple[str, int, str], tuple[float, str]] = {}
        for d in state.pool:
            key = _die_type(specs[d])
            if key not in seen:
                seen[key] = (hand_value([*mine, specs[d]], nxt) - base, d)
        ranked = sorted(seen.values(), key=lambda gd: -gd[0])  # stable: pool order on ties
        return [Pick(seat, d) for _, d in ranked[: max(1, self.pick_candidates)]]

    def _worth(self, state: RoyaleState, seat: int, totals: Sequence[int],
               action: RoyaleAction, seeds: Sequence[int]) -> float:
        total = 0.0
        for seed in seeds:
            s = state.clone()
            s.rng = Rng(seed)
            self.rollout.rng = Rng(seed + 1)
            gained, spread = self._play_out(s, action)
            worth = [t + g for t, g in zip(totals, gained, strict=True)]
            total += win_chance(
                (worth[seat], spread[seat]),
                [(w, v) for i, (w, v) in enumerate(zip(worth, spread, strict=True)) if i != seat],
            )
        return total

    def _round_table(self, dice: DiceSet, round_no: int) -> dict[str, _RoundParts]:
        key = (id(dice), round_no)
        table = self._round_tables.get(key)
        if table is None:
            if len(self._round_tables) > 64:
                self._round_tables.clear()
            table = self._round_tables[key] = {
                d: round_parts(spec, round_no) for d, spec in dice.specs.items()
            }
        return table

    def _play_out(
        self, s: RoyaleState, action: RoyaleAction
    ) -> tuple[list[float], list[float]]:
        """Play ``action``, then heuristic play to the end of the game.

        Returns each seat's expected points from the rounds the play-out rolls, and their
        variance (the dice's luck in the play-out is left out: only the decisions' effects are
        wanted). The last round is not rolled: once its hands are known, their expected points
        are all there is.
        """
        policy = self.rollout
        gained = [0.0] * s.n
        spread = [0.0] * s.n
        a: RoyaleAction | None = action
        while True:
            phase = s.phase
            if a is None:
                if current_seat(s) is None:
                    return gained, spread
                a = policy.choose(s)
            if phase is Phase.DRAFT and (len(s.queue) == 1 or len(s.pool) == 1):
                # The last pick: the hands are now the ones the next round rolls.
                assert isinstance(a, Pick)
                nxt = s.round + 1
                table = self._round_table(s.dice, nxt)
                for seat, hand in enumerate(s.hands):
                    dice = [*hand, a.die] if seat == a.seat else hand
                    m, v = _moments([table[d] for d in dice])
                    gained[seat] += m
                    spread[seat] += v
                    if nxt == ROUNDS:  # a Cannon is always fired in the last round
                        kinds = [s.dice.specs[d].kind for d in dice]
                        gained[seat] += kinds.count(CANNON_KIND) * cannon_value(1)
                if nxt == ROUNDS:
                    return gained, spread
            elif isinstance(a, Cannon) and a.score:
                gained[a.seat] += s.values[a.die] * CANNON_MULTIPLIER
            apply_in_place(s, a)
            a = None
