"""What happens in a game of Posing Pandas, as docs/game-log.md events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.rules.posing.state import KIND

Quote = Mapping[str, str]
"""A text's JSON string (:mod:`bot.rules.royale.events` explains ``to_log`` and ``log_line``)."""


def _ints(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


@dataclass(slots=True)
class SetupEvent:
    """The game was set up: its seed and the players in seat order."""

    seed: int
    players: tuple[str, ...]

    def to_log(self) -> dict[str, Any]:
        return {
            "event": "setup",
            "game_kind": KIND,
            "seed": self.seed,
            "players": list(self.players),
        }

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"setup","game_kind":{q[KIND]},"seed":{self.seed},'
                f'"players":[{",".join([q[p] for p in self.players])}]{tail}')


@dataclass(slots=True)
class RollEvent:
    """A roll: ``held`` are the indexes kept from the previous roll, ``faces`` all five dice."""

    seat: int
    player: str
    turn: int
    roll: int
    held: tuple[int, ...]
    faces: tuple[int, ...]

    def to_log(self) -> dict[str, Any]:
        return {
            "event": "roll",
            "player": self.player,
            "turn": self.turn,
            "roll": self.roll,
            "held": list(self.held),
            "faces": list(self.faces),
        }

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"roll","player":{q[self.player]},"turn":{self.turn},'
                f'"roll":{self.roll},"held":[{_ints(self.held)}],'
                f'"faces":[{_ints(self.faces)}]{tail}')


@dataclass(slots=True)
class FillEvent:
    """A box was filled with the dice ``faces`` for ``points``."""

    seat: int
    player: str
    turn: int
    box: str
    faces: tuple[int, ...]
    points: int

    def to_log(self) -> dict[str, Any]:
        return {
            "event": "fill",
            "player": self.player,
            "turn": self.turn,
            "box": self.box,
            "faces": list(self.faces),
            "points": self.points,
        }

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"fill","player":{q[self.player]},"turn":{self.turn},'
                f'"box":{q[self.box]},"faces":[{_ints(self.faces)}],'
                f'"points":{self.points}{tail}')


@dataclass(slots=True)
class GameEndEvent:
    """The game is over: every player's total (seat order) and the winners (ties share)."""

    totals: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def to_log(self) -> dict[str, Any]:
        return {
            "event": "game_end",
            "totals": dict(self.totals),
            "winners": list(self.winners),
        }

    def log_line(self, q: Quote, tail: str) -> str:
        totals = ",".join([f"{q[p]}:{t}" for p, t in self.totals])
        return (f'{{"event":"game_end","totals":{{{totals}}},'
                f'"winners":[{",".join([q[p] for p in self.winners])}]{tail}')


PosingEvent = SetupEvent | RollEvent | FillEvent | GameEndEvent


RECENT_LIMIT: Final = 160
"""Events a turn's board keeps: the last turns of every player (a turn logs at most four)."""


def recent_events(events: Sequence[PosingEvent]) -> list[PosingEvent]:
    """The events a turn's board shows: the last :data:`RECENT_LIMIT`."""
    return list(events[-RECENT_LIMIT:])


def event_from_log(obj: Mapping[str, Any], players: tuple[str, ...]) -> PosingEvent:
    """The event a game-log object records (what :meth:`to_log` wrote), the game's
    ``players`` in seat order giving each event's seat. Raises ``KeyError``/``ValueError``
    for an object no event writes.
    """
    kind = obj["event"]
    if kind == "setup":
        return SetupEvent(int(obj["seed"]), tuple(obj["players"]))
    if kind == "roll":
        return RollEvent(players.index(obj["player"]), obj["player"], obj["turn"], obj["roll"],
                         tuple(obj["held"]), tuple(obj["faces"]))
    if kind == "fill":
        return FillEvent(players.index(obj["player"]), obj["player"], obj["turn"], obj["box"],
                         tuple(obj["faces"]), obj["points"])
    if kind == "game_end":
        return GameEndEvent(tuple(obj["totals"].items()), tuple(obj["winners"]))
    raise ValueError(f"not a Posing Pandas event: {kind!r}")
