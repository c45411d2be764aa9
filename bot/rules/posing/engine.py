"""The Posing Pandas rules: turns, legality and scoring of actions, end of game.

The module-level functions are the engine; :class:`PosingEngine` offers them through the
:class:`bot.rules.api.Engine` protocol, and :data:`ENGINE` is the instance to use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from bot.rules.errors import GameOver, IllegalAction, InvalidSetup, NotYourTurn, Term
from bot.rules.posing import actions as _actions
from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.posing.events import (
    FillEvent,
    GameEndEvent,
    PosingEvent,
    RollEvent,
    SetupEvent,
)
from bot.rules.posing.poses import (
    BOX_IDS,
    DICE_COUNT,
    MAX_PLAYERS,
    MAX_ROLLS,
    MIN_PLAYERS,
    POSE_COUNT,
    box_name,
    score_all,
    score_box,
)
from bot.rules.posing.state import KIND, PosingState, state_from_json
from bot.rules.rng import Rng

if TYPE_CHECKING:
    from bot.rules.api import Engine

HOLDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    hold for size in range(DICE_COUNT) for hold in combinations(range(DICE_COUNT), size)
)
"""Every legal ``hold`` of a re-roll (all subsets of the dice but the full one), sorted."""


# --- setup -------------------------------------------------------------------------------


def new_game(
    players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None,
    keep_events: bool = True,
) -> tuple[PosingState, list[PosingEvent]]:
    """Set up a game and run it to its first decision (no events built without ``keep_events``)."""
    if isinstance(players, str) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup("Posing Pandas is for {low} to {high} players.", low=MIN_PLAYERS,
                           high=MAX_PLAYERS)
    if not all(isinstance(p, str) and p for p in players):
        raise InvalidSetup("Every player needs a name.")
    if len(set(players)) != len(players):
        raise InvalidSetup("Each player can only take one seat.")
    if type(seed) is not int:
        raise InvalidSetup("The game seed must be a whole number.")
    if options:
        raise InvalidSetup("Posing Pandas has no options.")
    state = PosingState(
        seed=seed,
        players=tuple(players),
        rng=Rng(seed),
        seat=0,
        dice=(),
        rolls=0,
        filled=[{} for _ in players],
    )
    if not keep_events:
        _roll_turn(state)
        return state, []
    return state, [SetupEvent(seed=seed, players=state.players), _start_turn(state)]


def _roll_die(rng: Rng) -> int:
    return rng.roll(POSE_COUNT) + 1


def _roll_turn(state: PosingState) -> None:
    """The automatic first roll of the current seat's turn."""
    state.dice = tuple(_roll_die(state.rng) for _ in range(DICE_COUNT))
    state.rolls = 1


def _start_turn(state: PosingState) -> RollEvent:
    """The automatic first roll of the current seat's turn, and its event."""
    _roll_turn(state)
    return _roll_event(state, ())


def _roll_event(state: PosingState, held: tuple[int, ...]) -> RollEvent:
    return RollEvent(
        seat=state.seat,
        player=state.players[state.seat],
        turn=state.turn,
        roll=state.rolls,
        held=held,
        faces=state.dice,
    )


# --- reading a state ---------------------------------------------------------------------


def current_seat(state: PosingState) -> int | None:
    """The seat that must decide now, or None once the game is over."""
    return None if state.is_over else state.seat


def empty_boxes(state: PosingState, seat: int) -> list[str]:
    """The boxes ``seat`` has not filled yet, in score-card order."""
    filled = state.filled[seat]
    return [box for box in BOX_IDS if box not in filled]


def box_points(state: PosingState) -> dict[str, int]:
    """What each empty box of the current player would score with the dice now on the table."""
    if state.is_over:
        return {}
    scores = score_all(state.dice)
    return {box: scores[box] for box in empty_boxes(state, state.seat)}


def rolls_left(state: PosingState) -> int:
    """How many more rolls the current player may make this turn."""
    return 0 if state.is_over else MAX_ROLLS - state.rolls


def totals(state: PosingState) -> list[int]:
    """Every seat's points so far, in seat order."""
    return [sum(boxes.values()) for boxes in state.filled]


def winners(state: PosingState) -> list[int]:
    """The seats with the highest total (the winners once the game is over; ties share)."""
    scores = totals(state)
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def legal_actions(state: PosingState) -> list[PosingAction]:
    """Every legal action of the current seat: fills first (score-card order), then re-rolls."""
    if state.is_over:
        return []
    seat = state.seat
    result: list[PosingAction] = [Fill(seat, box) for box in empty_boxes(state, seat)]
    if state.rolls < MAX_ROLLS:
        result.extend(Roll(seat, hold) for hold in HOLDS)
    return result


