"""Showing a game in its channel: one current message per game, edited in order, and short
ping messages that tell whoever must act.

Real Discord clients notify a user only for a mention in the content of a *new* message, so
game messages never ping anyone (``allowed_mentions`` none: a display name such as
``<@123>`` stays text) and every hand-over is told by a ping message that mentions exactly the
players who must act. A game keeps at most one ping: the previous one is deleted when the next is
posted.

Every message operation of a game runs under the game's lock, so edits reach Discord in the
order they were made, whatever discord.py's retries of a 429 or a 500 do; an edit drawn at an
older state version than the one already shown is dropped. An edit Discord refuses is redrawn
from the committed state a moment later, so no committed move stays unshown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

import discord

from bot.service import Game, GameService, Outcome
from ui.errors import MISSING_PERMISSIONS
from ui.i18n import for_game
from ui.names import Names

log = logging.getLogger("ui.messages")

NO_PINGS: Final = discord.AllowedMentions.none()
REPAIR_DELAYS: Final = (1.0, 3.0, 10.0)
"""Seconds before each attempt to redraw a message whose edit Discord refused."""

Redraw = Callable[[int], Awaitable[None]]
"""``redraw(game_id)``: edit the game's message to show its committed state now."""


def timeout_note(outcome: Outcome, did: str) -> str:
    """Who ran out of time in ``outcome`` (the computer ``did`` something for them: a msgid,
    the whole note then in the game's language).
    """
    tr = for_game(outcome.game)
    names = Names(outcome.game, tr)
    for step in outcome.steps:
        if step.by == "timeout":
            name = names.names[step.player_id]
            return tr("⏰ {name} ran out of time: the computer {did}.",
                      name=discord.utils.escape_markdown(name), did=tr(did))
    return ""


class Shown:
    """A message payload: content, embed, view and files (``files=None`` keeps the message's
    current attachments on an edit; a list replaces them), and the game version it shows.
    """

    def __init__(self, content: str, embed: discord.Embed, view: discord.ui.View | None,
                 files: list[discord.File] | None = None, *, version: int | None = None,
                 pings: Sequence[str] = ()) -> None:
        self.content = content
        self.embed = embed
        self.view = view
        self.files = files
        self.version = version
        self.pings = tuple(pings)
        """Who a *new* message of this payload notifies (Discord ids); edits notify nobody."""

    def edit_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of an edit (game messages never ping)."""
        kw: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view,
                              "allowed_mentions": NO_PINGS}
        if self.files is not None:
            kw["attachments"] = self.files
        return kw


def pings_for(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Allowed mentions that notify exactly these users (Discord ids as text) and nobody else."""
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in user_ids],
                                   roles=False, everyone=False, replied_user=False)


