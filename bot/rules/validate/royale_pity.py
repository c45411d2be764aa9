"""The Panda Royale rule checks of the pity dice and the Captain (Mercenary option).

``pity``: the pity dice go to the lowest round totals (ties counter-clockwise from the token
holder's right), one each, and the others go back aside.
``captain``: the Captain's roll and the Mercenary dice showing its value, lost to the bag.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.dice import CAPTAIN_SIDES, MERCENARY, MERCENARY_KIND, PITY
from bot.rules.validate.royale_places import ASIDE, BAG, DiePlaces, Entry, _hand


def pity_order(totals: Sequence[int], token: int) -> list[int]:
    """Seats lowest round total first; ties counter-clockwise from the token holder's right."""
    n = len(totals)
    return sorted(range(n), key=lambda p: (totals[p], (token - 1 - p) % n))


def pity(game: DiePlaces, events: list[Entry], totals: dict[str, int]) -> None:
    """Check ``pity``: the pity dice go to the lowest round totals, one each; the others go back
    aside.
    """
    if not events:
        game.missing("pity")
        return
    k, obj = events[0]
    given: dict[str, str] = obj["given"]
    pity_dice = [d for d, spec in game.specs.items() if spec.kind == PITY]
    count = min(len(pity_dice), game.n)
    if len(totals) == game.n:
        order = pity_order([totals[p] for p in game.players], game.token)
        want = [game.players[i] for i in order[:count]]
        if set(given) != set(want):
            game.p.add(k, f"pity dice go to [{', '.join(given)}], but the lowest round "
                          f"totals give them to [{', '.join(want)}]")
    if len(given) != count:
        game.p.add(k, f"{len(given)} pity dice given, not {count}")
    dice = list(given.values())
    if len(set(dice)) != len(dice):
        game.p.add(k, "a pity die is given twice")
    for p, d in given.items():
        if game.kind(d) != PITY:
            game.p.add(k, f"{d} given to {p} is not a pity die")
    holders = (*(_hand(p) for p in game.players), ASIDE)
    to = {d: p for p, d in given.items()}
    for d in pity_dice:
        if d in to:
            game.move(k, d, holders, _hand(to[d]), f"pity die given to {to[d]}")
        elif game.where.get(d) != ASIDE:
            game.move(k, d, holders, ASIDE, "pity die taken back")


def captain(game: DiePlaces, events: list[Entry], values: dict[str, int]) -> None:
    """Check ``captain``: the Captain's roll and the Mercenary dice showing its value, lost to
    the bag.
    """
    if MERCENARY not in game.expansions:
        for k, _ in events:
            game.p.add(k, "a Captain roll without the mercenary option")
        return
    if not events:
        game.missing("captain")
        return
    k, obj = events[0]
    value = obj["value"]
    if not 1 <= value <= CAPTAIN_SIDES:
        game.p.add(k, f"the Captain d{CAPTAIN_SIDES} has no face {value}")
    want = {(p, d) for p in game.players for d in game.hands[p]
            if game.kind(d) == MERCENARY_KIND and values.get(d) == value}
    got = [(x["player"], x["die"]) for x in obj["lost"]]
    if set(got) != want or len(got) != len(want):
        game.p.add(k, f"the Captain shows {value}: lost {_pairs(got)}, but the Mercenary "
                      f"dice showing {value} are {_pairs(sorted(want))}")
    for p, d in got:
        game.move(k, d, _hand(p), BAG, f"Mercenary lost by {p}")


def _pairs(pairs: Sequence[tuple[str, str]]) -> str:
    return "[" + ", ".join(f"{d} of {p}" for p, d in pairs) + "]" if pairs else "none"
