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


class MischiefCannonChecks(DiePlaces):
    """Checks the ``mischief``, ``cannon`` and ``mischief_dealt`` events of a round."""

    def mischief_events(self, events: list[Entry]) -> None:
        if events and (MISCHIEF not in self.expansions or self.round < 2):
            why = "without the mischief option" if MISCHIEF not in self.expansions else \
                "in round 1"
            self.p.add(events[0][0], f"a mischief action {why}")
        for k, obj in events:
            die, who, target = obj["die"], obj["player"], obj["target"]
            if who == target:
                self.p.add(k, "mischief must target another player's die")
            if not self.holds(target, die):
                self.p.add(k, f"{target} does not hold {die} (it is "
                              f"{_where_text(self.where.get(die))})")
            spec = self.specs.get(die)
            if spec is None:
                continue
            if spec.color == "yellow":
                self.p.add(k, f"mischief cannot re-roll the yellow die {die}")
            for key in ("before", "after"):
                if obj[key] not in spec.faces:
                    self.p.add(k, f"{die} has no face {obj[key]} ({key})")

    def cannon_events(self, events: list[Entry]) -> set[str]:
        scored: set[str] = set()
        if events and CANNON not in self.expansions:
            self.p.add(events[0][0], "a Cannon decision without the cannon option")
        held = {d: p for p in self.players for d in self.hands[p] if self.kind(d) == CANNON_KIND}
        seen: set[str] = set()
        last = -1
        for k, obj in events:
            die, who = obj["die"], obj["player"]
            if self.kind(die) != CANNON_KIND:
                self.p.add(k, f"{die} is not a Cannon die")
            elif held.get(die) != who:
                self.p.add(k, f"{who} does not hold the Cannon {die}")
            if die in seen:
                self.p.add(k, f"a second decision on Cannon {die} this round")
            seen.add(die)
            pos = (self.seat[who] - self.token) % self.n
            if pos < last:
                self.p.add(k, f"Cannon decision of {who} out of turn (they go clockwise from "
                              "the token holder)")
            last = max(last, pos)
            if obj["decision"] == "score":
                scored.add(die)
        if STAGES["cannon"] < self.reached:
            for die, p in held.items():
                if die not in seen:
                    self.p.add(self.tk, f"round {self.round}: {p} rolled the Cannon {die} but "
                                        "no cannon decision is logged")
        return scored

    def mischief_actors(self, events: list[Entry], values: dict[str, int]) -> None:
        """Who acts: each Mischief die showing the top Mischief value, token holder first."""
        if MISCHIEF not in self.expansions or self.round < 2:
            return
        first: dict[str, int] = {}  # the value each die showed before any mischief
        chain: dict[str, int] = {}
        for k, obj in events:
            die = obj["die"]
            first.setdefault(die, obj["before"])
            if die in chain and chain[die] != obj["before"]:
                self.p.add(k, f"{die} showed {chain[die]}, not {obj['before']}, before this "
                              "mischief")
            chain[die] = obj["after"]
        for die, after in chain.items():
            if die in values and values[die] != after:
                k = max(k for k, obj in events if obj["die"] == die)
                self.p.add(k, f"{die} is re-rolled to {after} but scores {values[die]}")
        held = []
        for i in range(self.n):
            p = self.players[(self.token + i) % self.n]
            for d in self.hands[p]:
                if self.kind(d) == MISCHIEF_KIND:
                    v = first.get(d, values.get(d))
                    if v is None:
                        return
                    held.append((p, v))
        top = max((v for _, v in held), default=None)
        expected = [p for p, v in held if v == top and self.has_target(p)]
        actual = [obj["player"] for _, obj in events]
        if actual != expected:
            k = events[0][0] if events else self.tk
            why = (f"the Mischief dice showing the top value {top} give them to "
                   f"[{', '.join(expected)}]" if held else "no Mischief die is in play")
            self.p.add(k, f"round {self.round}: mischief actions by [{', '.join(actual)}], "
                          f"but {why}")

    def has_target(self, p: str) -> bool:
        return any(self.specs[d].color != "yellow" for q in self.players if q != p
                   for d in self.hands[q])

    def mischief_dealt(self, events: list[Entry]) -> None:
        due = MISCHIEF in self.expansions and self.round == 1
        if not due:
            for k, _ in events:
                self.p.add(k, "Mischief dice are dealt once, after round 1, with the mischief "
                              "option")
            return
        if not events:
            self.missing("mischief_dealt")
            return
        k, obj = events[0]
        dealt: dict[str, Obj] = obj["dice"]
        missing = [p for p in self.players if p not in dealt]
        if missing:
            self.p.add(k, f"no Mischief die dealt to {', '.join(missing)}")
        for p, d in dealt.items():
            spec = self.known(k, d)
            if spec is not None and spec.kind != MISCHIEF_KIND:
                self.p.add(k, f"{d['id']} dealt to {p} is not a Mischief die")
            if spec is not None:
                self.move(k, d["id"], ASIDE, _hand(p), f"Mischief die dealt to {p}")
