"""The pure rules engines: Panda Royale with the Mayhem options, Posing Pandas, computer
players, the game log and its validator. No Discord, no I/O, no clock.

The source is Python. A wheel built where a C compiler is present holds most of these modules
compiled by mypyc as well (setup.py), and an install of it imports those; the source tree, an
editable install and a wheel built without a compiler run the Python modules. Both play the
same games.
"""

from __future__ import annotations


def compiled() -> bool:
    """Whether this process runs the rules compiled by mypyc (their random number generator,
    which every compiled engine draws from, is an extension module) rather than their Python
    source.
    """
    from importlib.machinery import EXTENSION_SUFFIXES

    from bot.rules import rng

    return str(rng.__file__).endswith(tuple(EXTENSION_SUFFIXES))
