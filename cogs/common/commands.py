"""The slash commands both games share (new, join, leave, start, status, cancel, log),
written once and called by each game's cog with its kind."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import NoGameHere, UserError
from bot.rules.gamelog import dumps_line
from bot.service import GAME_TITLES
from cogs.common.lobby import closed_lobby_embed, is_manager, lobby_embed, lobby_view, person
from cogs.common.messages import GameMessages, Shown
from cogs.common.replies import MISSING_PERMISSIONS, bot_permissions_ok
from storage import GameRow

if TYPE_CHECKING:
    from bot.client import PandaBot

# Discord's attachment limit for bots without boosts.
ATTACHMENT_LIMIT = 10 * 1024 * 1024


def _bot(interaction: discord.Interaction[Any]) -> PandaBot:
    return interaction.client  # type: ignore[no-any-return]


def _where(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("Games are played in server channels, not in direct messages.")
    return interaction.guild_id, interaction.channel_id


async def new_game(interaction: discord.Interaction[Any], kind: str,
                   settings: dict[str, Any]) -> None:
    """Open a lobby in this channel and post its message."""
    guild_id, channel_id = _where(interaction)
    if not bot_permissions_ok(interaction):
        raise UserError(MISSING_PERMISSIONS)
    bot = _bot(interaction)
    game = await bot.service.new_lobby(kind=kind, guild_id=guild_id, channel_id=channel_id,
                                       host=person(interaction.user), settings=settings)
    sent = await interaction.response.send_message(embed=lobby_embed(game),
                                                   view=lobby_view(game))
    message_id = sent.message_id if sent is not None else None
    if message_id is None:  # pragma: no cover - Discord always returns the created message
        message_id = (await interaction.original_response()).id
    await bot.service.db.set_message(game.id, message_id)


async def _open_game(interaction: discord.Interaction[Any], kind: str) -> GameRow:
    _, channel_id = _where(interaction)
    return await _bot(interaction).service.game_in_channel(channel_id, kind)


async def join(interaction: discord.Interaction[Any], kind: str) -> None:
    game = await _open_game(interaction, kind)
    game = await _bot(interaction).service.join(game.id, person(interaction.user))
    await interaction.response.send_message(
        f"You joined the {GAME_TITLES[kind]} game ({len(game.players)} players).",
        ephemeral=True)
    await GameMessages(_bot(interaction)).edit(game, Shown("", lobby_embed(game),
                                                            lobby_view(game)))


async def leave(interaction: discord.Interaction[Any], kind: str) -> None:
    game = await _open_game(interaction, kind)
    game = await _bot(interaction).service.leave(game.id, person(interaction.user))
    await interaction.response.send_message("You left the game.", ephemeral=True)
    await GameMessages(_bot(interaction)).edit(game, Shown("", lobby_embed(game),
                                                            lobby_view(game)))


async def start(interaction: discord.Interaction[Any], kind: str) -> None:
    bot = _bot(interaction)
    game = await _open_game(interaction, kind)
    outcome = await bot.service.start(game.id, person(interaction.user))
    await interaction.response.send_message("The game is on! Decisions are made on the game "
                                            "message.", ephemeral=True)
    await bot.presenter(kind).show(outcome, None)


async def status(interaction: discord.Interaction[Any], kind: str) -> None:
    """The channel's game as it stands, privately, with a link to its message."""
    bot = _bot(interaction)
    _, channel_id = _where(interaction)
    game = await bot.service.db.open_game_in_channel(channel_id)
    if game is None or game.kind != kind:
        raise NoGameHere(f"There is no {GAME_TITLES[kind]} game in this channel: start one "
                         f"with /{kind} new.")
    if game.status == "lobby":
        await interaction.response.send_message(embed=lobby_embed(game), ephemeral=True)
        return
    shown = await bot.presenter(kind).current(game)
    link = ""
    if game.message_id:
        link = (f"\n[Jump to the game](https://discord.com/channels/{game.guild_id}/"
                f"{game.channel_id}/{game.message_id})")
    await interaction.response.send_message(content=(shown.content + link).strip()[:2000],
                                            embed=shown.embed, ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())


async def cancel(interaction: discord.Interaction[Any], kind: str) -> None:
    bot = _bot(interaction)
    game = await _open_game(interaction, kind)
    game = await bot.service.cancel(game.id, person(interaction.user),
                                    manager=is_manager(interaction))
    await interaction.response.send_message(
        f"{GAME_TITLES[kind]} game {game.id} cancelled: it won't count on the leaderboard.")
    await GameMessages(bot).edit(game, Shown(f"Cancelled by {person(interaction.user).name}.",
                                             closed_lobby_embed(game, "cancelled"), None))


async def send_log(interaction: discord.Interaction[Any], kind: str) -> None:
    """The JSON Lines game log of the channel's current or most recent game, as a file."""
    bot = _bot(interaction)
    _, channel_id = _where(interaction)
    game = await bot.service.db.latest_game_in_channel(channel_id, kind)
    if game is None or game.state is None:
        raise NoGameHere(f"No {GAME_TITLES[kind]} game has been played in this channel yet.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    events = await bot.service.db.game_events(game.id)
    data = "".join(dumps_line(e) for e in events).encode("utf-8")
    if len(data) > ATTACHMENT_LIMIT:
        raise UserError("This game's log is too large to attach.")
    name = f"{kind}-game-{game.id}.jsonl"
    await interaction.followup.send(
        f"Game {game.id} ({game.status}): {len(events)} events.",
        file=discord.File(io.BytesIO(data), filename=name), ephemeral=True)
