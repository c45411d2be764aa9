"""The Panda Royale round, step by step (docs/rules.md).

The engine runs every automatic step (rolls, yellow ties, scoring, pity dice, the Captain roll,
the draft pool) by itself and stops where a player must decide: a mischief target, a Cannon
score-or-save, a trading turn, a draft pick. ``apply`` checks one decision, makes it, and runs on
to the next decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules.errors import GameOver, IllegalAction, InvalidSetup, NotYourTurn
from bot.rules.rng import Rng
from bot.rules.royale.actions import (
    Cannon,
    Mischief,
    Pass,
    Pick,
    RoyaleAction,
    Trade,
    action_from_json,
)
from bot.rules.royale.dice import (
    CANNON_KIND,
    CAPTAIN_SIDES,
    EXPANSIONS,
    MAX_PLAYERS,
    MERCENARY,
    MERCENARY_KIND,
    MIN_PLAYERS,
    MISCHIEF,
    MISCHIEF_KIND,
    PITY,
    ROUNDS,
    dice_for,
)
from bot.rules.royale.events import (
    CannonEvent,
    CaptainEvent,
    DraftPoolEvent,
    DraftReturnEvent,
    GameEndEvent,
    MischiefDealtEvent,
    MischiefEvent,
    PickEvent,
    PityEvent,
    RoyaleEvent,
    ScoreEvent,
    SetupEvent,
    TokenEvent,
    TradeEvent,
)
from bot.rules.royale.scoring import score_dice
from bot.rules.royale.state import Phase, RoyaleState, state_from_json

Events = list[RoyaleEvent]

_PHASE_NAMES = {
    Phase.MISCHIEF: "choose a die for mischief",
    Phase.CANNON: "score or save a Cannon die",
    Phase.TRADE: "trade",
    Phase.DRAFT: "pick a die from the pool",
}
_ACTION_PHASE: dict[type, Phase] = {
    Mischief: Phase.MISCHIEF,
    Cannon: Phase.CANNON,
    Trade: Phase.TRADE,
    Pass: Phase.TRADE,
    Pick: Phase.DRAFT,
}


# --------------------------------------------------------------------------- setup


def normalise_expansions(expansions: Sequence[str]) -> tuple[str, ...]:
    """The options in canonical order; unknown names raise InvalidSetup."""
    wanted = set()
    for e in expansions:
        name = str(e).strip().lower()
        if name not in EXPANSIONS:
            raise InvalidSetup(
                f"Unknown expansion option {e!r}: choose from {', '.join(EXPANSIONS)}."
            )
        wanted.add(name)
    return tuple(e for e in EXPANSIONS if e in wanted)


def new_game(
    players: Sequence[str], seed: int, expansions: Sequence[str] = ()
) -> tuple[RoyaleState, Events]:
    """Set up a game and run it to its first decision."""
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup(
            f"Panda Royale needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}."
        )
    if len(set(players)) != len(players) or not all(players):
        raise InvalidSetup("Every player needs a distinct, non-empty id.")
    exp = normalise_expansions(expansions)
    ds = dice_for(len(players), exp)
    s = RoyaleState(
        seed=seed, players=players, expansions=exp, rng=Rng(seed), round=1,
        phase=Phase.MISCHIEF, token=0, hands=[[y] for y in ds.yellow], bag=list(ds.bag),
        pool=[], aside=[*ds.pity, *ds.mischief], values={}, yellow=[0] * len(players),
        rerolls=0, queue=[], given=[], scored_cannons=[], sheet=[], dice=ds,
    )
    specs = ds.specs
    ev: Events = [SetupEvent(seed, players, exp, tuple((specs[h[0]],) for h in s.hands),
                             tuple(specs[d] for d in s.bag), tuple(specs[d] for d in s.aside))]
    _roll_round(s, ev)
    _advance(s, ev)
    return s, ev


# --------------------------------------------------------------------------- automatic steps


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


# --------------------------------------------------------------------------- decisions


def _check_turn(s: RoyaleState, action: object) -> int:
    if s.phase is Phase.OVER:
        raise GameOver("The game is over.")
    expected = _ACTION_PHASE.get(type(action))
    if expected is None:
        raise IllegalAction("That is not a Panda Royale action.")
    seat = s.queue[0][0]
    if getattr(action, "seat", None) != seat:
        raise NotYourTurn(f"It's {s.players[seat]}'s turn.")
    if expected is not s.phase:
        raise IllegalAction(f"Now is the time to {_PHASE_NAMES[s.phase]}.")
    return seat


def _die_label(s: RoyaleState, die: str) -> str:
    spec = s.dice.specs.get(die)
    return spec.label if spec else repr(die)


def _apply_mischief(s: RoyaleState, a: Mischief, ev: Events) -> None:
    owner = s.owner_of(a.die)
    if owner is None:
        raise IllegalAction("That die is not in anyone's hand.")
    if owner == a.seat:
        raise IllegalAction("Mischief must target another player's die.")
    spec = s.dice.specs[a.die]
    if spec.color == "yellow":
        raise IllegalAction("Yellow dice can't be re-rolled by mischief.")
    before = s.values[a.die]
    after = spec.faces[s.rng.roll(spec.sides)]
    s.values[a.die] = after
    ev.append(MischiefEvent(s.round, s.players[a.seat], s.players[owner], a.die, before, after))
    del s.queue[0]


def _apply_cannon(s: RoyaleState, a: Cannon, ev: Events) -> None:
    die = s.queue[0][1]
    if a.die != die:
        raise IllegalAction(f"Decide on your {_die_label(s, die)} ({die}) first.")
    if a.score:
        s.scored_cannons.append(die)
    ev.append(CannonEvent(s.round, s.players[a.seat], die, s.values[die], a.score))
    del s.queue[0]


def _apply_trade(s: RoyaleState, a: Trade, ev: Events) -> None:
    hand = s.hands[a.seat]
    specs = s.dice.specs
    if a.give not in hand:
        raise IllegalAction("You don't hold that die.")
    if not specs[a.give].giveable:
        if specs[a.give].kind == MISCHIEF_KIND:
            raise IllegalAction("A Mischief die can be taken in a trade but never given.")
        raise IllegalAction("Only a clear d6 can be given in a trade.")
    if a.give in s.given:
        raise IllegalAction("That clear die was already traded this round: it can trade again "
                            "next round.")
    if not isinstance(a.target, int) or not 0 <= a.target < s.n or a.target == a.seat:
        raise IllegalAction("Choose another player to trade with.")
    other = s.hands[a.target]
    if a.take not in other:
        raise IllegalAction(f"{s.players[a.target]} doesn't hold that die.")
    kind = specs[a.take].kind
    if kind == PITY:
        raise IllegalAction("Pink pity dice can't be taken in a trade.")
    if kind == CANNON_KIND:
        raise IllegalAction("Cannon dice can't be taken in a trade.")
    hand.remove(a.give)
    other.remove(a.take)
    other.append(a.give)
    hand.append(a.take)
    s.given.append(a.give)
    ev.append(TradeEvent(s.round, s.players[a.seat], s.players[a.target], a.give, a.take))


def _apply_pick(s: RoyaleState, a: Pick, ev: Events) -> None:
    if a.die not in s.pool:
        raise IllegalAction("That die is not in the pool.")
    s.pool.remove(a.die)
    s.hands[a.seat].append(a.die)
    ev.append(PickEvent(s.round, s.players[a.seat], a.die))
    del s.queue[0]


def apply_in_place(s: RoyaleState, action: RoyaleAction) -> Events:
    """Check and make one decision on ``s`` itself, then run on to the next decision.

    Raises IllegalAction (``s`` unchanged) if the action is not legal now.
    """
    _check_turn(s, action)
    ev: Events = []
    if isinstance(action, Pick):
        _apply_pick(s, action, ev)
    elif isinstance(action, Trade):
        _apply_trade(s, action, ev)
    elif isinstance(action, Pass):
        del s.queue[0]
    elif isinstance(action, Mischief):
        _apply_mischief(s, action, ev)
    else:
        _apply_cannon(s, action, ev)
    _advance(s, ev)
    return ev


def apply(state: RoyaleState, action: RoyaleAction) -> tuple[RoyaleState, Events]:
    """The state after ``action`` and the events it caused; ``state`` is left untouched."""
    s = state.clone()
    return s, apply_in_place(s, action)


def current_seat(s: RoyaleState) -> int | None:
    """The seat that must decide now, or None when the game is over."""
    return s.queue[0][0] if s.phase is not Phase.OVER and s.queue else None


def legal_actions(s: RoyaleState) -> list[RoyaleAction]:
    """Every legal action of the seat that must decide now."""
    seat = current_seat(s)
    if seat is None:
        return []
    specs = s.dice.specs
    if s.phase is Phase.MISCHIEF:
        return [Mischief(seat, d) for other, hand in enumerate(s.hands) if other != seat
                for d in hand if specs[d].color != "yellow"]
    if s.phase is Phase.CANNON:
        die = s.queue[0][1]
        return [Cannon(seat, die, True), Cannon(seat, die, False)]
    if s.phase is Phase.TRADE:
        out: list[RoyaleAction] = [Pass(seat)]
        for give in tradeable_dice(s, seat):
            for target, hand in enumerate(s.hands):
                if target != seat:
                    out += [Trade(seat, give, target, d) for d in hand if specs[d].takeable]
        return out
    return [Pick(seat, d) for d in s.pool]


def winners_of(totals: Sequence[int]) -> list[int]:
    """Every seat with the highest total (ties share the win)."""
    top = max(totals)
    return [i for i, t in enumerate(totals) if t == top]


class RoyaleEngine:
    """Panda Royale behind the shared :class:`bot.rules.api.Engine` protocol."""

    kind = "royale"

    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> tuple[RoyaleState, Events]:
        return new_game(players, seed, tuple((options or {}).get("expansions", ())))

    def current_seat(self, state: RoyaleState) -> int | None:
        return current_seat(state)

    def legal_actions(self, state: RoyaleState) -> list[RoyaleAction]:
        return legal_actions(state)

    def apply(self, state: RoyaleState, action: RoyaleAction) -> tuple[RoyaleState, Events]:
        return apply(state, action)

    def apply_in_place(self, state: RoyaleState, action: RoyaleAction) -> Events:
        return apply_in_place(state, action)

    def state_to_json(self, state: RoyaleState) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> RoyaleState:
        return state_from_json(data)

    def action_from_json(self, data: Mapping[str, Any]) -> RoyaleAction:
        return action_from_json(data)

    def totals(self, state: RoyaleState) -> list[int]:
        return state.totals()

    def winners(self, state: RoyaleState) -> list[int]:
        return winners_of(state.totals()) if state.phase is Phase.OVER else []


ENGINE = RoyaleEngine()
