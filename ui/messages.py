"""Showing a game in its channel: one current message per game (its board), edited in order,
and short ping messages that tell whoever must act.

Real Discord clients notify a user only for a mention in the content of a *new* message, so
game messages never ping anyone (``allowed_mentions`` none) and every hand-over is told by a
ping that mentions exactly the players who must act; at most one stands, linking to the live
board. Board operations run under the game's lock, in order (an edit older than what is shown
is dropped); pings are posted outside it (the newest wins, the one before is deleted later).
Every request takes the cheapest door (:mod:`ui.delivery`: the interaction, else the bot token)
and is ready for a refusal: a board that is gone is posted anew, a channel that is gone ends
its games, permissions are checked before posting (no Send Messages: nothing is sent; no
Embed Links: a text board; no Attach Files: no picture). Entries go when their game ends.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.request_budget import RequestBudget, Urgency
from bot.service import Game, GameService, PingRow
from bot.service.locks import KeyedLocks
from ui.channel_access import (
    SEND_FAILURES,
    Refusal,
    can_post,
    channel_permissions,
    failure,
    refusal,
)
from ui.delivery import Delivery, Sent
from ui.errors import MISSING_PERMISSIONS
from ui.i18n import for_game
from ui.shown import Shown, jump_link, pings_for

log = logging.getLogger("ui.messages")

REPAIR_DELAYS: Final = (1.0, 3.0, 10.0)
"""Seconds before each attempt to redraw a message whose edit Discord refused."""
SWEEP_LIMIT: Final = 50
"""How many of a channel's messages after an unrecorded ping was asked for are looked at."""
SWEEP_MARGIN_MS: Final = 2000
"""How long before it was asked for the look starts (the host's clock against Discord's)."""

Redraw = Callable[[int], Awaitable[None]]
"""``redraw(game_id)``: edit the game's message to show its committed state now."""
Gone = Callable[[Game], Awaitable[None]]
"""``gone(game)``: the game's channel is gone or out of the bot's sight."""


@dataclass(slots=True)
class _Board:
    message_id: int
    version: int = -1
    sent: Sent | None = None  # as posted: a webhook message can be edited through its webhook


@dataclass(slots=True)
class _Ping:
    ping_id: int  # its row in storage
    message_id: int
    people: frozenset[str]
    board_id: int | None
    version: int  # the game's version it was posted for
    sent: Sent | None = None


