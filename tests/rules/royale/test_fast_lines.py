"""``fast_lines`` (C: a round's score lines, its token line and its draft lines) writes exactly
what the fast path's own writers write, and refuses bad input with a clear error instead of
reading or writing outside what it is given.

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
from bot.sim.fastpath import lines_in_c

ScoreLines = Callable[..., None]
INT64 = (-(2**63), 2**63 - 1)


def _module() -> Any:
    module = lines_in_c()
    if module is None:
        assert os.environ.get("CI", "").lower() != "true", "CI builds it: ./dev compile-fast"
    return module


def _writer() -> ScoreLines | None:
    module = _module()
    return None if module is None else module.score_lines


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
    ({"at": 2**63 - 1}, IndexError, "piece index"),
    ({"at": "0"}, TypeError, None),
    ({"first": [b"a", b"b", "c"]}, TypeError, "must be bytes"),
    ({"rest": [b"A"]}, IndexError, "piece index"),
    ({"stage": 1}, ValueError, "staged"),
    ({"hands": [[0]] * 65, "heads": [b"h"] * 65, "stage": 65}, ValueError, "at most 64"),
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


def test_token_lines_are_the_fast_paths_own() -> None:
    module = _module()
    if module is None:
        return
    rng = Random(77)
    for _ in range(300):
        n = rng.randint(0, 12)
        key, key_next = [_piece(rng) for _ in range(n)], [_piece(rng) for _ in range(n)]
        yellow = [_value(rng) for _ in range(n)]
        head = _piece(rng)
        out, want = log_buffer()[0], ByteBuffer()
        module.token_line(out, head, key, key_next, yellow)
        fast_write.keyed(want, head, key, key_next, yellow)
        assert take(out) == bytes(want)


def test_pieces_of_every_length_are_copied_whole() -> None:
    # the C copies a piece of up to 128 bytes by its first and last 4, 8, 16, 32 or 64 bytes
    module = _module()
    if module is None:
        return
    for length in range(300):
        piece = bytes((7 * i + length) % 251 for i in range(length))
        key, key_next = [piece[: length // 2]], [piece, piece[1:]]
        for before in (b"", b"x" * 5, b"y" * 300):  # pieces land at every alignment
            out, want = log_buffer()[0], ByteBuffer()
            out.write(before)
            want.write(before)
            module.token_line(out, piece, key + key_next[:1], key_next, [length, -1])
            fast_write.keyed(want, piece, key + key_next[:1], key_next, [length, -1])
            assert take(out) == bytes(want)


def test_draft_lines_are_the_fast_paths_own() -> None:
    module = _module()
    if module is None:
        return
    rng = Random(5150)
    for _ in range(300):
        dice, n = rng.randint(1, 60), rng.randint(1, 12)
        die, die_next, ids, id_next = ([_piece(rng) for _ in range(dice)] for _ in range(4))
        pick_heads = [_piece(rng) for _ in range(n * rng.randint(1, 11))]
        pool = rng.sample(range(dice), rng.randint(0, min(dice, 40)))
        picks = [(rng.randrange(n), d) for d in pool[: rng.randint(0, len(pool))]]
        returned = pool[len(picks):]
        at = rng.randint(0, len(pick_heads) - n)
        heads = (_piece(rng), _piece(rng))
        tail, bracket_tail = _piece(rng) + b"\n", b"]" + _piece(rng) + b"\n"
        out, want = log_buffer()[0], ByteBuffer()
        out.write(b"kept")
        for d in pool:
            write_i64_le(out, d)
        for seat, d in picks:
            write_i64_le(out, seat)
            write_i64_le(out, d)
        module.draft_lines(out, len(pool), len(picks), heads[0], die, die_next, pick_heads, at,
                           ids, id_next, heads[1], returned, tail, bracket_tail)
        fast_write.listed(want, heads[0], die, die_next, pool, bracket_tail)
        for seat, d in picks:
            want.write(pick_heads[at + seat] + ids[d] + tail)
        fast_write.listed(want, heads[1], ids, id_next, returned, bracket_tail)
        assert take(out) == b"kept" + bytes(want)


def _draft(module: Any, **change: Any) -> None:
    r: dict[str, Any] = {"pool": [0, 2], "picks": [(1, 0)], "pool_head": b"<pool>",
                         "pick_heads": [b"<p0>", b"<p1>"], "at": 0, "ids": [b"a", b"b", b"c"],
                         "return_head": b"<back>", "returned": [2], "tail": b"!\n",
                         "stage": None, "pool_size": None, "count": None}
    r.update(change)
    out = log_buffer()[0]
    staged = r["stage"] if r["stage"] is not None else [
        *r["pool"], *(x for pick in r["picks"] for x in pick)]
    for v in staged:
        write_i64_le(out, v)
    module.draft_lines(
        out, len(r["pool"]) if r["pool_size"] is None else r["pool_size"],
        len(r["picks"]) if r["count"] is None else r["count"], r["pool_head"], r["ids"],
        r["ids"], r["pick_heads"], r["at"], r["ids"], r["ids"], r["return_head"],
        r["returned"], r["tail"], b"]!\n")


@pytest.mark.parametrize(("change", "error", "message"), [
    ({"stage": [0]}, ValueError, "staged"),
    ({"pool_size": -1}, ValueError, "staged"),
    ({"pool_size": 600}, ValueError, "staged"),
    ({"count": "1"}, TypeError, "must be ints"),
    ({"picks": [(2, 0)]}, IndexError, "piece index"),
    ({"picks": [(1, 3)]}, IndexError, "piece index"),
    ({"pool": [0, 9]}, IndexError, "piece index"),
    ({"returned": [5]}, IndexError, "piece index"),
    ({"returned": ["2"]}, TypeError, "must be ints"),
    ({"returned": [0] * 513}, ValueError, "too many"),
    ({"tail": "!"}, TypeError, "draft_lines"),
    ({"at": -2}, IndexError, "piece index"),
    ({"at": 2**63 - 1}, IndexError, "piece index"),
    ({"count": 2**62}, ValueError, "staged"),
    ({"picks": [(2**63 - 1, 0)], "at": 1}, IndexError, "piece index"),
])
def test_bad_draft_input_is_refused(change: dict[str, Any], error: type, message: str) -> None:
    module = _module()
    if module is None:
        return
    with pytest.raises(error, match=message):
        _draft(module, **change)
    _draft(module)


def test_bad_token_input_is_refused() -> None:
    module = _module()
    if module is None:
        return
    out = log_buffer()[0]
    with pytest.raises(TypeError, match="token_line"):
        module.token_line(bytearray(), b"h", [b"k"], [b"k"], [1])
    with pytest.raises(TypeError, match="token_line"):
        module.token_line(out, b"h", [b"k"], [b"k"])
    with pytest.raises(IndexError, match="piece index"):
        module.token_line(out, b"h", [b"k"], [b"k"], [1, 2, 3])
    with pytest.raises(TypeError, match="must be ints"):
        module.token_line(out, b"h", [b"k"], [b"k"], [None])
    with pytest.raises(TypeError, match="must be bytes"):
        module.token_line(out, b"h", ["k"], [b"k"], [1])
    take(out)
    module.token_line(out, b"h", [b"k", b"x"], [b",X", b",K"], [1, -22])
    assert take(out) == b"hk1,K-22"
