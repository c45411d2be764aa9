"""Lean play-outs of the base game for the expert player (:mod:`bot.rules.royale.expert`).

A play-out finishes the current round's trade pass and draft, then plays every round left to
the end of the game, every seat played by the heuristic player's rules
(:class:`~bot.rules.royale.fast_heuristic.FastHeuristic`: the same picks and trades, exact
ties aside), on plain lists of small integers instead of the engine's checked state: several
times faster, so the expert can afford more play-outs per decision.

Each play-out runs in one :class:`Future`: the dice faces of every round, the yellow re-rolls
and the draft pools drawn in advance from the future's own seed, *per die*. Two play-outs of
the same future that differ by one decision see the same faces on the same dice and the same
draft pools (as long as the same dice are in the bag): common random numbers, so the
difference of their outcomes is mostly the decisions' own.

Base game only (no Mayhem option): the expert plays the others through the engine.
"""

from __future__ import annotations

from _random import Random
from collections.abc import Sequence

from bot.rules.royale.ai import TRADE_THRESHOLD, Parts, die_parts
from bot.rules.royale.dice import PURPLE_MULTIPLIER, ROUNDS, Column, DiceSet
from bot.rules.royale.round_odds import _RoundParts, round_parts

_FLAT_COLUMNS = (Column.YELLOW, Column.GREEN, Column.CLEAR, Column.PINK)


class Dice:
    """Everything the play-outs need about one dice set, by die number."""

    __slots__ = ("faces", "giveable", "ids", "index", "kind", "moments", "parts", "pity",
                 "sides", "takeable", "yellow")

    def __init__(self, ds: DiceSet) -> None:
        specs = list(ds.specs.values())
        self.ids = [sp.id for sp in specs]
        self.index = {sp.id: i for i, sp in enumerate(specs)}
        self.faces = [sp.faces for sp in specs]
        self.sides = [sp.sides for sp in specs]
        # The heuristic's value parts (the same for every round in the base game) and each
        # die's expected points and variance in one round.
        self.parts: list[Parts] = [die_parts(sp, 1) for sp in specs]
        self.moments: list[_RoundParts] = [round_parts(sp, 1) for sp in specs]
        self.giveable = [sp.giveable for sp in specs]
        self.takeable = [sp.takeable for sp in specs]
        self.yellow = [sp.color == "yellow" for sp in specs]
        # How a rolled face scores: 0 flat, 1 purple, 2 blue, 3 blue glitter, 4 red.
        kind = []
        for sp in specs:
            if sp.column == Column.PURPLE:
                kind.append(1)
            elif sp.column == Column.BLUE:
                kind.append(3 if sp.kind == "glitter" else 2)
            elif sp.column == Column.RED:
                kind.append(4)
            else:
                kind.append(0)
        self.kind = kind
        self.pity = [self.index[d] for d in ds.pity]


_DICE: dict[int, tuple[DiceSet, Dice]] = {}


def dice_of(ds: DiceSet) -> Dice:
    """The :class:`Dice` of a dice set (kept: dice sets are immutable and few)."""
    got = _DICE.get(id(ds))
    if got is None or got[0] is not ds:
        if len(_DICE) > 32:
            _DICE.clear()
        got = _DICE[id(ds)] = (ds, Dice(ds))
    return got[1]


class Future:
    """The dice of one determinised future: each round's faces and draft order, per die."""

    __slots__ = ("_order", "_rand", "_rerolls", "_uniform", "dice")

    def __init__(self, dice: Dice, seed: int) -> None:
        self.dice = dice
        self._rand = Random(seed).random
        self._uniform: dict[int, list[float]] = {}
        self._order: dict[int, list[int]] = {}
        self._rerolls: dict[tuple[int, int], list[float]] = {}

    def uniforms(self, r: int) -> list[float]:
        """One uniform number per die for round ``r``'s roll."""
        u = self._uniform.get(r)
        if u is None:
            rand = self._rand
            u = self._uniform[r] = [rand() for _ in self.dice.ids]
        return u

    def reroll(self, r: int, k: int) -> list[float]:
        """One uniform number per die for the ``k``-th yellow re-roll of round ``r``."""
        u = self._rerolls.get((r, k))
        if u is None:
            rand = self._rand
            u = self._rerolls[(r, k)] = [rand() for _ in self.dice.ids]
        return u

    def order(self, r: int) -> list[int]:
        """Every die in a random order: round ``r``'s pool is the first few in the bag."""
        o = self._order.get(r)
        if o is None:
            rand = self._rand
            keys = [rand() for _ in self.dice.ids]
            o = self._order[r] = sorted(range(len(keys)), key=keys.__getitem__)
        return o


