"""The answers of ``/settings turn-time`` and ``/settings mayhem``: a server's defaults for its
new games, in words.
"""

from __future__ import annotations

from ui.i18n import Tr
from ui.lobby import expansion_names


def turn_time_answer(tr: Tr, seconds: int | None, bot_default: int) -> str:
    """The turn time of the server's new games (``seconds``: the server's default, None when it
    has none and the bot's default applies), in ``tr``'s language.
    """
    if seconds is None:
        return tr("New games here give each decision {seconds} seconds (the bot's default) "
                  "unless their host sets `turn_timeout`.", seconds=bot_default)
    return tr("New games here give each decision {seconds} seconds unless their host sets "
              "`turn_timeout`.", seconds=seconds)


def mayhem_answer(tr: Tr, options: tuple[str, ...] | None) -> str:
    """The Mayhem options of the server's new Panda Royale games (None or empty: none), and
    how a host chooses others, in ``tr``'s language.
    """
    now = tr("New Panda Royale games here play with Mayhem: {options}.",
             options=expansion_names(tr, options)) if options \
        else tr("New Panda Royale games here play without Mayhem.")
    return "\n".join([now, tr("A host who gives any Mayhem option to /royale new chooses them "
                              "all: the options they leave out are off.")])
