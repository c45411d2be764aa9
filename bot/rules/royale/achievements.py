"""Panda Royale's achievements (its registry entry's ``achievements``; docs/achievements.md),
each read from a finished game's log: its ``score``, ``cannon`` and ``game_end`` events.
"""

from __future__ import annotations

from typing import Final

from bot.rules.api import N_, Achievement, FinishedGame

KIND: Final = "royale"

FULL_TABLE: Final = "royale_full_table"
CENTURY: Final = "royale_century"
COMEBACK: Final = "royale_comeback"
WIRE_TO_WIRE: Final = "royale_wire_to_wire"
SIX_HUNDRED: Final = "royale_six_hundred"
BIG_BANG: Final = "royale_big_bang"

CENTURY_POINTS: Final = 100
COMEBACK_ROUND: Final = 5
BIG_TOTAL: Final = 600
FULL_TABLE_PLAYERS: Final = 10
BIG_BANG_FACE: Final = 8


def after_rounds(g: FinishedGame) -> list[dict[str, int]]:
    """Each player's running total after each round, round 1 first."""
    out: list[dict[str, int]] = []
    running = dict.fromkeys(g.players, 0)
    for e in g.events:
        if e.get("event") != "score":
            continue
        rnd = int(e["round"])
        running[str(e["player"])] += int(e["total"])
        while len(out) < rnd:
            out.append({})
        out[rnd - 1] = dict(running)
    return out


def _full_table(g: FinishedGame, p: str) -> bool:
    return len(g.players) >= FULL_TABLE_PLAYERS and p in g.winners


def _century(g: FinishedGame, p: str) -> bool:
    return any(int(v) >= CENTURY_POINTS for e in g.lines(p, "score")
               for v in e["columns"].values())


def _comeback(g: FinishedGame, p: str) -> bool:
    rounds = after_rounds(g)
    if p not in g.winners or len(rounds) < COMEBACK_ROUND:
        return False
    then = rounds[COMEBACK_ROUND - 1]
    return then[p] == min(then.values()) < max(then.values())


def _wire_to_wire(g: FinishedGame, p: str) -> bool:
    rounds = after_rounds(g)
    return (len(g.players) >= 2 and bool(rounds)
            and all(all(t[p] > v for q, v in t.items() if q != p) for t in rounds))


def _six_hundred(g: FinishedGame, p: str) -> bool:
    return g.totals.get(p, 0) >= BIG_TOTAL


def _big_bang(g: FinishedGame, p: str) -> bool:
    return any(e.get("decision") == "score" and e.get("value") == BIG_BANG_FACE
               for e in g.lines(p, "cannon"))


ACHIEVEMENTS: Final[tuple[Achievement, ...]] = (
    Achievement(FULL_TABLE, N_("Full table"),
                N_("Win a game of Panda Royale with ten players."), KIND, _full_table),
    Achievement(CENTURY, N_("Century"),
                N_("Score 100 points or more in one colour column in a single round of "
                "Panda Royale."), KIND, _century),
    Achievement(COMEBACK, N_("Comeback"),
                N_("Win a game of Panda Royale from last place after round 5."), KIND,
                _comeback),
    Achievement(WIRE_TO_WIRE, N_("Wire to wire"),
                N_("Lead a game of Panda Royale alone after every round."), KIND,
                _wire_to_wire),
    Achievement(SIX_HUNDRED, N_("Six hundred"),
                N_("Finish a game of Panda Royale with 600 points or more."), KIND,
                _six_hundred),
    Achievement(BIG_BANG, N_("Big bang"),
                N_("Fire a Cannon die showing 8: 80 points at once."), KIND, _big_bang),
)
"""Panda Royale's achievements, in the order they are listed to players."""
