"""How the validator checks a Panda Royale log: :data:`ROYALE_LOG`, the ``log_checks`` of the
registry's Royale entry.

The shape of each event (dice, column scores, Captain losses), the decisions read back for the
replay (``mischief``, ``cannon``, ``trade``, ``pick``, and a ``Pass`` wherever a trading turn
ends without a logged trade) and the expansions read from ``setup``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.dice import COLUMN_NAMES
from bot.rules.royale.engine import ENGINE
from bot.rules.royale.state import Phase, RoyaleState
from bot.rules.validate.checks import LogChecks, Obj
from bot.rules.validate.shape import (
    GAME_END,
    INT,
    PLAYER,
    PLAYERS,
    STR,
    Check,
    Schema,
    by_player,
    list_of,
    one_of,
)

_DIE_KEYS: tuple[tuple[str, Check], ...] = (("id", STR), ("color", STR), ("sides", INT),
                                            ("kind", STR))


def DIE(v: Any, players: Sequence[str]) -> str | None:  # noqa: N802 (as shape.py)
    """A die object: id, color, sides, kind."""
    if type(v) is dict:  # the fast path of a well-formed die
        i, c, s, k = v.get("id"), v.get("color"), v.get("sides"), v.get("kind")
        if type(i) is str and i and type(c) is str and c and type(s) is int and type(k) is str \
                and k:
            return None
    if not isinstance(v, dict):
        return "must be a die object"
    for key, check in _DIE_KEYS:
        if key not in v:
            return f"die has no {key!r}"
        err = check(v[key], players)
        if err:
            return f"die {key!r} {err}"
    return None


def ROLLED(v: Any, players: Sequence[str]) -> str | None:  # noqa: N802 (as shape.py)
    """A die object with the value it showed."""
    err = DIE(v, players)
    if err:
        return err
    if "value" not in v:
        return f"die {v['id']} has no 'value'"
    return None if type(v["value"]) is int else f"die {v['id']} 'value' must be a whole number"


def COLUMNS(v: Any, players: Sequence[str]) -> str | None:  # noqa: N802 (as shape.py)
    """The seven column scores, by column name."""
    if not isinstance(v, dict) or set(v) != set(COLUMN_NAMES):
        return f"must be an object with exactly the columns {', '.join(COLUMN_NAMES)}"
    bad = [k for k in COLUMN_NAMES if type(v[k]) is not int]
    return f"column {bad[0]} must be a whole number" if bad else None


def LOST(v: Any, players: Sequence[str]) -> str | None:  # noqa: N802 (as shape.py)
    """A {player, die} object of a Captain event."""
    if not isinstance(v, dict):
        return "must be a {player, die} object"
    return PLAYER(v.get("player"), players) or STR(v.get("die"), players)


SCHEMA: Final[Schema] = {
    "setup": (("seed", INT, True), ("players", PLAYERS, True),
              ("expansions", list_of(STR), True), ("hands", by_player(list_of(DIE), every=True),
                                                    True),
              ("bag", list_of(DIE), True), ("aside", list_of(DIE), False)),
    "token": (("round", INT, True), ("player", PLAYER, True),
              ("yellow", by_player(INT, every=True), True), ("rerolls", INT, True)),
    "mischief_dealt": (("round", INT, True), ("dice", by_player(DIE, every=False), True)),
    "mischief": (("round", INT, True), ("player", PLAYER, True), ("target", PLAYER, True),
                 ("die", STR, True), ("before", INT, True), ("after", INT, True)),
    "cannon": (("round", INT, True), ("player", PLAYER, True), ("die", STR, True),
               ("decision", one_of("score", "save"), True), ("value", INT, False)),
    "score": (("round", INT, True), ("player", PLAYER, True), ("dice", list_of(ROLLED), True),
              ("columns", COLUMNS, True), ("total", INT, True)),
    "pity": (("round", INT, True), ("given", by_player(STR, every=False), True)),
    "captain": (("round", INT, True), ("value", INT, True), ("lost", list_of(LOST), True)),
    "trade": (("round", INT, True), ("player", PLAYER, True), ("target", PLAYER, True),
              ("gave", STR, True), ("took", STR, True)),
    "draft_pool": (("round", INT, True), ("dice", list_of(DIE), True)),
    "pick": (("round", INT, True), ("player", PLAYER, True), ("die", STR, True)),
    "draft_return": (("round", INT, True), ("dice", list_of(STR), True)),
    "game_end": GAME_END,
}


def _seat(players: Sequence[str], who: Any) -> int:
    return players.index(who) if who in players else -1


def decision(obj: Obj, players: Sequence[str]) -> RoyaleAction | None:
    """The decision a logged event records, or None."""
    name = obj.get("event")
    seat = _seat(players, obj.get("player"))
    if name == "mischief":
        return Mischief(seat, str(obj.get("die")))
    if name == "cannon":
        return Cannon(seat, str(obj.get("die")), obj.get("decision") == "score")
    if name == "trade":
        return Trade(seat, str(obj.get("gave")), _seat(players, obj.get("target")),
                     str(obj.get("took")))
    if name == "pick":
        return Pick(seat, str(obj.get("die")))
    return None


def implicit_pass(state: RoyaleState, action: RoyaleAction | None) -> Pass | None:
    """A trading turn that ends without a logged trade is a Pass: the seat waiting to trade
    passes unless ``action`` is its trade.
    """
    seat = ENGINE.current_seat(state)
    if seat is None or state.phase is not Phase.TRADE:
        return None
    if isinstance(action, Trade) and action.seat == seat:
        return None
    return Pass(seat)


def options(setup: Obj) -> Mapping[str, Any]:
    """The expansions the game was set up with."""
    expansions = setup.get("expansions")
    return {"expansions": expansions if isinstance(expansions, list) else ()}


ROYALE_LOG: Final = LogChecks(
    schema=SCHEMA, decision=decision, options=options, implicit=implicit_pass,
    optional_keys={"setup": frozenset({"aside"}), "cannon": frozenset({"value"})},
)