# --- acting ------------------------------------------------------------------------------


def check(state: PosingState, action: PosingAction) -> None:
    """Raise the player-readable error that makes ``action`` illegal now, if there is one."""
    if state.is_over:
        raise GameOver("This game of Posing Pandas is over.")
    if not isinstance(action, Roll | Fill):
        raise IllegalAction("That is not a Posing Pandas move.")
    if action.seat != state.seat:
        raise NotYourTurn("It is not your turn: it is {player}'s turn.",
                          player=state.players[state.seat])
    if isinstance(action, Roll):
        _check_roll(state, action)
    else:
        _check_fill(state, action)


def _check_roll(state: PosingState, action: Roll) -> None:
    if state.rolls >= MAX_ROLLS:
        raise IllegalAction("You have already rolled {n} times this turn: fill a box.",
                            n=MAX_ROLLS)
    hold = action.hold
    if not isinstance(hold, tuple | list):
        raise IllegalAction("Choose the dice to hold by their positions, 1 to 5.")
    for index in hold:
        if type(index) is not int or not 0 <= index < DICE_COUNT:
            raise IllegalAction(
                "You can only hold the {n} dice on the table, numbered 1 to {n}.", n=DICE_COUNT)
    if len(set(hold)) != len(hold):
        raise IllegalAction("You can hold each die only once.")
    if len(hold) == DICE_COUNT:
        raise IllegalAction(
            "You are holding every die, so there is nothing to roll: fill a box instead."
        )


def _check_fill(state: PosingState, action: Fill) -> None:
    box = action.box
    if not isinstance(box, str) or box not in BOX_IDS:
        raise IllegalAction("There is no box called {box} on the score card.", box=repr(box))
    if box in state.filled[state.seat]:
        raise IllegalAction("You have already filled {box}.", box=Term(box_name(box)))


def apply_in_place(
    state: PosingState, action: PosingAction, keep_events: bool = True
) -> list[PosingEvent]:
    """Play ``action`` on ``state`` itself; returns the events (none built without
    ``keep_events``). ``state`` is untouched on error.
    """
    check(state, action)
    if isinstance(action, Roll):
        held = tuple(sorted(action.hold))
        state.dice = tuple(
            face if index in held else _roll_die(state.rng) for index, face in enumerate(state.dice)
        )
        state.rolls += 1
        return [_roll_event(state, held)] if keep_events else []
    seat = state.seat
    points = score_box(action.box, state.dice)
    if not keep_events:
        state.filled[seat][action.box] = points
        if not state.is_over:
            state.seat = (seat + 1) % len(state.players)
            _roll_turn(state)
        return []
    events: list[PosingEvent] = [
        FillEvent(
            seat=seat,
            player=state.players[seat],
            turn=state.turn,
            box=action.box,
            faces=state.dice,
            points=points,
        )
    ]
    state.filled[seat][action.box] = points
    if state.is_over:
        scores = totals(state)
        events.append(
            GameEndEvent(
                totals=tuple(zip(state.players, scores, strict=True)),
                winners=tuple(state.players[s] for s in winners(state)),
            )
        )
    else:
        state.seat = (seat + 1) % len(state.players)
        events.append(_start_turn(state))
    return events


def apply(state: PosingState, action: PosingAction) -> tuple[PosingState, list[PosingEvent]]:
    """Play ``action`` on a copy of ``state``; returns the new state and the events."""
    check(state, action)
    new_state = state.copy()
    return new_state, apply_in_place(new_state, action)


# --- the Engine protocol -----------------------------------------------------------------


class PosingEngine:
    """Posing Pandas behind the :class:`bot.rules.api.Engine` protocol."""

    kind: str = KIND

    # The module's functions themselves (no wrapper call on every decision).
    new_game = staticmethod(new_game)
    current_seat = staticmethod(current_seat)
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    apply_in_place = staticmethod(apply_in_place)
    state_from_json = staticmethod(state_from_json)
    action_from_json = staticmethod(_actions.action_from_json)
    totals = staticmethod(totals)
    winners = staticmethod(winners)
    # What the score card of the Discord layer shows.
    rolls_left = staticmethod(rolls_left)
    box_points = staticmethod(box_points)

    def state_to_json(self, state: PosingState) -> dict[str, Any]:
        return state.to_json()


ENGINE: Final = PosingEngine()

if TYPE_CHECKING:
    _PROTOCOL_CHECK: Engine[PosingState, PosingAction] = ENGINE
