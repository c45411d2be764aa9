"""The dice of the box: one table, as docs/rules.md lists them.

Every die of a game gets a stable id (``"red8-3"``) and a :class:`DieSpec`. Values are the
signed values a face scores before column multipliers (red black faces are negative).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

# Expansion option names (the Mayhem expansion's three independent options).
MISCHIEF: Final = "mischief"
CANNON: Final = "cannon"
MERCENARY: Final = "mercenary"
EXPANSIONS: Final = (MISCHIEF, CANNON, MERCENARY)

# Die kinds, as docs/game-log.md names them.
STANDARD: Final = "standard"
GLITTER: Final = "glitter"
PITY: Final = "pity"
MISCHIEF_KIND: Final = "mischief"
CANNON_KIND: Final = "cannon"
MERCENARY_KIND: Final = "mercenary"


class Column(IntEnum):
    """The seven scoring columns of the score sheet, in sheet order."""

    YELLOW = 0
    PURPLE = 1
    BLUE = 2
    RED = 3
    GREEN = 4
    CLEAR = 5
    PINK = 6


COLUMN_NAMES: Final = ("yellow", "purple", "blue", "red", "green", "clear", "pink")
COLOR_COLUMN: Final = {name: Column(i) for i, name in enumerate(COLUMN_NAMES)}

RED_D6_FACES: Final = (-1, -2, -3, 4, 5, 6)
RED_D8_FACES: Final = (-1, -2, -3, -4, 5, 6, 7, 8)


def _plain(sides: int) -> tuple[int, ...]:
    return tuple(range(1, sides + 1))


@dataclass(frozen=True, slots=True)
class DieType:
    """One row of the components table: a kind of die and how many the box has."""

    prefix: str
    color: str
    sides: int
    kind: str
    count: int
    faces: tuple[int, ...]
    label: str


# The base game's dice (docs/rules.md, "The dice"). Yellow d6 and pink pity d12 are counted
# here with the box's totals; setup uses one yellow d6 per player and PITY_DICE_BY_PLAYERS.
YELLOW_D6: Final = DieType("yellow6", "yellow", 6, STANDARD, 10, _plain(6), "Yellow d6")
PITY_D12: Final = DieType("pink12", "pink", 12, PITY, 4, _plain(12), "Pink pity d12")
BAG_DICE: Final = (
    DieType("yellow8", "yellow", 8, STANDARD, 7, _plain(8), "Yellow d8"),
    DieType("purple8", "purple", 8, STANDARD, 7, _plain(8), "Purple d8"),
    DieType("purple12", "purple", 12, STANDARD, 7, _plain(12), "Purple d12"),
    DieType("blue6", "blue", 6, STANDARD, 10, _plain(6), "Blue d6"),
    DieType("blue8", "blue", 8, STANDARD, 9, _plain(8), "Blue d8"),
    DieType("blue12", "blue", 12, STANDARD, 9, _plain(12), "Blue d12"),
    DieType("glitter6", "blue", 6, GLITTER, 7, _plain(6), "Blue glitter d6"),
    DieType("red6", "red", 6, STANDARD, 10, RED_D6_FACES, "Red d6"),
    DieType("red8", "red", 8, STANDARD, 9, RED_D8_FACES, "Red d8"),
    DieType("green20", "green", 20, STANDARD, 10, _plain(20), "Green d20"),
    DieType("clear6", "clear", 6, STANDARD, 7, _plain(6), "Clear d6"),
)
# The Mayhem expansion's dice.
MISCHIEF_D12: Final = DieType(
    "mischief12", "clear", 12, MISCHIEF_KIND, 10, _plain(12), "Mischief d12"
)
CANNON_D8: Final = DieType("cannon8", "pink", 8, CANNON_KIND, 5, _plain(8), "Cannon d8")
MERCENARY_D6: Final = DieType(
    "mercenary6", "green", 6, MERCENARY_KIND, 9, _plain(6), "Mercenary d6"
)
CAPTAIN_SIDES: Final = 6

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
ROUNDS: Final = 10
CANNON_MULTIPLIER: Final = 10
PURPLE_MULTIPLIER: Final = 2
GLITTER_MULTIPLIER: Final = 2


def pity_dice_for(players: int) -> int:
    """How many pink pity dice a game of ``players`` players uses."""
    if players <= 3:
        return 1
    if players <= 6:
        return 2
    if players <= 9:
        return 3
    return 4


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One physical die of a game."""

    id: str
    color: str
    sides: int
    kind: str
    faces: tuple[int, ...]
    label: str
    column: int  # a Column, as a plain int (scoring indexes the columns with it)
    takeable: bool  # a trade may take it: every die but pity dice and Cannons
    giveable: bool  # a trade may give it: only a clear d6
    log_json: str = field(init=False, repr=False, compare=False)
    """:meth:`to_log` as compact JSON text (the game log writes it as it is)."""
    log_rolled: dict[int, str] = field(init=False, repr=False, compare=False)
    """Each face's rolled-die object (:meth:`to_log` and its ``value``) as JSON text."""

    def __post_init__(self) -> None:
        def text(obj: dict[str, object]) -> str:
            return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

        log_json = text(self.to_log())
        object.__setattr__(self, "log_json", log_json)
        # {**to_log(), "value": v} as JSON: the same text with the value as its last key
        object.__setattr__(self, "log_rolled",
                           {v: f'{log_json[:-1]},"value":{v}}}' for v in self.faces})

    def to_log(self) -> dict[str, object]:
        return {"id": self.id, "color": self.color, "sides": self.sides, "kind": self.kind}


