"""Check 2 for Panda Royale: the rules, read from the log alone (no engine flow).

Every die is tracked from ``setup`` through each event that moves it (mischief_dealt, pity,
captain, trade, draft_pool, pick, draft_return, a scored Cannon leaving the game), and each
event is checked against docs/rules.md: the order of the round, the yellow token, the mischief
actions, the Cannon decisions, every ``score`` recomputed with :func:`score_dice`, the pity dice,
the Captain's losses, the trades, the draft pool and the pick order, and ``game_end``.

Only the dice table (``bot.rules.royale.dice``) and :func:`score_dice` come from the engine's
package. Locations follow the log (so one bad event is reported once, not at every later
event); every move checks that the die is where the rules say it must be.

The checks are split by the part of the game they read, each module's functions taking the game
read so far (a :class:`DiePlaces`); :class:`RoyaleRules` holds that game and reads the log round
by round, calling each part's checks in the order of the round:

* :mod:`.royale_places`: the game's state, where every die is, and the moves of the dice;
* :mod:`.royale_setup`: ``setup``; :mod:`.royale_scoring`: ``token`` and ``score``;
* :mod:`.royale_mischief`: ``mischief``, ``cannon`` and ``mischief_dealt``;
* :mod:`.royale_pity`: ``pity`` and ``captain``; :mod:`.royale_draft`: ``trade`` and the draft;
* :mod:`.royale_end`: ``game_end``, the game totals and the winners.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.dice import ROUNDS
from bot.rules.validate import (
    royale_draft,
    royale_end,
    royale_mischief,
    royale_pity,
    royale_scoring,
    royale_setup,
)
from bot.rules.validate.problems import Problems
from bot.rules.validate.royale_draft import pick_order
from bot.rules.validate.royale_pity import pity_order
from bot.rules.validate.royale_places import (
    ASIDE,
    BAG,
    OUT,
    POOL,
    STAGES,
    DiePlaces,
    Entry,
    Obj,
    _hand,
)
from bot.rules.validate.royale_setup import spec_of

__all__ = [
    "AFTER_SCORE",
    "ASIDE",
    "BAG",
    "OUT",
    "POOL",
    "SINGLE",
    "STAGES",
    "Entry",
    "Obj",
    "RoyaleRules",
    "pick_order",
    "pity_order",
    "spec_of",
]

SINGLE = frozenset({"token", "mischief_dealt", "pity", "captain", "draft_pool", "draft_return"})
AFTER_SCORE = ("mischief_dealt", "pity", "captain", "trade", "draft_pool", "pick",
               "draft_return")


class RoyaleRules:
    """Reads one game's events (already shape-checked) round by round and records every rule
    broken: the game read so far is :attr:`game` (:class:`DiePlaces`), and each part of a
    round is checked by its module's functions over it.
    """

    def __init__(self, events: Sequence[Obj], problems: Problems) -> None:
        self.game = DiePlaces(events, problems)

    @property
    def complete(self) -> bool:
        """Whether the log reaches the end of the game."""
        return royale_end.is_complete(self.game)

    def totals(self) -> dict[str, int]:
        """Each player's game total, from the round totals of the score sheet."""
        return royale_end.game_totals(self.game)

    def winners(self) -> list[str]:
        """The players with the top game total."""
        return royale_end.game_winners(self.game)

    def run(self, partial_end: bool) -> None:
        """Check every event; ``partial_end``: the log may stop anywhere (unfinished game)."""
        game = self.game
        royale_setup.setup(game)
        block: list[Entry] = []
        events = game.events
        for k in range(1, len(events)):
            obj = events[k]
            name = obj["event"]
            if game.ended or name == "setup":
                game.p.after_end(k, name, len(game.events) - k)
                break
            if name == "game_end":
                if block:
                    self.round_block(block, partial=False)
                    block = []
                royale_end.game_end(game, k, obj)
                continue
            if name == "token" and block:
                self.round_block(block, partial=False)
                block = []
            if not block and name != "token":
                game.p.add(k, f"{name} before the round's token event")
                continue
            block.append((k, obj))
        if block:
            self.round_block(block, partial=partial_end)

    def round_block(self, block: list[Entry], partial: bool) -> None:
        game = self.game
        tk, tok = block[0]
        r = tok["round"]
        if r != game.round + 1:
            game.p.add(tk, f"token of round {r}, expected round {game.round + 1}")
        if not 1 <= r <= ROUNDS:
            game.p.add(tk, f"there is no round {r}")
            r = min(max(r, 1), ROUNDS)
        game.round = r
        buckets: dict[str, list[Entry]] = {name: [] for name in STAGES}
        stage, last = 0, "token"
        for k, obj in block:
            name = obj["event"]
            if name not in STAGES:
                game.p.add(k, f"{name} inside round {r}")
                continue
            if obj["round"] != r:
                game.p.add(k, f"{name} says round {obj['round']} inside round {r}")
            if STAGES[name] < stage:
                game.p.add(k, f"{name} out of order: after {last} in round {r}")
            elif name in SINGLE and buckets[name]:
                game.p.add(k, f"a second {name} in round {r}")
                continue
            else:
                stage, last = STAGES[name], name
            buckets[name].append((k, obj))
        reached = max(STAGES[obj["event"]] for _, obj in block if obj["event"] in STAGES)
        # Where the log stops in an unfinished game, later steps are not missing yet.
        game.reached = reached if partial else len(STAGES)
        game.tk = tk
        royale_scoring.token_event(game, tk, tok)
        values: dict[str, int] = {}
        mischief = buckets["mischief"]
        cannons = buckets["cannon"]
        royale_mischief.mischief_events(game, mischief)
        scored = royale_mischief.cannon_events(game, cannons)
        totals = royale_scoring.scores(game, buckets["score"], values, scored, tok)
        if game.reached > STAGES["score"] or not partial:
            royale_mischief.mischief_actors(game, mischief, values)
        for k, obj in cannons:
            if "value" in obj and obj["die"] in values and obj["value"] != values[obj["die"]]:
                game.p.add(k, f"Cannon {obj['die']} shows {obj['value']} here but "
                              f"{values[obj['die']]} in its score")
        hands = tuple(_hand(p) for p in game.players)
        for k, obj in cannons:
            if obj["decision"] == "score" and obj["die"] in game.where:
                game.move(k, obj["die"], hands, OUT, "scored Cannon")
        if r == ROUNDS:
            for name in AFTER_SCORE:
                for k, _ in buckets[name]:
                    game.p.add(k, f"round {ROUNDS} has no {name}")
            return
        royale_mischief.mischief_dealt(game, buckets["mischief_dealt"])
        royale_pity.pity(game, buckets["pity"], totals)
        royale_pity.captain(game, buckets["captain"], values)
        royale_draft.trades(game, buckets["trade"])
        royale_draft.draft(game, buckets["draft_pool"], buckets["pick"], buckets["draft_return"],
                           tok)
