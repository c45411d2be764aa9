"""Posing Pandas' options in a game review, in words (:class:`ui.hub.ReviewWords`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.rules.review import Option
from cogs.posing.render import box_title, pose_name
from ui.hub import ReviewWords
from ui.i18n import Tr


def option_words(tr: Tr, option: Option, name: Callable[[str], str]) -> str:
    """One option, e.g. "filling Set of 4", "holding Face It, Face It"."""
    if option.verb == "fill":
        return tr("filling {box}", box=box_title(tr, option.what[0]))
    if not option.what:
        return tr("re-rolling all five dice")
    return tr("holding {poses}", poses=", ".join(pose_name(tr, int(p)) for p in option.what))


POSING_REVIEW: Final = ReviewWords(option_words, turns=True)
"""How a Posing Pandas review names its options."""