def _specs(t: DieType, count: int) -> list[DieSpec]:
    col = int(COLOR_COLUMN[t.color])
    takeable = t.kind not in (PITY, CANNON_KIND)
    giveable = t.color == "clear" and t.kind == STANDARD
    return [DieSpec(f"{t.prefix}-{i}", t.color, t.sides, t.kind, t.faces, t.label, col,
                    takeable, giveable)
            for i in range(1, count + 1)]


def _box() -> dict[str, DieSpec]:
    """Every die of the box (the most any game uses of each), by id."""
    dice: list[DieSpec] = []
    for t in (YELLOW_D6, PITY_D12, *BAG_DICE, CANNON_D8, MERCENARY_D6, MISCHIEF_D12):
        dice += _specs(t, t.count)
    return {d.id: d for d in dice}


BOX: Final[dict[str, DieSpec]] = _box()
"""Every die of the box by id: a die id names the same die (the same spec) in every game."""

# What the engine asks of a die, by id, for every die of the box (computed once, here).
YELLOW_DICE: Final = frozenset(d for d, sp in BOX.items() if sp.column == Column.YELLOW)
GIVEABLE: Final = frozenset(d for d, sp in BOX.items() if sp.giveable)
TAKEABLE: Final = frozenset(d for d, sp in BOX.items() if sp.takeable)
MISCHIEF_DICE: Final = frozenset(d for d, sp in BOX.items() if sp.kind == MISCHIEF_KIND)
CANNON_DICE: Final = frozenset(d for d, sp in BOX.items() if sp.kind == CANNON_KIND)
MERCENARY_DICE: Final = frozenset(d for d, sp in BOX.items() if sp.kind == MERCENARY_KIND)
PITY_DICE: Final = frozenset(d for d, sp in BOX.items() if sp.kind == PITY)
ROLLING: Final[dict[str, tuple[tuple[int, ...], int, bool]]] = {
    d: (sp.faces, sp.sides, sp.column == Column.YELLOW) for d, sp in BOX.items()}
"""What a roll needs of each die: its faces, how many they are (a roll shows
``faces[floor(random() * sides)]``), and whether it counts to its holder's yellow total."""


@dataclass(frozen=True, slots=True)
class DiceSet:
    """Every die of one game, and where each starts."""

    specs: dict[str, DieSpec]
    yellow: tuple[str, ...]  # one starting yellow d6 per seat
    pity: tuple[str, ...]  # pity dice in the middle of the table
    bag: tuple[str, ...]  # the drafting bag
    mischief: tuple[str, ...]  # Mischief d12s, kept in the box until dealt


def _ids(t: DieType, count: int) -> list[str]:
    """The ids of the first ``count`` dice of type ``t``: the box's own string objects (a dict
    or set of the engine that finds the very same object need not compare the text).
    """
    return [BOX[f"{t.prefix}-{i}"].id for i in range(1, count + 1)]


def build_dice(players: int, expansions: frozenset[str] | tuple[str, ...]) -> DiceSet:
    """The dice one game of ``players`` players uses with the given expansion options."""
    yellow = _ids(YELLOW_D6, players)
    pity = _ids(PITY_D12, pity_dice_for(players))
    bag: list[str] = []
    for t in BAG_DICE:
        bag += _ids(t, t.count)
    if CANNON in expansions:
        bag += _ids(CANNON_D8, CANNON_D8.count)
    if MERCENARY in expansions:
        bag += _ids(MERCENARY_D6, MERCENARY_D6.count)
    mischief = _ids(MISCHIEF_D12, MISCHIEF_D12.count) if MISCHIEF in expansions else []
    return DiceSet(
        specs={d: BOX[d] for d in (*yellow, *pity, *bag, *mischief)},
        yellow=tuple(yellow),
        pity=tuple(pity),
        bag=tuple(bag),
        mischief=tuple(mischief),
    )


_CACHE: dict[tuple[int, frozenset[str]], DiceSet] = {}


def dice_for(players: int, expansions: frozenset[str] | tuple[str, ...]) -> DiceSet:
    """:func:`build_dice`, memoised (a DiceSet is immutable)."""
    key = (players, frozenset(expansions))
    ds = _CACHE.get(key)
    if ds is None:
        ds = _CACHE[key] = build_dice(players, key[1])
    return ds
