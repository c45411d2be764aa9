"""The lobby message every game kind shares: Join / Leave / Add computer / Start / Cancel."""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.rules.levels import EASY, HARD, LEVELS, NORMAL
from bot.rules.registry import kind_of
from bot.service import Game
from ui.clicks import Click
from ui.hub import ClickContext, ComponentMaker, Hub, VerbTable
from ui.messages import Shown

COMPUTER_LABELS: Final = {EASY: "Add Easy computer", NORMAL: "Add Normal computer",
                          HARD: "Add Hard computer"}
"""The label of the button that seats a computer player of each level."""
COMPUTER_HELP: Final = ("Computer players: Easy plays at random, Normal plays a sound plan, "
                        "Hard looks ahead and is hard to beat.")
LOBBY_COLOR: Final = 0x3498DB
CLOSED_COLOR: Final = 0x95A5A6


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user can manage this channel (may cancel anybody's game)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


def lobby_embed(game: Game) -> discord.Embed:
    """Who sits where, the options, and what the host does next."""
    kind = kind_of(game.kind)
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if p.is_bot else ''}{discord.utils.escape_markdown(p.display_name)}"
        f"{' (host)' if p.player_id == str(game.host_id) else ''}"
        for i, p in enumerate(game.players)
    )
    lines = [f"Players ({len(game.players)}/{kind.max_players}):", seats, ""]  # ends the list
    exp = game.settings.get("expansions") or []
    if exp:
        lines.append("Mayhem: " + ", ".join(e.title() for e in exp))
    lines.append(COMPUTER_HELP)
    lines.append(f"Turn timeout: {game.settings.get('turn_timeout', 120)} s, then the computer "
                 "plays that turn.")
    need = ("" if len(game.players) >= kind.min_players
            else f" Needs at least {kind.min_players} player(s) to start.")
    lines.append(f"The host starts the game when everyone is in.{need}")
    return discord.Embed(title=f"{kind.title}: new game", description="\n".join(lines),
                         color=LOBBY_COLOR).set_footer(text=f"Game {game.id}")


def lobby_view(game: Game, component: ComponentMaker) -> discord.ui.View:
    """The lobby's buttons (made with the game kind's component class)."""
    view = discord.ui.View(timeout=None)
    g = game.id
    full = len(game.players) >= kind_of(game.kind).max_players
    view.add_item(component.button(Click("join", g), label="Join", emoji="🐼",
                                   style=discord.ButtonStyle.success, disabled=full))
    view.add_item(component.button(Click("leave", g), label="Leave"))
    view.add_item(component.button(Click("start", g), label="Start", emoji="▶️",
                                   style=discord.ButtonStyle.primary))
    view.add_item(component.button(Click("cancel", g), label="Cancel",
                                   style=discord.ButtonStyle.danger))
    for level in LEVELS:
        view.add_item(component.button(Click("cpu", g, arg=level), label=COMPUTER_LABELS[level],
                                       emoji="🤖", disabled=full, row=1))
    return view


def closed_lobby_embed(game: Game, why: str) -> discord.Embed:
    """A lobby that will not be played (cancelled)."""
    names = ", ".join(discord.utils.escape_markdown(p.display_name) for p in game.players)
    return discord.Embed(title=f"{kind_of(game.kind).title}: {why}", color=CLOSED_COLOR,
                         description=names).set_footer(text=f"Game {game.id}")


async def _start(ctx: ClickContext) -> None:
    outcome = await ctx.service.start(ctx.game_id, ctx.who)
    await ctx.hub.presenter(outcome.game.kind).show(outcome, ctx.interaction)


async def _cancel(ctx: ClickContext) -> None:
    who = ctx.who
    game = await ctx.service.cancel(ctx.game_id, who, manager=is_manager(ctx.interaction))
    await ctx.hub.messages.edit(game, Shown(
        f"Cancelled by {discord.utils.escape_markdown(who.name)}.",
        closed_lobby_embed(game, "cancelled"), None, version=game.version), ctx.interaction)


async def redraw_lobby(hub: Hub, game: Game,
                       interaction: discord.Interaction[Any] | None = None) -> None:
    """Edit the lobby message to show ``game``'s seats now."""
    component = hub.games[game.kind].component
    await hub.messages.edit(game, Shown("", lobby_embed(game), lobby_view(game, component),
                                        version=game.version), interaction)


async def _redraw(ctx: ClickContext, game: Game) -> None:
    await redraw_lobby(ctx.hub, game, ctx.interaction)


async def _join(ctx: ClickContext) -> None:
    await _redraw(ctx, await ctx.service.join(ctx.game_id, ctx.who))


async def _leave(ctx: ClickContext) -> None:
    await _redraw(ctx, await ctx.service.leave(ctx.game_id, ctx.who))


async def _computer(ctx: ClickContext) -> None:
    level = ctx.click.arg or NORMAL  # a lobby drawn before levels existed: Normal
    await _redraw(ctx, await ctx.service.add_computer(ctx.game_id, ctx.who, level))


LOBBY_VERBS: Final[VerbTable] = {
    "join": _join, "leave": _leave, "cpu": _computer, "start": _start, "cancel": _cancel,
}
"""The lobby's verbs, part of every game kind's table."""
