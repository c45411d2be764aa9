"""The Panda Royale rule checks of ``game_end``: after the last round, the game totals and
the winners, both recomputed from the round totals of the score sheet.
"""

from __future__ import annotations

from bot.rules.royale.dice import ROUNDS
from bot.rules.validate.royale_places import DiePlaces, Obj


def game_end(game: DiePlaces, k: int, obj: Obj) -> None:
    """Check ``game_end``: after the last round, its totals and winners recomputed from the
    score sheet.
    """
    game.ended = True
    if game.round != ROUNDS:
        game.p.add(k, f"game_end after round {game.round}, not round {ROUNDS}")
    totals = game_totals(game)
    logged: dict[str, int] = obj["totals"]
    for p in game.players:
        if logged[p] != totals[p]:
            game.p.add(k, f"{p}'s game total is {logged[p]}, their round totals add up to "
                          f"{totals[p]}")
    want = game_winners(game)
    if sorted(obj["winners"]) != sorted(want):
        game.p.add(k, f"the winners are [{', '.join(obj['winners'])}], but the top total "
                      f"belongs to [{', '.join(want)}]")


def is_complete(game: DiePlaces) -> bool:
    """Whether the log reaches the end of the game (``game_end`` after the last round)."""
    return game.ended and game.round == ROUNDS


def game_totals(game: DiePlaces) -> dict[str, int]:
    """Each player's game total: the sum of their round totals on the score sheet."""
    return {p: sum(game.sheet[p]) for p in game.players}


def game_winners(game: DiePlaces) -> list[str]:
    """The players with the top game total (ties share the win)."""
    totals = game_totals(game)
    top = max(totals.values())
    return [p for p in game.players if totals[p] == top]
