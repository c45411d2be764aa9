"""The automatic steps of a Panda Royale round (docs/rules.md): rolls, yellow ties, scoring,
pity dice, the Captain roll and the draft pool. :func:`_advance` runs them until a player must
decide; :mod:`bot.rules.royale.decisions` makes the decisions, :mod:`bot.rules.royale.engine`
sets a game up.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.dice import (
    CANNON_KIND,
    CAPTAIN_SIDES,
    MERCENARY,
    MERCENARY_KIND,
    MISCHIEF,
    MISCHIEF_KIND,
    ROUNDS,
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
from bot.rules.royale.scoring import score_dice
from bot.rules.royale.state import Phase, RoyaleState

Events = list[RoyaleEvent]


def _clockwise_from(start: int, n: int) -> list[int]:
    return [(start + i) % n for i in range(n)]


def _roll_round(s: RoyaleState, ev: Events) -> None:
    """Step 1 up to the mischief decisions: roll everything, settle yellow, move the token."""
    specs = s.dice.specs
    roll = s.rng.roll
    values: dict[str, int] = {}
    for hand in s.hands:
        for d in hand:
            sp = specs[d]
            values[d] = sp.faces[roll(sp.sides)]
    s.values = values
    yellow_dice = [[d for d in hand if specs[d].color == "yellow"] for hand in s.hands]
    yellow = [sum([values[d] for d in ys]) for ys in yellow_dice]
    rerolls = 0
    if any(yellow_dice):
        top = max(yellow)
        if s.round < ROUNDS:
            while yellow.count(top) > 1:
                rerolls += 1
                for ys in yellow_dice:
                    for d in ys:
                        sp = specs[d]
                        values[d] = sp.faces[roll(sp.sides)]
                yellow = [sum([values[d] for d in ys]) for ys in yellow_dice]
                top = max(yellow)
        if yellow.count(top) == 1:
            s.token = yellow.index(top)
    s.yellow = yellow
    s.rerolls = rerolls
    s.given = []
    s.scored_cannons = []
    ev.append(TokenEvent(s.round, s.players[s.token], tuple(zip(s.players, yellow, strict=True)),
                         rerolls))
    s.phase = Phase.MISCHIEF
    s.queue = []
    if MISCHIEF in s.expansions and s.round >= 2:
        held = [(seat, d) for seat in _clockwise_from(s.token, s.n) for d in s.hands[seat]
                if specs[d].kind == MISCHIEF_KIND]
        if held:
            top = max(values[d] for _, d in held)
            s.queue = [(seat, d) for seat, d in held if values[d] == top]


def _has_mischief_target(s: RoyaleState, seat: int) -> bool:
    specs = s.dice.specs
    return any(specs[d].color != "yellow" for other, hand in enumerate(s.hands) if other != seat
               for d in hand)


def tradeable_dice(s: RoyaleState, seat: int) -> list[str]:
    """The clear d6 ``seat`` can give in a trade now (not given this round)."""
    specs = s.dice.specs
    return [d for d in s.hands[seat] if specs[d].giveable and d not in s.given]


def _begin_cannons(s: RoyaleState) -> None:
    specs = s.dice.specs
    s.phase = Phase.CANNON
    s.queue = [(seat, d) for seat in _clockwise_from(s.token, s.n) for d in s.hands[seat]
               if specs[d].kind == CANNON_KIND]


def _score_round(s: RoyaleState, ev: Events) -> None:
    """Tally the round, then the end of the game or steps 2 and 3 (pity, captain, trade)."""
    specs = s.dice.specs
    values = s.values
    r = s.round
    sheet_row = []
    for seat, hand in enumerate(s.hands):
        rolled = tuple([(specs[d], values[d]) for d in hand])
        cols = score_dice(rolled, r, s.scored_cannons)
        sheet_row.append(cols)
        ev.append(ScoreEvent(r, s.players[seat], rolled, tuple(cols)))
    s.sheet.append(sheet_row)
    if s.scored_cannons:
        for hand in s.hands:
            hand[:] = [d for d in hand if d not in s.scored_cannons]
        s.aside.extend(s.scored_cannons)
    if r == ROUNDS:
        s.phase = Phase.OVER
        s.queue = []
        totals = s.totals()
        ev.append(GameEndEvent(tuple(zip(s.players, totals, strict=True)),
                               tuple(s.players[i] for i in winners_of(totals))))
        return
    if MISCHIEF in s.expansions and r == 1:
        _deal_mischief(s, ev)
    _give_pity(s, [sum(c) for c in sheet_row], ev)
    if MERCENARY in s.expansions:
        _captain(s, ev)
    s.phase = Phase.TRADE
    s.given = []
    s.queue = [(seat, "") for seat in _clockwise_from(s.token + 1, s.n)]


def _deal_mischief(s: RoyaleState, ev: Events) -> None:
    dealt = list(s.dice.mischief[: s.n])
    for seat, d in enumerate(dealt):
        s.hands[seat].append(d)
        s.aside.remove(d)
    specs = s.dice.specs
    ev.append(MischiefDealtEvent(s.round, tuple((s.players[i], specs[d])
                                                for i, d in enumerate(dealt))))


def pity_order(totals: Sequence[int], token: int) -> list[int]:
    """Seats from the lowest round total up; ties counter-clockwise from the token's right."""
    n = len(totals)
    return sorted(range(n), key=lambda p: (totals[p], (token - 1 - p) % n))


