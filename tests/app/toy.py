"""A tiny third game kind, defined here only: "Bamboo" (``toy``).

Each player in turn takes 1 or 2 bamboo shoots, three rounds; on one turn, drawn from the seed
at setup (``bonus``), the shoots count double. Most shoots wins (ties share the win).

It has what docs/contributing.md asks of a game kind's rules: an engine satisfying
:class:`bot.rules.api.Engine`, a seeded computer player (every level is it), a recent-events
rule, the validator's entry (:class:`bot.rules.validate.checks.LogChecks`), a colour for the
charts, what the benchmark plays of it and an achievement, bundled in :data:`TOY`, a
:class:`bot.rules.registry.GameKind` the tests register and unregister.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from bot.rules.api import Achievement, FinishedGame
from bot.rules.errors import IllegalAction, InvalidSetup, NotYourTurn
from bot.rules.registry import Bench, GameKind
from bot.rules.validate.checks import LogChecks, Obj
from bot.rules.validate.shape import GAME_END, INT, PLAYER, PLAYERS, Schema

NAME: Final = "toy"
ROUNDS: Final = 3
MIN_PLAYERS, MAX_PLAYERS = 1, 4
RECENT: Final = 3
"""Events the game's message shows: the last three."""
COLOR: Final = (230, 159, 0)
"""Its colour in charts: Okabe-Ito orange."""


@dataclass(frozen=True, slots=True)
class Take:
    """``seat`` takes ``shoots`` (1 or 2)."""

    seat: int
    shoots: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "take", "seat": self.seat, "shoots": self.shoots}


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game's log."""

    log: dict[str, Any]

    def to_log(self) -> dict[str, Any]:
        return dict(self.log)


@dataclass(slots=True)
class State:
    players: tuple[str, ...]
    seed: int
    bonus: int
    """The turn (0-based, all players counted) whose shoots count double."""
    turn: int
    scores: list[int]

    @property
    def turns(self) -> int:
        return ROUNDS * len(self.players)


def _end(state: State) -> Event:
    totals = {p: state.scores[i] for i, p in enumerate(state.players)}
    return Event({"event": "game_end", "totals": totals,
                  "winners": [state.players[i] for i in ENGINE.winners(state)]})


class ToyEngine:
    """The rules of Bamboo behind :class:`bot.rules.api.Engine`."""

    kind = NAME

    def new_game(self, players: Sequence[str], seed: int,
                 options: Mapping[str, Any] | None = None,
                 keep_events: bool = True) -> tuple[State, list[Event]]:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidSetup("Bamboo is for {low} to {high} players.", low=MIN_PLAYERS,
                               high=MAX_PLAYERS)
        bonus = random.Random(seed).randrange(ROUNDS * len(players))
        state = State(tuple(players), seed, bonus, 0, [0] * len(players))
        return state, [Event({"event": "setup", "game_kind": NAME, "seed": seed,
                              "players": list(players), "bonus": bonus})]

    def current_seat(self, state: State) -> int | None:
        return None if state.turn >= state.turns else state.turn % len(state.players)

    def legal_actions(self, state: State) -> list[Take]:
        seat = self.current_seat(state)
        return [] if seat is None else [Take(seat, 1), Take(seat, 2)]

    def apply(self, state: State, action: Take) -> tuple[State, list[Event]]:
        new = replace(state, scores=list(state.scores))
        return new, self.apply_in_place(new, action)

    def apply_in_place(self, state: State, action: Take,
                       keep_events: bool = True) -> list[Event]:
        seat = self.current_seat(state)
        if seat is None:
            raise IllegalAction("The game is over.")
        if action.seat != seat:
            raise NotYourTurn("It is not your turn.")
        if action.shoots not in (1, 2):
            raise IllegalAction("Take 1 or 2 shoots.")
        points = action.shoots * (2 if state.turn == state.bonus else 1)
        state.scores[seat] += points
        state.turn += 1
        events = [Event({"event": "take", "player": state.players[seat], "turn": state.turn,
                         "shoots": action.shoots, "points": points})]
        if self.current_seat(state) is None:
            events.append(_end(state))
        return events

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"players": list(state.players), "seed": state.seed, "bonus": state.bonus,
                "turn": state.turn, "scores": list(state.scores)}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(tuple(data["players"]), data["seed"], data["bonus"], data["turn"],
                     list(data["scores"]))

    def action_from_json(self, data: Mapping[str, Any]) -> Take:
        return Take(data["seat"], data["shoots"])

    def totals(self, state: State) -> list[int]:
        return list(state.scores)

    def winners(self, state: State) -> list[int]:
        if self.current_seat(state) is not None:
            return []
        best = max(state.scores)
        return [i for i, s in enumerate(state.scores) if s == best]


ENGINE: Final = ToyEngine()


class ToyPlayer:
    """Takes 1 or 2 shoots at random (its own seeded generator)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Take:
        return self.rng.choice(ENGINE.legal_actions(state))


def _greedy(game: FinishedGame, player: str) -> bool:
    takes = game.lines(player, "take")
    return len(takes) == ROUNDS and all(t["shoots"] == 2 for t in takes)


GREEDY: Final = Achievement("toy_greedy", "Greedy", "Take 2 shoots on every turn of Bamboo.",
                            NAME, _greedy)
"""The toy's own achievement."""


def recent_events(events: Sequence[Event]) -> list[Event]:
    """The last :data:`RECENT` events."""
    return list(events[-RECENT:])


def read_event(obj: dict[str, Any], players: tuple[str, ...]) -> Event:
    """The event a logged object records."""
    return Event({k: v for k, v in obj.items() if k != "game"})


# ---------------------------------------------------------------------- the validator's entry

SCHEMA: Final[Schema] = {
    "setup": (("seed", INT, True), ("players", PLAYERS, True), ("bonus", INT, True)),
    "take": (("player", PLAYER, True), ("turn", INT, True), ("shoots", INT, True),
             ("points", INT, True)),
    "game_end": GAME_END,
}


def decision(obj: Obj, players: Sequence[str]) -> Take | None:
    """A ``take`` is the only decision."""
    if obj.get("event") != "take":
        return None
    who = obj.get("player")
    return Take(players.index(who) if who in players else -1, obj.get("shoots", 0))


TOY: Final[GameKind[State, Take]] = GameKind(
    name=NAME, title="Bamboo", engine=ENGINE, players={"random": ToyPlayer},
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, recent_events=recent_events,
    read_event=read_event,
    log_checks=LogChecks(schema=SCHEMA, decision=decision),
    levels={"easy": "random", "normal": "random", "hard": "random"}, color=COLOR,
    bench=Bench(players=(2,), ai=("random",)), achievements=(GREEDY,),
)
"""The toy's entry in the registry (register it for a test: see test_toy_kind.py)."""
