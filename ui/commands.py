"""The slash commands every game kind shares (new, join, leave, start, status, cancel, log),
written once; each game's cog calls them with its kind.
"""

from __future__ import annotations

import io
from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.errors import Term
from bot.rules.gamelog import dumps_line
from bot.rules.registry import kind_of
from bot.service import Game, NewSettings
from ui.answers import Reply
from ui.errors import MISSING_PERMISSIONS
from ui.hub import hub_of, person, place_of
from ui.i18n import N_, for_game, for_user
from ui.lobby import cancelled, lobby_embed, lobby_shown, redraw_lobby
from ui.managers import can_manage_server, is_manager
from ui.shown import jump_link
from ui.threads import open_thread

ATTACHMENT_LIMIT: Final = 10 * 1024 * 1024
"""Discord's attachment limit for bots without boosts."""
STATUS_WORDS: Final = {"lobby": N_("lobby"), "active": N_("active"),
                       "finished": N_("finished"), "cancelled": N_("cancelled")}
"""A game's status, as the log command names it."""


def bot_permissions_ok(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post game messages in the interaction's channel."""
    perms = interaction.app_permissions
    return bool(perms.view_channel and perms.send_messages and perms.embed_links
                and perms.attach_files)


async def _open_game(interaction: discord.Interaction[Any], kind: str) -> Game:
    return await hub_of(interaction.client).service.game_in_channel(
        place_of(interaction).channel_id, kind)


async def new_game(interaction: discord.Interaction[Any], kind: str,
                   settings: NewSettings) -> None:
    """Open a lobby in this channel and post its message: the command's answer when the
    database answered in time, else a message in the channel (the command's deferral then
    says where it is). A lobby that can be shown nowhere is cancelled: the channel stays free.
    """
    place = place_of(interaction)
    if not bot_permissions_ok(interaction):
        raise UserError(MISSING_PERMISSIONS)
    hub = hub_of(interaction.client)
    reply = await Reply.begin(interaction, hub.lateness.judge(interaction))
    try:
        game = await hub.service.lobbies.new_lobby(kind=kind, place=place,
                                                   host=person(interaction.user),
                                                   settings=settings)
        shown = lobby_shown(game, hub.games[kind].component)
        message_id = await reply.public(**shown.send_kwargs())
        if message_id is not None:
            await hub.service.set_message(game.id, message_id)
            return
        if not await hub.messages.post(game, shown):
            await hub.service.lobbies.cancel(game.id, person(interaction.user), manager=True)
            hub.upkeep.ended(game)
            raise UserError(MISSING_PERMISSIONS)
        tr = for_user(interaction)
        await reply.private(tr("Your game is open: {link}",
                               link=jump_link(game, hub.messages.message_of(game))))
    finally:
        reply.done()


async def join(interaction: discord.Interaction[Any], kind: str) -> None:
    """Join the channel's lobby."""
    hub = hub_of(interaction.client)
    reply = await Reply.begin(interaction, hub.lateness.judge(interaction))
    try:
        game = await _open_game(interaction, kind)
        game = await hub.service.lobbies.join(game.id, person(interaction.user), loaded=game)
        tr = for_user(interaction)
        await reply.private(
            tr.ngettext("You joined the {game} game ({n} player).",
                        "You joined the {game} game ({n} players).", len(game.players),
                        game=tr(kind_of(kind).title)))
    finally:
        reply.done()
    await redraw_lobby(hub, game)


async def leave(interaction: discord.Interaction[Any], kind: str) -> None:
    """Leave the channel's lobby."""
    hub = hub_of(interaction.client)
    reply = await Reply.begin(interaction, hub.lateness.judge(interaction))
    try:
        game = await _open_game(interaction, kind)
        game = await hub.service.lobbies.leave(game.id, person(interaction.user), loaded=game)
        tr = for_user(interaction)
        await reply.private(tr("You left the game."))
    finally:
        reply.done()
    await redraw_lobby(hub, game)


async def start(interaction: discord.Interaction[Any], kind: str) -> None:
    """Start the channel's game (the host). Once it is started its board is shown whatever
    happens to the command's answer.
    """
    hub = hub_of(interaction.client)
    reply = await Reply.begin(interaction, hub.lateness.judge(interaction))
    try:
        game = await _open_game(interaction, kind)
        outcome = await hub.service.start(game.id, person(interaction.user), loaded=game)
        tr = for_user(interaction)
        await reply.private(tr("The game is on! Decisions are made on the game message."))
    finally:
        reply.done()
    outcome.game = await open_thread(hub, outcome.game, interaction)
    await hub.presenter(kind).show(outcome, interaction)


async def status(interaction: discord.Interaction[Any], kind: str) -> None:
    """The channel's game as it stands, privately, with a link to its message."""
    hub = hub_of(interaction.client)
    game = await _open_game(interaction, kind)
    tr = for_user(interaction)
    if game.status == "lobby":
        await interaction.response.send_message(embed=lobby_embed(game, tr), ephemeral=True)
        return
    shown = await hub.presenter(kind).current(game, tr=tr)
    link = ""
    if game.message_id:
        jump = tr("Jump to the game")
        link = (f"\n[{jump}](https://discord.com/channels/{game.guild_id}/"
                f"{game.channel_id}/{game.message_id})")
    hint = "\n" + tr("Lost the game's message? /{kind} board brings it to the bottom of the "
                     "channel.", kind=kind)
    extra: dict[str, Any] = {"embed": shown.embed} if shown.embed is not None else {}
    await interaction.response.send_message(
        content=(shown.content + link + hint).strip()[:2000], ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(), **extra)


async def cancel(interaction: discord.Interaction[Any], kind: str, game_id: int | None = None
                 ) -> None:
    """Cancel the channel's game, or game ``game_id`` elsewhere in this server (its host, a
    manager of this channel for its game, or a manager of the server for any game here).
    """
    hub = hub_of(interaction.client)
    place = place_of(interaction)
    who = person(interaction.user)
    reply = await Reply.begin(interaction, hub.lateness.judge(interaction))
    try:
        if game_id is None:
            game = await _open_game(interaction, kind)
            manager = is_manager(interaction)
        else:
            found = await hub.service.get_game(game_id)
            if found is None or found.guild_id != place.guild_id or found.kind != kind:
                raise UserError("There is no {game} game {id} in this server.",
                                game=Term(kind_of(kind).title), id=game_id)
            game = found
            manager = can_manage_server(interaction) or (
                game.channel_id == place.channel_id and is_manager(interaction))
        game = await hub.service.lobbies.cancel(game.id, who, manager=manager,
                                                guild_id=place.guild_id)
        tr = for_game(game)
        said = tr("{game} game {id} cancelled: it won't count on the leaderboard.",
                  game=tr(kind_of(kind).title), id=game.id)
        if await reply.public(content=said,
                              allowed_mentions=discord.AllowedMentions.none()) is None:
            await reply.private(said)
    finally:
        reply.done()
    await cancelled(hub, game, who.name)


async def board(interaction: discord.Interaction[Any], kind: str) -> None:
    """Bring the channel's game down to the bottom of the channel (anyone here)."""
    hub = hub_of(interaction.client)
    game = await _open_game(interaction, kind)
    tr = for_user(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if await hub.upkeep.bring_down(game, interaction):
        await interaction.followup.send(tr("Here is the game, at the bottom of the channel."),
                                        ephemeral=True)


async def resign(interaction: discord.Interaction[Any], kind: str) -> None:
    """Hand your seat in the channel's game to the computer for the rest of it."""
    hub = hub_of(interaction.client)
    game = await _open_game(interaction, kind)
    if game.status != "active":
        raise UserError("The game hasn't started yet: leave the lobby instead (/{kind} leave).",
                        kind=kind)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await hub.service.resign(game.id, interaction.user.id)
    await interaction.followup.send(
        for_user(interaction)("You resigned: the computer plays your seat for the rest of "
                              "the game, and the game won't count for you."), ephemeral=True)
    await hub.presenter(kind).show(outcome, None)


async def send_log(interaction: discord.Interaction[Any], kind: str) -> None:
    """The JSON Lines game log of the channel's current or most recent game, as a file. While
    the game is open the seed is left out: it would predict every roll to come.
    """
    hub = hub_of(interaction.client)
    log = await hub.service.game_log(place_of(interaction).channel_id, kind)
    await interaction.response.defer(ephemeral=True, thinking=True)
    tr = for_user(interaction)
    data = "".join(dumps_line(e) for e in log.events).encode("utf-8")
    if len(data) > ATTACHMENT_LIMIT:
        raise UserError("This game's log is too large to attach.")
    game = log.game
    note = "" if log.complete else " " + tr("The game is still on: the seed is left out until "
                                            "it ends (it would predict every roll to come).")
    status = tr(STATUS_WORDS.get(game.status, game.status))
    await interaction.followup.send(
        tr.ngettext("Game {id} ({status}): {n} event.", "Game {id} ({status}): {n} events.",
                    len(log.events), id=game.id, status=status) + note,
        file=discord.File(io.BytesIO(data), filename=f"{kind}-game-{game.id}.jsonl"),
        ephemeral=True)
