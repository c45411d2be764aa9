"""Achievements as players read them (``bot/rules/achievements.py`` lists them; their names and
descriptions are msgids): the lines of ``/stats``, and the game-over message's note of what
its game earned (added to the message it sends anyway: no request of its own).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from bot.rules.achievements import ACHIEVEMENTS, BY_ID
from bot.service import Game, StatsService
from ui.i18n import Tr, for_game
from ui.names import Names
from ui.shown import Shown

log = logging.getLogger("ui.achievements")

BADGE: Final = "🏅"
FIELD_LIMIT: Final = 1024
"""Discord's limit on an embed field's value."""


def ordered(ids: Iterable[str]) -> list[str]:
    """Known achievement ids in the order they are listed to players."""
    have = set(ids)
    return [a.id for a in ACHIEVEMENTS if a.id in have]


def names(tr: Tr, ids: Iterable[str]) -> str:
    """The achievements' names, listed in ``tr``'s language."""
    return ", ".join(tr(BY_ID[a].name) for a in ordered(ids))


def stats_lines(tr: Tr, ids: Sequence[str]) -> str:
    """One line per earned achievement: its name and how it is earned (cut to fit a field)."""
    lines = [f"{BADGE} **{tr(BY_ID[a].name)}**: {tr(BY_ID[a].description)}" for a in ordered(ids)]
    text = ""
    for line in lines:
        if len(text) + len(line) + 1 > FIELD_LIMIT:
            break
        text = f"{text}\n{line}" if text else line
    return text


def stats_heading(tr: Tr, earned: int) -> str:
    """The heading of ``/stats``'s achievements: how many of all."""
    return tr("Achievements ({n} of {total})", n=earned, total=len(ACHIEVEMENTS))


def earned_field(game: Game, earned: Mapping[str, Sequence[str]]) -> tuple[str, str] | None:
    """The game-over message's note of what the game's people first earned in it (name, value
    of an embed field, in the game's language), or None when nobody earned anything.
    """
    tr = for_game(game)
    people = Names(game, tr)
    lines = [f"{BADGE} {people.of(player)}: {names(tr, ids)}"
             for player, ids in earned.items() if ordered(ids)]
    if not lines:
        return None
    return tr("Achievements earned"), "\n".join(lines)[:FIELD_LIMIT]


async def note_earned(stats: StatsService, game: Game, shown: Shown) -> Shown:
    """``shown`` (a game-over message) with a field naming what its people first earned in the
    game (read from the database: the finishing transaction kept it).
    """
    if shown.embed is None:
        return shown
    try:
        field = earned_field(game, await stats.earned_in(game.id))
    except Exception:  # the announcement goes out anyway
        log.warning("game %s: could not read its achievements", game.id, exc_info=True)
        return shown
    if field is not None:
        shown.embed.add_field(name=field[0], value=field[1], inline=False)
    return shown
