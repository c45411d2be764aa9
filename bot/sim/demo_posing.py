"""``python -m bot demo --game posing``: one game of computer players and its score card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from bot.rules.api import Event
from bot.rules.posing.engine import ENGINE
from bot.rules.posing.events import FillEvent, GameEndEvent, RollEvent
from bot.rules.posing.poses import BOX_IDS, box_name
from bot.rules.posing.state import PosingState
from bot.rules.registry import POSING
from bot.sim.runner import play_game

PANDA_NAMES = (
    "Bamboo",
    "Mochi",
    "Dumpling",
    "Pudding",
    "Noodle",
    "Biscuit",
    "Sesame",
    "Tofu",
    "Lychee",
    "Maple",
)
"""The computer players' names, by seat."""


def _faces(faces: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, faces)) + "]"


def _turn_lines(state: PosingState, events: Sequence[Event]) -> list[str]:
    """One line per finished turn: every roll, the dice held before each re-roll, the fill."""
    lines: list[str] = []
    line = ""
    last: tuple[int, ...] = ()
    for event in events:
        if isinstance(event, RollEvent):
            if event.roll == 1:
                who = f"{event.player} (seat {event.seat + 1})"
                line = f"{who} turn {event.turn}: rolled {_faces(event.faces)}"
            else:
                held = [last[i] for i in event.held]
                line += f" held {_faces(held)} rolled {_faces(event.faces)}"
            last = event.faces
        elif isinstance(event, FillEvent):
            lines.append(f"{line} -> filled {box_name(event.box)} for {event.points}")
    return lines


def score_card(state: PosingState) -> list[str]:
    """The score card as text: one column per player, one row per box, then the totals."""
    names = state.players
    label = max(len(box_name(box)) for box in BOX_IDS)
    widths = [max(len(name), 3) for name in names]

    def row(title: str, cells: Sequence[str]) -> str:
        body = " | ".join(f"{cell:>{w}}" for cell, w in zip(cells, widths, strict=True))
        return f"{title:<{label}} | {body}"

    header = row("", names)
    rule = "-" * len(header)
    lines = [header, rule]
    for box in BOX_IDS:
        lines.append(row(box_name(box), [str(f.get(box, "")) for f in state.filled]))
    lines.append(rule)
    lines.append(row("Total", [str(t) for t in ENGINE.totals(state)]))
    return lines


def _result(end: GameEndEvent) -> str:
    totals = dict(end.totals)
    best = totals[end.winners[0]]
    if len(end.winners) == 1:
        return f"Winner: {end.winners[0]} with {best} points."
    return f"Winners (shared): {', '.join(end.winners)} with {best} points each."


def run_posing_demo(*, players: int, seed: int, ai: str | Sequence[str], out: TextIO) -> None:
    """Play one game of ``players`` computer players (``ai``: "random" or "heuristic", or one
    name per seat, cycled) and write it to ``out`` turn by turn, then the final score card.
    """
    ais = [ai] if isinstance(ai, str) else list(ai)
    names = [PANDA_NAMES[i] if i < len(PANDA_NAMES) else f"Panda {i + 1}" for i in range(players)]
    played = play_game(POSING, names, seed, ais)  # InvalidSetup for a bad player count
    state, events = played.state, played.events
    out.write(f"Posing Pandas: {players} computer player(s) ({', '.join(ais)}), seed {seed}\n\n")
    for line in _turn_lines(state, events):
        out.write(line + "\n")
    out.write("\nFinal score card\n")
    for line in score_card(state):
        out.write(line + "\n")
    end = events[-1]
    if isinstance(end, GameEndEvent):
        out.write(_result(end) + "\n")