class Start:
    """A decision's game state, by die number (see :func:`start_of`)."""

    __slots__ = ("bag", "given", "hands", "pool", "queue", "round", "token", "totals", "trade",
                 "yellow")

    def __init__(self, hands: list[list[int]], bag: list[bool], pool: list[int],
                 given: set[int], trade: bool, queue: list[int], round_no: int, token: int,
                 yellow: list[int], totals: list[float]) -> None:
        self.hands = hands
        self.bag = bag
        self.pool = pool
        self.given = given
        self.trade = trade
        self.queue = queue
        self.round = round_no
        self.token = token
        self.yellow = yellow
        self.totals = totals


def _hand_value(parts: list[Parts], hand: Sequence[int]) -> tuple[float, float, float, int, int]:
    a = b = c = 0.0
    r = g = 0
    for d in hand:
        p = parts[d]
        a += p[0]
        b += p[1]
        c += p[2]
        r += p[3]
        g += p[4]
    return a, b, c, r, g


def pick_gain(parts: list[Parts], hand: Sequence[int], die: int) -> float:
    """What ``die`` adds to ``hand``'s value per round left, as the heuristic counts it."""
    a, b, c, r, g = _hand_value(parts, hand)
    p = parts[die]
    before = a + b * (2 if g else 1) + c * r
    g2 = g + p[4]
    return a + p[0] + (b + p[1]) * (2 if g2 else 1) + (c + p[2]) * (r + p[3]) - before


def heuristic_pick(dice: Dice, hand: Sequence[int], pool: Sequence[int]) -> int:
    """The heuristic's pick from ``pool`` (the first of equal gains)."""
    parts = dice.parts
    a, b, c, r, g = _hand_value(parts, hand)
    best = pool[0]
    best_gain = float("-inf")
    for d in pool:
        p = parts[d]
        gain = a + p[0] + (b + p[1]) * (2 if g + p[4] else 1) + (c + p[2]) * (r + p[3])
        if gain > best_gain + 1e-9:
            best, best_gain = d, gain
    return best


def trade_scores(dice: Dice, hands: Sequence[Sequence[int]], seat: int, give: int,
                 rounds: int, totals: Sequence[float]) -> list[tuple[float, int, int]]:
    """The heuristic's score of every trade of ``give`` (one per target and die), in its
    order: (score, target, die taken).
    """
    parts = dice.parts
    takeable = dice.takeable
    n = len(hands)
    leader = max(t for i, t in enumerate(totals) if i != seat)
    sums = [_hand_value(parts, h) for h in hands]
    vals = [a + b * (2 if g else 1) + c * r for a, b, c, r, g in sums]
    g0, g1, g2, g3, g4, _ = parts[give]
    s0, s1, s2, s3, s4 = sums[seat]
    m0, m1, m2, m3, m4 = s0 - g0, s1 - g1, s2 - g2, s3 - g3, s4 - g4
    mine = vals[seat]
    out: list[tuple[float, int, int]] = []
    for target in range(n):
        if target == seat:
            continue
        h0, h1, h2, h3, h4 = sums[target]
        theirs = vals[target]
        w = 0.35 + (0.25 if totals[target] == leader else 0.0)
        done: set[Parts] = set()
        for d in hands[target]:
            take = parts[d]
            if take in done or not takeable[d]:
                continue
            done.add(take)
            t0, t1, t2, t3, t4, _ = take
            gain = ((m0 + t0) + (m1 + t1) * (2 if m4 + t4 else 1) + (m2 + t2) * (m3 + t3)) - mine
            after = (((h0 - t0) + g0) + ((h1 - t1) + g1) * (2 if h4 - t4 + g4 else 1)
                     + ((h2 - t2) + g2) * ((h3 - t3) + g3))
            out.append(((gain + w * (theirs - after)) * rounds, target, d))
    return out


def heuristic_trade(dice: Dice, hands: Sequence[Sequence[int]], seat: int, give: int,
                    rounds: int, totals: Sequence[float]) -> tuple[int, int] | None:
    """The heuristic's trade of ``give`` (target, die taken), or None to pass."""
    best: tuple[int, int] | None = None
    best_score = TRADE_THRESHOLD
    for score, target, d in trade_scores(dice, hands, seat, give, rounds, totals):
        if score > best_score:
            best, best_score = (target, d), score
    return best


def _trade_turn(dice: Dice, st: Start, seat: int, rounds: int) -> None:
    hand = st.hands[seat]
    giveable = dice.giveable
    given = st.given
    while True:
        give = next((d for d in hand if giveable[d] and d not in given), None)
        if give is None:
            return
        choice = heuristic_trade(dice, st.hands, seat, give, rounds, st.totals)
        if choice is None:
            return
        target, take = choice
        _swap(st, seat, give, target, take)


