"""The Panda Royale round, step by step (docs/rules.md).

The engine runs every automatic step (rolls, yellow ties, scoring, pity dice, the Captain roll,
the draft pool) by itself and stops where a player must decide: a mischief target, a Cannon
score-or-save, a trading turn, a draft pick. ``apply`` checks one decision, makes it, and runs on
to the next decision.

This module sets a game up and holds :class:`RoyaleEngine`; the automatic steps live in
:mod:`bot.rules.royale.rounds`, the decisions in :mod:`bot.rules.royale.decisions`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules.errors import InvalidSetup
from bot.rules.rng import Rng
from bot.rules.royale.actions import (
    RoyaleAction,
    action_from_json,
)
from bot.rules.royale.decisions import (
    apply,
    apply_in_place,
    current_seat,
    legal_actions,
    trade_gives,
    trade_taking,
)
from bot.rules.royale.dice import (
    EXPANSIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    dice_for,
)
from bot.rules.royale.events import SetupEvent
from bot.rules.royale.rounds import (
    Events,
    advance,
    draft_order,
    pity_order,
    roll_round,
    tradeable_dice,
    winners_of,
)
from bot.rules.royale.state import Phase, RoyaleState, state_from_json


def normalise_expansions(expansions: Sequence[str]) -> tuple[str, ...]:
    """The options in canonical order; unknown names raise InvalidSetup."""
    wanted = set()
    for e in expansions:
        name = str(e).strip().lower()
        if name not in EXPANSIONS:
            raise InvalidSetup(
                "Unknown expansion option {name}: choose from {choices}.", name=repr(e),
                choices=", ".join(EXPANSIONS))
        wanted.add(name)
    return tuple(e for e in EXPANSIONS if e in wanted)


def new_game(
    players: Sequence[str], seed: int, expansions: Sequence[str] = (), keep_events: bool = True
) -> tuple[RoyaleState, Events]:
    """Set up a game and run it to its first decision (no events built without ``keep_events``)."""
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup(
            "Panda Royale needs {low} to {high} players, not {n}.", low=MIN_PLAYERS,
            high=MAX_PLAYERS, n=len(players))
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
    if not keep_events:
        roll_round(s, None)
        advance(s, None)
        return s, []
    specs = ds.specs
    ev: Events = [SetupEvent(seed, players, exp, tuple((specs[h[0]],) for h in s.hands),
                             tuple(specs[d] for d in s.bag), tuple(specs[d] for d in s.aside))]
    roll_round(s, ev)
    advance(s, ev)
    return s, ev


class RoyaleEngine:
    """Panda Royale behind the shared :class:`bot.rules.api.Engine` protocol."""

    kind = "royale"

    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None,
        keep_events: bool = True,
    ) -> tuple[RoyaleState, Events]:
        return new_game(players, seed, tuple((options or {}).get("expansions", ())),
                        keep_events)

    # The module's functions themselves (no wrapper call on every decision).
    current_seat = staticmethod(current_seat)
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    apply_in_place = staticmethod(apply_in_place)

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


__all__ = [
    "ENGINE",
    "Events",
    "RoyaleEngine",
    "apply",
    "apply_in_place",
    "current_seat",
    "draft_order",
    "legal_actions",
    "new_game",
    "normalise_expansions",
    "pity_order",
    "trade_gives",
    "trade_taking",
    "tradeable_dice",
    "winners_of",
]
