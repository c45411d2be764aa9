"""Events of a Panda Royale game: each one is a line of the game log (docs/game-log.md).

Events keep references to immutable dice specs and player ids, and the engine builds an event
only when someone keeps them, so headless games stay fast. Nothing changes an event once made
(plain slotted dataclasses: ``frozen`` would cost every event's set-up; each writes its own
``__init__``, native code once compiled, as the actions do).

Each event gives its game-log object two ways, side by side: ``to_log()``, the object (for
those who keep objects: the service, the validator), and ``log_line(q, tail)``, the same object
as its JSON line, written directly (for :func:`bot.rules.gamelog.log_lines`: a log of many
games, where encoding every object with :mod:`json` would cost more than playing the games).
``q`` maps a text to its JSON string; ``tail`` closes the line with its ``game`` key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.rules.royale.dice import BOX, COLUMN_NAMES, DieSpec

Die = DieSpec
RolledDie = tuple[DieSpec, int]
Quote = Mapping[str, str]
"""A text's JSON string (quoted and escaped as ``json.dumps`` does)."""


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

    def __init__(
        self,
        seed: int,
        players: tuple[str, ...],
        expansions: tuple[str, ...],
        hands: tuple[tuple[Die, ...], ...],
        bag: tuple[Die, ...],
        aside: tuple[Die, ...] = (),
    ) -> None:
        self.seed = seed
        self.players = players
        self.expansions = expansions
        self.hands = hands
        self.bag = bag
        self.aside = aside

    def to_log(self) -> dict[str, Any]:
        return {
            "event": "setup", "game_kind": "royale", "seed": self.seed,
            "players": list(self.players), "expansions": list(self.expansions),
            "hands": {p: [d.to_log() for d in h] for p, h in zip(self.players, self.hands,
                                                              strict=True)},
            "bag": [d.to_log() for d in self.bag],
            "aside": [d.to_log() for d in self.aside],
        }

    def log_line(self, q: Quote, tail: str) -> str:
        hands = ",".join(f'{q[p]}:[{",".join([d.log_json for d in h])}]'
                         for p, h in zip(self.players, self.hands, strict=True))
        return (f'{{"event":"setup","game_kind":"royale","seed":{self.seed},'
                f'"players":[{",".join([q[p] for p in self.players])}],'
                f'"expansions":[{",".join([q[e] for e in self.expansions])}],'
                f'"hands":{{{hands}}},"bag":[{",".join([d.log_json for d in self.bag])}],'
                f'"aside":[{",".join([d.log_json for d in self.aside])}]{tail}')


@dataclass(slots=True)
class TokenEvent:
    round: int
    player: str
    yellow: tuple[tuple[str, int], ...]
    rerolls: int

    def __init__(
        self,
        round: int,
        player: str,
        yellow: tuple[tuple[str, int], ...],
        rerolls: int,
    ) -> None:
        self.round = round
        self.player = player
        self.yellow = yellow
        self.rerolls = rerolls

    def to_log(self) -> dict[str, Any]:
        return {"event": "token", "round": self.round, "player": self.player,
                "yellow": dict(self.yellow), "rerolls": self.rerolls}

    def log_line(self, q: Quote, tail: str) -> str:
        yellow = ",".join([f"{q[p]}:{y}" for p, y in self.yellow])
        return (f'{{"event":"token","round":{self.round},"player":{q[self.player]},'
                f'"yellow":{{{yellow}}},"rerolls":{self.rerolls}{tail}')


@dataclass(slots=True)
class MischiefDealtEvent:
    round: int
    dice: tuple[tuple[str, Die], ...]

    def __init__(self, round: int, dice: tuple[tuple[str, Die], ...]) -> None:
        self.round = round
        self.dice = dice

    def to_log(self) -> dict[str, Any]:
        return {"event": "mischief_dealt", "round": self.round,
                "dice": {p: d.to_log() for p, d in self.dice}}

    def log_line(self, q: Quote, tail: str) -> str:
        dice = ",".join([f"{q[p]}:{d.log_json}" for p, d in self.dice])
        return f'{{"event":"mischief_dealt","round":{self.round},"dice":{{{dice}}}{tail}'


@dataclass(slots=True)
class MischiefEvent:
    round: int
    player: str
    target: str
    die: str
    before: int
    after: int

    def __init__(
        self,
        round: int,
        player: str,
        target: str,
        die: str,
        before: int,
        after: int,
    ) -> None:
        self.round = round
        self.player = player
        self.target = target
        self.die = die
        self.before = before
        self.after = after

    def to_log(self) -> dict[str, Any]:
        return {"event": "mischief", "round": self.round, "player": self.player,
                "target": self.target, "die": self.die, "before": self.before,
                "after": self.after}

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"mischief","round":{self.round},"player":{q[self.player]},'
                f'"target":{q[self.target]},"die":{q[self.die]},"before":{self.before},'
                f'"after":{self.after}{tail}')


