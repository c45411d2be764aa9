"""Lean play-outs of the base game for the expert player (:mod:`bot.rules.royale.expert`).

A play-out finishes the current round's trade pass and draft, then plays every round left to
the end of the game, every seat played by the heuristic player's rules
(:class:`~bot.rules.royale.ai.HeuristicPlayer`: the same picks and trades, exact ties
aside), on plain lists of small integers instead of the engine's checked state: several
times faster, so the expert can afford more play-outs per decision.

Each play-out runs in one :class:`~bot.rules.royale.expert_futures.Future`: the dice faces of
every round, the yellow re-rolls and the draft pools drawn in advance from the future's own
seed, *per die*, so two play-outs of one future that differ by a decision differ mostly by
that decision (common random numbers).

Base game only (no Mayhem option): the expert plays the others through the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.ai import TRADE_THRESHOLD, Parts
from bot.rules.royale.dice import PURPLE_MULTIPLIER, ROUNDS
from bot.rules.royale.expert_futures import Dice, Future


class Start:
    """A decision's game state, by die number (see
    :func:`bot.rules.royale.expert_search.start_of`), with each hand's sums kept up to date:
    ``hs``, the heuristic's value parts (:func:`pick_gain`), and ``ms``, the round's expected
    points and variance parts (:func:`_moments`). Dice move only by :func:`put` and
    :func:`take_out`.
    """

    __slots__ = ("bag", "given", "hands", "hs", "ms", "pool", "queue", "round", "token",
                 "totals", "trade", "yellow")

    def __init__(self, hands: list[list[int]], bag: list[bool], pool: list[int],
                 given: set[int], trade: bool, queue: list[int], round_no: int, token: int,
                 yellow: list[int], totals: list[float], dice: Dice | None = None,
                 sums: tuple[list[list[float]], list[list[float]]] | None = None) -> None:
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
        if sums is not None:
            self.hs, self.ms = sums
        else:
            assert dice is not None
            self.hs = [[0.0] * 5 for _ in hands]
            self.ms = [[0.0] * 8 for _ in hands]
            for seat, hand in enumerate(hands):
                for d in hand:
                    _add(dice, self, seat, d, 1)

    def copy(self) -> Start:
        """A copy to play on."""
        return Start([list(h) for h in self.hands], list(self.bag), list(self.pool),
                     set(self.given), self.trade, list(self.queue), self.round, self.token,
                     self.yellow, list(self.totals),
                     sums=([list(h) for h in self.hs], [list(m) for m in self.ms]))


def _add(dice: Dice, st: Start, seat: int, d: int, sign: int) -> None:
    p = dice.parts[d]
    if p[0] or p[1] or p[2]:  # a pity die is worth nothing to the heuristic
        h = st.hs[seat]
        h[0] += sign * p[0]
        h[1] += sign * p[1]
        h[2] += sign * p[2]
        h[3] += sign * p[3]
        h[4] += sign * p[4]
    m = st.ms[seat]
    q = dice.moments[d]
    m[0] += sign * q[0]
    m[1] += sign * q[1]
    m[2] += sign * q[2]
    m[3] += sign * q[3]
    m[4] += sign * q[4]
    m[5] += sign * q[5]
    m[6] += sign * q[6]
    m[7] += sign * q[7]


def put(dice: Dice, st: Start, seat: int, d: int) -> None:
    """Die ``d`` into ``seat``'s hand (last)."""
    st.hands[seat].append(d)
    _add(dice, st, seat, d, 1)


def take_out(dice: Dice, st: Start, seat: int, d: int) -> None:
    """Die ``d`` out of ``seat``'s hand."""
    st.hands[seat].remove(d)
    _add(dice, st, seat, d, -1)


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


def _best_pick(parts: list[Parts], sums: Sequence[float], pool: Sequence[int]) -> int:
    a, b, c, r, g = sums
    best = pool[0]
    best_gain = float("-inf")
    for d in pool:
        p = parts[d]
        gain = a + p[0] + (b + p[1]) * (2 if g + p[4] else 1) + (c + p[2]) * (r + p[3])
        if gain > best_gain + 1e-9:
            best, best_gain = d, gain
    return best


def heuristic_pick(dice: Dice, hand: Sequence[int], pool: Sequence[int]) -> int:
    """The heuristic's pick from ``pool`` (the first of equal gains)."""
    return _best_pick(dice.parts, _hand_value(dice.parts, hand), pool)


