"""The score lines of one round of the simulator's log, written in C (``fast_lines.c``).

Built by ``./dev compile-fast`` next to the mypyc-compiled fast path, and used only while
``SOURCE_SHA256`` is the sha256 of ``fast_lines.c`` (:func:`bot.sim.fastpath.score_lines_writer`).
Writes exactly what :func:`bot.rules.royale.fast_write.dice` and ``columns`` write between a
score line's head and its tail, for every hand at once.
"""

from typing import Any

SOURCE_SHA256: str

def score_lines(out: Any, heads: list[bytes], at: int, hands: list[list[int]],
                values: list[int], first: list[bytes], rest: list[bytes], tail: bytes) -> None:
    """Replace the numbers staged at the end of ``out`` (a librt ``BytesWriter``): 8 signed
    64-bit little-endian numbers a hand (its yellow, purple, blue, red, green, clear and pink
    columns, then its total), by one score line a hand: ``heads[at + i]``, the dice of
    ``hands[i]`` (each die ``d``'s piece, ``first[d]`` for the first and ``rest[d]`` for the
    others, then ``values[d]`` and ``}``), ``]``, the columns and total, then ``tail``.
    """
