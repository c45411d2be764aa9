"""The Panda Royale rule checks of the token and the scores of a round.

``token``: who holds a yellow die, the top yellow total, the re-rolls and who gets the token.
``score``: every player's dice (the ones they hold, faces they have), each column recomputed
with :func:`score_dice`, the round total and the yellow total of the token event.
"""

from __future__ import annotations

from collections import Counter

from bot.rules.royale.dice import COLUMN_NAMES, ROUNDS, DieSpec
from bot.rules.royale.scoring import score_dice
from bot.rules.validate.royale_places import STAGES, DiePlaces, Entry, Obj, _hand


def token_event(game: DiePlaces, k: int, tok: Obj) -> None:
    """Check ``token``: the yellow totals, the re-rolls and who gets the token; record the
    holder.
    """
    r = game.round
    yellow: dict[str, int] = tok["yellow"]
    holders = [p for p in game.players
               if any(game.specs[d].color == "yellow" for d in game.hands[p])]
    for p in game.players:
        if p not in holders and yellow[p] != 0:
            game.p.add(k, f"{p} holds no yellow die but has yellow total {yellow[p]}")
    expected: str | None = game.players[game.token]
    if holders:
        top = max(yellow[p] for p in holders)
        tops = [p for p in game.players if yellow[p] == top]
        if len(tops) == 1:
            expected = tops[0]
        elif r < ROUNDS:
            game.p.add(k, f"{' and '.join(tops)} share the top yellow total {top}: the yellow "
                          "dice must be re-rolled until one player alone has it")
            expected = None
    if expected is not None and tok["player"] != expected:
        why = "the top yellow total" if holders else "nobody holds a yellow die"
        game.p.add(k, f"the token goes to {tok['player']}, but {why}: it goes to "
                      f"{expected}")
    if (r == ROUNDS or not holders) and tok["rerolls"] != 0:
        game.p.add(k, f"{tok['rerolls']} yellow re-rolls where there can be none")
    if tok["rerolls"] < 0:
        game.p.add(k, "a negative number of yellow re-rolls")
    game.token = game.seat[tok["player"]]


def scores(game: DiePlaces, events: list[Entry], values: dict[str, int], scored: set[str],
           tok: Obj) -> dict[str, int]:
    """Check the round's ``score`` events (the dice held, their faces, every column recomputed);
    the round totals.
    """
    totals: dict[str, int] = {}
    r = game.round
    for k, obj in events:
        p = obj["player"]
        if p in totals:
            game.p.add(k, f"a second score of {p} in round {r}")
            continue
        rolled: list[tuple[DieSpec, int]] = []
        ids: list[str] = []
        for d in obj["dice"]:
            spec = game.known(k, d)
            ids.append(d["id"])
            if spec is None:
                continue
            v = d["value"]
            if v not in spec.faces:
                game.p.add(k, f"{d['id']} ({spec.label}) has no face {v}")
            rolled.append((spec, v))
            values[d["id"]] = v
        if len(set(ids)) != len(ids):
            dup = sorted(d for d, c in Counter(ids).items() if c > 1)
            game.p.add(k, f"{p}'s score lists {', '.join(dup)} twice")
        hand = set(game.hands[p])
        if set(ids) != hand:
            extra = sorted(set(ids) - hand)
            missing = sorted(hand - set(ids))
            bits = []
            if extra:
                bits.append(f"lists {', '.join(extra)}, which {p} does not hold")
            if missing:
                bits.append(f"leaves out {', '.join(missing)}, which {p} holds")
            game.p.add(k, f"{p}'s score {' and '.join(bits)}")
            # Follow the score from here (it lists every die held), so one bad move is
            # reported once rather than at every later round.
            for die in extra:
                if die in game.where:
                    game.relocate(die, _hand(p))
        cols = score_dice(rolled, r, scored)
        logged = obj["columns"]
        for name, want in zip(COLUMN_NAMES, cols, strict=True):
            if logged[name] != want:
                game.p.add(k, f"{p}'s {name} column is {logged[name]}, its dice score {want}")
        total = sum(logged[name] for name in COLUMN_NAMES)
        if obj["total"] != total:
            game.p.add(k, f"{p}'s round total is {obj['total']}, its columns add up to "
                          f"{total}")
        if logged["yellow"] != tok["yellow"][p]:
            game.p.add(k, f"{p} scores {logged['yellow']} in yellow but the token event "
                          f"says {tok['yellow'][p]}")
        totals[p] = obj["total"]
    for p in game.players:
        if p in totals:
            game.sheet[p].append(totals[p])
        elif STAGES["score"] < game.reached:
            game.p.add(game.tk, f"round {r} has no score event for {p}")
    return totals