@dataclass(slots=True)
class CannonEvent:
    round: int
    player: str
    die: str
    value: int
    score: bool

    def __init__(self, round: int, player: str, die: str, value: int, score: bool) -> None:
        self.round = round
        self.player = player
        self.die = die
        self.value = value
        self.score = score

    def to_log(self) -> dict[str, Any]:
        return {"event": "cannon", "round": self.round, "player": self.player, "die": self.die,
                "decision": "score" if self.score else "save", "value": self.value}

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"cannon","round":{self.round},"player":{q[self.player]},'
                f'"die":{q[self.die]},"decision":"{"score" if self.score else "save"}",'
                f'"value":{self.value}{tail}')


@dataclass(slots=True)
class ScoreEvent:
    round: int
    player: str
    dice: tuple[RolledDie, ...]
    columns: tuple[int, ...]

    def __init__(
        self,
        round: int,
        player: str,
        dice: tuple[RolledDie, ...],
        columns: tuple[int, ...],
    ) -> None:
        self.round = round
        self.player = player
        self.dice = dice
        self.columns = columns

    @property
    def total(self) -> int:
        return sum(self.columns)

    def to_log(self) -> dict[str, Any]:
        return {"event": "score", "round": self.round, "player": self.player,
                "dice": [_rolled(d) for d in self.dice],
                "columns": dict(zip(COLUMN_NAMES, self.columns, strict=True)),
                "total": self.total}

    def log_line(self, q: Quote, tail: str) -> str:
        y, pu, b, r, g, c, pi = self.columns
        return (f'{{"event":"score","round":{self.round},"player":{q[self.player]},'
                f'"dice":[{",".join([d.log_rolled[v] for d, v in self.dice])}],'
                f'"columns":{{"yellow":{y},"purple":{pu},"blue":{b},"red":{r},"green":{g},'
                f'"clear":{c},"pink":{pi}}},"total":{y + pu + b + r + g + c + pi}{tail}')


@dataclass(slots=True)
class PityEvent:
    round: int
    given: tuple[tuple[str, str], ...]

    def __init__(self, round: int, given: tuple[tuple[str, str], ...]) -> None:
        self.round = round
        self.given = given

    def to_log(self) -> dict[str, Any]:
        return {"event": "pity", "round": self.round, "given": dict(self.given)}

    def log_line(self, q: Quote, tail: str) -> str:
        given = ",".join([f"{q[p]}:{q[d]}" for p, d in self.given])
        return f'{{"event":"pity","round":{self.round},"given":{{{given}}}{tail}'


@dataclass(slots=True)
class CaptainEvent:
    round: int
    value: int
    lost: tuple[tuple[str, str], ...]

    def __init__(self, round: int, value: int, lost: tuple[tuple[str, str], ...]) -> None:
        self.round = round
        self.value = value
        self.lost = lost

    def to_log(self) -> dict[str, Any]:
        return {"event": "captain", "round": self.round, "value": self.value,
                "lost": [{"player": p, "die": d} for p, d in self.lost]}

    def log_line(self, q: Quote, tail: str) -> str:
        lost = ",".join([f'{{"player":{q[p]},"die":{q[d]}}}' for p, d in self.lost])
        return (f'{{"event":"captain","round":{self.round},"value":{self.value},'
                f'"lost":[{lost}]{tail}')


@dataclass(slots=True)
class TradeEvent:
    round: int
    player: str
    target: str
    gave: str
    took: str

    def __init__(self, round: int, player: str, target: str, gave: str, took: str) -> None:
        self.round = round
        self.player = player
        self.target = target
        self.gave = gave
        self.took = took

    def to_log(self) -> dict[str, Any]:
        return {"event": "trade", "round": self.round, "player": self.player,
                "target": self.target, "gave": self.gave, "took": self.took}

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"trade","round":{self.round},"player":{q[self.player]},'
                f'"target":{q[self.target]},"gave":{q[self.gave]},"took":{q[self.took]}{tail}')


@dataclass(slots=True)
class DraftPoolEvent:
    round: int
    dice: tuple[Die, ...]

    def __init__(self, round: int, dice: tuple[Die, ...]) -> None:
        self.round = round
        self.dice = dice

    def to_log(self) -> dict[str, Any]:
        return {"event": "draft_pool", "round": self.round, "dice": [d.to_log() for d in self.dice]}

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"draft_pool","round":{self.round},'
                f'"dice":[{",".join([d.log_json for d in self.dice])}]{tail}')


@dataclass(slots=True)
class PickEvent:
    round: int
    player: str
    die: str

    def __init__(self, round: int, player: str, die: str) -> None:
        self.round = round
        self.player = player
        self.die = die

    def to_log(self) -> dict[str, Any]:
        return {"event": "pick", "round": self.round, "player": self.player, "die": self.die}

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"pick","round":{self.round},"player":{q[self.player]},'
                f'"die":{q[self.die]}{tail}')


