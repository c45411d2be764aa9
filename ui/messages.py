"""Showing a game's message: edit it in place (one request per decision), post a new one when
a round starts, and carry on in the old message if the bot may not post in the channel.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.service import Game, GameService, Outcome
from ui.errors import MISSING_PERMISSIONS

log = logging.getLogger("ui.messages")

MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)


def timeout_note(outcome: Outcome, did: str) -> str:
    """Who ran out of time in ``outcome`` (the computer ``did`` something for them)."""
    for step in outcome.steps:
        if step.by == "timeout":
            name = next(p.display_name for p in outcome.game.players
                        if p.player_id == step.player_id)
            return f"⏰ {name} ran out of time: the computer {did}."
    return ""


class Shown:
    """A message payload: content, embed, view and files (``files=None`` keeps the message's
    current attachments on an edit; a list replaces them).
    """

    def __init__(self, content: str, embed: discord.Embed, view: discord.ui.View | None,
                 files: list[discord.File] | None = None) -> None:
        self.content = content
        self.embed = embed
        self.view = view
        self.files = files

    def edit_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view,
                              "allowed_mentions": MENTIONS}
        if self.files is not None:
            kw["attachments"] = self.files
        return kw


class GameMessages:
    """Edits and posts one game's messages."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        """Send through ``client``; remember each game's message in ``service``."""
        self.client = client
        self.service = service

    def _channel(self, game: Game) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def edit(self, game: Game, shown: Shown,
                   interaction: discord.Interaction[Any] | None = None) -> None:
        """Edit the game's current message: through the interaction when it was clicked on
        that message (one request), otherwise by id.
        """
        msg_id = game.message_id
        if interaction is not None and not interaction.response.is_done() \
                and interaction.message is not None \
                and (msg_id is None or interaction.message.id == msg_id):
            await interaction.response.edit_message(**shown.edit_kwargs())
            if msg_id is None:
                await self.service.set_message(game.id, interaction.message.id)
            return
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()  # the click was on another message
        if msg_id is None:
            await self.post(game, shown)
            return
        partial = self._channel(game).get_partial_message(msg_id)
        await partial.edit(**shown.edit_kwargs())

    async def post(self, game: Game, shown: Shown) -> bool:
        """Post a new game message and make it the game's current one. Returns False (and
        logs) when the channel refuses: the caller keeps using the current message.
        """
        try:
            extra: dict[str, Any] = {"view": shown.view} if shown.view is not None else {}
            msg = await self._channel(game).send(
                content=shown.content, embed=shown.embed, files=shown.files or [],
                allowed_mentions=MENTIONS, **extra)
        except discord.Forbidden:
            log.warning("game %s: may not post in channel %s", game.id, game.channel_id)
            return False
        await self.service.set_message(game.id, msg.id)
        return True

    async def advance(self, game: Game, closing: Shown,
                      make_next: Callable[[], Awaitable[Shown]],
                      interaction: discord.Interaction[Any] | None) -> None:
        """A round ended: close the current message (answering the click at once), then build
        and post the next round's (pictures may take a while). If posting is not allowed, the
        current message carries on with the next round instead.
        """
        if game.message_id is None:
            await self.edit(game, await make_next(), interaction)
            return
        await self.edit(game, closing, interaction)
        nxt = await make_next()
        if not await self.post(game, nxt):
            nxt.content = f"⚠️ {MISSING_PERMISSIONS}\n{nxt.content}"
            await self.edit(game, nxt)
