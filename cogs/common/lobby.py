"""The lobby message both games share: Join / Leave / Add computer / Start / Cancel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.service import GAME_TITLES, SEATS, Person
from cogs.common.components import Click, GameButton
from storage import GameRow

if TYPE_CHECKING:
    from bot.client import PandaBot

LOBBY_COLOR = 0x3498DB


def person(user: discord.abc.User) -> Person:
    """The service's view of a Discord user."""
    return Person(user.id, getattr(user, "display_name", None) or user.name)


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user can manage this channel (may cancel anybody's game)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


def lobby_embed(game: GameRow) -> discord.Embed:
    low, high = SEATS[game.kind]
    title = GAME_TITLES[game.kind]
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if p.is_bot else ''}{p.display_name}"
        f"{' (host)' if p.player_id == str(game.host_id) else ''}"
        for i, p in enumerate(game.players)
    )
    lines = [f"Players ({len(game.players)}/{high}):", seats]
    exp = game.settings.get("expansions") or []
    if exp:
        lines.append("Mayhem: " + ", ".join(e.title() for e in exp))
    lines.append(f"Turn timeout: {game.settings.get('turn_timeout', 120)} s, then the computer "
                 "plays that turn.")
    need = "" if len(game.players) >= low else f" Needs at least {low} player(s) to start."
    lines.append(f"The host starts the game when everyone is in.{need}")
    return discord.Embed(title=f"{title}: new game", description="\n".join(lines),
                         color=LOBBY_COLOR).set_footer(text=f"Game {game.id}")


def lobby_view(game: GameRow) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    g = game.id
    full = len(game.players) >= SEATS[game.kind][1]
    view.add_item(GameButton(Click(g, 0, "join"), label="Join", emoji="🐼",
                             style=discord.ButtonStyle.success, disabled=full))
    view.add_item(GameButton(Click(g, 0, "leave"), label="Leave"))
    view.add_item(GameButton(Click(g, 0, "cpu"), label="Add computer player", emoji="🤖",
                             disabled=full))
    view.add_item(GameButton(Click(g, 0, "start"), label="Start", emoji="▶️",
                             style=discord.ButtonStyle.primary))
    view.add_item(GameButton(Click(g, 0, "cancel"), label="Cancel",
                             style=discord.ButtonStyle.danger))
    return view


def closed_lobby_embed(game: GameRow, why: str) -> discord.Embed:
    return discord.Embed(title=f"{GAME_TITLES[game.kind]}: {why}", color=0x95A5A6,
                         description=", ".join(p.display_name for p in game.players)
                         ).set_footer(text=f"Game {game.id}")


async def on_lobby_click(interaction: discord.Interaction[Any], click: Click,
                         values: list[str]) -> None:
    """Join / Leave / Add computer / Cancel edit the lobby; Start hands over to the game."""
    bot: PandaBot = interaction.client
    service = bot.service
    who = person(interaction.user)
    if click.verb == "start":
        outcome = await service.start(click.game_id, who)
        await bot.presenter(outcome.game.kind).show(outcome, interaction)
        return
    if click.verb == "cancel":
        game = await service.cancel(click.game_id, who, manager=is_manager(interaction))
        await interaction.response.edit_message(
            content=f"Cancelled by {who.name}.", embed=closed_lobby_embed(game, "cancelled"),
            view=None)
        return
    if click.verb == "join":
        game = await service.join(click.game_id, who)
    elif click.verb == "leave":
        game = await service.leave(click.game_id, who)
    else:
        game = await service.add_computer(click.game_id, who)
    await interaction.response.edit_message(embed=lobby_embed(game), view=lobby_view(game))


LOBBY_VERBS = ("join", "leave", "cpu", "start", "cancel")
