"""Check 2 for Panda Royale: the rules, read from the log alone (no engine flow).

Every die is tracked from ``setup`` through each event that moves it (mischief_dealt, pity,
captain, trade, draft_pool, pick, draft_return, a scored Cannon leaving the game), and each
event is checked against docs/rules.md: the order of the round, the yellow token, the mischief
actions, the Cannon decisions, every ``score`` recomputed with :func:`score_dice`, the pity dice,
the Captain's losses, the trades, the draft pool and the pick order, and ``game_end``.

Only the dice table (``bot.rules.royale.dice``) and :func:`score_dice` come from the engine's
package. Locations follow the log (so one bad event is reported once, not at every later
event); every move checks that the die is where the rules say it must be.

The checks are split by the part of the game they read; :class:`RoyaleRules` puts them together
and reads the log round by round:

* :mod:`.royale_places`: the game's state, where every die is, and the moves of the dice;
* :mod:`.royale_setup`: ``setup``; :mod:`.royale_scoring`: ``token`` and ``score``;
* :mod:`.royale_mischief`: ``mischief``, ``cannon`` and ``mischief_dealt``;
* :mod:`.royale_pity`: ``pity`` and ``captain``; :mod:`.royale_draft`: ``trade`` and the draft;
* :mod:`.royale_end`: ``game_end``, the game totals and the winners.
"""

from __future__ import annotations

from bot.rules.royale.dice import ROUNDS
from bot.rules.validate.royale_draft import TradeDraftChecks, pick_order
from bot.rules.validate.royale_end import GameEndChecks
from bot.rules.validate.royale_mischief import MischiefCannonChecks
from bot.rules.validate.royale_pity import PityCaptainChecks, pity_order
from bot.rules.validate.royale_places import ASIDE, BAG, OUT, POOL, STAGES, Entry, Obj, _hand
from bot.rules.validate.royale_scoring import TokenScoreChecks
from bot.rules.validate.royale_setup import SetupChecks, spec_of

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


class RoyaleRules(SetupChecks, TokenScoreChecks, MischiefCannonChecks, PityCaptainChecks,
                  TradeDraftChecks, GameEndChecks):
    """Reads one game's events (already shape-checked) and records every rule broken."""

    def run(self, partial_end: bool) -> None:
        """Check every event; ``partial_end``: the log may stop anywhere (unfinished game)."""
        self.setup()
        block: list[Entry] = []
        events = self.events
        for k in range(1, len(events)):
            obj = events[k]
            name = obj["event"]
            if self.ended or name == "setup":
                self.p.after_end(k, name, len(self.events) - k)
                break
            if name == "game_end":
                if block:
                    self.round_block(block, partial=False)
                    block = []
                self.game_end(k, obj)
                continue
            if name == "token" and block:
                self.round_block(block, partial=False)
                block = []
            if not block and name != "token":
                self.p.add(k, f"{name} before the round's token event")
                continue
            block.append((k, obj))
        if block:
            self.round_block(block, partial=partial_end)

    def round_block(self, block: list[Entry], partial: bool) -> None:
        tk, tok = block[0]
        r = tok["round"]
        if r != self.round + 1:
            self.p.add(tk, f"token of round {r}, expected round {self.round + 1}")
        if not 1 <= r <= ROUNDS:
            self.p.add(tk, f"there is no round {r}")
            r = min(max(r, 1), ROUNDS)
        self.round = r
        buckets: dict[str, list[Entry]] = {name: [] for name in STAGES}
        stage, last = 0, "token"
        for k, obj in block:
            name = obj["event"]
            if name not in STAGES:
                self.p.add(k, f"{name} inside round {r}")
                continue
            if obj["round"] != r:
                self.p.add(k, f"{name} says round {obj['round']} inside round {r}")
            if STAGES[name] < stage:
                self.p.add(k, f"{name} out of order: after {last} in round {r}")
            elif name in SINGLE and buckets[name]:
                self.p.add(k, f"a second {name} in round {r}")
                continue
            else:
                stage, last = STAGES[name], name
            buckets[name].append((k, obj))
        reached = max(STAGES[obj["event"]] for _, obj in block if obj["event"] in STAGES)
        # Where the log stops in an unfinished game, later steps are not missing yet.
        self.reached = reached if partial else len(STAGES)
        self.tk = tk
        self.token_event(tk, tok)
        values: dict[str, int] = {}
        mischief = buckets["mischief"]
        cannons = buckets["cannon"]
        self.mischief_events(mischief)
        scored = self.cannon_events(cannons)
        totals = self.scores(buckets["score"], values, scored, tok)
        if self.reached > STAGES["score"] or not partial:
            self.mischief_actors(mischief, values)
        for k, obj in cannons:
            if "value" in obj and obj["die"] in values and obj["value"] != values[obj["die"]]:
                self.p.add(k, f"Cannon {obj['die']} shows {obj['value']} here but "
                              f"{values[obj['die']]} in its score")
        hands = tuple(_hand(p) for p in self.players)
        for k, obj in cannons:
            if obj["decision"] == "score" and obj["die"] in self.where:
                self.move(k, obj["die"], hands, OUT, "scored Cannon")
        if r == ROUNDS:
            for name in AFTER_SCORE:
                for k, _ in buckets[name]:
                    self.p.add(k, f"round {ROUNDS} has no {name}")
            return
        self.mischief_dealt(buckets["mischief_dealt"])
        self.pity(buckets["pity"], totals)
        self.captain(buckets["captain"], values)
        self.trades(buckets["trade"])
        self.draft(buckets["draft_pool"], buckets["pick"], buckets["draft_return"], tok)
