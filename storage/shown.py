"""``db.shown``, what the bot has shown that outlives it (tables ``pings`` and
``shard_hearing``, migration 008): :class:`ShownRecords`. Why each is kept, and what a restart
does with it: docs/architecture.md, "Deploys and restarts".

A ping is written before it is posted (no message id yet), given its message id once Discord
answered, and retired (``live = 0``) when a newer ping replaces it or its game no longer waits
on its people; a retired ping's row goes once its message is deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .connection import Conn, execute, execute_many, fetch_all, fetch_one, fetch_value
from .rows import OPEN_STATUSES, from_row
from .runner import C, Records

ShownRole = Literal["board", "ping"]

_OPEN = "('" + "', '".join(OPEN_STATUSES) + "')"


@dataclass(frozen=True, slots=True)
class PingRow:
    """One ping of a game: who it mentions, the board it links to, and whether it stands."""

    id: int
    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    """None while it is being posted (or when a crash came before Discord's answer)."""
    people: tuple[str, ...]
    board_id: int | None
    version: int
    """The game's version it was posted for (its board showed that version too)."""
    live: bool
    asked_ms: int
    game_open: bool = True
    """Whether its game is still in the lobby or in play."""

    @property
    def on_board(self) -> bool:
        """Whether the ping is its board itself (a board posted with its mentions): tidying
        it deletes nothing.
        """
        return self.message_id is not None and self.message_id == self.board_id


@dataclass(frozen=True, slots=True)
class ShownMessage:
    """A message the bot treats as live: a game's board or one of its pings."""

    message_id: int
    game_id: int
    guild_id: int
    role: ShownRole


_PING_COLUMNS = ("p.id, p.game_id, p.guild_id, p.channel_id, p.message_id, p.people,"
                 " p.board_id, p.version, p.live, p.asked_ms")


async def _retire(conn: Conn, ping_ids: Sequence[int]) -> None:
    await execute_many(conn, "UPDATE pings SET live = 0 WHERE id = ?", [(i,) for i in ping_ids])


class ShownRecords(Records[C]):
    """The live messages of games (boards, pings) and the shards' hearing."""

    # -- pings -------------------------------------------------------------------------------

    async def ping_asked(self, *, game_id: int, guild_id: int, channel_id: int,
                         people: Sequence[str], board_id: int | None, version: int,
                         now_ms: int, message_id: int | None = None,
                         retired: Sequence[int] = ()) -> int:
        """Record a ping about to be posted (no ``message_id`` yet), or one already posted
        (a board posted with its mentions), and that the pings ``retired`` stand no more;
        returns its id.
        """

        async def work(conn: C) -> int:
            value = await fetch_value(
                conn, "INSERT INTO pings (game_id, guild_id, channel_id, message_id, people,"
                      " board_id, version, live, asked_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)"
                      " RETURNING id",
                (game_id, guild_id, channel_id, message_id, " ".join(people), board_id,
                 version, now_ms))
            await _retire(conn, retired)
            return int(value)

        if retired:
            return await self._db.write(work)
        return await self._db.statement(work)

    async def ping_posted(self, ping_id: int, message_id: int | None,
                          retired: Sequence[int] = ()) -> None:
        """The ping is posted as ``message_id`` (None: it could not be posted, its row goes),
        and the pings ``retired`` stand no more (their messages are to be deleted). One
        statement when it was posted.
        """
        if message_id is None:
            async def failed(conn: C) -> None:
                await execute(conn, "DELETE FROM pings WHERE id = ?", (ping_id,))
                await _retire(conn, retired)

            await self._db.write(failed)
            return
        others = ", ".join("?" for _ in retired) or "NULL"
        await self._db.statement(lambda conn: execute(
            conn, "UPDATE pings SET message_id = CASE WHEN id = ? THEN ? ELSE message_id END,"
                  f" live = CASE WHEN id IN ({others}) THEN 0 ELSE live END"
                  f" WHERE id = ? OR id IN ({others})",
            (ping_id, message_id, *retired, ping_id, *retired)))

    async def retire(self, ping_ids: Sequence[int]) -> None:
        """These pings stand no more: their messages are to be deleted."""
        if ping_ids:
            await self._db.write(lambda conn: _retire(conn, ping_ids))

    async def forget(self, ping_ids: Iterable[int]) -> None:
        """Drop these pings' rows (their messages are deleted, or gone)."""
        ids = [(i,) for i in ping_ids]
        if ids:
            await self._db.write(lambda conn: execute_many(
                conn, "DELETE FROM pings WHERE id = ?", ids))

    async def all_pings(self) -> list[PingRow]:
        """Every recorded ping (after a restart: which stand, which to tidy), oldest first,
        each saying whether its game is still open.
        """
        rows = await self._db.statement(lambda conn: fetch_all(
            conn, f"SELECT {_PING_COLUMNS}, CASE WHEN g.status IN {_OPEN} THEN 1 ELSE 0 END"
                  " AS game_open FROM pings p JOIN games g ON g.id = p.game_id ORDER BY p.id"))
        return [from_row(PingRow, r, people=tuple(str(r["people"]).split()),
                         live=bool(r["live"]), game_open=bool(r["game_open"])) for r in rows]

    async def standing_ping(self, game_id: int) -> PingRow | None:
        """The game's newest posted ping that still stands (None: none)."""
        row = await self._db.statement(lambda conn: fetch_one(
            conn, f"SELECT {_PING_COLUMNS} FROM pings p WHERE p.game_id = ? AND p.live = 1"
                  " AND p.message_id IS NOT NULL ORDER BY p.id DESC LIMIT 1", (game_id,)))
        return None if row is None else from_row(
            PingRow, row, people=tuple(str(row["people"]).split()), live=bool(row["live"]),
            game_open=True)

    # -- boards and pings by message ---------------------------------------------------------

    async def of_messages(self, channel_id: int, message_ids: Sequence[int]
                          ) -> list[ShownMessage]:
        """Which of these messages of a channel are an open game's board or a recorded ping."""
        if not message_ids:
            return []
        marks = ", ".join("?" for _ in message_ids)
        params = (*message_ids, channel_id, *message_ids, channel_id)
        rows = await self._db.statement(lambda conn: fetch_all(
            conn, f"SELECT message_id, id AS game_id, guild_id, 'board' AS role FROM games"
                  f" WHERE message_id IN ({marks}) AND channel_id = ? AND status IN {_OPEN}"
                  f" UNION ALL SELECT message_id, game_id, guild_id, 'ping' AS role FROM pings"
                  f" WHERE message_id IN ({marks}) AND channel_id = ?", params))
        return [ShownMessage(int(r["message_id"]), int(r["game_id"]), int(r["guild_id"]),
                             "board" if r["role"] == "board" else "ping") for r in rows]

    # -- the shards' hearing -----------------------------------------------------------------

    async def heard(self, shard_count: int, shard_ids: Sequence[int], now_ms: int) -> None:
        """These shards hear their players now (their gateway is connected)."""
        rows = [(shard_count, shard_id, now_ms) for shard_id in shard_ids]
        if rows:
            await self._db.write(lambda conn: execute_many(
                conn, "INSERT INTO shard_hearing (shard_count, shard_id, heard_ms)"
                      " VALUES (?, ?, ?) ON CONFLICT (shard_count, shard_id)"
                      " DO UPDATE SET heard_ms = excluded.heard_ms", rows))

    async def last_heard(self, shard_count: int) -> tuple[dict[int, int], int | None]:
        """When each shard of a layout of ``shard_count`` shards last heard its players, and
        the latest time any shard of any layout did (None: never).
        """
        rows = await self._db.statement(lambda conn: fetch_all(
            conn, "SELECT shard_count, shard_id, heard_ms FROM shard_hearing"))
        mine = {int(r["shard_id"]): int(r["heard_ms"]) for r in rows
                if int(r["shard_count"]) == shard_count}
        latest = max((int(r["heard_ms"]) for r in rows), default=None)
        return mine, latest
