"""The automatic steps of a Panda Royale round (docs/rules.md): rolls, yellow ties, scoring,
pity dice, the Captain roll and the draft pool. :func:`advance` runs them until a player must
decide.

Every step takes ``ev``, the list the events go to, or None when nobody keeps them: then no
event is built at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import floor
from typing import Final

from bot.rules.royale.dice import (
    CANNON,
    CANNON_DICE,
    CAPTAIN_SIDES,
    GIVEABLE,
    MAX_PLAYERS,
    MERCENARY,
    MERCENARY_DICE,
    MIN_PLAYERS,
    MISCHIEF,
    MISCHIEF_DICE,
    PITY_DICE,
    ROLLING,
    ROUNDS,
    YELLOW_DICE,
)
from bot.rules.royale.events import (
    CaptainEvent,
    DraftPoolEvent,
    DraftReturnEvent,
    GameEndEvent,
    MischiefDealtEvent,
    PityEvent,
    RoyaleEvent,
    ScoreEvent,
    TokenEvent,
)
from bot.rules.royale.scoring import score_hand
from bot.rules.royale.state import Phase, RoyaleState

Events = list[RoyaleEvent]

_MISCHIEF: Final = Phase.MISCHIEF
_CANNON: Final = Phase.CANNON
_TRADE: Final = Phase.TRADE
_DRAFT: Final = Phase.DRAFT
_OVER: Final = Phase.OVER

# _TURNS[n][start]: the seats of an n-player game clockwise from ``start``; _TURN[seat]: a
# waiting turn with no die; _TURN_QUEUES[n][start]: one such turn per seat, in that order.
_TURNS: Final = {n: [tuple((start + i) % n for i in range(n)) for start in range(n)]
                 for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
_TURN: Final = tuple((seat, "") for seat in range(MAX_PLAYERS))
_TURN_QUEUES: Final = {n: [tuple(_TURN[seat] for seat in seats) for seats in by_start]
                       for n, by_start in _TURNS.items()}


def clockwise_from(start: int, n: int) -> tuple[int, ...]:
    """The seats of an ``n``-player game, clockwise from ``start``."""
    return _TURNS[n][start % n]


def roll_round(s: RoyaleState, ev: Events | None) -> None:
    """Step 1 up to the mischief decisions: roll everything, settle yellow, move the token."""
    rolling = ROLLING
    rand = s.rng.random  # a roll is faces[floor(random() * sides)], as Rng.roll draws it
    values: dict[str, int] = {}
    yellow: list[int] = []
    for hand in s.hands:
        total = 0
        for d in hand:
            faces, sides, is_yellow = rolling[d]
            values[d] = value = faces[floor(rand() * sides)]
            if is_yellow:
                total += value
        yellow.append(total)
    s.values = values
    rerolls = 0
    if any(yellow):  # someone holds a yellow die (every yellow face is positive)
        top = max(yellow)
        if s.round < ROUNDS and yellow.count(top) > 1:
            yellow_dice = [[d for d in hand if d in YELLOW_DICE] for hand in s.hands]
            while yellow.count(top) > 1:
                rerolls += 1
                for ys in yellow_dice:
                    for d in ys:
                        faces, sides, _ = rolling[d]
                        values[d] = faces[floor(rand() * sides)]
                yellow = [sum([values[d] for d in ys]) for ys in yellow_dice]
                top = max(yellow)
        if yellow.count(top) == 1:
            s.token = yellow.index(top)
    s.yellow = yellow
    s.rerolls = rerolls
    s.given = []
    s.scored_cannons = []
    if ev is not None:
        ev.append(TokenEvent(s.round, s.players[s.token],
                             tuple(zip(s.players, yellow, strict=True)), rerolls))
    s.phase = _MISCHIEF
    s.queue = []
    if MISCHIEF in s.expansions and s.round >= 2:
        held = [(seat, d) for seat in clockwise_from(s.token, s.n) for d in s.hands[seat]
                if d in MISCHIEF_DICE]
        if held:
            top = max(values[d] for _, d in held)
            s.queue = [(seat, d) for seat, d in held if values[d] == top]


def has_mischief_target(s: RoyaleState, seat: int) -> bool:
    """Whether another player holds a die ``seat`` may re-roll (any die but a yellow one)."""
    return any(not YELLOW_DICE.issuperset(hand) for other, hand in enumerate(s.hands)
               if other != seat)


def tradeable_dice(s: RoyaleState, seat: int) -> list[str]:
    """The clear d6 ``seat`` can give in a trade now (not given this round)."""
    given = s.given
    return [d for d in s.hands[seat] if d in GIVEABLE and d not in given]


def _begin_cannons(s: RoyaleState) -> None:
    s.phase = _CANNON
    if CANNON in s.expansions:
        s.queue = [(seat, d) for seat in clockwise_from(s.token, s.n) for d in s.hands[seat]
                   if d in CANNON_DICE]
    else:
        s.queue = []


def _score_round(s: RoyaleState, ev: Events | None) -> None:
    """Tally the round, then the end of the game or steps 2 and 3 (pity, captain, trade)."""
    specs = s.dice.specs
    values = s.values
    r = s.round
    scored = s.scored_cannons
    hands = s.hands
    row = [score_hand(hand, values, specs, r, scored) for hand in hands]
    if ev is not None:
        for player, hand, cols in zip(s.players, hands, row, strict=True):
            shown = tuple([(specs[d], values[d]) for d in hand])
            ev.append(ScoreEvent(r, player, shown, tuple(cols)))
    s.sheet.append(row)
    if scored:
        for hand in hands:
            hand[:] = [d for d in hand if d not in scored]
        s.aside.extend(scored)
    if r == ROUNDS:
        s.phase = _OVER
        s.queue = []
        if ev is not None:
            totals = s.totals()
            ev.append(GameEndEvent(tuple(zip(s.players, totals, strict=True)),
                                   tuple(s.players[i] for i in winners_of(totals))))
        return
    if MISCHIEF in s.expansions and r == 1:
        _deal_mischief(s, ev)
    _give_pity(s, list(map(sum, row)), ev)
    if MERCENARY in s.expansions:
        _captain(s, ev)
    s.phase = _TRADE
    s.given = []
    n = s.n
    s.queue = list(_TURN_QUEUES[n][(s.token + 1) % n])


def _deal_mischief(s: RoyaleState, ev: Events | None) -> None:
    dealt = list(s.dice.mischief[: s.n])
    for seat, d in enumerate(dealt):
        s.hands[seat].append(d)
        s.aside.remove(d)
    if ev is not None:
        specs = s.dice.specs
        ev.append(MischiefDealtEvent(s.round, tuple((s.players[i], specs[d])
                                                    for i, d in enumerate(dealt))))


def pity_order(totals: Sequence[int], token: int) -> list[int]:
    """Seats from the lowest round total up; ties counter-clockwise from the token's right."""
    n = len(totals)
    # (total, tie rank) as one number, every tie rank below n: the sort compares plain ints
    keys = [totals[p] * n + (token - 1 - p) % n for p in range(n)]
    return sorted(range(n), key=keys.__getitem__)


