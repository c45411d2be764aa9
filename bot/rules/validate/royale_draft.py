"""The Panda Royale rule checks of the trades and the draft.

``trade``: in turn from the token holder's left, a clear d6 given for a die the other player
holds (neither a pity nor a Cannon die).
``draft_pool``, ``pick``, ``draft_return``: players + 1 dice from the bag, picked by the top
yellow totals (ties clockwise from the token holder), the rest back to the bag.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.dice import CANNON_KIND, PITY
from bot.rules.validate.royale_places import BAG, POOL, STAGES, DiePlaces, Entry, Obj, _hand


def pick_order(yellow: Sequence[int], token: int) -> list[int]:
    """Seats highest yellow total first; ties clockwise from the token holder."""
    n = len(yellow)
    return sorted(range(n), key=lambda p: (-yellow[p], (p - token) % n))


def trades(game: DiePlaces, events: list[Entry]) -> None:
    """Check the round's ``trade`` events: whose turn, the clear d6 given, the die taken; move
    both.
    """
    given: set[str] = set()
    last = -1
    for k, obj in events:
        who, target, gave, took = obj["player"], obj["target"], obj["gave"], obj["took"]
        pos = (game.seat[who] - game.token - 1) % game.n
        if pos < last:
            game.p.add(k, f"{who} trades after their turn (the pass goes clockwise from the "
                          "token holder's left, the token holder last)")
        last = max(last, pos)
        if who == target:
            game.p.add(k, "a trade must be with another player")
        spec = game.specs.get(gave)
        if spec is None or not spec.giveable:
            game.p.add(k, f"{gave} is not a clear d6: only a clear d6 can be given")
        elif gave in given:
            game.p.add(k, f"{gave} was already given this round")
        if not game.holds(who, gave):
            game.p.add(k, f"{who} does not hold {gave}")
        if game.kind(took) in (PITY, CANNON_KIND):
            game.p.add(k, f"{took} is a {game.kind(took)} die: it cannot be taken")
        if not game.holds(target, took):
            game.p.add(k, f"{target} does not hold {took}")
        given.add(gave)
        game.move(k, gave, _hand(who), _hand(target), f"{who} gives")
        game.move(k, took, _hand(target), _hand(who), f"{who} takes")


def draft(game: DiePlaces, pools: list[Entry], picks: list[Entry], returns: list[Entry],
          tok: Obj) -> None:
    """Check the round's draft: the pool drawn from the bag, the picks in yellow order, the dice
    returned.
    """
    if not pools:
        game.missing("draft_pool")
        if picks:
            game.p.add(picks[0][0], "picks without a draft pool")
        return
    k, obj = pools[0]
    bag_size = sum(1 for loc in game.where.values() if loc == BAG)
    want = min(game.n + 1, bag_size)
    pool_dice: list[Obj] = obj["dice"]
    if len(pool_dice) != want:
        game.p.add(k, f"the draft pool has {len(pool_dice)} dice, not {want} "
                      f"(players + 1, the bag holds {bag_size})")
    for d in pool_dice:
        if game.known(k, d) is not None:
            game.move(k, d["id"], BAG, POOL, "draft pool")
    yellow = [tok["yellow"][p] for p in game.players]
    order = [game.players[i] for i in pick_order(yellow, game.token)]
    due = min(game.n, len(pool_dice))
    for i, (k, obj) in enumerate(picks):
        who = obj["player"]
        if i >= due:
            game.p.add(k, f"pick {i + 1} of a round with {due} picks")
        elif who != order[i]:
            game.p.add(k, f"{who} picks in turn {i + 1}, but the yellow totals give that "
                          f"turn to {order[i]}")
        game.move(k, obj["die"], POOL, _hand(who), f"{who} picks")
    if len(picks) < due and STAGES["pick"] < game.reached:
        game.p.add(game.tk, f"round {game.round} has {len(picks)} picks, not {due}")
    left = [d for d, loc in game.where.items() if loc == POOL]
    if not returns:
        game.missing("draft_return")
        return
    k, obj = returns[0]
    back: list[str] = obj["dice"]
    if sorted(back) != sorted(left):
        game.p.add(k, f"returns [{', '.join(back)}] to the bag, but the pool holds "
                      f"[{', '.join(left)}]")
    for die in back:
        game.move(k, die, POOL, BAG, "draft return")
    for die in left:
        if game.where.get(die) == POOL:
            game.where[die] = BAG
