"""The dice of the expert's play-outs (:mod:`bot.rules.royale.expert_playout`): each die's
numbers by die number (:class:`Dice`), and one determinised future's draws (:class:`Future`).

A future draws its numbers *per die*, in advance and in the same order whoever asks: each
round's face of every die, the yellow re-rolls, and each round's draft order of every die. Two
play-outs of one future that differ by a decision see the same faces on the same dice and the
same draft pools, as long as the same dice are in the bag (common random numbers).
"""

from __future__ import annotations

from _random import Random

from bot.rules.royale.ai import Parts, die_parts
from bot.rules.royale.dice import Column, DiceSet
from bot.rules.royale.round_odds import _RoundParts, round_parts


class Dice:
    """Everything the play-outs need about one dice set, by die number."""

    __slots__ = ("faces", "giveable", "ids", "index", "kind", "moments", "parts", "pity",
                 "sides", "takeable", "trade_kind", "yellow")

    def __init__(self, ds: DiceSet) -> None:
        specs = list(ds.specs.values())
        self.ids = [sp.id for sp in specs]
        self.index = {sp.id: i for i, sp in enumerate(specs)}
        self.faces = [sp.faces for sp in specs]
        self.sides = [sp.sides for sp in specs]
        # The heuristic's value parts (the same for every round in the base game) and each
        # die's expected points and variance in one round.
        self.parts: list[Parts] = [die_parts(sp, 1) for sp in specs]
        self.moments: list[_RoundParts] = [round_parts(sp, 1) for sp in specs]
        self.giveable = [sp.giveable for sp in specs]
        self.takeable = [sp.takeable for sp in specs]
        self.yellow = [sp.color == "yellow" for sp in specs]
        # How a rolled face scores: 0 flat, 1 purple, 2 blue, 3 blue glitter, 4 red.
        kind = []
        for sp in specs:
            if sp.column == Column.PURPLE:
                kind.append(1)
            elif sp.column == Column.BLUE:
                kind.append(3 if sp.kind == "glitter" else 2)
            elif sp.column == Column.RED:
                kind.append(4)
            else:
                kind.append(0)
        self.kind = kind
        # Dice a trade may take, numbered by their value parts from 1 (0: not takeable).
        kinds: dict[Parts, int] = {}
        self.trade_kind = [kinds.setdefault(p, len(kinds) + 1) if t else 0
                           for p, t in zip(self.parts, self.takeable, strict=True)]
        self.pity = [self.index[d] for d in ds.pity]


_DICE: dict[int, tuple[DiceSet, Dice]] = {}


def dice_of(ds: DiceSet) -> Dice:
    """The :class:`Dice` of a dice set (kept: dice sets are immutable and few)."""
    got = _DICE.get(id(ds))
    if got is None or got[0] is not ds:
        if len(_DICE) > 32:
            _DICE.clear()
        got = _DICE[id(ds)] = (ds, Dice(ds))
    return got[1]


class Future:
    """The dice of one determinised future: each round's faces and draft order, per die."""

    __slots__ = ("_order", "_rand", "_rerolls", "_uniform", "dice")

    def __init__(self, dice: Dice, seed: int) -> None:
        self.dice = dice
        self._rand = Random(seed).random
        self._uniform: dict[int, list[float]] = {}
        self._order: dict[int, list[int]] = {}
        self._rerolls: dict[tuple[int, int], list[float]] = {}

    def uniforms(self, r: int) -> list[float]:
        """One uniform number per die for round ``r``'s roll."""
        u = self._uniform.get(r)
        if u is None:
            rand = self._rand
            u = self._uniform[r] = [rand() for _ in self.dice.ids]
        return u

    def reroll(self, r: int, k: int) -> list[float]:
        """One uniform number per die for the ``k``-th yellow re-roll of round ``r``."""
        u = self._rerolls.get((r, k))
        if u is None:
            rand = self._rand
            u = self._rerolls[(r, k)] = [rand() for _ in self.dice.ids]
        return u

    def order(self, r: int) -> list[int]:
        """Every die in a random order: round ``r``'s pool is the first few in the bag."""
        o = self._order.get(r)
        if o is None:
            rand = self._rand
            keys = [rand() for _ in self.dice.ids]
            o = self._order[r] = sorted(range(len(keys)), key=keys.__getitem__)
        return o
