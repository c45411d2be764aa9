"""Where every die is, for the Panda Royale rule checks (:mod:`.royale_rules`).

:class:`DiePlaces` holds what the checks share: the players and their seats, the options, each
die's spec and location, the hands, the round, the token and the score sheet. Its methods look
dice up and move them, reporting a die that is not where the rules say it must be. The
constants name the steps of a round (``STAGES``) and the places a die can be outside a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.royale.dice import DieSpec
from bot.rules.validate.problems import Problems

Obj = dict[str, Any]
Entry = tuple[int, Obj]  # (event index in the game, event)

# The order of a round (docs/game-log.md); mischief_dealt comes after round 1 is scored.
STAGES: dict[str, int] = {
    "token": 0, "mischief": 1, "cannon": 2, "score": 3, "mischief_dealt": 4, "pity": 5,
    "captain": 6, "trade": 7, "draft_pool": 8, "pick": 9, "draft_return": 10,
}

BAG = "the bag"
POOL = "the draft pool"
ASIDE = "set aside"
OUT = "out of the game"


def _hand(player: str) -> str:
    return f"hand:{player}"


def _where_text(loc: str | None) -> str:
    if loc is None:
        return "unknown"
    return f"in {loc[5:]}'s hand" if loc.startswith("hand:") else loc


class DiePlaces:
    """The state of one game read from its log, and the moves of its dice."""

    def __init__(self, events: Sequence[Obj], problems: Problems) -> None:
        self.events = events
        self.p = problems
        setup = events[0]
        self.players: list[str] = list(setup["players"])
        self.n = len(self.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.expansions: set[str] = set()
        self.specs: dict[str, DieSpec] = {}
        self.where: dict[str, str] = {}
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        self.round = 0
        self.token = 0
        self.sheet: dict[str, list[int]] = {p: [] for p in self.players}
        self.ended = False
        self.tk = 0  # index of the current round's token event
        self.reached = len(STAGES)  # the last step of the round the log reaches

    # ------------------------------------------------------------------ dice and places

    def known(self, k: int, d: Obj) -> DieSpec | None:
        """The spec of a die object met in event ``k``, checking it never changes."""
        spec = self.specs.get(d["id"])
        if spec is None:
            self.p.add(k, f"die {d['id']} was not in the game at setup")
            return None
        if (spec.color, spec.sides, spec.kind) != (d["color"], d["sides"], d["kind"]):
            self.p.add(k, f"die {d['id']} is now {d['color']} d{d['sides']} {d['kind']}, "
                          f"but was {spec.color} d{spec.sides} {spec.kind}")
        return spec

    def place(self, k: int, die: str, loc: str, what: str) -> None:
        """Put a die that enters the game (setup) at ``loc``."""
        if die in self.where:
            self.p.add(k, f"{what}: die {die} is already {_where_text(self.where[die])}")
            return
        self.where[die] = loc
        if loc.startswith("hand:"):
            self.hands[loc[5:]].append(die)

    def move(self, k: int, die: str, frm: str | tuple[str, ...], to: str, what: str) -> None:
        """Move ``die`` to ``to``, checking it is at ``frm`` (one of them) now."""
        now = self.where.get(die)
        allowed = (frm,) if isinstance(frm, str) else frm
        if now not in allowed:
            want = " or ".join(_where_text(f) for f in allowed)
            self.p.add(k, f"{what}: die {die} is {_where_text(now)}, not {want}")
            if now is None:
                return
        self.relocate(die, to)

    def relocate(self, die: str, to: str) -> None:
        """Move ``die`` without a check (to follow the log after a reported problem)."""
        now = self.where.get(die)
        if now is not None and now.startswith("hand:"):
            self.hands[now[5:]].remove(die)
        self.where[die] = to
        if to.startswith("hand:"):
            self.hands[to[5:]].append(die)

    def holds(self, player: str, die: str) -> bool:
        return self.where.get(die) == _hand(player)

    def kind(self, die: str) -> str:
        spec = self.specs.get(die)
        return spec.kind if spec else ""

    def missing(self, name: str, why: str = "") -> None:
        if STAGES[name] < self.reached:
            self.p.add(self.tk, f"round {self.round} has no {name} event{why}")
