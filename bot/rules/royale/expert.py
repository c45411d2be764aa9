"""The expert Panda Royale player: Monte-Carlo look-ahead over the heuristic player.

For a draft pick the expert plays out each of the heuristic's few best picks (distinct die
types) to the end of the game on copies of it, every seat (itself included) played by the
heuristic, in a handful of determinised futures. In a play-out only the decisions' effects
count, not the dice's luck: every round rolled in it scores the *expected* points of each hand
(and a fired Cannon its real points), which removes most of the noise, and the variance of
those points is kept too. A pick's worth is its average win chance: at the end of a play-out
each seat's final total is taken as normal (expected points, dice variance), and the chance that
the expert's beats every other is computed. Aiming at the win rather than the expected margin
makes the expert take risks when behind and play safe when ahead; it won about 3 points of win
share more in our measurements. Trading turns, Cannons and mischief are the heuristic's (the
Cannon rule already is the best stopping point for the expected points; playing out trades did
not pay for its time).

The look-ahead never touches the game's own generator: each copy gets a fresh
:class:`~bot.rules.rng.Rng` seeded from the expert's own seeded generator, so the real game's
dice are neither predicted nor consumed; the only hidden information, the dice and bag draws
to come, is what the futures sample. All candidates of a decision share the same futures
(common random numbers: each roll draws one number whatever the die), so their differences are
mostly the decision's own.

Deterministic: the same seed and the same sequence of states give the same choices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.ai import (
    TRADE_THRESHOLD,
    HeuristicPlayer,
    Parts,
    add_parts,
    cannon_value,
    die_parts,
    hand_value,
    mean,
    parts_value,
)
from bot.rules.royale.dice import (
    CANNON_KIND,
    CANNON_MULTIPLIER,
    GLITTER,
    GLITTER_MULTIPLIER,
    MERCENARY_KIND,
    PURPLE_MULTIPLIER,
    ROUNDS,
    Column,
    DiceSet,
    DieSpec,
)
from bot.rules.royale.engine import apply_in_place, current_seat, tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState

PICK_CANDIDATES = 4
"""Draft picks played out: the heuristic's best few (of distinct die types)."""
FUTURES = 3
"""Determinised futures per candidate."""
OBJECTIVE = "win"
"""What a play-out's end is worth: ``"win"`` (the win chance) or ``"margin"`` (below)."""
LEADER_SHARE = 0.5
"""With ``objective="margin"``: the margin is over ``LEADER_SHARE`` x the best opponent + the
rest x the opponents' mean."""

_SEED_RANGE = 1 << 62

# One die's share of its hand's points in one round: (flat, blue, red, red dice, glitter dice)
# means, then the variances of the flat, blue and red parts (before the column multipliers).
_RoundParts = tuple[float, float, float, int, int, float, float, float]


def _die_type(spec: DieSpec) -> tuple[str, int, str]:
    return (spec.color, spec.sides, spec.kind)


def _variance(spec: DieSpec) -> float:
    m = mean(spec)
    return sum((f - m) ** 2 for f in spec.faces) / spec.sides


def round_parts(spec: DieSpec, round_no: int) -> _RoundParts:
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


def round_points(dice: Sequence[DieSpec], round_no: int) -> float:
    """The expected points of one round of a hand (pity dice included)."""
    return _moments([round_parts(spec, round_no) for spec in dice])[0]


def _moments(parts: Sequence[_RoundParts]) -> tuple[float, float]:
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


