"""Migration steps that SQL alone cannot write: run by the migrator right after their
migration's SQL, in the same transaction.

- 006: the Discord ids in every started game's state, start events, action events and actors
  become their seats' tokens (``p1``, ``p2``, ...: see :attr:`storage.rows.PlayerRow.token`);
  then the action log is append-only again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from . import jsoncol
from .connection import Conn, execute, fetch_all

Step = Callable[[Conn, str], Awaitable[None]]
"""``step(conn, dialect)``: a migration's part in code."""

_APPEND_ONLY: Final = {
    "sqlite": "CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions BEGIN"
              " SELECT RAISE(ABORT, 'actions are append-only'); END",
    "postgresql": "ALTER TABLE actions ENABLE TRIGGER actions_append_only",
}


async def seat_tokens(conn: Conn, dialect: str) -> None:
    """Migration 006's rewrite (see the module's docstring)."""
    people: dict[int, dict[str, str]] = {}
    for row in await fetch_all(conn, "SELECT game_id, seat, player_id FROM game_players"
                                     " WHERE is_bot = 0"):
        people.setdefault(int(row["game_id"]), {})[str(row["player_id"])] = \
            f"p{int(row['seat']) + 1}"
    for row in await fetch_all(conn, "SELECT id, state, start_events FROM games"
                                     " WHERE state IS NOT NULL"):
        tokens = people.get(int(row["id"]), {})
        if not tokens:
            continue
        await execute(conn, "UPDATE games SET state = ?, start_events = ? WHERE id = ?",
                      (jsoncol.dump(jsoncol.relabel(jsoncol.load(row["state"]), tokens)),
                       None if row["start_events"] is None else jsoncol.dump(
                           jsoncol.relabel(jsoncol.load(row["start_events"]), tokens)),
                       row["id"]))
    for row in await fetch_all(conn, "SELECT game_id, seq, actor, events FROM actions"):
        tokens = people.get(int(row["game_id"]), {})
        if not tokens:
            continue
        actor = str(row["actor"])
        if actor.startswith("timeout:"):
            who = actor.removeprefix("timeout:")
            actor = f"timeout:{tokens.get(who, who)}"
        else:
            actor = tokens.get(actor, actor)
        await execute(conn, "UPDATE actions SET actor = ?, events = ?"
                            " WHERE game_id = ? AND seq = ?",
                      (actor, jsoncol.dump(jsoncol.relabel(jsoncol.load(row["events"]), tokens)),
                       row["game_id"], row["seq"]))
    await execute(conn, _APPEND_ONLY[dialect])


STEPS: Final[dict[int, Step]] = {6: seat_tokens}
"""Each migration's code step, by version."""
