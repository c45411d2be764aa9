"""The decisions of a Panda Royale round: which actions are legal now, and making one before
running on to the next decision with :func:`bot.rules.royale.rounds.advance`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.rules.errors import GameOver, IllegalAction, NotYourTurn, Term
from bot.rules.royale.actions import (
    Cannon,
    Mischief,
    Pass,
    Pick,
    RoyaleAction,
    Trade,
)
from bot.rules.royale.dice import (
    CANNON_KIND,
    MISCHIEF_KIND,
    PITY,
    TAKEABLE,
    YELLOW_DICE,
)
from bot.rules.royale.events import (
    CannonEvent,
    MischiefEvent,
    PickEvent,
    RoyaleEvent,
    TradeEvent,
)
from bot.rules.royale.rounds import Events, advance, tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState

_PHASE_NAMES = {
    Phase.MISCHIEF: "choose a die for mischief",
    Phase.CANNON: "score or save a Cannon die",
    Phase.TRADE: "trade",
    Phase.DRAFT: "pick a die from the pool",
}
_OVER: Final = Phase.OVER
NO_EVENTS: Final[tuple[RoyaleEvent, ...]] = ()


def _die_label(s: RoyaleState, die: str) -> str:
    spec = s.dice.specs.get(die)
    return spec.label if spec else repr(die)


def _apply_mischief(s: RoyaleState, a: Mischief, ev: Events | None) -> None:
    owner = s.owner_of(a.die)
    if owner is None:
        raise IllegalAction("That die is not in anyone's hand.")
    if owner == a.seat:
        raise IllegalAction("Mischief must target another player's die.")
    if a.die in YELLOW_DICE:
        raise IllegalAction("Yellow dice can't be re-rolled by mischief.")
    spec = s.dice.specs[a.die]
    before = s.values[a.die]
    after = spec.faces[s.rng.roll(spec.sides)]
    s.values[a.die] = after
    if ev is not None:
        ev.append(MischiefEvent(s.round, s.players[a.seat], s.players[owner], a.die, before,
                                after))
    del s.queue[0]


def _apply_cannon(s: RoyaleState, a: Cannon, ev: Events | None) -> None:
    die = s.queue[0][1]
    if a.die != die:
        raise IllegalAction("Decide on your {die} ({id}) first.", die=Term(_die_label(s, die)),
                            id=die)
    if a.score:
        s.scored_cannons.append(die)
    if ev is not None:
        ev.append(CannonEvent(s.round, s.players[a.seat], die, s.values[die], a.score))
    del s.queue[0]


def _apply_trade(s: RoyaleState, a: Trade, ev: Events | None) -> None:
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
        raise IllegalAction("{player} doesn't hold that die.", player=s.players[a.target])
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
    if ev is not None:
        ev.append(TradeEvent(s.round, s.players[a.seat], s.players[a.target], a.give, a.take))


def _apply_pass(s: RoyaleState, a: Pass, ev: Events | None) -> None:
    del s.queue[0]


def _apply_pick(s: RoyaleState, a: Pick, ev: Events | None) -> None:
    try:
        s.pool.remove(a.die)
    except ValueError:
        raise IllegalAction("That die is not in the pool.") from None
    s.hands[a.seat].append(a.die)
    if ev is not None:
        ev.append(PickEvent(s.round, s.players[a.seat], a.die))
    del s.queue[0]


# Each action type: the phase it belongs to and how it is made.
_MAKE: Final[dict[type, tuple[Phase, Callable[[RoyaleState, RoyaleAction, Events | None],
                                                None]]]] = {
    Pick: (Phase.DRAFT, _apply_pick),  # type: ignore[dict-item]
    Pass: (Phase.TRADE, _apply_pass),  # type: ignore[dict-item]
    Trade: (Phase.TRADE, _apply_trade),  # type: ignore[dict-item]
    Mischief: (Phase.MISCHIEF, _apply_mischief),  # type: ignore[dict-item]
    Cannon: (Phase.CANNON, _apply_cannon),  # type: ignore[dict-item]
}


def trade_gives(s: RoyaleState, seat: int) -> str | None:
    """The die ``seat`` gives in a trade they choose now: the first clear d6 of their hand not
    given this round, or None when they have none.
    """
    give = tradeable_dice(s, seat)
    return give[0] if give else None


def trade_taking(s: RoyaleState, seat: int, target: int, take: str) -> Trade:
    """The trade ``seat`` makes by choosing ``target``'s die ``take``, giving
    :func:`trade_gives` (whose turn it is, the target and the die taken are checked when the
    trade is applied).
    """
    if s.phase is not Phase.TRADE:
        raise IllegalAction("It's not time to trade.")
    give = trade_gives(s, seat)
    if give is None:
        raise IllegalAction("You have no clear die to trade.")
    return Trade(seat, give, target, take)


def apply_in_place(
    s: RoyaleState, action: RoyaleAction | object, keep_events: bool = True
) -> Sequence[RoyaleEvent]:
    """Check and make one decision on ``s`` itself (``s`` unchanged if it is illegal), then run
    on to the next decision; the events it caused (none built without ``keep_events``).
    """
    if s.phase is _OVER:
        raise GameOver("The game is over.")
    make = _MAKE.get(type(action))
    if make is None:
        raise IllegalAction("That is not a Panda Royale action.")
    made: RoyaleAction = action  # type: ignore[assignment]  # one of _MAKE's types
    seat = s.queue[0][0]
    if made.seat != seat:
        raise NotYourTurn("It's {player}'s turn.", player=s.players[seat])
    phase, step = make
    if phase is not s.phase:
        raise IllegalAction("Now is the time to {phase}.", phase=Term(_PHASE_NAMES[s.phase]))
    if keep_events:
        ev: Events = []
        step(s, made, ev)
        advance(s, ev)
        return ev
    step(s, made, None)
    advance(s, None)
    return NO_EVENTS


def apply(state: RoyaleState, action: RoyaleAction | object) -> tuple[RoyaleState, Events]:
    """The state after ``action`` and the events it caused; ``state`` is left untouched."""
    s = state.clone()
    return s, list(apply_in_place(s, action))


def current_seat(s: RoyaleState) -> int | None:
    """The seat that must decide now, or None when the game is over."""
    return s.queue[0][0] if s.phase is not _OVER and s.queue else None


def mischief_targets(s: RoyaleState, seat: int) -> list[str]:
    """The dice ``seat`` may re-roll by mischief, seat by seat then in hand order."""
    return [d for other, hand in enumerate(s.hands) if other != seat
            for d in hand if d not in YELLOW_DICE]


def legal_actions(s: RoyaleState) -> list[RoyaleAction]:
    """Every legal action of the seat that must decide now."""
    seat = current_seat(s)
    if seat is None:
        return []
    if s.phase is Phase.MISCHIEF:
        return [Mischief(seat, d) for d in mischief_targets(s, seat)]
    if s.phase is Phase.CANNON:
        die = s.queue[0][1]
        return [Cannon(seat, die, True), Cannon(seat, die, False)]
    if s.phase is Phase.TRADE:
        out: list[RoyaleAction] = [Pass(seat)]
        for give in tradeable_dice(s, seat):
            for target, hand in enumerate(s.hands):
                if target != seat:
                    out += [Trade(seat, give, target, d) for d in hand if d in TAKEABLE]
        return out
    return [Pick(seat, d) for d in s.pool]
