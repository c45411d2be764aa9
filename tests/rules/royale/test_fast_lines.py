"""``fast_lines.score_lines`` (C) writes exactly what the fast path's own writers write, and
refuses bad input with a clear error instead of reading or writing outside what it is given.

It is built by ``./dev compile-fast`` (CI builds it: there the tests require it); where it is
not built, the fast path writes its score lines itself (tested in test_fast.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from bot.rules.royale import fast_write
from bot.rules.royale.fast_sink import ByteBuffer, log_buffer, take, write_i64_le
from bot.sim.fastpath import score_lines_writer

ScoreLines = Callable[..., None]
INT64 = (-(2**63), 2**63 - 1)


def _writer() -> ScoreLines | None:
    writer = score_lines_writer()
    if writer is None:
        assert os.environ.get("CI", "").lower() != "true", "CI builds it: ./dev compile-fast"
    return writer


def _value(rng: Random) -> int:
    kind = rng.random()
    if kind < 0.6:
        return rng.randint(0, 12)
    if kind < 0.8:
        return rng.randint(-150, 150)
    if kind < 0.95:
        return rng.randint(-(10**7), 10**7)
    return rng.choice([*INT64, 10**18, -(10**18), 99, 100, -99, -100, 999, 1000])


def _piece(rng: Random) -> bytes:
    text = "".join(rng.choice('ab"{}:,é🐼漢-0123456789') for _ in range(rng.randint(0, 90)))
    return text.encode()


def _round(rng: Random) -> dict[str, Any]:
    """A random round: hands of die indices, values, pieces, staged columns."""
    dice = rng.randint(1, 40)
    n = rng.randint(1, 12)
    return {
        "heads": [_piece(rng) for _ in range(rng.randint(n, n + 30))],
        "hands": [rng.sample(range(dice), rng.randint(0, min(dice, 12))) for _ in range(n)],
        "values": [_value(rng) for _ in range(dice)],
        "first": [_piece(rng) for _ in range(dice)],
        "rest": [_piece(rng) for _ in range(dice + rng.randint(0, 3))],
        "columns": [[_value(rng) for _ in range(8)] for _ in range(n)],
        "tail": _piece(rng) + b"\n",
    }


def _expected(r: dict[str, Any], at: int) -> bytes:
    """The lines as the fast path's own writers write them (fast_write, pure Python)."""
    out = ByteBuffer()
    for seat, hand in enumerate(r["hands"]):
        out.write(r["heads"][at + seat])
        fast_write.dice(out, hand, r["values"], r["first"], r["rest"])
        fast_write.columns(out, *r["columns"][seat])
        out.write(r["tail"])
    return bytes(out)


def _stage(out: Any, r: dict[str, Any]) -> None:
    for numbers in r["columns"]:
        fast_write.stage(out, *numbers)


def test_the_score_lines_are_the_fast_paths_own() -> None:
    writer = _writer()
    if writer is None:
        return
    rng = Random(1313)
    for _ in range(400):
        r = _round(rng)
        at = rng.randint(0, len(r["heads"]) - len(r["hands"]))
        out, _ = log_buffer()
        before = _piece(rng) * rng.randint(0, 3000)  # a buffer that grows on the way
        out.write(before)
        _stage(out, r)
        writer(out, r["heads"], at, r["hands"], r["values"], r["first"], r["rest"], r["tail"])
        assert take(out) == before + _expected(r, at)


def test_staged_numbers_are_signed_64_bit_little_endian() -> None:
    """The pure-Python stores stage the same bytes as librt's (negative numbers too)."""
    out, _ = log_buffer()
    fast_write.stage(out, -1, 2, -(2**63), 2**63 - 1, 0, -300, 300, 7)
    want = b"".join(v.to_bytes(8, "little", signed=True)
                    for v in (-1, 2, -(2**63), 2**63 - 1, 0, -300, 300, 7))
    assert take(out) == want
    pieces = ByteBuffer()
    write_i64_le(pieces, -5)
    assert bytes(pieces) == (-5).to_bytes(8, "little", signed=True)


def _call(writer: ScoreLines, **change: Any) -> None:
    r = {"heads": [b"<h0>", b"<h1>"], "at": 0, "hands": [[0, 1], [2]], "values": [1, 2, 3],
         "first": [b"a", b"b", b"c"], "rest": [b"A", b"B", b"C"], "tail": b"!\n"}
    stage = change.pop("stage", 2)
    r.update(change)
    out = change["out"] if "out" in change else log_buffer()[0]
    if not isinstance(out, bytearray):
        out.write(b"kept")
        for _ in range(stage):
            fast_write.stage(out, 1, 2, 3, 4, 5, 6, 7, 8)
    writer(out, r["heads"], r["at"], r["hands"], r["values"], r["first"], r["rest"], r["tail"])


@pytest.mark.parametrize(("change", "error", "message"), [
    ({"out": bytearray()}, TypeError, "BytesWriter"),
    ({"hands": ([0], [1])}, TypeError, "hands: list"),
    ({"tail": "!\n"}, TypeError, "tail: bytes"),
    ({"hands": [[0, 3], [2]]}, IndexError, "no value"),
    ({"hands": [[0, -1], [2]]}, IndexError, "no value"),
    ({"hands": [[0, 1.0], [2]]}, TypeError, "must be ints"),
    ({"hands": [[0, 1], (2,)]}, TypeError, "a hand must be a list"),
    ({"values": [1, "2", 3]}, TypeError, "must be ints"),
    ({"values": [1, 2**64, 3]}, OverflowError, None),
    ({"at": 1}, IndexError, "piece index"),
    ({"at": -1}, IndexError, "piece index"),
    ({"at": "0"}, TypeError, None),
    ({"first": [b"a", b"b", "c"]}, TypeError, "must be bytes"),
    ({"rest": [b"A"]}, IndexError, "piece index"),
    ({"stage": 1}, ValueError, "staged"),
    ({"hands": [[0]] * 65, "heads": [b"h"] * 65, "stage": 65}, ValueError, "staged"),
])
def test_bad_input_is_refused_with_a_clear_error(change: dict[str, Any], error: type,
                                                  message: str | None) -> None:
    writer = _writer()
    if writer is None:
        return
    with pytest.raises(error, match=message):
        _call(writer, **change)
    _call(writer)  # and it still works


def test_the_argument_count_is_checked() -> None:
    writer = _writer()
    if writer is None:
        return
    with pytest.raises(TypeError, match="8 arguments"):
        writer(log_buffer()[0], [], 0)
