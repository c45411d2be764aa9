"""Computer players for Panda Royale.

* :class:`RandomPlayer` picks uniformly among the legal actions.
* :class:`HeuristicPlayer` values every die by the points it is expected to add to its holder's
  hand over the rounds left (column multipliers, red and glitter interplay, Mercenary losses,
  the Cannon's best stopping point), and drafts, trades, aims mischief and fires Cannons by that
  value.
* :class:`~bot.rules.royale.expert.ExpertPlayer` ("expert") looks ahead: see
  :mod:`bot.rules.royale.expert`.

Each player has its own seeded generator, so a simulated game is reproducible; the game's own
randomness stays in the game state.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cache
from math import floor
from typing import Final

from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.decisions import mischief_targets
from bot.rules.royale.dice import (
    BOX,
    CANNON_KIND,
    CANNON_MULTIPLIER,
    CAPTAIN_SIDES,
    GLITTER,
    GLITTER_MULTIPLIER,
    MERCENARY_KIND,
    MISCHIEF_KIND,
    PITY,
    PURPLE_MULTIPLIER,
    ROUNDS,
    TAKEABLE,
    YELLOW_DICE,
    Column,
    DieSpec,
)
from bot.rules.royale.rounds import tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState

_DRAFT: Final = Phase.DRAFT
_TRADE: Final = Phase.TRADE
_CANNON: Final = Phase.CANNON
_OVER: Final = Phase.OVER
_UNTAKEABLE: Final = frozenset(BOX) - TAKEABLE

# Tuning of the heuristic (points).
CLEAR_TRADE_OPTION = 1.5  # per round: what holding a tradeable clear d6 is worth beyond its face
MISCHIEF_BONUS = 1.0  # per round: the chance to cause mischief
YELLOW_PRIORITY = 0.3  # per point of yellow: earlier draft picks, the token
TRADE_THRESHOLD = 1.0  # a trade must gain more than this
DENIAL_WEIGHT = 0.35  # how much an opponent's loss counts as our gain
LEADER_WEIGHT = 0.25  # extra weight on hurting the leader


def mean(spec: DieSpec) -> float:
    """The average value of a die's faces."""
    return sum(spec.faces) / spec.sides


@cache
def cannon_value(rolls_left: int) -> float:
    """Expected points of a Cannon die with ``rolls_left`` rolls to come, fired optimally."""
    if rolls_left <= 0:
        return 0.0
    later = cannon_value(rolls_left - 1)
    faces = range(1, 9)
    return sum(max(f * CANNON_MULTIPLIER, later) for f in faces) / len(faces)


@cache
def mercenary_value(first_round: int) -> float:
    """Expected points of a Mercenary d6 first rolled in ``first_round``, Captain losses counted."""
    keep = 1 - 1 / CAPTAIN_SIDES
    return sum(3.5 * t * keep ** (t - first_round) for t in range(first_round, ROUNDS + 1))


# A hand's expected value is built from per-die parts, so a trade (one die out, one in) is
# valued in constant time: (flat, blue, red, red dice, glitter dice, one-off extra).
Parts = tuple[float, float, float, int, int, float]
NO_PARTS: Parts = (0.0, 0.0, 0.0, 0, 0, 0.0)


@cache
def die_parts(spec: DieSpec, next_round: int) -> Parts:
    """What one die adds to a hand's value, by column (see :func:`parts_value`)."""
    kind = spec.kind
    rounds = ROUNDS - next_round + 1
    if kind == PITY or rounds <= 0:
        return NO_PARTS
    if kind == MERCENARY_KIND:
        return (0.0, 0.0, 0.0, 0, 0, mercenary_value(next_round))
    if kind == CANNON_KIND:
        return (0.0, 0.0, 0.0, 0, 0, cannon_value(rounds))
    m = mean(spec)
    col = spec.column
    if col == Column.RED:
        return (0.0, 0.0, m, 1, 0, 0.0)
    if col == Column.BLUE:
        return (0.0, m, 0.0, 0, int(kind == GLITTER), 0.0)
    if col == Column.PURPLE:
        return (PURPLE_MULTIPLIER * m, 0.0, 0.0, 0, 0, 0.0)
    if col == Column.CLEAR:
        return (m + (MISCHIEF_BONUS if kind == MISCHIEF_KIND else CLEAR_TRADE_OPTION),
                0.0, 0.0, 0, 0, 0.0)
    if col == Column.YELLOW:
        return (m * (1 + YELLOW_PRIORITY), 0.0, 0.0, 0, 0, 0.0)
    return (m, 0.0, 0.0, 0, 0, 0.0)


def add_parts(a: Parts, b: Parts, sign: int = 1) -> Parts:
    """``a + b`` (or ``a - b`` with ``sign=-1``), part by part."""
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2], a[3] + sign * b[3],
            a[4] + sign * b[4], a[5] + sign * b[5])


def hand_parts(dice: Iterable[DieSpec], next_round: int) -> Parts:
    """The :func:`die_parts` of ``dice``, summed."""
    total = NO_PARTS
    for sp in dice:
        total = add_parts(total, die_parts(sp, next_round))
    return total


