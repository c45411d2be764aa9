"""Panda Royale's options in a game review, in words (:class:`ui.hub.ReviewWords`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.rules.review import Option
from ui.hub import ReviewWords
from ui.i18n import Tr


def option_words(tr: Tr, option: Option, name: Callable[[str], str]) -> str:
    """One option, e.g. "taking the Red d8", "trading for Mochi's Green d20"."""
    what = option.what
    if option.verb == "take":
        return tr("taking the {die}", die=tr(what[0]))
    if option.verb == "trade":
        return tr("trading for {player}'s {die}", die=tr(what[0]), player=name(what[1]))
    if option.verb == "pass":
        return tr("passing on trades")
    if option.verb == "mischief":
        return tr("re-rolling {player}'s {die}", die=tr(what[0]), player=name(what[1]))
    if option.verb == "fire":
        return tr("firing the Cannon ({value} × 10)", value=what[0])
    return tr("saving the Cannon (showing {value})", value=what[0])


ROYALE_REVIEW: Final = ReviewWords(option_words)
"""How a Panda Royale review names its options."""
