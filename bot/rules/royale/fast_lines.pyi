"""The busiest lines of the simulator's log, written in C (``fast_lines.c``): a round's score
lines, its token line and its draft lines.

Built by ``./dev compile-fast`` next to the mypyc-compiled fast path, and used only while
``SOURCE_SHA256`` is the sha256 of ``fast_lines.c`` (:func:`bot.sim.fastpath.lines_in_c`).
Each writes exactly what the fast path's own writers (:mod:`bot.rules.royale.fast_write`)
write for the same lines. ``out`` is always a librt ``BytesWriter``; numbers "staged" are
signed 64-bit little-endian numbers the caller wrote at the end of ``out``, which the call
takes off and replaces by the text. Bad input raises TypeError, IndexError or ValueError.
"""

from typing import Any

SOURCE_SHA256: str

def score_lines(out: Any, heads: list[bytes], at: int, hands: list[list[int]],
                values: list[int], first: list[bytes], rest: list[bytes], tail: bytes) -> None:
    """Replace 8 staged numbers a hand (its yellow, purple, blue, red, green, clear and pink
    columns, then its total) by one score line a hand: ``heads[at + i]``, the dice of
    ``hands[i]`` (each die ``d``'s piece, ``first[d]`` for the first and ``rest[d]`` for the
    others, then ``values[d]`` and ``}``), ``]``, the columns and total, then ``tail``.
    """

def token_line(out: Any, head: bytes, key: list[bytes], key_next: list[bytes],
               yellow: list[int]) -> None:
    """Write ``head``, then each seat's key (``key[0]``, then ``key_next[i]``) and yellow."""

def draft_lines(out: Any, pool_size: int, picks: int, pool_head: bytes, die: list[bytes],
                die_next: list[bytes], pick_heads: list[bytes], at: int, ids: list[bytes],
                id_next: list[bytes], return_head: bytes, returned: list[int], tail: bytes,
                bracket_tail: bytes) -> None:
    """Replace the staged pool (``pool_size`` dice) and picks (``picks`` pairs of seat and die)
    by the draft_pool line (``pool_head``, the dice's ``die``/``die_next`` pieces,
    ``bracket_tail``), one pick line each (``pick_heads[at + seat]``, ``ids[die]``, ``tail``)
    and the draft_return line (``return_head``, ``returned``'s ``ids``/``id_next`` pieces,
    ``bracket_tail``).
    """
