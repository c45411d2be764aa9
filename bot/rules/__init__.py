"""The pure rules engines: Panda Royale with the Mayhem options, Posing Pandas, computer
players, the game log and its validator. No Discord, no I/O, no clock.

A wheel built where a C compiler is present holds most of these modules compiled by mypyc
(setup.py) and imports those; anything else runs the Python source. Both play the same games.
"""

from __future__ import annotations


def compiled() -> bool:
    """Whether this process runs the rules compiled by mypyc rather than their Python source."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from bot.rules import rng

    return str(rng.__file__).endswith(tuple(EXTENSION_SUFFIXES))
