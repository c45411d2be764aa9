"""What every game card is made of: Components V2 blocks (a container of text, a picture shown
full width, rows of buttons), the games' own dice as application emojis, and the few notes every
kind writes the same way (a turn the computer played for a late player, a seat it took over).

Discord shows a Components V2 message as its components alone (no content, no embed): the
Markdown of :class:`discord.ui.TextDisplay` blocks, a :class:`discord.ui.MediaGallery` whose
picture is an attachment of the message, within :data:`COMPONENT_LIMIT` and :data:`TEXT_LIMIT`.

Application emojis (:class:`Emojis`) are drawn by :mod:`pictures.emoji` and created once, when
the bot starts, where missing or changed (an emoji's name carries its image's fingerprint, so
a changed drawing is a new name and the old one goes); a die then shows as its own emoji, a
d12 never like a d6. Where they are not (yet) there, or the bot may not use external emojis in
the channel, a coloured circle and the face's number stand in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any, Final

import discord

from bot.request_budget import RequestBudget, Urgency
from bot.service import Game, Outcome
from bot.service.lobby import HOST_PAUSE, by_app
from pictures.emoji import emoji_set, fingerprint
from ui.i18n import N_, Tr, for_game
from ui.names import Names, isolated, person_name, safe

log = logging.getLogger("ui.cards")

TEXT_LIMIT: Final = 4000
"""Characters of text a Components V2 message holds in all (Discord's limit)."""
COMPONENT_LIMIT: Final = 40
"""Components a message holds in all, nested ones counted (Discord's limit)."""
PLAYING: Final = 0x2ECC71
OVER: Final = 0xF1C40F
LOBBY: Final = 0x3498DB
CLOSED: Final = 0x95A5A6

COLOR_EMOJI: Final = {"yellow": "🟡", "purple": "🟣", "blue": "🔵", "red": "🔴", "green": "🟢",
                      "clear": "⚪", "pink": "🌸"}
"""A die's colour where its own emoji cannot be shown."""
TOOK_OVER: Final = N_("🤖 {name} left the server: the computer plays their seat for the rest "
                      "of the game (unrated).")
RESIGNED: Final = N_("🏳️ {name} resigned: the computer plays their seat for the rest of the "
                     "game (unrated).")
FORGOTTEN: Final = N_("🤖 A player asked the bot to forget them: the computer plays the seat of "
                      "{name} for the rest of the game (unrated).")
STAND_IN_NOTES: Final = {"resigned": RESIGNED, "forgotten": FORGOTTEN}


def text(content: str) -> discord.ui.TextDisplay[Any]:
    """A block of Markdown text."""
    return discord.ui.TextDisplay(content)


def picture(filename: str, description: str = "") -> discord.ui.MediaGallery[Any]:
    """An attached picture shown full width, described in words for screen readers."""
    return discord.ui.MediaGallery(discord.MediaGalleryItem(
        f"attachment://{filename}", description=description[:1024] or None))


def row(*items: discord.ui.Item[Any]) -> discord.ui.ActionRow[Any]:
    """One row of buttons (at most five) or one select."""
    action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for item in items:
        action_row.add_item(item)
    return action_row


def rows(items: Sequence[discord.ui.Item[Any]], per_row: int = 5
         ) -> list[discord.ui.ActionRow[Any]]:
    """Buttons in as few rows as they need."""
    return [row(*items[i:i + per_row]) for i in range(0, len(items), per_row)]


def separator() -> discord.ui.Separator[Any]:
    """A thin line between two parts of a card."""
    return discord.ui.Separator()


def layout(accent: int, *parts: discord.ui.Item[Any] | None,
           after: Iterable[discord.ui.Item[Any]] = ()) -> discord.ui.LayoutView:
    """A card: ``parts`` in one container with an ``accent`` colour (None parts left out),
    then ``after`` outside it (rows of secondary buttons).
    """
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=accent)
    for part in parts:
        if part is not None:
            container.add_item(part)
    view.add_item(container)
    for item in after:
        view.add_item(item)
    return view