class ExpertPlayer:
    """Monte-Carlo look-ahead over heuristic play-outs (see the module docstring).

    The defaults are the measured best trade-off of strength and time. ``futures`` and
    ``pick_candidates`` size the look-ahead, ``objective`` is ``"win"`` or ``"margin"`` and
    ``leader_share`` blends the opponents of the margin;
    ``trade_candidates`` > 0 also plays out that many trades (besides Pass and the heuristic's
    own choice) on trading turns, and ``extra`` > 0 plays the two leading candidates out in that
    many more futures. Neither paid for its time in 4-player games against the heuristic, so
    both are off by default.
    """

    def __init__(
        self,
        seed: int,
        *,
        futures: int = FUTURES,
        pick_candidates: int = PICK_CANDIDATES,
        leader_share: float = LEADER_SHARE,
        trade_candidates: int = 0,
        extra: int = 0,
        objective: str = OBJECTIVE,
    ) -> None:
        if objective not in ("win", "margin"):
            raise ValueError(f"unknown objective {objective!r}: use 'win' or 'margin'")
        self.objective = objective
        self.rng = Rng(seed)
        self.heuristic = HeuristicPlayer(seed)
        self.rollout = FastHeuristic(seed)
        self.futures = futures
        self.pick_candidates = pick_candidates
        self.leader_share = leader_share
        self.trade_candidates = trade_candidates
        self.extra = extra
        self._round_tables: dict[tuple[int, int], dict[str, _RoundParts]] = {}

    def choose(self, state: RoyaleState) -> RoyaleAction:
        """The expert's decision for the seat that must decide now."""
        if state.phase is Phase.TRADE and self.trade_candidates > 0:
            candidates = self._trade_candidates(state)
        elif state.phase is not Phase.DRAFT:
            return self.heuristic.choose(state)  # raises on a finished game
        else:
            candidates = self._pick_candidates(state)
        if len(candidates) == 1 or self.futures < 1:
            return candidates[0]
        return self._best(state, candidates)

    def _pick_candidates(self, state: RoyaleState) -> list[RoyaleAction]:
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

    def _trade_candidates(self, state: RoyaleState) -> list[RoyaleAction]:
        """The heuristic's choice, Pass and its best other trades (one per target and type)."""
        seat = state.queue[0][0]
        first = self.rollout.choose(state)
        out: list[RoyaleAction] = [first] if isinstance(first, Pass) else [first, Pass(seat)]
        specs = state.dice.specs
        nxt = state.round + 1
        table = self.rollout._table(state, nxt)
        gives = tradeable_dice(state, seat)
        mine = parts_value(self.rollout._sum(table, state.hands[seat]), nxt)
        ranked: list[tuple[float, Trade]] = []
        seen: set[tuple[int, Parts]] = set()
        for target, hand in enumerate(state.hands):
            if target == seat:
                continue
            for d in hand:
                key = (target, table[d])
                if key in seen or not specs[d].takeable:
                    continue
                seen.add(key)
                after = [*(x for x in state.hands[seat] if x != gives[0]), d]
                gain = parts_value(self.rollout._sum(table, after), nxt) - mine
                ranked.append((gain, Trade(seat, gives[0], target, d)))
        ranked.sort(key=lambda ga: -ga[0])
        for _, a in ranked:
            if len(out) > self.trade_candidates:
                break
            if a != first:
                out.append(a)
        return out

    # ------------------------------------------------------------------ look-ahead

    def _best(self, state: RoyaleState, candidates: Sequence[RoyaleAction]) -> RoyaleAction:
        """The candidate of best average margin over the futures (first best on ties).

        With ``extra`` futures, the two leaders after the first ``futures`` are played out in
        that many more (successive halving: the close calls get the samples).
        """
        seat = state.queue[0][0]
        seeds = [self.rng.below(_SEED_RANGE) for _ in range(self.futures + self.extra)]
        totals = state.totals()
        first = seeds[: self.futures]
        scores = [self._worth(state, seat, totals, a, first) for a in candidates]
        order = sorted(range(len(candidates)), key=lambda i: -scores[i])  # stable on ties
        if self.extra:
            more = seeds[self.futures:]
            for i in order[:2]:
                scores[i] += self._worth(state, seat, totals, candidates[i], more)
            order = sorted(order[:2], key=lambda i: (-scores[i], i))
        return candidates[order[0]]

    def _worth(self, state: RoyaleState, seat: int, totals: Sequence[int],
               action: RoyaleAction, seeds: Sequence[int]) -> float:
        total = 0.0
        for seed in seeds:
            s = state.clone()
            s.rng = Rng(seed)
            self.rollout.rng = Rng(seed + 1)
            gained, spread = self._play_out(s, action)
            total += self._score(seat, totals, gained, spread)
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

    def _score(self, seat: int, totals: Sequence[int], gained: Sequence[float],
               spread: Sequence[float]) -> float:
        """What a play-out's end is worth to ``seat``: its win chance (``objective="win"``) or
        its expected final total minus a blend of the opponents' best and mean.
        """
        worth = [t + g for t, g in zip(totals, gained, strict=True)]
        others = [w for i, w in enumerate(worth) if i != seat]
        if not others:
            return worth[seat]
        if self.objective == "win":
            return win_chance(
                (worth[seat], spread[seat]),
                [(w, v) for i, (w, v) in enumerate(zip(worth, spread, strict=True)) if i != seat],
            )
        blend = self.leader_share * max(others) + (1 - self.leader_share) * (
            sum(others) / len(others)
        )
        return worth[seat] - blend


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
