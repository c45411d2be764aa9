"""How the simulator's fast path (:mod:`bot.rules.royale.fast`) writes the parts of a log line
that vary: numbers (digit by digit), the score line's columns, lists of dice.

Compiled with mypyc together with ``fast.py`` (``./dev compile-fast``), so calls between them are
plain C calls and the indices here native 64-bit integers (``i64``); in pure Python they are
ordinary functions. Pure: they only write into the buffer they are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.rules.royale.fast_tables import u8

if TYPE_CHECKING:  # mypyc knows these types; nothing is imported at run time
    from librt.strings import BytesWriter
    from mypy_extensions import i64


def dice(out: BytesWriter, hand: list[int], values: list[int], first: list[bytes],
         rest: list[bytes]) -> None:
    """Write the dice of a score line: each die's piece, open (``first``'s for the first die,
    ``rest``'s for the others), then its value and the closing brace.

    A hundred die pieces stay in the CPU's cache, where a piece for each die and value (about
    a thousand) did not.
    """
    d: i64
    pieces = first
    for d in hand:
        out.write(pieces[d])
        number(out, values[d])
        out.append(125)  # }
        pieces = rest


def items(out: BytesWriter, first: list[bytes], rest: list[bytes], indices: list[int]) -> None:
    """Write a JSON list's items (dice, players): ``first``'s piece of the first index,
    ``rest``'s (with the comma) of the others.
    """
    i: i64
    pieces = first
    for i in indices:
        out.write(pieces[i])
        pieces = rest


YELLOW: Final = b'],"columns":{"yellow":'
PURPLE: Final = b',"purple":'
BLUE: Final = b',"blue":'
RED: Final = b',"red":'
GREEN: Final = b',"green":'
CLEAR: Final = b',"clear":'
PINK: Final = b',"pink":'
TOTAL: Final = b'},"total":'
# the same with a zero, the most common value of most columns: one piece instead of two
PURPLE_0: Final = b',"purple":0'
BLUE_0: Final = b',"blue":0'
RED_0: Final = b',"red":0'
GREEN_0: Final = b',"green":0'
CLEAR_0: Final = b',"clear":0'
PINK_0: Final = b',"pink":0'


def columns(out: BytesWriter, yellow: i64, purple: i64, blue: i64, red: i64, green: i64,
            clear: i64, pink: i64, total: i64) -> None:
    """Write the score line's seven columns and its total.

    Unrolled on purpose: a helper call per column (mypyc does not inline) costs 6 % more
    instructions for the whole log (callgrind, 10 players).
    """
    out.write(YELLOW)
    number(out, yellow)
    if purple:
        out.write(PURPLE)
        number(out, purple)
    else:
        out.write(PURPLE_0)
    if blue:
        out.write(BLUE)
        number(out, blue)
    else:
        out.write(BLUE_0)
    if red:
        out.write(RED)
        number(out, red)
    else:
        out.write(RED_0)
    if green:
        out.write(GREEN)
        number(out, green)
    else:
        out.write(GREEN_0)
    if clear:
        out.write(CLEAR)
        number(out, clear)
    else:
        out.write(CLEAR_0)
    if pink:
        out.write(PINK)
        number(out, pink)
    else:
        out.write(PINK_0)
    out.write(TOTAL)
    number(out, total)


def number(out: BytesWriter, value: i64) -> None:
    """Write ``value`` in decimal, as ``str`` does, digit by digit (no table to look up)."""
    if value < 0:
        out.append(45)  # -
        value = -value
    if value < 10:
        out.append(u8(48 + value))
    elif value < 100:
        out.append(u8(48 + value // 10))
        out.append(u8(48 + value % 10))
    elif value < 1000:
        out.append(u8(48 + value // 100))
        out.append(u8(48 + value // 10 % 10))
        out.append(u8(48 + value % 10))
    else:
        out.write(str(value).encode())


__all__ = ["columns", "dice", "items", "number"]
