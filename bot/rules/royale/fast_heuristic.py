"""The heuristic player's choices, computed faster: the expert's play-out policy
(:mod:`bot.rules.royale.expert`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.actions import Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.ai import (
    TRADE_THRESHOLD,
    HeuristicPlayer,
    Parts,
    add_parts,
    die_parts,
    parts_value,
)
from bot.rules.royale.dice import (
    ROUNDS,
)
from bot.rules.royale.engine import tradeable_dice
from bot.rules.royale.state import RoyaleState


class FastHeuristic(HeuristicPlayer):
    """:class:`HeuristicPlayer`'s choices, computed faster (the play-outs' policy).

    Die values are looked up by die id, and a trade's score depends only on the target and the
    die taken (every giveable die is a clear d6), so each is scored once; ties resolve as the
    heuristic's do (the first best in :func:`legal_actions` order).
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._tables: dict[tuple[int, int], dict[str, Parts]] = {}

    def _table(self, state: RoyaleState, nxt: int) -> dict[str, Parts]:
        """Every die's parts by id for the rounds from ``nxt`` on (kept per dice set)."""
        key = (id(state.dice), nxt)
        table = self._tables.get(key)
        if table is None:
            if len(self._tables) > 64:
                self._tables.clear()
            table = self._tables[key] = {
                d: die_parts(spec, nxt) for d, spec in state.dice.specs.items()
            }
        return table

    @staticmethod
    def _sum(table: dict[str, Parts], hand: Sequence[str]) -> Parts:
        a = b = c = f = 0.0
        r = g = 0
        for d in hand:
            p = table[d]
            a += p[0]
            b += p[1]
            c += p[2]
            r += p[3]
            g += p[4]
            f += p[5]
        return (a, b, c, r, g, f)

    def _pick(self, state: RoyaleState, seat: int) -> RoyaleAction:
        nxt = state.round + 1
        table = self._table(state, nxt)
        mine = self._sum(table, state.hands[seat])
        best: list[str] = []
        best_gain = float("-inf")
        for d in state.pool:
            gain = parts_value(add_parts(mine, table[d]), nxt)
            if gain > best_gain + 1e-9:
                best, best_gain = [d], gain
            elif abs(gain - best_gain) <= 1e-9:
                best.append(d)
        return Pick(seat, best[self.rng.below(len(best))])

    def _trade(self, state: RoyaleState, seat: int) -> RoyaleAction:
        gives = tradeable_dice(state, seat)
        if not gives:
            return Pass(seat)
        nxt = state.round + 1
        rounds = ROUNDS - nxt + 1
        table = self._table(state, nxt)
        specs = state.dice.specs
        parts = [self._sum(table, hand) for hand in state.hands]
        values = [parts_value(p, nxt) for p in parts]
        weights = self._weights(state, seat)
        give = table[gives[0]]
        g0, g1, g2, g3, g4, g5 = give
        # The heuristic's sums, in its order, so that its ties resolve the same way.
        m0, m1, m2, m3, m4, m5 = add_parts(parts[seat], give, -1)
        mine = values[seat]
        best: RoyaleAction = Pass(seat)
        best_gain = TRADE_THRESHOLD
        for target, hand in enumerate(state.hands):
            if target == seat:
                continue
            h0, h1, h2, h3, h4, h5 = parts[target]
            theirs = values[target]
            w = weights[target]
            done: set[Parts] = set()
            for d in hand:
                take = table[d]
                if take in done or not specs[d].takeable:
                    continue
                done.add(take)
                t0, t1, t2, t3, t4, t5 = take
                if rounds > 0:
                    gain = ((m0 + t0) + (m1 + t1) * (2 if m4 + t4 else 1)
                            + (m2 + t2) * (m3 + t3)) * rounds + (m5 + t5) - mine
                    b4 = h4 - t4 + g4
                    after = (((h0 - t0) + g0) + ((h1 - t1) + g1) * (2 if b4 else 1)
                             + ((h2 - t2) + g2) * ((h3 - t3) + g3)) * rounds + ((h5 - t5) + g5)
                    loss = theirs - after
                else:
                    gain = loss = 0.0
                score = gain + w * loss
                if score > best_gain:
                    best, best_gain = Trade(seat, gives[0], target, d), score
        return best
