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

The odds live in :mod:`bot.rules.royale.round_odds`, the play-outs' policy in
:mod:`bot.rules.royale.fast_heuristic`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.ai import (
    HeuristicPlayer,
    Parts,
    cannon_value,
    hand_value,
    parts_value,
)
from bot.rules.royale.dice import (
    CANNON_KIND,
    CANNON_MULTIPLIER,
    ROUNDS,
    DiceSet,
    DieSpec,
)
from bot.rules.royale.engine import apply_in_place, current_seat, tradeable_dice
from bot.rules.royale.fast_heuristic import FastHeuristic
from bot.rules.royale.round_odds import _moments, _RoundParts, round_parts, win_chance
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

def _die_type(spec: DieSpec) -> tuple[str, int, str]:
    return (spec.color, spec.sides, spec.kind)


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
