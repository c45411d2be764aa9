"""The Panda Royale rule checks of the Mischief and Cannon options.

``mischief``: the actions (round 2 on, another player's die, not the yellow one, real faces)
and who may act (each Mischief die showing the top value, the token holder first).
``cannon``: one decision per Cannon die rolled, by its holder, clockwise from the token holder.
``mischief_dealt``: one Mischief die to every player, after round 1.
"""

from __future__ import annotations

from bot.rules.royale.dice import CANNON, CANNON_KIND, MISCHIEF, MISCHIEF_KIND
from bot.rules.validate.royale_places import (
    ASIDE,
    STAGES,
    DiePlaces,
    Entry,
    Obj,
    _hand,
    _where_text,
)


def mischief_events(game: DiePlaces, events: list[Entry]) -> None:
    """Check the round's ``mischief`` actions: the option, the round, the target's die and its
    faces.
    """
    if events and (MISCHIEF not in game.expansions or game.round < 2):
        why = "without the mischief option" if MISCHIEF not in game.expansions else \
            "in round 1"
        game.p.add(events[0][0], f"a mischief action {why}")
    for k, obj in events:
        die, who, target = obj["die"], obj["player"], obj["target"]
        if who == target:
            game.p.add(k, "mischief must target another player's die")
        if not game.holds(target, die):
            game.p.add(k, f"{target} does not hold {die} (it is "
                          f"{_where_text(game.where.get(die))})")
        spec = game.specs.get(die)
        if spec is None:
            continue
        if spec.color == "yellow":
            game.p.add(k, f"mischief cannot re-roll the yellow die {die}")
        for key in ("before", "after"):
            if obj[key] not in spec.faces:
                game.p.add(k, f"{die} has no face {obj[key]} ({key})")


def cannon_events(game: DiePlaces, events: list[Entry]) -> set[str]:
    """Check the round's ``cannon`` decisions (one per Cannon die rolled, by its holder, in
    turn); the Cannons scored.
    """
    scored: set[str] = set()
    if events and CANNON not in game.expansions:
        game.p.add(events[0][0], "a Cannon decision without the cannon option")
    held = {d: p for p in game.players for d in game.hands[p] if game.kind(d) == CANNON_KIND}
    seen: set[str] = set()
    last = -1
    for k, obj in events:
        die, who = obj["die"], obj["player"]
        if game.kind(die) != CANNON_KIND:
            game.p.add(k, f"{die} is not a Cannon die")
        elif held.get(die) != who:
            game.p.add(k, f"{who} does not hold the Cannon {die}")
        if die in seen:
            game.p.add(k, f"a second decision on Cannon {die} this round")
        seen.add(die)
        pos = (game.seat[who] - game.token) % game.n
        if pos < last:
            game.p.add(k, f"Cannon decision of {who} out of turn (they go clockwise from "
                          "the token holder)")
        last = max(last, pos)
        if obj["decision"] == "score":
            scored.add(die)
    if STAGES["cannon"] < game.reached:
        for die, p in held.items():
            if die not in seen:
                game.p.add(game.tk, f"round {game.round}: {p} rolled the Cannon {die} but "
                                    "no cannon decision is logged")
    return scored


def mischief_actors(game: DiePlaces, events: list[Entry], values: dict[str, int]) -> None:
    """Who acts: each Mischief die showing the top Mischief value, token holder first."""
    if MISCHIEF not in game.expansions or game.round < 2:
        return
    first: dict[str, int] = {}  # the value each die showed before any mischief
    chain: dict[str, int] = {}
    for k, obj in events:
        die = obj["die"]
        first.setdefault(die, obj["before"])
        if die in chain and chain[die] != obj["before"]:
            game.p.add(k, f"{die} showed {chain[die]}, not {obj['before']}, before this "
                          "mischief")
        chain[die] = obj["after"]
    for die, after in chain.items():
        if die in values and values[die] != after:
            k = max(k for k, obj in events if obj["die"] == die)
            game.p.add(k, f"{die} is re-rolled to {after} but scores {values[die]}")
    held = []
    for i in range(game.n):
        p = game.players[(game.token + i) % game.n]
        for d in game.hands[p]:
            if game.kind(d) == MISCHIEF_KIND:
                v = first.get(d, values.get(d))
                if v is None:
                    return
                held.append((p, v))
    top = max((v for _, v in held), default=None)
    expected = [p for p, v in held if v == top and has_target(game, p)]
    actual = [obj["player"] for _, obj in events]
    if actual != expected:
        k = events[0][0] if events else game.tk
        why = (f"the Mischief dice showing the top value {top} give them to "
               f"[{', '.join(expected)}]" if held else "no Mischief die is in play")
        game.p.add(k, f"round {game.round}: mischief actions by [{', '.join(actual)}], "
                      f"but {why}")


def has_target(game: DiePlaces, p: str) -> bool:
    """Whether another player than ``p`` holds a die mischief may re-roll (any but a yellow one)."""
    return any(game.specs[d].color != "yellow" for q in game.players if q != p
               for d in game.hands[q])


def mischief_dealt(game: DiePlaces, events: list[Entry]) -> None:
    """Check ``mischief_dealt``: one Mischief die to every player, once, after round 1."""
    due = MISCHIEF in game.expansions and game.round == 1
    if not due:
        for k, _ in events:
            game.p.add(k, "Mischief dice are dealt once, after round 1, with the mischief "
                          "option")
        return
    if not events:
        game.missing("mischief_dealt")
        return
    k, obj = events[0]
    dealt: dict[str, Obj] = obj["dice"]
    missing = [p for p in game.players if p not in dealt]
    if missing:
        game.p.add(k, f"no Mischief die dealt to {', '.join(missing)}")
    for p, d in dealt.items():
        spec = game.known(k, d)
        if spec is not None and spec.kind != MISCHIEF_KIND:
            game.p.add(k, f"{d['id']} dealt to {p} is not a Mischief die")
        if spec is not None:
            game.move(k, d["id"], ASIDE, _hand(p), f"Mischief die dealt to {p}")
