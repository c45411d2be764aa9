"""The decisions of a Panda Royale round: which actions are legal now, and making one (a
mischief target, a Cannon score-or-save, a trade, a draft pick) before running on to the next
decision with :func:`bot.rules.royale.rounds._advance`.
"""

from __future__ import annotations

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
)
from bot.rules.royale.events import (
    CannonEvent,
    MischiefEvent,
    PickEvent,
    TradeEvent,
)
from bot.rules.royale.rounds import Events, _advance, tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState

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


def _check_turn(s: RoyaleState, action: object) -> int:
    if s.phase is Phase.OVER:
        raise GameOver("The game is over.")
    expected = _ACTION_PHASE.get(type(action))
    if expected is None:
        raise IllegalAction("That is not a Panda Royale action.")
    seat = s.queue[0][0]
    if getattr(action, "seat", None) != seat:
        raise NotYourTurn("It's {player}'s turn.", player=s.players[seat])
    if expected is not s.phase:
        raise IllegalAction("Now is the time to {phase}.", phase=Term(_PHASE_NAMES[s.phase]))
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
        raise IllegalAction("Decide on your {die} ({id}) first.", die=Term(_die_label(s, die)),
                            id=die)
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

