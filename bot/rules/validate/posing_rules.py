"""Check 2 for Posing Pandas: the rules, read from the log alone (no engine flow).

Turns go around in seat order; a turn is roll 1, optionally rolls 2 and 3 (held dice keep
their faces), then one fill of an empty box with the last roll's faces for
:func:`score_box` points; every player fills all 11 boxes; ``game_end`` totals and winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.posing.poses import (
    BOX_COUNT,
    BOX_IDS,
    DICE_COUNT,
    MAX_PLAYERS,
    MAX_ROLLS,
    MIN_PLAYERS,
    POSE_COUNT,
    score_box,
)
from bot.rules.validate.problems import Problems

Obj = dict[str, Any]


class PosingRules:
    """Reads one game's events (already shape-checked) and records every rule broken."""

    def __init__(self, events: Sequence[Obj], problems: Problems) -> None:
        self.events = events
        self.p = problems
        self.players: list[str] = list(events[0]["players"])
        self.n = len(self.players)
        self.filled: dict[str, dict[str, int]] = {p: {} for p in self.players}
        self.turns: dict[str, int] = dict.fromkeys(self.players, 0)  # turns each has ended
        self.seat = 0  # whose turn it is
        self.rolls = 0  # rolls made this turn
        self.faces: list[int] | None = None  # the last roll's faces
        self.ended = False

    def run(self, partial_end: bool) -> None:
        if not MIN_PLAYERS <= self.n <= MAX_PLAYERS:
            self.p.add(0, f"Posing Pandas is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                          f"not {self.n}")
        for k in range(1, len(self.events)):
            obj = self.events[k]
            name = obj["event"]
            if self.ended or name == "setup":
                self.p.after_end(k, name, len(self.events) - k)
                break
            if name == "roll":
                self.roll(k, obj)
            elif name == "fill":
                self.fill(k, obj)
            else:
                self.game_end(k, obj)

    def expect_player(self, k: int, obj: Obj) -> str:
        who: str = obj["player"]
        want = self.players[self.seat]
        if who != want:
            self.p.add(k, f"{obj['event']} by {who}, but it is {want}'s turn")
            self.seat = self.players.index(who)  # follow the log from here
        turn = self.turns[who] + 1
        if obj["turn"] != turn:
            self.p.add(k, f"{who} is on turn {turn}, not turn {obj['turn']}")
            self.turns[who] = obj["turn"] - 1  # follow the log: report each slip once
        return who

    def roll(self, k: int, obj: Obj) -> None:
        number, held, faces = obj["roll"], obj["held"], obj["faces"]
        if number == 1 and self.rolls > 0:
            self.p.add(k, f"{self.players[self.seat]}'s turn ends without a fill")
            self.next_turn()
        self.expect_player(k, obj)
        if not 1 <= number <= MAX_ROLLS:
            self.p.add(k, f"roll {number}: a turn has rolls 1 to {MAX_ROLLS}")
        elif number != self.rolls + 1:
            self.p.add(k, f"roll {number} follows roll {self.rolls}")
        if len(faces) != DICE_COUNT or not all(1 <= f <= POSE_COUNT for f in faces):
            self.p.add(k, f"faces must be {DICE_COUNT} poses 1 to {POSE_COUNT}, not {faces}")
        if number == 1 or self.faces is None:
            if held:
                self.p.add(k, "the first roll of a turn holds no dice")
        else:
            if len(set(held)) != len(held) or not all(0 <= i < DICE_COUNT for i in held):
                self.p.add(k, f"held must name distinct dice 0 to {DICE_COUNT - 1}, not {held}")
            elif len(held) == DICE_COUNT:
                self.p.add(k, "a roll that holds every die rolls nothing")
            elif len(faces) == DICE_COUNT:
                moved = [i for i in held if faces[i] != self.faces[i]]
                if moved:
                    self.p.add(k, f"held dice {moved} changed faces "
                                  f"({self.faces} -> {faces})")
        self.rolls = number
        self.faces = list(faces)

    def fill(self, k: int, obj: Obj) -> None:
        who = self.expect_player(k, obj)
        box, faces, points = obj["box"], obj["faces"], obj["points"]
        if self.rolls == 0 or self.faces is None:
            self.p.add(k, "a fill before any roll of the turn")
        elif faces != self.faces:
            self.p.add(k, f"fills with faces {faces}, but the last roll shows {self.faces}")
        if box not in BOX_IDS:
            self.p.add(k, f"there is no box {box!r}")
        elif box in self.filled[who]:
            self.p.add(k, f"{who} fills {box} a second time")
        elif len(faces) == DICE_COUNT and all(1 <= f <= POSE_COUNT for f in faces):
            want = score_box(box, faces)
            if points != want:
                self.p.add(k, f"{box} with {faces} scores {want}, not {points}")
            self.filled[who][box] = points
        self.seat = self.players.index(who)
        self.turns[who] += 1
        self.next_turn()

    def next_turn(self) -> None:
        self.seat = (self.seat + 1) % self.n
        self.rolls = 0
        self.faces = None

    def game_end(self, k: int, obj: Obj) -> None:
        self.ended = True
        for p in self.players:
            if len(self.filled[p]) != BOX_COUNT:
                self.p.add(k, f"game_end, but {p} has filled {len(self.filled[p])} of "
                              f"{BOX_COUNT} boxes")
        if self.rolls:
            self.p.add(k, f"game_end in the middle of {self.players[self.seat]}'s turn")
        totals = self.totals()
        for p in self.players:
            if obj["totals"][p] != totals[p]:
                self.p.add(k, f"{p}'s total is {obj['totals'][p]}, their boxes add up to "
                              f"{totals[p]}")
        want = self.winners()
        if sorted(obj["winners"]) != sorted(want):
            self.p.add(k, f"the winners are [{', '.join(obj['winners'])}], but the top total "
                          f"belongs to [{', '.join(want)}]")

    def totals(self) -> dict[str, int]:
        return {p: sum(self.filled[p].values()) for p in self.players}

    def winners(self) -> list[str]:
        totals = self.totals()
        top = max(totals.values())
        return [p for p in self.players if totals[p] == top]

    @property
    def complete(self) -> bool:
        return self.ended and all(len(b) == BOX_COUNT for b in self.filled.values())
