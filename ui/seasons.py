"""Seasons as players read them: a season's name in a language ("January 2026", "2026年1月",
"Q1 2026"), and the words of the season settings.
"""

from __future__ import annotations

from typing import Final

from babel.dates import format_skeleton

from bot.service import SeasonWindow
from ui.i18n import N_, Tr

LENGTH_WORDS: Final = {"monthly": N_("monthly"), "quarterly": N_("quarterly")}
"""The season lengths as a sentence names them."""


def season_name(tr: Tr, season: SeasonWindow) -> str:
    """The season's name in ``tr``'s language: its month (a monthly season) or its quarter."""
    skeleton = "yQQQ" if season.length == "quarterly" else "yMMMM"
    return str(format_skeleton(skeleton, season.first_day, locale=tr.lang))
