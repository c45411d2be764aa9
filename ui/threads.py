"""A thread per game: the lobby stays in the channel; when the game starts the bot opens a
public thread from the lobby message, named after the game, and the game plays there; its end is
announced in the thread and summed up in one message back in the channel. The thread archives
itself an hour after the game (Discord's auto-archive).

A server's managers choose it for every new game (``/settings threads``); ``/royale new`` and
``/posing new`` choose it for one game. Where the bot may not open a thread (no Create Public
Threads or Send Messages in Threads) or the server has as many active threads as Discord allows
(error 160006), the game plays in the channel and its host is told once why.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

from bot.request_budget import Urgency
from bot.rules.registry import kind_of
from bot.service import Game
from bot.service.lobby import THREAD
from ui.board import PERMISSION_NAMES, Boards, Card, channel_permissions, jump_link
from ui.cards import OVER, layout, note_view, text
from ui.i18n import N_, for_game, for_user

log = logging.getLogger("ui.threads")

ARCHIVE_AFTER_MIN: Final = 60
"""Minutes of quiet after which Discord archives the game's thread (the game is over)."""
MAX_ACTIVE_THREADS: Final = 160006
THREAD_PERMISSIONS: Final = ("create_public_threads", "send_messages_in_threads")
IN_THE_CHANNEL: Final = N_("I couldn't open a thread for this game ({why}): it plays here in "
                           "the channel instead.")
THREAD_LIMIT: Final = N_("the server has as many active threads as Discord allows")
GONE_TO_THREAD: Final = N_("🧵 The game goes on in its thread: {link}")



def wants_thread(game: Game) -> bool:
    """Whether the game was opened to play in a thread."""
    return bool(game.settings.get(THREAD))


async def open_thread(boards: Boards, game: Game,
                      interaction: discord.Interaction[Any] | None = None) -> Game:
    """Move a game that has just started into a new thread of its lobby message, if it asked
    for one and the bot may; return the game as it now is (in the thread, or still here).
    """
    lobby = game.message_id  # a started lobby always has its message
    if not wants_thread(game) or game.parent_channel_id is not None or lobby is None:
        return game
    perms = channel_permissions(boards.client, game)
    missing = [PERMISSION_NAMES[p] for p in THREAD_PERMISSIONS
               if perms is not None and not getattr(perms, p)]
    if missing:
        await _tell_host(interaction, game, ", ".join(f"**{m}**" for m in missing))
        return game
    tr = for_game(game)
    name = tr("{game} · game {id}", game=tr(kind_of(game.kind).title), id=game.id)[:100]
    channel = boards.channel(game)
    try:
        async with boards.budget.spend(Urgency.NOTIFY):
            thread = await channel.get_partial_message(lobby).create_thread(
                name=name, auto_archive_duration=ARCHIVE_AFTER_MIN)
    except discord.HTTPException as exc:
        if getattr(exc, "code", 0) == MAX_ACTIVE_THREADS:
            why = for_user(interaction)(THREAD_LIMIT) if interaction is not None else ""
        else:
            why = f"Discord: {exc.status}"
            log.warning("game %s: could not open a thread (%s %s)", game.id, exc.status,
                        exc.text)
        await _tell_host(interaction, game, why)
        return game
    moved = await boards.service.move_to_thread(game.id, thread.id)
    boards.forget(game.id)  # its board is now the one the thread gets
    note = Card(note_view(tr(GONE_TO_THREAD, link=f"<#{thread.id}>")), [], version=game.version)
    try:  # the lobby says where the game went (its buttons go)
        await boards.edit_message(game, lobby, note, interaction)
    except discord.HTTPException as exc:
        log.info("game %s: the lobby was not closed (%s)", game.id, exc.status)
    return moved


async def _tell_host(interaction: discord.Interaction[Any] | None, game: Game, why: str
                     ) -> None:
    if interaction is None:
        return
    text = for_user(interaction)(IN_THE_CHANNEL, why=why)
    try:
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.info("game %s: could not tell the host about the thread (%s)", game.id,
                 exc.status)


def result_in_channel(game: Game, standings: str, message_id: int | None) -> Card:
    """The one message the lobby's channel gets when a game in its thread ends: the
    standings (the picture stays in the thread) and a link to the thread's announcement.
    """
    tr = for_game(game)
    link = jump_link(game, message_id) if message_id else f"<#{game.channel_id}>"
    head = tr("🏁 {game} game {id} is over: the whole game is in its thread. {link}",
              game=tr(kind_of(game.kind).title), id=game.id, link=link)
    return Card(layout(OVER, text(head), text(standings[:3000])), [])