def parts_value(p: Parts, next_round: int) -> float:
    """Expected points of a hand with parts ``p``: every column summed over the rounds left
    (blue doubled with any glitter, red sum times red dice), plus one-off dice.
    """
    rounds = ROUNDS - next_round + 1
    if rounds <= 0:
        return 0.0
    flat, blue, red, reds, glitters, extra = p
    return (flat + blue * (GLITTER_MULTIPLIER if glitters else 1) + red * reds) * rounds + extra


PARTS: Final[dict[int, dict[str, Parts]]] = {
    nxt: {d: die_parts(spec, nxt) for d, spec in BOX.items()} for nxt in range(2, ROUNDS + 1)
}
"""PARTS[next_round][die id]: :func:`die_parts` of every die of the box, for the draft and
trade decisions of rounds 1 to 9 (computed once, here)."""
MEANS: Final[dict[str, float]] = {d: mean(spec) for d, spec in BOX.items()}
_KIND_OF_DIE: Final[dict[str, str]] = {d: d.rpartition("-")[0] for d in BOX}  # "red8-3": red8


def parts_of(hand: Sequence[str], table: dict[str, Parts]) -> Parts:
    """:func:`hand_parts` of a hand of die ids, from one of the :data:`PARTS` tables (the same
    sums, in the same order).
    """
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


class RandomPlayer:
    """Uniformly random among the legal actions: ``legal_actions(state)[i]`` for a uniform
    ``i``, found without listing the actions.
    """

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)
        self._random = self.rng.random  # below(n) is floor(random() * n), inline

    def choose(self, state: RoyaleState) -> RoyaleAction:
        phase = state.phase
        if phase is _DRAFT:  # most decisions: a pick
            pool = state.pool
            return Pick(state.queue[0][0], pool[floor(self._random() * len(pool))])
        if phase is _OVER:
            raise ValueError("the game is over")
        seat, die = state.queue[0]
        if phase is _TRADE:
            return self._trade(state, seat)
        below = self.rng.below
        if phase is _CANNON:
            return Cannon(seat, die, below(2) == 0)
        targets = mischief_targets(state, seat)
        return Mischief(seat, targets[below(len(targets))])

    def _trade(self, state: RoyaleState, seat: int) -> RoyaleAction:
        """The same choice as ``legal_actions(state)[i]`` (Pass, then every trade by clear die,
        player and die), without building every trade.
        """
        gives = tradeable_dice(state, seat)
        # every die the others could give, seat by seat in hand order (legal_actions' order),
        # and where each seat's dice begin among them
        takes: list[str] = []
        starts: list[int] = []
        for target, hand in enumerate(state.hands):
            starts.append(len(takes))
            if target == seat:
                continue
            if _UNTAKEABLE.isdisjoint(hand):  # most hands: no pity die, no Cannon
                takes += hand
            else:
                takes += [d for d in hand if d in TAKEABLE]
        i = floor(self._random() * (1 + len(gives) * len(takes)))  # below(1 + trades)
        if i == 0:
            return Pass(seat)
        give, take = divmod(i - 1, len(takes))
        target = bisect_right(starts, take) - 1  # the last seat whose dice begin at or before
        return Trade(seat, gives[give], target, takes[take])


