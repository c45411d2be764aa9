"""How the simulator's fast path (:mod:`bot.rules.royale.fast`) writes the pieces of a log line
that vary in length: numbers, pairs of numbers, lists of dice.

Compiled with mypyc together with ``fast.py`` (``./dev compile-fast``), so calls between them are
plain C calls and the indices here native 64-bit integers (``i64``); in pure Python they are
ordinary functions. Pure: they only write into the buffer they are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.rules.royale.fast_tables import NUM_LOW, NUM_SPAN, PAIR, wide

if TYPE_CHECKING:  # mypyc knows both types; nothing is imported at run time
    from librt.strings import BytesWriter
    from mypy_extensions import i64

LOW: Final = -400  # NUM_LOW, as a literal mypyc folds into the comparisons
HIGH: Final = 1600  # NUM_LOW + NUM_SPAN
assert (LOW, HIGH) == (NUM_LOW, NUM_LOW + NUM_SPAN)


def put(out: BytesWriter, table: list[bytes], value: i64) -> None:
    """Write ``table``'s piece for ``value`` (a :func:`numbers` table from NUM_LOW)."""
    if LOW <= value < HIGH:
        out.write(table[value - LOW])
    else:
        out.write(wide(table, LOW, value))


def dice(out: BytesWriter, hand: list[int], values: list[int], low: i64, first: list[bytes],
         rest: list[bytes], closed: list[bytes]) -> None:
    """Write the dice of a score line: each die's piece, open (``first``'s for the first die,
    ``rest``'s for the others), then ``closed``'s piece of its value (from ``low``).

    Two short pieces a die, from about a hundred die pieces and thirty value pieces that stay
    in the CPU's cache, rather than one of a thousand die-and-value pieces that do not.
    """
    d: i64
    pieces = first
    for d in hand:
        out.write(pieces[d])
        value: i64 = values[d]
        out.write(closed[value - low])
        pieces = rest


def items(out: BytesWriter, first: list[bytes], rest: list[bytes], dice: list[int]) -> None:
    """Write a list of dice: ``first``'s piece of the first, ``rest``'s of the others."""
    d: i64
    pieces = first
    for d in dice:
        out.write(pieces[d])
        pieces = rest


def pair(out: BytesWriter, both: list[bytes], first: list[bytes], second: list[bytes],
         a: i64, b: i64) -> None:
    """Write two neighbouring numbers of the score line: ``both``'s piece if there is one."""
    if 0 <= a < PAIR and 0 <= b < PAIR:
        out.write(both[a * PAIR + b])
    else:
        put(out, first, a)
        put(out, second, b)


__all__ = ["dice", "items", "pair", "put"]