def line_view(content: str) -> discord.ui.LayoutView:
    """A line or two of text with no card around it (a finished round in the channel)."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(text(content))
    return view


def note_view(content: str, accent: int = CLOSED) -> discord.ui.LayoutView:
    """A card of one line (an old board that points to the new one, a closed lobby)."""
    return layout(accent, text(content))


def fits(view: discord.ui.LayoutView) -> bool:
    """Whether a card is within Discord's limits (components and text)."""
    count = 0
    chars = 0
    pending: list[Any] = list(view.children)
    while pending:
        item = pending.pop()
        count += 1
        if isinstance(item, discord.ui.TextDisplay):
            chars += len(item.content)
        pending.extend(getattr(item, "children", []) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            pending.append(accessory)
    return count <= COMPONENT_LIMIT and chars <= TEXT_LIMIT


def countdown(game: Game, tr: Tr) -> str:
    """The game's deadline as Discord's live countdown in every reader's clock ("⏱ in 2
    minutes"), or that its host paused it; empty when no deadline runs.
    """
    if game.paused == HOST_PAUSE:
        return tr("⏸ paused by the host")
    return "" if game.deadline_ms is None else f"⏱ <t:{game.deadline_ms // 1000}:R>"


def app_hint(game: Game, tr: Tr) -> list[str]:
    """The line of a board played through the app: it answers clicks only, and how to wake a
    game that stalled (none elsewhere).
    """
    if not by_app(game):
        return []
    return ["-# " + tr("Played through the app: it only answers clicks. If the game stalls, "
                       "/{kind} board wakes it.", kind=game.kind)]


def timeout_note(outcome: Outcome, did: str) -> str:
    """Who ran out of time in ``outcome`` (the computer ``did`` something for them: a msgid,
    the whole note then in the game's language).
    """
    tr = for_game(outcome.game)
    names = Names(outcome.game, tr)
    for step in outcome.steps:
        if step.by == "timeout":
            return tr("⏰ {name} ran out of time: the computer {did}.",
                      name=discord.utils.escape_markdown(names.names[step.player_id]),
                      did=tr(did))
    return ""


def stand_in_note(outcome: Outcome) -> str:
    """The announcement of the seats the computer took over in ``outcome`` (or "")."""
    if not outcome.stood_in:
        return ""
    tr = for_game(outcome.game)
    lines = []
    for seat in outcome.stood_in:
        player = outcome.game.players[seat]
        note = STAND_IN_NOTES.get(player.stand_in or "", TOOK_OVER)
        name = person_name(tr, player.player_id, player.display_name, player.is_bot)
        lines.append(tr(note, name=safe(isolated(name))))
    return "\n".join(lines)


class Emojis:
    """The games' dice as this application's emojis (see the module's docstring)."""

    def __init__(self) -> None:
        self._ids: dict[str, discord.PartialEmoji] = {}
        """Each die's emoji, by its name in :mod:`pictures.emoji`."""

    def __len__(self) -> int:
        return len(self._ids)

    def get(self, name: str) -> discord.PartialEmoji | None:
        """The emoji of a die by its name in :mod:`pictures.emoji`, if it was created."""
        return self._ids.get(name)

    def markup(self, name: str, fallback: str) -> str:
        """The emoji as message text, else ``fallback``."""
        emoji = self._ids.get(name)
        return str(emoji) if emoji is not None else fallback

    @staticmethod
    def wanted() -> dict[str, tuple[str, bytes]]:
        """The application emojis the drawings make: full name -> (die name, PNG)."""
        return {f"{name}_{fingerprint(png)[:8]}": (name, png) for name, png in emoji_set().items()}

    async def sync(self, client: discord.Client, budget: RequestBudget) -> None:
        """Make the application's emojis those of the drawings (a restart creates none); each
        request is spent from ``budget`` as tidying.
        """
        wanted = await asyncio.to_thread(self.wanted)
        try:
            async with budget.spend(Urgency.TIDY):
                listed = await client.fetch_application_emojis()
            existing = {e.name: e for e in listed}
        except discord.HTTPException as exc:
            log.warning("could not list the application's emojis (%s): dice as circles",
                        exc.status)
            return
        for full, emoji in existing.items():
            if full in wanted:
                self._ids[wanted[full][0]] = discord.PartialEmoji(name=full, id=emoji.id)
            elif full.startswith(("pr_", "pp_")):
                try:
                    async with budget.spend(Urgency.TIDY):
                        await emoji.delete()
                except discord.HTTPException as exc:
                    log.info("could not delete the old emoji %s (%s)", full, exc.status)
        created = 0
        for full, (name, png) in wanted.items():
            if name in self._ids:
                continue
            try:
                async with budget.spend(Urgency.TIDY):
                    emoji = await client.create_application_emoji(name=full, image=png)
            except discord.HTTPException as exc:
                log.warning("could not create the emoji %s (%s): the rest as circles", full,
                            exc.status)
                return
            self._ids[name] = discord.PartialEmoji(name=full, id=emoji.id)
            created += 1
        if created:
            log.info("%d dice emojis created, %d in all", created, len(self._ids))