def draft_order(yellow: Sequence[int], token: int) -> list[int]:
    """Seats from the highest yellow total down; ties clockwise from the token holder."""
    n = len(yellow)
    return sorted(range(n), key=lambda p: (-yellow[p], (p - token) % n))


def _give_pity(s: RoyaleState, totals: list[int], ev: Events) -> None:
    pity = s.dice.pity
    taken = frozenset(pity)
    for hand in s.hands:
        if not taken.isdisjoint(hand):
            hand[:] = [d for d in hand if d not in taken]
    if not taken.isdisjoint(s.aside):
        s.aside = [d for d in s.aside if d not in taken]
    given = list(zip(pity_order(totals, s.token), pity, strict=False))
    for seat, d in given:
        s.hands[seat].append(d)
    ev.append(PityEvent(s.round, tuple((s.players[seat], d) for seat, d in given)))


def _captain(s: RoyaleState, ev: Events) -> None:
    value = s.rng.roll(CAPTAIN_SIDES) + 1
    specs = s.dice.specs
    lost: list[tuple[str, str]] = []
    for seat, hand in enumerate(s.hands):
        gone = [d for d in hand if specs[d].kind == MERCENARY_KIND and s.values[d] == value]
        if gone:
            hand[:] = [d for d in hand if d not in gone]
            s.bag.extend(gone)
            lost.extend((s.players[seat], d) for d in gone)
    ev.append(CaptainEvent(s.round, value, tuple(lost)))


def _begin_draft(s: RoyaleState, ev: Events) -> None:
    bag = s.bag
    below = s.rng.below
    pool = [bag.pop(below(len(bag))) for _ in range(min(s.n + 1, len(bag)))]
    s.pool = pool
    specs = s.dice.specs
    ev.append(DraftPoolEvent(s.round, tuple(specs[d] for d in pool)))
    s.phase = Phase.DRAFT
    s.queue = [(seat, "") for seat in draft_order(s.yellow, s.token)]


def _end_draft(s: RoyaleState, ev: Events) -> None:
    returned = s.pool
    s.bag.extend(returned)
    s.pool = []
    ev.append(DraftReturnEvent(s.round, tuple(returned)))
    s.round += 1
    _roll_round(s, ev)


def _advance(s: RoyaleState, ev: Events) -> None:
    """Run automatic steps until a player must decide or the game is over."""
    while True:
        phase = s.phase
        q = s.queue
        if phase is Phase.MISCHIEF:
            while q and not _has_mischief_target(s, q[0][0]):
                del q[0]
            if q:
                return
            _begin_cannons(s)
        elif phase is Phase.CANNON:
            if q:
                return
            _score_round(s, ev)
        elif phase is Phase.TRADE:
            while q and not tradeable_dice(s, q[0][0]):
                del q[0]
            if q:
                return
            _begin_draft(s, ev)
        elif phase is Phase.DRAFT:
            if q and s.pool:
                return
            _end_draft(s, ev)
        else:
            return


def winners_of(totals: Sequence[int]) -> list[int]:
    """Every seat with the highest total (ties share the win)."""
    top = max(totals)
    return [i for i, t in enumerate(totals) if t == top]