def _swap(st: Start, seat: int, give: int, target: int, take: int) -> None:
    hand, theirs = st.hands[seat], st.hands[target]
    hand.remove(give)
    theirs.remove(take)
    theirs.append(give)
    hand.append(take)
    st.given.add(give)


def _draft(dice: Dice, st: Start, queue: Sequence[int]) -> None:
    pool = st.pool
    for seat in queue:
        if not pool:
            break
        d = heuristic_pick(dice, st.hands[seat], pool)
        pool.remove(d)
        st.hands[seat].append(d)
    for d in pool:
        st.bag[d] = True
    st.pool = []


def _draw_pool(fut: Future, st: Start, r: int) -> None:
    bag = st.bag
    want = len(st.hands) + 1
    pool: list[int] = []
    for d in fut.order(r):
        if bag[d]:
            pool.append(d)
            bag[d] = False
            if len(pool) == want:
                break
    st.pool = pool


def _draft_order(yellow: Sequence[int], token: int) -> list[int]:
    n = len(yellow)
    return sorted(range(n), key=lambda p: (-yellow[p], (p - token) % n))


def _roll(dice: Dice, fut: Future, st: Start, r: int) -> None:
    """Roll round ``r`` (< 10): the yellow tie, the token, the scores, the pity dice."""
    faces, sides, kind, is_yellow = dice.faces, dice.sides, dice.kind, dice.yellow
    u = fut.uniforms(r)
    n = len(st.hands)
    yellow = [0] * n
    scores = [0.0] * n
    anyone = False
    for seat, hand in enumerate(st.hands):
        flat = purple = blue = red = 0
        reds = 0
        glitter = False
        for d in hand:
            if is_yellow[d]:
                anyone = True
                continue
            v = faces[d][int(u[d] * sides[d])]
            k = kind[d]
            if k == 0:
                flat += v
            elif k == 1:
                purple += v
            elif k == 4:
                red += v
                reds += 1
            else:
                blue += v
                glitter |= k == 3
        scores[seat] = flat + PURPLE_MULTIPLIER * purple + blue * (2 if glitter else 1) + red * reds
    token = st.token
    if anyone:
        k = 0
        while True:
            for seat, hand in enumerate(st.hands):
                yellow[seat] = sum([faces[d][int(u[d] * sides[d])] for d in hand if is_yellow[d]])
            top = max(yellow)
            if yellow.count(top) == 1:
                token = yellow.index(top)
                break
            k += 1
            u = fut.reroll(r, k)
    st.token = token
    st.yellow = yellow
    round_totals = [scores[i] + yellow[i] for i in range(n)]
    for i in range(n):
        st.totals[i] += round_totals[i]
    pity = dice.pity
    for hand in st.hands:
        for d in pity:
            if d in hand:
                hand.remove(d)
    order = sorted(range(n), key=lambda p: (round_totals[p], (token - 1 - p) % n))
    for seat, d in zip(order, pity, strict=False):
        st.hands[seat].append(d)
    st.given = set()


def _moments(moments: list[_RoundParts], hand: Sequence[int]) -> tuple[float, float]:
    flat = blue = red = flat_var = blue_var = red_var = 0.0
    reds = glitters = 0
    for d in hand:
        p = moments[d]
        flat += p[0]
        blue += p[1]
        red += p[2]
        reds += p[3]
        glitters += p[4]
        flat_var += p[5]
        blue_var += p[6]
        red_var += p[7]
    double = 2 if glitters else 1
    return (flat + blue * double + red * reds,
            flat_var + blue_var * double * double + red_var * reds * reds)


def play_out(fut: Future, st: Start) -> tuple[list[float], list[float]]:
    """Play ``st`` (a decision already made in it; ``st`` is used up) to the end of the game.

    Returns each seat's expected points from the rounds after ``st.round`` (the dice's luck in
    the play-out left out) and their variance.
    """
    dice = fut.dice
    n = len(st.hands)
    gained = [0.0] * n
    spread = [0.0] * n
    moments = dice.moments
    r = st.round
    if st.trade:
        rounds = ROUNDS - r
        for seat in st.queue:
            _trade_turn(dice, st, seat, rounds)
        _draw_pool(fut, st, r)
        st.queue = _draft_order(st.yellow, st.token)
    _draft(dice, st, st.queue)
    while True:
        r += 1
        for seat, hand in enumerate(st.hands):
            m, v = _moments(moments, hand)
            gained[seat] += m
            spread[seat] += v
        if r == ROUNDS:
            return gained, spread
        _roll(dice, fut, st, r)
        rounds = ROUNDS - r
        for i in range(1, n + 1):
            _trade_turn(dice, st, (st.token + i) % n, rounds)
        _draw_pool(fut, st, r)
        _draft(dice, st, _draft_order(st.yellow, st.token))
