"""How the simulator's fast path (:mod:`bot.rules.royale.fast`) writes the parts of a log line
that vary: numbers (digit by digit), the score line's dice and columns, lists of dice.

Compiled with mypyc together with ``fast.py`` (``./dev compile-fast``), so calls between them are
plain C calls and the indices here native 64-bit integers (``i64``); in pure Python they are
ordinary functions. Pure: they only write into the buffer they are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.rules.royale.fast_sink import write_i16_le, write_i32_le, write_i64_le
from bot.rules.royale.fast_tables import i16, u8

if TYPE_CHECKING:  # mypyc knows these types; nothing is imported at run time
    from librt.strings import BytesWriter
    from mypy_extensions import i32, i64


def _le(piece: bytes) -> int:
    """``piece`` (1-8 bytes) as the little-endian number whose store writes it."""
    return int.from_bytes(piece, "little")


DIGIT_BRACE: Final[i64] = _le(b"0}")  # plus a digit's value: the digit and }


def dice(out: BytesWriter, hand: list[int], values: list[int], first: list[bytes],
         rest: list[bytes]) -> None:
    """Write the dice of a score line and the list's closing bracket: each die's piece, open
    (``first``'s for the first die, ``rest``'s for the others), then its value and the closing
    brace.

    A hundred die pieces stay in the CPU's cache, where a piece for each die and value (about
    a thousand) did not (tried again with the faces' pieces side by side: 10% fewer
    instructions, 15% more first-level cache misses, no faster).
    """
    d: i64
    v: i64
    pieces = first
    for d in hand:
        out.write(pieces[d])
        v = values[d]
        if 0 <= v < 10:  # most dice: the digit and } in one store
            write_i16_le(out, i16(DIGIT_BRACE + v))
        else:
            number(out, v)
            out.append(125)  # }
        pieces = rest
    out.append(93)  # ]


def items(out: BytesWriter, first: list[bytes], rest: list[bytes], indices: list[int]) -> None:
    """Write a JSON list's items (dice, players): ``first``'s piece of the first index,
    ``rest``'s (with the comma) of the others.
    """
    i: i64
    pieces = first
    for i in indices:
        out.write(pieces[i])
        pieces = rest


def listed(out: BytesWriter, head: bytes, first: list[bytes], rest: list[bytes],
           indices: list[int], end: bytes) -> None:
    """Write ``head``, a JSON list's :func:`items`, then ``end``."""
    out.write(head)
    items(out, first, rest, indices)
    out.write(end)


def keyed(out: BytesWriter, head: bytes, first: list[bytes], rest: list[bytes],
          numbers: list[int]) -> None:
    """Write ``head``, then each seat's key (``first``'s for the first seat, ``rest``'s with
    the comma for the others) and number: a JSON object by player.
    """
    i: i64
    out.write(head)
    for i in range(len(numbers)):
        out.write(rest[i] if i else first[i])
        number(out, numbers[i])


# The names of the score line's columns, written by plain stores of 8, 4, 2 or 1 bytes: one
# inline C store each in the compiled module, where writing a bytes piece is a call and a
# memcpy (callgrind, 10 players: 8% fewer instructions for the whole log). Tested against the
# text by the columns test and the golden log checksums.
YELLOW_8A: Final[i64] = _le(b',"column')  # ,"columns":{"yellow":
YELLOW_8B: Final[i64] = _le(b's":{"yel')
YELLOW_4: Final[i32] = _le(b'low"')  # then :
PURPLE_8: Final[i64] = _le(b',"purple')  # ,"purple":
BLUE_8: Final[i64] = _le(b',"blue":')
RED_4: Final[i32] = _le(b',"re')  # ,"red":
RED_2: Final[i16] = _le(b'd"')  # then :
RED_8: Final[i64] = _le(b',"red":0')
GREEN_8: Final[i64] = _le(b',"green"')  # then :
CLEAR_8: Final[i64] = _le(b',"clear"')  # then :
PINK_8: Final[i64] = _le(b',"pink":')
TOTAL_8: Final[i64] = _le(b'},"total')  # },"total":
QUOTE_COLON: Final[i16] = _le(b'":')
COLON_0: Final[i16] = _le(b":0")


def columns(out: BytesWriter, yellow: i64, purple: i64, blue: i64, red: i64, green: i64,
            clear: i64, pink: i64, total: i64) -> None:
    """Write the score line's seven columns and its total.

    Unrolled on purpose: a helper call per column (mypyc does not inline) costs 6 % more
    instructions for the whole log (callgrind, 10 players). A zero, the most common value of
    most columns, is written with its name.
    """
    write_i64_le(out, YELLOW_8A)
    write_i64_le(out, YELLOW_8B)
    write_i32_le(out, YELLOW_4)
    out.append(58)  # :
    number(out, yellow)
    write_i64_le(out, PURPLE_8)
    write_i16_le(out, QUOTE_COLON)
    if purple:
        number(out, purple)
    else:
        out.append(48)  # 0
    write_i64_le(out, BLUE_8)
    if blue:
        number(out, blue)
    else:
        out.append(48)
    if red:
        write_i32_le(out, RED_4)
        write_i16_le(out, RED_2)
        out.append(58)
        number(out, red)
    else:
        write_i64_le(out, RED_8)
    write_i64_le(out, GREEN_8)
    if green:
        out.append(58)
        number(out, green)
    else:
        write_i16_le(out, COLON_0)
    write_i64_le(out, CLEAR_8)
    if clear:
        out.append(58)
        number(out, clear)
    else:
        write_i16_le(out, COLON_0)
    write_i64_le(out, PINK_8)
    if pink:
        number(out, pink)
    else:
        out.append(48)
    write_i64_le(out, TOTAL_8)
    write_i16_le(out, QUOTE_COLON)
    number(out, total)


def stage(out: BytesWriter, yellow: i64, purple: i64, blue: i64, red: i64, green: i64,
          clear: i64, pink: i64, total: i64) -> None:
    """Stage a score line's seven columns and its total as 64-bit numbers, for
    ``fast_lines.score_lines`` (C) to replace with the round's score lines.
    """
    write_i64_le(out, yellow)
    write_i64_le(out, purple)
    write_i64_le(out, blue)
    write_i64_le(out, red)
    write_i64_le(out, green)
    write_i64_le(out, clear)
    write_i64_le(out, pink)
    write_i64_le(out, total)


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


__all__ = ["columns", "dice", "items", "keyed", "listed", "number", "stage"]
