"""A message as the bot shows it (:class:`Shown`: content, embed, buttons, pictures, the game
version it shows, who a new copy of it pings), and the few things every game message shares:
mentions that notify exactly the players concerned, a link to a message, the note of a turn
played by the computer for a late player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.service import Game, Outcome
from ui.i18n import for_game
from ui.names import Names

NO_PINGS: Final = discord.AllowedMentions.none()


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

    def __init__(self, content: str, embed: discord.Embed | None, view: discord.ui.View | None,
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
        kw: dict[str, Any] = {"content": self.content[:2000], "embed": self.embed,
                              "view": self.view, "allowed_mentions": NO_PINGS}
        if self.files is not None:
            kw["attachments"] = self.files
        return kw

    def send_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of a new message (it pings :attr:`pings` only)."""
        kw: dict[str, Any] = {"content": self.content[:2000], "files": self.files or [],
                              "allowed_mentions": pings_for(self.pings) if self.pings
                              else NO_PINGS}
        if self.embed is not None:
            kw["embed"] = self.embed
        if self.view is not None:
            kw["view"] = self.view
        return kw

    def fitted(self, perms: discord.Permissions | None) -> Shown:
        """This payload as the bot may send it with ``perms``: without Embed Links the embed
        becomes text; without Attach Files the pictures stay out.
        """
        if perms is None or (perms.embed_links and perms.attach_files):
            return self
        embed = self.embed.copy() if self.embed is not None else None
        files = self.files
        content = self.content
        if not perms.attach_files:
            files = None if files is None else []
            if embed is not None and embed.image:
                embed.set_image(url=None)
        if not perms.embed_links and embed is not None:
            room = CONTENT_LIMIT - (len(content) + 1 if content else 0)
            content = "\n".join(part for part in (content, embed_text(embed, room)) if part)
            embed = None
        return Shown(content[:CONTENT_LIMIT], embed, self.view, files, version=self.version,
                     pings=self.pings)


CONTENT_LIMIT: Final = 2000
"""Characters of a message's content at most (Discord's limit)."""
FIELD_LIMIT: Final = 1024
"""Characters of an embed field's value at most (Discord's limit)."""
MORE: Final = "\u200b"
"""The name of a field that goes on with the one before it (it shows as nothing)."""


def embed_text(embed: discord.Embed, room: int = CONTENT_LIMIT) -> str:
    """An embed as plain message text (for a channel where the bot may not embed), in at most
    ``room`` characters: what does not fit goes whole, the footer first, then the
    description's first lines (the oldest happenings: "…" in their place), then fields from
    the last; a line or a code block is never cut in two.
    """
    title = [f"**{embed.title}**"] if embed.title else []
    description = embed.description.split("\n") if embed.description else []
    fields = [f"{f.value}" if f.name == MORE else f"**{f.name}**\n{f.value}"
              for f in embed.fields]
    footer = [f"-# {embed.footer.text}"] if embed.footer and embed.footer.text else []

    def text() -> str:
        return "\n".join([*title, *description, *fields, *footer])

    if len(text()) > room:
        footer = []
    if len(text()) > room and "```" in (embed.description or ""):
        description = []  # a code block goes whole
    kept = description
    while len(text()) > room and kept:
        kept = kept[1:]
        description = ["…", *kept] if kept else []
    while len(text()) > room and fields:
        fields = fields[:-1]
        if fields:
            fields[-1] += "\n…"
    return text()[:room]


def add_line_fields(embed: discord.Embed, name: str, text: str) -> None:
    """Add ``text`` to ``embed`` as a field named ``name``, going on in further fields (named
    :data:`MORE`) where it is longer than a field holds: cut between lines, never inside one.
    """
    value = ""
    for line in text.split("\n"):
        line = line[:FIELD_LIMIT]
        if value and len(value) + 1 + len(line) > FIELD_LIMIT:
            embed.add_field(name=name, value=value, inline=False)
            name, value = MORE, line
        else:
            value = f"{value}\n{line}" if value else line
    embed.add_field(name=name, value=value or "-", inline=False)


def pings_for(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Allowed mentions that notify exactly these users (Discord ids as text) and nobody else."""
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in user_ids],
                                   roles=False, everyone=False, replied_user=False)


def jump_link(game: Game, message_id: int | None) -> str:
    """A link to one of the game's messages."""
    if message_id is None:
        return ""
    return f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{message_id}"