class GameMessages:
    """Edits and posts the messages of every game, in order, one game at a time."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        """Send through ``client``; remember each game's message in ``service``."""
        self.client = client
        self.service = service
        self.redraw: Redraw | None = None
        """Set by the hub: how a refused edit is repaired from the committed state."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._current: dict[int, int] = {}  # game -> its current message id
        self._shown: dict[int, int] = {}  # message -> the game version it shows
        self._pings: dict[int, tuple[int, frozenset[str]]] = {}  # game -> (message, users)
        self._repairs: dict[int, asyncio.Task[None]] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock every message operation of one game runs under."""
        lk = self._locks.get(game_id)
        if lk is None:
            lk = self._locks[game_id] = asyncio.Lock()
        return lk

    def _channel(self, game: Game) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    def message_of(self, game: Game) -> int | None:
        """The game's current message id (the newest known, even before ``game`` was reloaded)."""
        return self._current.get(game.id, game.message_id)

    # ------------------------------------------------------------------ the game's message

    async def edit(self, game: Game, shown: Shown,
                   interaction: discord.Interaction[Any] | None = None, *,
                   strict: bool = False) -> None:
        """Edit the game's current message (through the clicked interaction when it is that
        message). An edit older than what the message shows is dropped. A refused edit is
        redrawn later, or raised with ``strict``.
        """
        async with self.lock(game.id):
            await self._edit(game, shown, interaction, strict=strict)

    async def _edit(self, game: Game, shown: Shown,
                    interaction: discord.Interaction[Any] | None, *,
                    strict: bool = False) -> None:
        msg_id = self.message_of(game)
        if msg_id is None:
            await self._post(game, shown)
            return
        if shown.version is not None and shown.version < self._shown.get(msg_id, -1):
            return  # a newer state is already shown
        try:
            if interaction is not None and interaction.message is not None \
                    and interaction.message.id == msg_id and interaction.response.is_done():
                await interaction.edit_original_response(**shown.edit_kwargs())
            else:
                await self._channel(game).get_partial_message(msg_id).edit(**shown.edit_kwargs())
        except discord.HTTPException as exc:
            if strict:
                raise
            log.warning("game %s: Discord refused the edit of message %s (%s %s): redrawing "
                        "it shortly", game.id, msg_id, exc.status, exc.text)
            self._repair(game.id)
            return
        if shown.version is not None:
            self._shown[msg_id] = shown.version

    async def post(self, game: Game, shown: Shown) -> bool:
        """Post a new game message and make it the game's current one. Returns False (and
        logs) when the channel refuses: the caller keeps using the current message.
        """
        async with self.lock(game.id):
            return await self._post(game, shown)

    async def _post(self, game: Game, shown: Shown) -> bool:
        try:
            extra: dict[str, Any] = {"view": shown.view} if shown.view is not None else {}
            mentions = pings_for(shown.pings) if shown.pings else NO_PINGS
            msg = await self._channel(game).send(
                content=shown.content, embed=shown.embed, files=shown.files or [],
                allowed_mentions=mentions, **extra)
        except discord.Forbidden:
            log.warning("game %s: may not post in channel %s", game.id, game.channel_id)
            return False
        self._current[game.id] = msg.id
        if shown.version is not None:
            self._shown[msg.id] = shown.version
        await self.service.set_message(game.id, msg.id)
        return True

    async def advance(self, game: Game, closing: Shown,
                      make_next: Callable[[], Awaitable[Shown]],
                      interaction: discord.Interaction[Any] | None) -> None:
        """A round ended: close the current message, then build and post the next round's. If
        posting is not allowed, the current message carries on with the next round instead.
        """
        async with self.lock(game.id):
            if self.message_of(game) is None:
                await self._edit(game, await make_next(), interaction)
                return
            await self._edit(game, closing, interaction)
            nxt = await make_next()
            if not await self._post(game, nxt):
                nxt.content = f"⚠️ {for_game(game)(MISSING_PERMISSIONS)}\n{nxt.content}"
                await self._edit(game, nxt, None)

    # ------------------------------------------------------------------ pings

    async def ping(self, game: Game, user_ids: Sequence[str], text: str) -> None:
        """Tell ``user_ids`` (people, by Discord id) by a new message that mentions them; the
        game's previous ping is deleted. Nothing is sent when the same people were the last
        pinged and their ping still stands.
        """
        people = frozenset(u for u in user_ids if u.isdigit())
        async with self.lock(game.id):
            last = self._pings.get(game.id)
            if last is not None and last[1] == people:
                return
            await self._unping(game)
            if not people:
                return
            content = " ".join(f"<@{u}>" for u in user_ids if u in people) + f" {text}"
            try:
                msg = await self._channel(game).send(content=content[:2000],
                                                     allowed_mentions=pings_for(sorted(people)))
            except discord.HTTPException as exc:
                log.warning("game %s: could not post a ping (%s)", game.id, exc.status)
                return
            self._pings[game.id] = (msg.id, people)

    async def unping(self, game: Game) -> None:
        """Delete the game's standing ping, if any."""
        async with self.lock(game.id):
            await self._unping(game)

    async def _unping(self, game: Game) -> None:
        last = self._pings.pop(game.id, None)
        if last is None:
            return
        try:
            await self._channel(game).get_partial_message(last[0]).delete()
        except discord.HTTPException as exc:
            log.info("game %s: could not delete ping %s (%s)", game.id, last[0], exc.status)

    async def announce(self, game: Game, shown: Shown, user_ids: Sequence[str]) -> None:
        """Post a new message that notifies ``user_ids`` (the end of a game): the standing
        ping goes, the announcement stays.
        """
        people = sorted({u for u in user_ids if u.isdigit()})
        async with self.lock(game.id):
            await self._unping(game)
            extra: dict[str, Any] = {"view": shown.view} if shown.view is not None else {}
            await self._channel(game).send(content=shown.content[:2000], embed=shown.embed,
                                           files=shown.files or [],
                                           allowed_mentions=pings_for(people), **extra)

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
                except discord.HTTPException as exc:
                    log.warning("game %s: redraw refused too (%s)", game_id, exc.status)
                except Exception:
                    log.exception("game %s: redraw failed", game_id)
                    return
        finally:
            self._repairs.pop(game_id, None)
