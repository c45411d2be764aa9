"""The Panda Royale rule checks of ``game_end``: after the last round, the game totals and
the winners, both recomputed from the round totals of the score sheet.
"""

from __future__ import annotations

from bot.rules.royale.dice import ROUNDS
from bot.rules.validate.royale_places import DiePlaces, Obj


class GameEndChecks(DiePlaces):
    """Checks the ``game_end`` event; the game totals and the winners."""

    def game_end(self, k: int, obj: Obj) -> None:
        self.ended = True
        if self.round != ROUNDS:
            self.p.add(k, f"game_end after round {self.round}, not round {ROUNDS}")
        totals = self.totals()
        logged: dict[str, int] = obj["totals"]
        for p in self.players:
            if logged[p] != totals[p]:
                self.p.add(k, f"{p}'s game total is {logged[p]}, their round totals add up to "
                              f"{totals[p]}")
        want = self.winners()
        if sorted(obj["winners"]) != sorted(want):
            self.p.add(k, f"the winners are [{', '.join(obj['winners'])}], but the top total "
                          f"belongs to [{', '.join(want)}]")

    @property
    def complete(self) -> bool:
        return self.ended and self.round == ROUNDS

    def totals(self) -> dict[str, int]:
        return {p: sum(self.sheet[p]) for p in self.players}

    def winners(self) -> list[str]:
        totals = self.totals()
        top = max(totals.values())
        return [p for p in self.players if totals[p] == top]
