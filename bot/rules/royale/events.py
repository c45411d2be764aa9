"""Events of a Panda Royale game: each one is a line of the game log (docs/game-log.md).

Events keep references to immutable dice specs and player ids; ``to_log`` builds the JSON
object only when a log is written, and the engine builds an event only when someone keeps
them, so headless games stay fast. Nothing changes an event once made (plain slotted
dataclasses: ``frozen`` would cost every event's set-up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.royale.dice import COLUMN_NAMES, DieSpec

Die = DieSpec
RolledDie = tuple[DieSpec, int]


def _die(d: DieSpec) -> dict[str, Any]:
    return d.to_log()


def _rolled(d: RolledDie) -> dict[str, Any]:
    out = d[0].to_log()
    out["value"] = d[1]
    return out


@dataclass(slots=True)
class SetupEvent:
    seed: int
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    hands: tuple[tuple[Die, ...], ...]
    bag: tuple[Die, ...]
    aside: tuple[Die, ...] = ()  # pity dice (and Mischief dice) not in a hand or the bag

    def to_log(self) -> dict[str, Any]:
        return {
            "event": "setup", "game_kind": "royale", "seed": self.seed,
            "players": list(self.players), "expansions": list(self.expansions),
            "hands": {p: [_die(d) for d in h] for p, h in zip(self.players, self.hands,
                                                              strict=True)},
            "bag": [_die(d) for d in self.bag],
            "aside": [_die(d) for d in self.aside],
        }


@dataclass(slots=True)
class TokenEvent:
    round: int
    player: str
    yellow: tuple[tuple[str, int], ...]
    rerolls: int

    def to_log(self) -> dict[str, Any]:
        return {"event": "token", "round": self.round, "player": self.player,
                "yellow": dict(self.yellow), "rerolls": self.rerolls}


@dataclass(slots=True)
class MischiefDealtEvent:
    round: int
    dice: tuple[tuple[str, Die], ...]

    def to_log(self) -> dict[str, Any]:
        return {"event": "mischief_dealt", "round": self.round,
                "dice": {p: _die(d) for p, d in self.dice}}


@dataclass(slots=True)
class MischiefEvent:
    round: int
    player: str
    target: str
    die: str
    before: int
    after: int

    def to_log(self) -> dict[str, Any]:
        return {"event": "mischief", "round": self.round, "player": self.player,
                "target": self.target, "die": self.die, "before": self.before,
                "after": self.after}


@dataclass(slots=True)
class CannonEvent:
    round: int
    player: str
    die: str
    value: int
    score: bool

    def to_log(self) -> dict[str, Any]:
        return {"event": "cannon", "round": self.round, "player": self.player, "die": self.die,
                "decision": "score" if self.score else "save", "value": self.value}


@dataclass(slots=True)
class ScoreEvent:
    round: int
    player: str
    dice: tuple[RolledDie, ...]
    columns: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.columns)

    def to_log(self) -> dict[str, Any]:
        return {"event": "score", "round": self.round, "player": self.player,
                "dice": [_rolled(d) for d in self.dice],
                "columns": dict(zip(COLUMN_NAMES, self.columns, strict=True)),
                "total": self.total}


@dataclass(slots=True)
class PityEvent:
    round: int
    given: tuple[tuple[str, str], ...]

    def to_log(self) -> dict[str, Any]:
        return {"event": "pity", "round": self.round, "given": dict(self.given)}


@dataclass(slots=True)
class CaptainEvent:
    round: int
    value: int
    lost: tuple[tuple[str, str], ...]

    def to_log(self) -> dict[str, Any]:
        return {"event": "captain", "round": self.round, "value": self.value,
                "lost": [{"player": p, "die": d} for p, d in self.lost]}


@dataclass(slots=True)
class TradeEvent:
    round: int
    player: str
    target: str
    gave: str
    took: str

    def to_log(self) -> dict[str, Any]:
        return {"event": "trade", "round": self.round, "player": self.player,
                "target": self.target, "gave": self.gave, "took": self.took}


@dataclass(slots=True)
class DraftPoolEvent:
    round: int
    dice: tuple[Die, ...]

    def to_log(self) -> dict[str, Any]:
        return {"event": "draft_pool", "round": self.round, "dice": [_die(d) for d in self.dice]}


@dataclass(slots=True)
class PickEvent:
    round: int
    player: str
    die: str

    def to_log(self) -> dict[str, Any]:
        return {"event": "pick", "round": self.round, "player": self.player, "die": self.die}


@dataclass(slots=True)
class DraftReturnEvent:
    round: int
    dice: tuple[str, ...]

    def to_log(self) -> dict[str, Any]:
        return {"event": "draft_return", "round": self.round, "dice": list(self.dice)}


@dataclass(slots=True)
class GameEndEvent:
    totals: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def to_log(self) -> dict[str, Any]:
        return {"event": "game_end", "totals": dict(self.totals), "winners": list(self.winners)}


RoyaleEvent = (
    SetupEvent | TokenEvent | MischiefDealtEvent | MischiefEvent | CannonEvent | ScoreEvent
    | PityEvent | CaptainEvent | TradeEvent | DraftPoolEvent | PickEvent
    | DraftReturnEvent | GameEndEvent
)
