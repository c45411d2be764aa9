"""The Panda Royale rule checks of the ``setup`` event: players, options and every die.

The players' yellow d6, the bag and the dice set aside must be the components table's
(``bot.rules.royale.dice``) for this number of players and these options; each die is
registered with its spec and put in its first place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.rules.royale.dice import (
    BAG_DICE,
    CANNON_D8,
    CANNON_KIND,
    COLOR_COLUMN,
    EXPANSIONS,
    MAX_PLAYERS,
    MERCENARY_D6,
    MIN_PLAYERS,
    MISCHIEF_D12,
    PITY,
    PITY_D12,
    STANDARD,
    YELLOW_D6,
    DieSpec,
    DieType,
    dice_for,
)
from bot.rules.validate.royale_places import ASIDE, BAG, DiePlaces, Obj, _hand

_TYPES: dict[tuple[str, int, str], DieType] = {
    (t.color, t.sides, t.kind): t
    for t in (YELLOW_D6, PITY_D12, *BAG_DICE, MISCHIEF_D12, CANNON_D8, MERCENARY_D6)
}


def spec_of(d: Obj) -> DieSpec | None:
    """The die a log die object describes, or None if the box has no such die."""
    t = _TYPES.get((d["color"], d["sides"], d["kind"]))
    if t is None:
        return None
    return DieSpec(d["id"], t.color, t.sides, t.kind, t.faces, t.label, COLOR_COLUMN[t.color],
                   t.kind not in (PITY, CANNON_KIND), t.color == "clear" and t.kind == STANDARD)


def setup(game: DiePlaces) -> None:
    """Check ``setup`` (players, options, the dice of the box, the starting hands) and place
    every die.
    """
    s = game.events[0]
    n = game.n
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        game.p.add(0, f"Panda Royale is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                      f"not {n}")
    for e in s["expansions"]:
        if e not in EXPANSIONS:
            game.p.add(0, f"unknown expansion option {e!r}")
        elif e in game.expansions:
            game.p.add(0, f"expansion option {e} listed twice")
        game.expansions.add(e)
    exps = tuple(e for e in EXPANSIONS if e in game.expansions)
    table = dice_for(max(MIN_PLAYERS, min(n, MAX_PLAYERS)), exps)

    def triple(x: DieSpec | Obj) -> tuple[str, int, str]:
        if isinstance(x, DieSpec):
            return (x.color, x.sides, x.kind)
        return (x["color"], x["sides"], x["kind"])

    def register(d: Obj, loc: str) -> None:
        spec = spec_of(d)
        if spec is None:
            game.p.add(0, f"die {d['id']}: the box has no {d['color']} d{d['sides']} "
                          f"{d['kind']} die")
            return
        if d["id"] in game.specs:
            game.p.add(0, f"die id {d['id']} is used twice")
            return
        game.specs[d["id"]] = spec
        game.place(0, d["id"], loc, "setup")

    def differs(ids: Iterable[str], dice: list[Obj]) -> str:
        """How ``dice`` differ from the components table's ``ids`` ("" when they don't)."""
        want = Counter(triple(table.specs[d]) for d in ids)
        got = Counter(triple(d) for d in dice)
        return "" if got == want else _counter_diff(want, got)

    for p in game.players:
        hand = s["hands"][p]
        if [triple(d) for d in hand] != [(YELLOW_D6.color, 6, STANDARD)]:
            game.p.add(0, f"{p} must start with one yellow d6, not {len(hand)} dice "
                          f"({', '.join(d['id'] for d in hand)})")
        for d in hand:
            register(d, _hand(p))
    bag = s["bag"]
    if diff := differs(table.bag, bag):
        game.p.add(0, f"the bag holds {len(bag)} dice, not the {len(table.bag)} of the "
                      f"components table ({diff})")
    for d in bag:
        register(d, BAG)
    aside_ids = (*table.pity, *table.mischief)
    if "aside" in s:
        aside = s["aside"]
        if diff := differs(aside_ids, aside):
            game.p.add(0, f"the dice set aside are not the {len(table.pity)} pity dice and "
                          f"the Mischief dice of this game ({diff})")
        for d in aside:
            register(d, ASIDE)
    else:  # docs/game-log.md does not require "aside": take the components table's.
        for d in aside_ids:
            sp = table.specs[d]
            register({"id": sp.id, "color": sp.color, "sides": sp.sides, "kind": sp.kind},
                     ASIDE)


def _counter_diff(want: Counter[tuple[str, int, str]], got: Counter[tuple[str, int, str]]) -> str:
    bits = []
    for t in sorted(set(want) | set(got)):
        if want[t] != got[t]:
            bits.append(f"{got[t]} {t[0]} d{t[1]} {t[2]} instead of {want[t]}")
    return "; ".join(bits[:4]) + ("; ..." if len(bits) > 4 else "")