class GameMessages:
    """Edits and posts the messages of every game, in order, one game at a time."""

    def __init__(self, client: discord.Client, service: GameService,
                 budget: RequestBudget) -> None:
        """Send through ``client`` (the bot token's requests spent from ``budget``); remember
        each game's message in ``service``.
        """
        self.client = client
        self.service = service
        self.delivery = Delivery(client, budget)
        self.redraw: Redraw | None = None
        """Set by the hub: how a refused edit is repaired from the committed state."""
        self.gone: Gone | None = None
        """Set by the hub: what happens when a game's channel turns out to be gone."""
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._boards: dict[int, _Board] = {}
        self._pings: dict[int, _Ping] = {}
        self._ping_turn: dict[int, int] = {}  # game -> number of the newest ping asked for
        self._repairs: dict[int, asyncio.Task[None]] = {}
        self._chores: set[asyncio.Task[None]] = set()

    def lock(self, game_id: int) -> Any:
        """``async with messages.lock(game)``: every board operation of one game."""
        return self._locks.hold(game_id)

    def message_of(self, game: Game) -> int | None:
        """The game's current message id (the newest known, even before ``game`` was reloaded)."""
        board = self._boards.get(game.id)
        return board.message_id if board is not None else game.message_id

    def sizes(self) -> dict[str, int]:
        """How many entries each per-game structure holds."""
        return {"locks": len(self._locks), "boards": len(self._boards),
                "pings": len(self._pings), "ping_turns": len(self._ping_turn),
                "repairs": len(self._repairs),
                "interactions": len(self.delivery)}

    # ------------------------------------------------------------------ the game's board

    async def edit(self, game: Game, shown: Shown,
                   interaction: discord.Interaction[Any] | None = None, *,
                   strict: bool = False) -> None:
        """Edit the game's current message (through the clicked interaction when it is that
        message). An edit older than what the message shows is dropped. A board that is gone
        is posted anew; another refusal is redrawn later, or raised with ``strict``.
        """
        self.delivery.note(game, interaction)
        async with self.lock(game.id):
            await self._edit(game, shown, interaction, strict=strict)

    async def _edit(self, game: Game, shown: Shown,
                    interaction: discord.Interaction[Any] | None, *,
                    strict: bool = False) -> None:
        msg_id = self.message_of(game)
        if msg_id is None:
            await self._post(game, shown)
            return
        board = self._boards.get(game.id)
        if shown.version is not None and board is not None and board.message_id == msg_id \
                and shown.version < board.version:
            return  # a newer state is already shown
        shown = shown.fitted(channel_permissions(self.client, game))
        try:
            await self.delivery.edit(game, msg_id, shown.edit_kwargs(), interaction,
                                     board.sent if board is not None else None)
        except SEND_FAILURES as exc:
            why = refusal(exc)
            if why is Refusal.MESSAGE_GONE:
                log.info("game %s: its message %s is gone: posting it anew", game.id, msg_id)
                self._forget_board(game.id, msg_id)
                await self._post(game, shown, reposted=True)
                return
            if why is Refusal.CHANNEL_GONE:
                await self._channel_gone(game)
                return
            if strict:
                raise
            log.warning("game %s: the edit of message %s failed (%s): redrawing it shortly",
                        game.id, msg_id, failure(exc))
            self._repair(game.id)
            return
        self._track_board(game.id, msg_id, shown.version)

    async def post(self, game: Game, shown: Shown) -> bool:
        """Post a new game message and make it the game's current one. Returns False when the
        bot may not post there (the caller keeps using the current message).
        """
        async with self.lock(game.id):
            return await self._post(game, shown)

    async def _post(self, game: Game, shown: Shown, *, reposted: bool = False) -> bool:
        perms = channel_permissions(self.client, game)
        if not can_post(perms):
            log.info("game %s: may not post in channel %s", game.id, game.channel_id)
            return False
        shown = shown.fitted(perms)
        try:
            msg = await self.delivery.send(game, shown.send_kwargs())
        except SEND_FAILURES as exc:
            if refusal(exc) is Refusal.CHANNEL_GONE:
                await self._channel_gone(game)
            else:
                log.warning("game %s: could not post in channel %s (%s)", game.id,
                            game.channel_id, failure(exc))
            return False
        self._boards.pop(game.id, None)
        self._track_board(game.id, msg.id, shown.version, msg)
        if reposted:
            log.info("game %s: board posted anew as %s", game.id, msg.id)
        await self.service.set_message(game.id, msg.id)
        people = frozenset(u for u in shown.pings if u.isdigit())
        if people:  # the board itself pings: it is the game's standing ping too
            self._ping_turn[game.id] = self._ping_turn.get(game.id, 0) + 1
            old = self._pings.pop(game.id, None)
            ping_id = await self.service.ping_asked(
                game, sorted(people), msg.id, message_id=msg.id,
                retired=[old.ping_id] if old is not None else [])
            self._pings[game.id] = _Ping(ping_id, msg.id, people, msg.id, game.version, msg)
            if old is not None:
                self._delete_later(game, old)
        return True

    def _track_board(self, game_id: int, message_id: int, version: int | None,
                     sent: Sent | None = None) -> None:
        board = self._boards.get(game_id)
        if board is None or board.message_id != message_id:
            board = self._boards[game_id] = _Board(message_id, sent=sent)
        if version is not None:
            board.version = max(board.version, version)

    async def advance(self, game: Game, closing: Shown,
                      make_next: Callable[[], Awaitable[Shown]],
                      interaction: discord.Interaction[Any] | None) -> bool:
        """A round ended: close the current message, then build and post the next round's. If
        posting is refused, the current message carries on with the next round instead (False:
        the bot may not post there at all). The closing edit goes first, before the next
        round's picture is drawn: it is the click's answer, so it need not wait for it.
        """
        self.delivery.note(game, interaction)
        async with self.lock(game.id):
            if self.message_of(game) is None:
                await self._edit(game, await make_next(), interaction)
                return True
            if not can_post(channel_permissions(self.client, game)):
                await self._edit(game, await make_next(), interaction)
                return False
            await self._edit(game, closing, interaction)
            nxt = await make_next()
            if not await self._post(game, nxt):  # refused although the permissions look right
                nxt.content = f"⚠️ {for_game(game)(MISSING_PERMISSIONS)}\n{nxt.content}"
                await self._edit(game, nxt, None)
            return True

    async def bring_down(self, game: Game, shown: Shown, moved: Callable[[str], Shown] | None
                         ) -> bool:
        """Post the board again at the bottom of the channel; the old one (if it still
        stands) becomes ``moved(link to the new one)``. False if the bot may not post.
        """
        async with self.lock(game.id):
            old = self._boards.get(game.id)
            old_id = old.message_id if old is not None else game.message_id
            if not await self._post(game, shown):
                return False
            new_id = self._boards[game.id].message_id
            if old_id is not None and old_id != new_id and moved is not None:
                stub = moved(jump_link(game, new_id)).fitted(
                    channel_permissions(self.client, game))
                try:
                    await self.delivery.edit(game, old_id, stub.edit_kwargs(),
                                             sent=old.sent if old is not None else None)
                except SEND_FAILURES as exc:
                    log.info("game %s: the old board %s was not closed (%s)", game.id, old_id,
                             failure(exc))
            return True

    async def deleted(self, channel_id: int, message_ids: Sequence[int]) -> list[int]:
        """Messages were deleted in a channel: the games whose board was among them (each is
        forgotten here and must be posted anew). A deleted ping is just forgotten: the next
        decision pings again. Storage says which messages are live, so boards and pings from
        before a restart count too.
        """
        boards: list[int] = []
        gone_pings: list[int] = []
        for shown in await self.service.shown(channel_id, message_ids):
            if shown.role == "board":
                self._forget_board(shown.game_id, shown.message_id)
                boards.append(shown.game_id)
                continue
            ping = self._pings.get(shown.game_id)
            if ping is not None and ping.message_id == shown.message_id:
                del self._pings[shown.game_id]
                gone_pings.append(ping.ping_id)
        if gone_pings:
            await self.service.pings_gone(gone_pings)
        return boards

    def _forget_board(self, game_id: int, message_id: int) -> None:
        board = self._boards.get(game_id)
        if board is not None and board.message_id == message_id:
            del self._boards[game_id]

    # ------------------------------------------------------------------ pings

    async def ping(self, game: Game, user_ids: Sequence[str], text: str) -> None:
        """Tell ``user_ids`` (people, by Discord id) by a new message that mentions them; the
        game's previous ping is deleted. Nothing is sent when the same people were the last
        pinged, their ping still stands and the board it links to is still the game's.

        Posted outside the board's lock: the newest ping wins, an older one that lands later
        is deleted. Each ping is recorded before it is posted and given its message once
        posted, so that after a restart the bot knows which stands and which to tidy.
        """
        people = frozenset(u for u in user_ids if u.isdigit())
        board = self.message_of(game)
        last = self._pings.get(game.id)
        if last is not None and last.people == people and last.board_id == board:
            return
        turn = self._ping_turn[game.id] = self._ping_turn.get(game.id, 0) + 1
        if not people:
            self._drop_ping(game)
            return
        if not can_post(channel_permissions(self.client, game)):
            return
        mentioned = [u for u in user_ids if u in people]
        ping_id = await self.service.ping_asked(game, mentioned, board)
        content = " ".join(f"<@{u}>" for u in mentioned) + f" {text}"
        try:
            msg = await self.delivery.send(game, {
                "content": content[:2000], "allowed_mentions": pings_for(sorted(people))})
        except SEND_FAILURES as exc:
            await self.service.ping_posted(ping_id, None)
            if refusal(exc) is Refusal.CHANNEL_GONE:
                await self._channel_gone(game)
            else:
                log.warning("game %s: could not post a ping (%s)", game.id, failure(exc))
            return
        posted = _Ping(ping_id, msg.id, people, board, game.version, msg)
        if self._ping_turn.get(game.id) != turn:  # a newer ping was asked for meanwhile
            await self.service.ping_posted(ping_id, msg.id, retired=[ping_id])
            self._delete_later(game, posted)
            return
        old = self._pings.pop(game.id, None)
        self._pings[game.id] = posted
        await self.service.ping_posted(ping_id, msg.id,
                                       retired=[old.ping_id] if old is not None else [])
        if old is not None:
            self._delete_later(game, old)

    def standing_version(self, game_id: int) -> int | None:
        """The game version the game's standing ping was posted for (None: no ping stands)."""
        ping = self._pings.get(game_id)
        return None if ping is None else ping.version

    async def unping(self, game: Game) -> None:
        """Delete the game's standing ping, if any (in the background)."""
        self._ping_turn[game.id] = self._ping_turn.get(game.id, 0) + 1
        self._drop_ping(game)

    def _drop_ping(self, game: Game) -> None:
        last = self._pings.pop(game.id, None)
        if last is not None:
            self._delete_later(game, last)

    def _delete_later(self, game: Game, ping: _Ping) -> None:
        self._chore(self._delete(game.guild_id, game.channel_id, ping), f"unping-game-{game.id}")

    def _chore(self, work: Awaitable[None], name: str) -> None:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _delete(self, guild_id: int, channel_id: int, ping: _Ping) -> None:
        if ping.message_id == ping.board_id:  # the board itself: it stays
            await self.service.pings_gone([ping.ping_id])
            return
        try:
            await self.delivery.delete_message(guild_id, channel_id, ping.message_id, ping.sent)
        except SEND_FAILURES as exc:
            if refusal(exc) is Refusal.OTHER:  # a passing failure: tried again at a restart
                log.info("could not delete ping %s (%s): tidied after the next restart",
                         ping.message_id, failure(exc))
                await self.service.pings_retired([ping.ping_id])
                return
        await self.service.pings_gone([ping.ping_id])

    async def restore(self, pings: Sequence[PingRow], skip_guilds: Collection[int] = ()
                      ) -> dict[int, int]:
        """After a restart, what storage says the bot had shown: each open game's newest
        posted ping stands again (the next hand-over replaces it); every other ping, and those
        of games that ended, is deleted; a ping a crash left unrecorded (posted, its message
        never written down) is looked for in its channel and deleted. ``skip_guilds``: servers
        the bot is no longer in (their rows just go). Returns the game version each standing
        ping was posted for, by game.
        """
        standing: dict[int, PingRow] = {}
        for row in pings:  # oldest first: the newest live one of each game stands
            if row.game_open and row.live and row.message_id is not None:
                standing[row.game_id] = row
        dropped: list[int] = []
        for row in pings:
            if standing.get(row.game_id) is row:
                assert row.message_id is not None
                self._pings.setdefault(row.game_id, _Ping(
                    row.id, row.message_id, frozenset(row.people), row.board_id, row.version))
            elif row.guild_id in skip_guilds or row.on_board:
                dropped.append(row.id)
            elif row.message_id is None:
                self._chore(self._sweep(row), f"sweep-game-{row.game_id}")
            else:
                self._chore(self._delete(row.guild_id, row.channel_id, _Ping(
                    row.id, row.message_id, frozenset(row.people), row.board_id, row.version)),
                    f"unping-game-{row.game_id}")
        if dropped:
            await self.service.pings_gone(dropped)
        return {game_id: row.version for game_id, row in standing.items()}

    async def _sweep(self, row: PingRow) -> None:
        """Delete the ping of ``row`` that was posted but never recorded: a message of the
        bot's in its channel, after it was asked for, that mentions someone, has no buttons
        and is no live message of a game's.
        """
        me = self.client.user.id if self.client.user is not None else None
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        since = dt.datetime.fromtimestamp(max(0, row.asked_ms - SWEEP_MARGIN_MS) / 1000, dt.UTC)
        try:
            async with self.delivery.budget.spend(Urgency.TIDY):
                found = [m async for m in channel.history(
                    limit=SWEEP_LIMIT, after=discord.Object(discord.utils.time_snowflake(since)))]
            live = {s.message_id for s in await self.service.shown(
                row.channel_id, [m.id for m in found])}
            for message in found:
                if message.author.id == me and message.raw_mentions \
                        and message.content.startswith("<@") and not message.components \
                        and not message.embeds and message.id not in live:
                    log.info("game %s: deleting ping %s that a crash left unrecorded",
                             row.game_id, message.id)
                    await self.delivery.delete_message(row.guild_id, row.channel_id, message.id)
        except SEND_FAILURES as exc:
            log.info("game %s: could not look for an unrecorded ping (%s)", row.game_id,
                     failure(exc))
        await self.service.pings_gone([row.id])

    async def announce(self, game: Game, shown: Shown, user_ids: Sequence[str],
                       interaction: discord.Interaction[Any] | None = None) -> Sent | None:
        """Post a new message that notifies ``user_ids`` (the end of a game): the standing
        ping goes, the announcement stays. Where the bot may not post, the announcement goes
        through ``interaction`` (which channel permissions do not block), else to each person
        privately. Returns the message, when it reached the channel.
        """
        people = sorted({u for u in user_ids if u.isdigit()})
        shown = Shown(shown.content, shown.embed, shown.view, shown.files,
                      version=shown.version, pings=people)
        self._drop_ping(game)
        self.delivery.note(game, interaction)
        perms = channel_permissions(self.client, game)
        if can_post(perms):
            try:
                return await self.delivery.send(game, shown.fitted(perms).send_kwargs())
            except SEND_FAILURES as exc:
                if refusal(exc) is Refusal.CHANNEL_GONE:
                    await self._channel_gone(game)
                    return None
                log.warning("game %s: the end could not be posted (%s)", game.id,
                            failure(exc))
        private = Shown(shown.content, shown.embed, None, None)
        await self.delivery.elsewhere(game, shown.send_kwargs(), private.send_kwargs(), people,
                                      interaction)
        return None

    # ------------------------------------------------------------------ the end of a game

    def release(self, game: Game) -> None:
        """The game ended: its standing ping is deleted and every entry it held is dropped."""
        self._drop_ping(game)
        self._drop_state(game.id)

    def forget(self, game_id: int) -> None:
        """Drop every entry of the game without a request (its channel is gone); its pings'
        rows go.
        """
        ping = self._pings.pop(game_id, None)
        if ping is not None:
            self._chore(self.service.pings_gone([ping.ping_id]), f"unping-game-{game_id}")
        self._drop_state(game_id)

    def _drop_state(self, game_id: int) -> None:
        self._boards.pop(game_id, None)
        self._ping_turn.pop(game_id, None)
        self.delivery.forget(game_id)
        repair = self._repairs.pop(game_id, None)
        if repair is not None and repair is not asyncio.current_task():
            repair.cancel()

    async def _channel_gone(self, game: Game) -> None:
        log.info("game %s: channel %s is gone or out of sight", game.id, game.channel_id)
        if self.gone is not None:
            await self.gone(game)

    async def settle(self) -> None:
        """Wait for the background deletions (tests, shutdown)."""
        while self._chores:
            await asyncio.gather(*list(self._chores), return_exceptions=True)

    # ------------------------------------------------------------------ repairs

    def _repair(self, game_id: int) -> None:
        if self.redraw is None or game_id in self._repairs:
            return
        self._repairs[game_id] = asyncio.create_task(self._repairing(game_id),
                                                     name=f"redraw-game-{game_id}")

    async def _repairing(self, game_id: int) -> None:
        try:
            for delay in REPAIR_DELAYS:
                await asyncio.sleep(delay)
                assert self.redraw is not None
                try:
                    await self.redraw(game_id)
                    return
                except SEND_FAILURES as exc:
                    log.warning("game %s: redraw failed too (%s)", game_id, failure(exc))
                except Exception:
                    log.exception("game %s: redraw failed", game_id)
                    return
        finally:
            if self._repairs.get(game_id) is asyncio.current_task():
                del self._repairs[game_id]