def draft_order(yellow: Sequence[int], token: int) -> list[int]:
    """Seats from the highest yellow total down; ties clockwise from the token holder."""
    n = len(yellow)
    keys = [-yellow[p] * n + (p - token) % n for p in range(n)]  # as pity_order's
    return sorted(range(n), key=keys.__getitem__)


def _give_pity(s: RoyaleState, totals: list[int], ev: Events | None) -> None:
    pity = s.dice.pity
    for hand in s.hands:  # back to the middle of the table (aside, before round 1's)
        if not PITY_DICE.isdisjoint(hand):
            hand[:] = [d for d in hand if d not in PITY_DICE]
    if not PITY_DICE.isdisjoint(s.aside):
        s.aside = [d for d in s.aside if d not in PITY_DICE]
    order = pity_order(totals, s.token)
    for seat, d in zip(order, pity, strict=False):
        s.hands[seat].append(d)
    if ev is not None:
        ev.append(PityEvent(s.round, tuple((s.players[seat], d)
                                           for seat, d in zip(order, pity, strict=False))))


def _captain(s: RoyaleState, ev: Events | None) -> None:
    value = s.rng.roll(CAPTAIN_SIDES) + 1
    values = s.values
    lost: list[tuple[str, str]] = []
    for seat, hand in enumerate(s.hands):
        if MERCENARY_DICE.isdisjoint(hand):
            continue
        gone = [d for d in hand if d in MERCENARY_DICE and values[d] == value]
        if gone:
            hand[:] = [d for d in hand if d not in gone]
            s.bag.extend(gone)
            lost.extend((s.players[seat], d) for d in gone)
    if ev is not None:
        ev.append(CaptainEvent(s.round, value, tuple(lost)))


def _begin_draft(s: RoyaleState, ev: Events | None) -> None:
    bag = s.bag
    rand = s.rng.random  # Rng.below(len(bag)), inline
    pool = []
    for _ in range(min(s.n + 1, len(bag))):
        pool.append(bag.pop(floor(rand() * len(bag))))
    s.pool = pool
    if ev is not None:
        specs = s.dice.specs
        ev.append(DraftPoolEvent(s.round, tuple([specs[d] for d in pool])))
    s.phase = _DRAFT
    s.queue = list(map(_TURN.__getitem__, draft_order(s.yellow, s.token)))


def _end_draft(s: RoyaleState, ev: Events | None) -> None:
    returned = s.pool
    s.bag.extend(returned)
    s.pool = []
    if ev is not None:
        ev.append(DraftReturnEvent(s.round, tuple(returned)))
    s.round += 1
    roll_round(s, ev)


def can_trade(s: RoyaleState, seat: int) -> bool:
    """Whether ``seat`` holds a clear d6 it may give now."""
    hand = s.hands[seat]
    given = s.given
    if not given:
        return not GIVEABLE.isdisjoint(hand)
    for d in hand:  # noqa: SIM110 - any() over a generator is slower in Python
        if d in GIVEABLE and d not in given:
            return True
    return False


def advance(s: RoyaleState, ev: Events | None) -> None:
    """Run automatic steps until a player must decide or the game is over."""
    while True:
        phase = s.phase
        q = s.queue
        if phase is _DRAFT:
            if q and s.pool:
                return
            _end_draft(s, ev)
        elif phase is _TRADE:
            while q and not can_trade(s, q[0][0]):
                del q[0]
            if q:
                return
            _begin_draft(s, ev)
        elif phase is _MISCHIEF:
            while q and not has_mischief_target(s, q[0][0]):
                del q[0]
            if q:
                return
            _begin_cannons(s)
        elif phase is _CANNON:
            if q:
                return
            _score_round(s, ev)
        else:
            return


def winners_of(totals: Sequence[int]) -> list[int]:
    """Every seat with the highest total (ties share the win)."""
    top = max(totals)
    return [i for i, t in enumerate(totals) if t == top]
