"""``python -m bot demo``: one game of computer players, printed like the paper score sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from bot.rules.registry import ROYALE
from bot.rules.royale import events as ev
from bot.rules.royale.dice import DieSpec
from bot.rules.royale.state import RoyaleState
from bot.sim.runner import play_game

_CODES = {"yellow": "Y", "purple": "P", "blue": "B", "red": "R", "green": "G", "clear": "C",
          "pink": "K"}
_KIND_CODES = {"glitter": "B*", "mischief": "Mi", "cannon": "Ca", "mercenary": "Me"}


def die_code(spec: DieSpec, value: int | None = None) -> str:
    """A die's short name (``Rd8``), or its code and the value it shows (``R-3``)."""
    code = _KIND_CODES.get(spec.kind, _CODES[spec.color])
    if value is None:
        return f"{code}d{spec.sides}"
    return f"{code}{value}"


def _row(name: str, cols: Sequence[int | str], total: str, running: str, w: int) -> str:
    cells = "".join(f"{c:>6}" for c in cols)
    return f"  {name:<{w}}{cells} |{total:>7}{running:>8}"


def _print_round(out: TextIO, state: RoyaleState, rnd: list[Any], running: list[int]) -> None:
    names = state.players
    w = max(8, *(len(p) + 2 for p in names))
    token = next(e for e in rnd if isinstance(e, ev.TokenEvent))
    tie = f", {token.rerolls} yellow tie re-roll(s)" if token.rerolls else ""
    out.write(f"\nRound {token.round} - Panda token: {token.player}{tie}\n")
    for e in rnd:
        if isinstance(e, ev.MischiefEvent):
            out.write(f"  Mischief: {e.player} makes {e.target} re-roll {e.die}: "
                      f"{e.before} -> {e.after}\n")
        elif isinstance(e, ev.CannonEvent):
            what = f"fires it for {e.value * 10}" if e.score else "saves it"
            out.write(f"  Cannon: {e.player} rolled {e.value} on {e.die} and {what}\n")
    header = ["Yel", "Pur", "Blu", "Red", "Grn", "Clr", "Pnk"]
    out.write(_row("player", header, "round", "total", w) + "\n")
    for e in rnd:
        if isinstance(e, ev.ScoreEvent):
            seat = names.index(e.player)
            running[seat] += e.total
            out.write(_row(e.player, e.columns, str(e.total), str(running[seat]), w) + "\n")
            dice = " ".join(die_code(spec, v) for spec, v in e.dice)
            out.write(f"  {'':<{w}}  dice: {dice}\n")
    specs = state.dice.specs
    for e in rnd:
        if isinstance(e, ev.MischiefDealtEvent):
            out.write("  Mischief dice dealt to every player.\n")
        elif isinstance(e, ev.PityEvent) and e.given:
            given = ", ".join(f"{p}" for p, _ in e.given)
            out.write(f"  Pity dice to: {given}\n")
        elif isinstance(e, ev.CaptainEvent):
            lost = ", ".join(f"{p} ({d})" for p, d in e.lost) or "nobody"
            out.write(f"  Captain rolled {e.value}: Mercenaries lost by {lost}\n")
        elif isinstance(e, ev.TradeEvent):
            out.write(f"  Trade: {e.player} gives {die_code(specs[e.gave])} to {e.target} and "
                      f"takes {die_code(specs[e.took])}\n")
        elif isinstance(e, ev.DraftPoolEvent):
            pool = " ".join(die_code(d) for d in e.dice)
            out.write(f"  Draft pool: {pool}\n")
        elif isinstance(e, ev.PickEvent):
            out.write(f"    {e.player} picks {die_code(specs[e.die])}\n")


def run_royale_demo(
    *, players: int, seed: int, ai: Sequence[str], expansions: Sequence[str], out: TextIO
) -> None:
    """Play one game and print it round by round, then the final standings."""
    names = [f"cpu{i + 1}" for i in range(players)]
    played = play_game(ROYALE, names, seed, ai, {"expansions": list(expansions)})
    state = played.state
    opts = ", ".join(state.expansions) or "none"
    out.write(f"Panda Royale: {players} computer players ({', '.join(ai)}), "
              f"Mayhem options: {opts}, seed {seed}\n")
    out.write("Columns: yellow sum, purple x2, blue (x2 with glitter), red sum x red dice, "
              "green, clear, pink\n")
    running = [0] * players
    rnd: list[Any] = []
    for e in played.events:
        if isinstance(e, ev.SetupEvent):
            continue
        rnd.append(e)
        if isinstance(e, ev.DraftReturnEvent | ev.GameEndEvent):  # the round's last event
            _print_round(out, state, rnd, running)
            rnd = []
    totals = played.totals
    order = sorted(range(players), key=lambda i: -totals[i])
    winners = set(played.winners)
    out.write("\nFinal standings\n")
    for place, seat in enumerate(order, 1):
        mark = "  <- winner" + (" (shared)" if len(winners) > 1 else "") if seat in winners else ""
        out.write(f"  {place:>2}. {names[seat]:<8} {totals[seat]:>5}{mark}\n")
