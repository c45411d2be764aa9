"""The state of a Panda Royale game: plain data, JSON round-trippable, versioned."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.rules.errors import StateFormatError
from bot.rules.rng import Draws, Rng
from bot.rules.royale.dice import DiceSet, dice_for

FORMAT_VERSION = 1


class Phase(StrEnum):
    """What the game waits for."""

    MISCHIEF = "mischief"  # a Mischief die's owner picks a die to re-roll
    CANNON = "cannon"  # a Cannon holder scores or saves a die
    TRADE = "trade"  # the trade pass
    DRAFT = "draft"  # picks from the pool
    OVER = "over"


@dataclass(slots=True)
class RoyaleState:
    """Everything about one game. Mutated only inside the engine, on copies."""

    seed: int
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    rng: Draws  # the game's seeded Rng
    round: int
    phase: Phase
    token: int
    hands: list[list[str]]
    bag: list[str]
    pool: list[str]
    # In no hand, bag or pool: pity dice before round 1, undealt Mischief dice, scored Cannons.
    aside: list[str]
    values: dict[str, int]  # die id -> value it shows this round (rolled dice only)
    yellow: list[int]  # each seat's final yellow total this round
    rerolls: int  # yellow tie re-rolls this round
    queue: list[tuple[int, str]]  # waiting decisions: (seat, die) - die is "" in trade/draft
    given: list[str]  # clear d6 given in a trade this round
    scored_cannons: list[str]  # Cannons chosen to score this round
    sheet: list[list[list[int]]]  # [round - 1][seat] -> the seven column scores (rows are
    # only ever appended: a row is never changed once written)
    dice: DiceSet = field(compare=False, repr=False)
    # totals(): the sheet it added up, how many of its rows, and the totals (not state: a cache)
    _summed: tuple[list[list[list[int]]], int, list[int]] | None = field(
        default=None, init=False, compare=False, repr=False)

    @property
    def n(self) -> int:
        return len(self.players)

    def clone(self, rng: Draws | None = None) -> RoyaleState:
        """A deep copy (dice specs are immutable and shared), with a copy of the generator or
        ``rng`` in its place (a look-ahead's own).
        """
        return RoyaleState(
            self.seed, self.players, self.expansions, self.rng.copy() if rng is None else rng,
            self.round, self.phase, self.token, [list(h) for h in self.hands], list(self.bag),
            list(self.pool), list(self.aside), dict(self.values), list(self.yellow),
            self.rerolls, list(self.queue), list(self.given), list(self.scored_cannons),
            [[list(cols) for cols in rnd] for rnd in self.sheet], self.dice,
        )

    def owner_of(self, die: str) -> int | None:
        """The seat holding ``die``, or None."""
        for seat, hand in enumerate(self.hands):
            if die in hand:
                return seat
        return None

    def totals(self) -> list[int]:
        """Each seat's game total so far (rows already added up are not added again)."""
        sheet = self.sheet
        summed = self._summed
        if summed is not None and summed[0] is sheet and summed[1] <= len(sheet):
            done, out = summed[1], list(summed[2])
        else:
            done, out = 0, [0] * self.n
        for rnd in sheet[done:]:
            for seat, cols in enumerate(rnd):
                out[seat] += sum(cols)
        self._summed = (sheet, len(sheet), out)
        return list(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game_kind": "royale",
            "seed": self.seed,
            "players": list(self.players),
            "expansions": list(self.expansions),
            "rng": self.rng.to_json(),
            "round": self.round,
            "phase": self.phase.value,
            "token": self.token,
            "hands": [list(h) for h in self.hands],
            "bag": list(self.bag),
            "pool": list(self.pool),
            "aside": list(self.aside),
            "values": dict(self.values),
            "yellow": list(self.yellow),
            "rerolls": self.rerolls,
            "queue": [[s, d] for s, d in self.queue],
            "given": list(self.given),
            "scored_cannons": list(self.scored_cannons),
            "sheet": [[list(c) for c in rnd] for rnd in self.sheet],
        }


def state_from_json(data: Mapping[str, Any]) -> RoyaleState:
    """Read a state written by :meth:`RoyaleState.to_json`."""
    try:
        if data.get("game_kind") != "royale":
            raise StateFormatError("This is not a Panda Royale game state.")
        if data.get("format") != FORMAT_VERSION:
            raise StateFormatError(f"Unsupported state format {data.get('format')!r}.")
        players = tuple(str(p) for p in data["players"])
        expansions = tuple(str(e) for e in data["expansions"])
        state = RoyaleState(
            seed=int(data["seed"]),
            players=players,
            expansions=expansions,
            rng=Rng.from_json(data["rng"]),
            round=int(data["round"]),
            phase=Phase(data["phase"]),
            token=int(data["token"]),
            hands=[[str(d) for d in h] for h in data["hands"]],
            bag=[str(d) for d in data["bag"]],
            pool=[str(d) for d in data["pool"]],
            aside=[str(d) for d in data["aside"]],
            values={str(k): int(v) for k, v in data["values"].items()},
            yellow=[int(y) for y in data["yellow"]],
            rerolls=int(data["rerolls"]),
            queue=[(int(s), str(d)) for s, d in data["queue"]],
            given=[str(d) for d in data["given"]],
            scored_cannons=[str(d) for d in data["scored_cannons"]],
            sheet=[[[int(v) for v in cols] for cols in rnd] for rnd in data["sheet"]],
            dice=dice_for(len(players), expansions),
        )
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateFormatError(f"Damaged game state: {exc}") from exc
    if len(state.hands) != state.n:
        raise StateFormatError("Damaged game state: one hand per player expected.")
    return state