@dataclass(slots=True)
class DraftReturnEvent:
    round: int
    dice: tuple[str, ...]

    def __init__(self, round: int, dice: tuple[str, ...]) -> None:
        self.round = round
        self.dice = dice

    def to_log(self) -> dict[str, Any]:
        return {"event": "draft_return", "round": self.round, "dice": list(self.dice)}

    def log_line(self, q: Quote, tail: str) -> str:
        return (f'{{"event":"draft_return","round":{self.round},'
                f'"dice":[{",".join([q[d] for d in self.dice])}]{tail}')


@dataclass(slots=True)
class GameEndEvent:
    totals: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def __init__(self, totals: tuple[tuple[str, int], ...], winners: tuple[str, ...]) -> None:
        self.totals = totals
        self.winners = winners

    def to_log(self) -> dict[str, Any]:
        return {"event": "game_end", "totals": dict(self.totals), "winners": list(self.winners)}

    def log_line(self, q: Quote, tail: str) -> str:
        totals = ",".join([f"{q[p]}:{t}" for p, t in self.totals])
        return (f'{{"event":"game_end","totals":{{{totals}}},'
                f'"winners":[{",".join([q[p] for p in self.winners])}]{tail}')


RoyaleEvent = (
    SetupEvent | TokenEvent | MischiefDealtEvent | MischiefEvent | CannonEvent | ScoreEvent
    | PityEvent | CaptainEvent | TradeEvent | DraftPoolEvent | PickEvent
    | DraftReturnEvent | GameEndEvent
)


RECENT_LIMIT: Final = 160
"""Events a board keeps before two rounds have ended (more than a first round makes)."""


def recent_events(events: Sequence[RoyaleEvent]) -> list[RoyaleEvent]:
    """The events a round's board shows: those of the round just finished and the current
    one (each round ends with :class:`DraftReturnEvent`); before that, the last
    :data:`RECENT_LIMIT`.
    """
    ends = [i for i, e in enumerate(events) if isinstance(e, DraftReturnEvent)]
    if len(ends) >= 2:
        return list(events[ends[-2] + 1:])
    return list(events[-RECENT_LIMIT:])


def _spec(obj: Mapping[str, Any]) -> DieSpec:
    return BOX[str(obj["id"])]


def event_from_log(obj: Mapping[str, Any], players: tuple[str, ...] = ()) -> RoyaleEvent:
    """The event a game-log object records (what :meth:`to_log` wrote), for those who read
    a stored log back: the Discord layer shows a round's events from them after a restart.
    Raises ``KeyError``/``ValueError`` for an object no event writes.
    """
    kind = obj["event"]
    if kind == "setup":
        players = tuple(obj["players"])
        return SetupEvent(int(obj["seed"]), players, tuple(obj["expansions"]),
                          tuple(tuple(_spec(d) for d in obj["hands"][p]) for p in players),
                          tuple(_spec(d) for d in obj["bag"]),
                          tuple(_spec(d) for d in obj.get("aside", ())))
    if kind == "token":
        return TokenEvent(obj["round"], obj["player"], tuple(obj["yellow"].items()),
                          obj["rerolls"])
    if kind == "mischief_dealt":
        return MischiefDealtEvent(obj["round"],
                                  tuple((p, _spec(d)) for p, d in obj["dice"].items()))
    if kind == "mischief":
        return MischiefEvent(obj["round"], obj["player"], obj["target"], obj["die"],
                             obj["before"], obj["after"])
    if kind == "cannon":
        return CannonEvent(obj["round"], obj["player"], obj["die"], obj["value"],
                           obj["decision"] == "score")
    if kind == "score":
        return ScoreEvent(obj["round"], obj["player"],
                          tuple((_spec(d), int(d["value"])) for d in obj["dice"]),
                          tuple(int(obj["columns"][c]) for c in COLUMN_NAMES))
    if kind == "pity":
        return PityEvent(obj["round"], tuple(obj["given"].items()))
    if kind == "captain":
        return CaptainEvent(obj["round"], obj["value"],
                            tuple((x["player"], x["die"]) for x in obj["lost"]))
    if kind == "trade":
        return TradeEvent(obj["round"], obj["player"], obj["target"], obj["gave"], obj["took"])
    if kind == "draft_pool":
        return DraftPoolEvent(obj["round"], tuple(_spec(d) for d in obj["dice"]))
    if kind == "pick":
        return PickEvent(obj["round"], obj["player"], obj["die"])
    if kind == "draft_return":
        return DraftReturnEvent(obj["round"], tuple(obj["dice"]))
    if kind == "game_end":
        return GameEndEvent(tuple(obj["totals"].items()), tuple(obj["winners"]))
    raise ValueError(f"not a Panda Royale event: {kind!r}")
