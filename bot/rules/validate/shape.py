"""The shape of each docs/game-log.md event: its required keys and their JSON types.

The rules checks run only on games whose events all have the right shape, so they can read
the objects without guarding every access. Extra keys are allowed (docs/game-log.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.rules.royale.dice import COLUMN_NAMES

Check = Callable[[Any, Sequence[str]], str | None]


def _is_int(v: Any) -> bool:
    return type(v) is int


def INT(v: Any, players: Sequence[str]) -> str | None:
    """A whole number."""
    return None if _is_int(v) else "must be a whole number"


def STR(v: Any, players: Sequence[str]) -> str | None:
    """Non-empty text."""
    return None if isinstance(v, str) and v else "must be non-empty text"


def PLAYER(v: Any, players: Sequence[str]) -> str | None:
    """One of the game's player ids."""
    if not isinstance(v, str):
        return "must be a player id (text)"
    return None if v in players else f"{v!r} is not a player of this game"


_DIE_KEYS: tuple[tuple[str, Check], ...] = (("id", STR), ("color", STR), ("sides", INT),
                                            ("kind", STR))


def DIE(v: Any, players: Sequence[str]) -> str | None:
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


def ROLLED(v: Any, players: Sequence[str]) -> str | None:
    """A die object with the value it showed."""
    err = DIE(v, players)
    if err:
        return err
    if "value" not in v:
        return f"die {v['id']} has no 'value'"
    return None if _is_int(v["value"]) else f"die {v['id']} 'value' must be a whole number"


def list_of(item: Check) -> Check:
    """A check of a list whose every item passes ``item``."""
    def check(v: Any, players: Sequence[str]) -> str | None:
        if not isinstance(v, list):
            return "must be a list"
        for i, x in enumerate(v):
            err = item(x, players)
            if err:
                return f"item {i}: {err}"
        return None

    return check


def by_player(value: Check, *, every: bool) -> Check:
    """An object keyed by player ids (all of them if ``every``)."""

    def check(v: Any, players: Sequence[str]) -> str | None:
        if not isinstance(v, dict):
            return "must be an object keyed by player"
        for k, x in v.items():
            if k not in players:
                return f"{k!r} is not a player of this game"
            err = value(x, players)
            if err:
                return f"{k}: {err}"
        if every and len(v) != len(players):
            missing = [p for p in players if p not in v]
            return f"has no entry for {', '.join(missing)}"
        return None

    return check


def one_of(*allowed: str) -> Check:
    """A check of a string that must be one of ``allowed``."""
    def check(v: Any, players: Sequence[str]) -> str | None:
        return None if v in allowed else f"must be one of {', '.join(allowed)}"

    return check


def COLUMNS(v: Any, players: Sequence[str]) -> str | None:
    """The seven column scores, by column name."""
    if not isinstance(v, dict) or set(v) != set(COLUMN_NAMES):
        return f"must be an object with exactly the columns {', '.join(COLUMN_NAMES)}"
    bad = [k for k in COLUMN_NAMES if not _is_int(v[k])]
    return f"column {bad[0]} must be a whole number" if bad else None


def LOST(v: Any, players: Sequence[str]) -> str | None:
    """A {player, die} object of a Captain event."""
    if not isinstance(v, dict):
        return "must be a {player, die} object"
    return PLAYER(v.get("player"), players) or STR(v.get("die"), players)


def PLAYERS(v: Any, players: Sequence[str]) -> str | None:
    """A non-empty list of distinct player ids."""
    if not isinstance(v, list) or not v:
        return "must be a non-empty list of player ids"
    if not all(isinstance(p, str) and p for p in v):
        return "must hold non-empty text ids"
    return None if len(set(v)) == len(v) else "names a player twice"


def PLAYER_LIST(v: Any, players: Sequence[str]) -> str | None:
    """A list of the game's player ids."""
    if not isinstance(v, list):
        return "must be a list of player ids"
    for p in v:
        err = PLAYER(p, players)
        if err:
            return err
    return None if len(set(v)) == len(v) else "names a player twice"


# (key, check, required) per event; a missing optional key is fine.
Schema = dict[str, tuple[tuple[str, Check, bool], ...]]

_GAME_END = (("totals", by_player(INT, every=True), True), ("winners", PLAYER_LIST, True))

ROYALE: Schema = {
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
    "game_end": _GAME_END,
}

POSING: Schema = {
    "setup": (("seed", INT, True), ("players", PLAYERS, True)),
    "roll": (("player", PLAYER, True), ("turn", INT, True), ("roll", INT, True),
             ("held", list_of(INT), True), ("faces", list_of(INT), True)),
    "fill": (("player", PLAYER, True), ("turn", INT, True), ("box", STR, True),
             ("faces", list_of(INT), True), ("points", INT, True)),
    "game_end": _GAME_END,
}

SCHEMAS: dict[str, Schema] = {"royale": ROYALE, "posing": POSING}


def shape_problem(obj: Mapping[str, Any], schema: Schema, players: Sequence[str]) -> str | None:
    """What is wrong with the keys of ``obj`` (an event of a known kind), or None."""
    name = obj.get("event")
    keys = schema.get(name) if isinstance(name, str) else None
    if keys is None:
        return f"unknown event {name!r}"
    for key, check, required in keys:
        if key not in obj:
            if required:
                return f"{name} has no {key!r}"
            continue
        err = check(obj[key], players)
        if err:
            return f"{name} {key!r} {err}"
    return None