def _trades(dice: Dice, hands: Sequence[Sequence[int]], sums: Sequence[Sequence[float]],
            seat: int, give: int, rounds: int, totals: Sequence[float],
            every: list[tuple[float, int, int]] | None) -> tuple[int, int] | None:
    """The heuristic's trade of ``give`` (target, die taken) or None (pass); with ``every``,
    each trade's score (one per target and die type) is appended to it too.
    """
    parts = dice.parts
    kinds = dice.trade_kind
    leader = max(t for i, t in enumerate(totals) if i != seat)
    vals = [a + b * (2 if g else 1) + c * r for a, b, c, r, g in sums]
    g0, g1, g2, g3, g4, _ = parts[give]
    s0, s1, s2, s3, s4 = sums[seat]
    m0, m1, m2, m3, m4 = s0 - g0, s1 - g1, s2 - g2, s3 - g3, s4 - g4
    mine = vals[seat]
    best: tuple[int, int] | None = None
    best_score = TRADE_THRESHOLD
    for target, hand in enumerate(hands):
        if target == seat:
            continue
        h0, h1, h2, h3, h4 = sums[target]
        theirs = vals[target]
        w = 0.35 + (0.25 if totals[target] == leader else 0.0)
        done = 1  # kind 0: not takeable
        for d in hand:
            bit = 1 << kinds[d]
            if done & bit:
                continue
            done |= bit
            t0, t1, t2, t3, t4, _ = parts[d]
            gain = ((m0 + t0) + (m1 + t1) * (2 if m4 + t4 else 1) + (m2 + t2) * (m3 + t3)) - mine
            after = (((h0 - t0) + g0) + ((h1 - t1) + g1) * (2 if h4 - t4 + g4 else 1)
                     + ((h2 - t2) + g2) * ((h3 - t3) + g3))
            score = (gain + w * (theirs - after)) * rounds
            if every is not None:
                every.append((score, target, d))
            if score > best_score:
                best, best_score = (target, d), score
    return best


def trade_scores(dice: Dice, hands: Sequence[Sequence[int]], seat: int, give: int,
                 rounds: int, totals: Sequence[float]) -> list[tuple[float, int, int]]:
    """The heuristic's score of every trade of ``give`` (one per target and die type), in its
    order: (score, target, die taken).
    """
    out: list[tuple[float, int, int]] = []
    _trades(dice, hands, [_hand_value(dice.parts, h) for h in hands], seat, give, rounds,
            totals, out)
    return out


def heuristic_trade(dice: Dice, hands: Sequence[Sequence[int]], seat: int, give: int,
                    rounds: int, totals: Sequence[float]) -> tuple[int, int] | None:
    """The heuristic's trade of ``give`` (target, die taken), or None to pass."""
    return _trades(dice, hands, [_hand_value(dice.parts, h) for h in hands], seat, give,
                   rounds, totals, None)


def _trade_turn(dice: Dice, st: Start, seat: int, rounds: int) -> None:
    hand = st.hands[seat]
    giveable = dice.giveable
    given = st.given
    while True:
        give = next((d for d in hand if giveable[d] and d not in given), None)
        if give is None:
            return
        choice = _trades(dice, st.hands, st.hs, seat, give, rounds, st.totals, None)
        if choice is None:
            return
        swap(dice, st, seat, give, *choice)


def swap(dice: Dice, st: Start, seat: int, give: int, target: int, take: int) -> None:
    """``seat`` gives ``give`` to ``target`` and takes ``take``."""
    take_out(dice, st, seat, give)
    take_out(dice, st, target, take)
    put(dice, st, target, give)
    put(dice, st, seat, take)
    st.given.add(give)


def _draft(dice: Dice, st: Start, queue: Sequence[int]) -> None:
    pool = st.pool
    parts = dice.parts
    for seat in queue:
        if not pool:
            break
        d = _best_pick(parts, st.hs[seat], pool)
        pool.remove(d)
        put(dice, st, seat, d)
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
    order = sorted(range(n), key=lambda p: (round_totals[p], (token - 1 - p) % n))
    for seat, d in zip(order, dice.pity, strict=False):
        if d not in st.hands[seat]:  # a die that stays put keeps its place in the hand
            for old, hand in enumerate(st.hands):
                if d in hand:
                    take_out(dice, st, old, d)
                    break
            put(dice, st, seat, d)
    st.given = set()


def _moments(m: Sequence[float]) -> tuple[float, float]:
    """The expected points and variance of a hand's round from its moment sums."""
    flat, blue, red, reds, glitters, flat_var, blue_var, red_var = m
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
        for seat in range(n):
            m, v = _moments(st.ms[seat])
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