class HeuristicPlayer:
    """Drafts, trades and causes mischief by expected value."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: RoyaleState) -> RoyaleAction:
        phase = state.phase
        if phase is _OVER:
            raise ValueError("the game is over")
        seat, die = state.queue[0]
        if phase is _DRAFT:
            return self._pick(state, seat)
        if phase is _TRADE:
            return self._trade(state, seat)
        if phase is _CANNON:
            fire = state.values[die] * CANNON_MULTIPLIER >= cannon_value(ROUNDS - state.round)
            return Cannon(seat, die, fire)
        return self._mischief(state, seat)

    def _pick(self, state: RoyaleState, seat: int) -> RoyaleAction:
        """The pick that adds most to the hand's value (lots drawn between equal ones)."""
        best: list[str] = []
        best_gain = float("-inf")
        for d, gain in zip(state.pool, self.pick_gains(state, seat), strict=True):
            if gain > best_gain + 1e-9:
                best, best_gain = [d], gain
            elif abs(gain - best_gain) <= 1e-9:
                best.append(d)
        return Pick(seat, best[self.rng.below(len(best))])

    @staticmethod
    def pick_gains(state: RoyaleState, seat: int) -> list[float]:
        """What each die of the pool (in pool order) adds to ``seat``'s hand's value."""
        nxt = state.round + 1
        table = PARTS[nxt]
        a, b, c, r, g, f = parts_of(state.hands[seat], table)
        base = parts_value((a, b, c, r, g, f), nxt)
        gains = []
        for d in state.pool:
            p = table[d]
            gains.append(parts_value((a + p[0], b + p[1], c + p[2], r + p[3], g + p[4], f + p[5]),
                                     nxt) - base)
        return gains

    def _weights(self, state: RoyaleState, seat: int) -> list[float]:
        totals = state.totals()
        leader = max(t for i, t in enumerate(totals) if i != seat) if state.n > 1 else 0
        return [DENIAL_WEIGHT + (LEADER_WEIGHT if t == leader and i != seat else 0.0)
                for i, t in enumerate(totals)]

    def _trade(self, state: RoyaleState, seat: int) -> RoyaleAction:
        """The trade that gains most (ours, plus the weighted loss of the player traded with)
        if that is more than :data:`TRADE_THRESHOLD`, else Pass.
        """
        return self._trades(state, seat, None)

    def trade_scores(self, state: RoyaleState, seat: int) -> list[tuple[float, Trade]]:
        """The trades ``seat`` could make now with its first clear d6, one per player and
        kind of die (the first in :func:`legal_actions` order), each with its :meth:`_trade` score.
        """
        every: list[tuple[float, Trade]] = []
        self._trades(state, seat, every)
        return every

    def _trades(self, state: RoyaleState, seat: int,
                every: list[tuple[float, Trade]] | None) -> RoyaleAction:
        """The heuristic's trade or Pass; with ``every``, each trade's score is added to it.

        Every giveable die is a clear d6, all worth the same, so the first one's trades are
        every trade's scores, and dice of one kind score the same: the first of the best (in
        :func:`legal_actions` order) wins.
        """
        gives = tradeable_dice(state, seat)
        if not gives:
            return Pass(seat)
        nxt = state.round + 1
        rounds = ROUNDS - nxt + 1
        table = PARTS[nxt]
        parts = [parts_of(hand, table) for hand in state.hands]
        values = [parts_value(p, nxt) for p in parts]
        weights = self._weights(state, seat)
        g0, g1, g2, g3, g4, g5 = table[gives[0]]
        # Our hand without the die given, in parts_value's terms: (ours - give) + take.
        mine = parts[seat]
        m0, m1, m2, m3, m4, m5 = (mine[0] - g0, mine[1] - g1, mine[2] - g2, mine[3] - g3,
                                  mine[4] - g4, mine[5] - g5)
        my_value = values[seat]
        best: RoyaleAction = Pass(seat)
        best_gain = TRADE_THRESHOLD
        glitter = GLITTER_MULTIPLIER
        kind_of_die = _KIND_OF_DIE
        for target, hand in enumerate(state.hands):
            if target == seat:
                continue
            h0, h1, h2, h3, h4, h5 = parts[target]
            theirs = values[target]
            w = weights[target]
            seen: set[str] = set()  # dice of one kind score the same: the first one counts
            for d in hand:
                kind = kind_of_die[d]
                if kind in seen or d not in TAKEABLE:
                    continue
                seen.add(kind)
                t0, t1, t2, t3, t4, t5 = table[d]
                # parts_value of both hands after the trade, term by term as it computes them
                gain = ((m0 + t0) + (m1 + t1) * (glitter if m4 + t4 else 1)
                        + (m2 + t2) * (m3 + t3)) * rounds + (m5 + t5) - my_value
                after = (((h0 - t0) + g0) + ((h1 - t1) + g1) * (glitter if h4 - t4 + g4 else 1)
                         + ((h2 - t2) + g2) * ((h3 - t3) + g3)) * rounds + ((h5 - t5) + g5)
                score = gain + w * (theirs - after)
                if every is not None:
                    every.append((score, Trade(seat, gives[0], target, d)))
                if score > best_gain:
                    best, best_gain = Trade(seat, gives[0], target, d), score
        return best

    def _mischief(self, state: RoyaleState, seat: int) -> RoyaleAction:
        best: RoyaleAction | None = None
        best_loss = float("-inf")
        for loss, action in self.mischief_scores(state, seat):
            if loss > best_loss:
                best, best_loss = action, loss
        assert best is not None
        return best

    def mischief_scores(self, state: RoyaleState, seat: int) -> list[tuple[float, Mischief]]:
        """Every mischief ``seat`` may cause now (in :func:`mischief_targets` order), with the
        weighted loss the heuristic expects it to cause (it chooses the first of the highest).
        """
        weights = self._weights(state, seat)
        out: list[tuple[float, Mischief]] = []
        for owner, hand in enumerate(state.hands):
            if owner == seat:
                continue
            for d in hand:
                if d in YELLOW_DICE:
                    continue
                loss = self._reroll_loss(state, owner, d) * (1 + weights[owner])
                out.append((loss, Mischief(seat, d)))
        return out

    @staticmethod
    def _reroll_loss(state: RoyaleState, owner: int, die: str) -> float:
        """What re-rolling ``die`` is expected to cost its owner this round."""
        specs = state.dice.specs
        spec = specs[die]
        drop = state.values[die] - MEANS[die]
        col = spec.column
        hand = state.hands[owner]
        if spec.kind == MERCENARY_KIND:
            return drop * state.round
        if spec.kind == CANNON_KIND:
            return drop * CANNON_MULTIPLIER / 2
        if col == Column.PURPLE:
            return drop * PURPLE_MULTIPLIER
        if col == Column.RED:
            return drop * sum(1 for d in hand if specs[d].column == Column.RED)
        if col == Column.BLUE and any(specs[d].kind == GLITTER for d in hand):
            return drop * GLITTER_MULTIPLIER
        return drop
