"""Computer players for Panda Royale.

* :class:`RandomPlayer` picks uniformly among the legal actions.
* :class:`HeuristicPlayer` values every die by the points it is expected to add to its holder's
  hand over the rounds left (column multipliers, red and glitter interplay, Mercenary losses,
  the Cannon's best stopping point), and drafts, trades, aims mischief and fires Cannons by that
  value.
* :class:`~bot.rules.royale.expert.ExpertPlayer` ("expert", module ``expert``) looks ahead by
  playing the heuristic's best draft picks out to the end of the game.

:func:`bot.rules.royale.players.make_player` builds any of them by name or level.

Each player has its own seeded generator, so a simulated game is reproducible; the game's own
randomness stays in the game state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.dice import (
    CANNON_KIND,
    CANNON_MULTIPLIER,
    CAPTAIN_SIDES,
    GLITTER,
    MERCENARY_KIND,
    MISCHIEF_KIND,
    PITY,
    ROUNDS,
    Column,
    DieSpec,
)
from bot.rules.royale.engine import legal_actions, tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState

# Tuning of the heuristic (points).
CLEAR_TRADE_OPTION = 1.5  # per round: what holding a tradeable clear d6 is worth beyond its face
MISCHIEF_BONUS = 1.0  # per round: the chance to cause mischief
YELLOW_PRIORITY = 0.3  # per point of yellow: earlier draft picks, the token
TRADE_THRESHOLD = 1.0  # a trade must gain at least this much
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
        return (2 * m, 0.0, 0.0, 0, 0, 0.0)
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
    return (flat + blue * (2 if glitters else 1) + red * reds) * rounds + extra


def hand_value(dice: Iterable[DieSpec], next_round: int) -> float:
    """Expected points ``dice`` will score from ``next_round`` to the end of the game."""
    return parts_value(hand_parts(dice, next_round), next_round)


class RandomPlayer:
    """Uniformly random among the legal actions."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: RoyaleState) -> RoyaleAction:
        """``legal_actions(state)[i]`` for a uniform ``i``, without listing every action."""
        phase = state.phase
        if phase is Phase.DRAFT:
            pool = state.pool
            return Pick(state.queue[0][0], pool[self.rng.below(len(pool))])
        if phase is Phase.TRADE:
            return self._trade(state)
        if phase is Phase.CANNON:
            seat, die = state.queue[0]
            return Cannon(seat, die, self.rng.below(2) == 0)
        actions = legal_actions(state)
        return actions[self.rng.below(len(actions))]

    def _trade(self, state: RoyaleState) -> RoyaleAction:
        """The same choice as ``legal_actions(state)[i]`` (Pass, then every trade by clear die,
        player and die), without building every trade.
        """
        seat = state.queue[0][0]
        specs = state.dice.specs
        gives = tradeable_dice(state, seat)
        takes = [(target, [d for d in hand if specs[d].takeable])
                 for target, hand in enumerate(state.hands) if target != seat]
        per_give = sum(len(dice) for _, dice in takes)
        i = self.rng.below(1 + len(gives) * per_give)
        if i == 0:
            return Pass(seat)
        give, j = divmod(i - 1, per_give)
        for target, dice in takes:
            if j < len(dice):
                return Trade(seat, gives[give], target, dice[j])
            j -= len(dice)
        raise AssertionError("unreachable: the index is below the number of trades")


class HeuristicPlayer:
    """Drafts, trades and causes mischief by expected value."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: RoyaleState) -> RoyaleAction:
        phase = state.phase
        if phase is Phase.OVER:
            raise ValueError("the game is over")
        seat = state.queue[0][0]
        if phase is Phase.DRAFT:
            return self._pick(state, seat)
        if phase is Phase.TRADE:
            return self._trade(state, seat)
        if phase is Phase.CANNON:
            die = state.queue[0][1]
            fire = state.values[die] * CANNON_MULTIPLIER >= cannon_value(ROUNDS - state.round)
            return Cannon(seat, die, fire)
        return self._mischief(state, seat)

    @staticmethod
    def _specs(state: RoyaleState, hand: Sequence[str]) -> list[DieSpec]:
        specs = state.dice.specs
        return [specs[d] for d in hand]

    def _pick(self, state: RoyaleState, seat: int) -> RoyaleAction:
        mine = self._specs(state, state.hands[seat])
        nxt = state.round + 1
        base = hand_value(mine, nxt)
        specs = state.dice.specs
        best: list[str] = []
        best_gain = float("-inf")
        for d in state.pool:
            gain = hand_value([*mine, specs[d]], nxt) - base
            if gain > best_gain + 1e-9:
                best, best_gain = [d], gain
            elif abs(gain - best_gain) <= 1e-9:
                best.append(d)
        return Pick(seat, best[self.rng.below(len(best))])

    def _weights(self, state: RoyaleState, seat: int) -> list[float]:
        totals = state.totals()
        leader = max(t for i, t in enumerate(totals) if i != seat) if state.n > 1 else 0
        return [DENIAL_WEIGHT + (LEADER_WEIGHT if t == leader and i != seat else 0.0)
                for i, t in enumerate(totals)]

    def _trade(self, state: RoyaleState, seat: int) -> RoyaleAction:
        best: RoyaleAction = Pass(seat)
        best_gain = TRADE_THRESHOLD
        nxt = state.round + 1
        specs = state.dice.specs
        parts = [hand_parts(self._specs(state, hand), nxt) for hand in state.hands]
        values = [parts_value(p, nxt) for p in parts]
        weights = self._weights(state, seat)
        mine = parts[seat]
        for a in legal_actions(state):
            if not isinstance(a, Trade):
                continue
            give, take = die_parts(specs[a.give], nxt), die_parts(specs[a.take], nxt)
            my_after = add_parts(add_parts(mine, give, -1), take)
            their_after = add_parts(add_parts(parts[a.target], take, -1), give)
            gain = parts_value(my_after, nxt) - values[seat]
            loss = values[a.target] - parts_value(their_after, nxt)
            score = gain + weights[a.target] * loss
            if score > best_gain:
                best, best_gain = a, score
        return best

    def _mischief(self, state: RoyaleState, seat: int) -> RoyaleAction:
        weights = self._weights(state, seat)
        best: RoyaleAction | None = None
        best_loss = float("-inf")
        for a in legal_actions(state):
            assert isinstance(a, Mischief)
            owner = state.owner_of(a.die)
            assert owner is not None
            loss = self._reroll_loss(state, owner, a.die) * (1 + weights[owner])
            if loss > best_loss:
                best, best_loss = a, loss
        assert best is not None
        return best

    @staticmethod
    def _reroll_loss(state: RoyaleState, owner: int, die: str) -> float:
        """What re-rolling ``die`` is expected to cost its owner this round."""
        specs = state.dice.specs
        spec = specs[die]
        drop = state.values[die] - mean(spec)
        col = spec.column
        hand = state.hands[owner]
        if spec.kind == MERCENARY_KIND:
            return drop * state.round
        if spec.kind == CANNON_KIND:
            return drop * CANNON_MULTIPLIER / 2
        if col == Column.PURPLE:
            return drop * 2
        if col == Column.RED:
            return drop * sum(1 for d in hand if specs[d].column == Column.RED)
        if col == Column.BLUE and any(specs[d].kind == GLITTER for d in hand):
            return drop * 2
        return drop


__all__ = [
    "HeuristicPlayer",
    "RandomPlayer",
    "cannon_value",
    "die_parts",
    "hand_value",
    "mercenary_value",
]

