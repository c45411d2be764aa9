"""The lobby message every game kind shares: Join / Leave / Add computer / Start / Cancel."""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.rules.levels import EASY, HARD, LEVELS, NORMAL
from bot.rules.registry import kind_of
from bot.service import Game
from ui.clicks import Click
from ui.hub import ClickContext, ComponentMaker, Hub, VerbTable
from ui.i18n import N_, Tr, for_game
from ui.managers import is_manager
from ui.names import Names
from ui.shown import Shown
from ui.threads import open_thread

COMPUTER_LABELS: Final = {EASY: N_("Add Easy computer"), NORMAL: N_("Add Normal computer"),
                          HARD: N_("Add Hard computer")}
"""The label of the button that seats a computer player of each level."""
COMPUTER_HELP: Final = N_("Computer players: Easy plays at random, Normal plays a sound plan, "
                          "Hard looks ahead and is hard to beat.")
LOBBY_COLOR: Final = 0x3498DB
CLOSED_COLOR: Final = 0x95A5A6
EXPANSION_NAMES: Final = {"mischief": N_("Mischief"), "cannon": N_("Cannon"),
                          "mercenary": N_("Mercenary")}
"""The Mayhem options by their names in the settings."""


def expansion_names(tr: Tr, expansions: list[str] | tuple[str, ...]) -> str:
    """The Mayhem options on, in ``tr``'s language, e.g. "Mischief, Cannon"."""
    return ", ".join(tr(EXPANSION_NAMES.get(e, e.title())) for e in expansions)


def lobby_embed(game: Game, tr: Tr | None = None) -> discord.Embed:
    """Who sits where, the options, and what the host does next (in the game's language, or
    ``tr``'s for a private copy).
    """
    tr = tr or for_game(game)
    kind = kind_of(game.kind)
    host = " " + tr("(host)")
    names = Names(game, tr)
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if p.is_bot else ''}{discord.utils.escape_markdown(names.seat(i))}"
        f"{host if p.player_id == str(game.host_id) else ''}"
        for i, p in enumerate(game.players)
    )
    lines = [tr("Players ({n}/{most}):", n=len(game.players), most=kind.max_players), seats,
             ""]  # ends the list
    exp = game.settings.get("expansions") or []
    if exp:
        lines.append(tr("Mayhem: {options}", options=expansion_names(tr, exp)))
    lines.append(tr(COMPUTER_HELP))
    lines.append(tr("Turn timeout: {seconds} s, then the computer plays that turn.",
                    seconds=game.settings.get("turn_timeout", 120)))
    start = tr("The host starts the game when everyone is in.")
    if len(game.players) < kind.min_players:
        start += " " + tr.ngettext("Needs at least {n} player to start.",
                                   "Needs at least {n} players to start.", kind.min_players)
    lines.append(start)
    return discord.Embed(title=tr("{game}: new game", game=tr(kind.title)),
                         description="\n".join(lines),
                         color=LOBBY_COLOR).set_footer(text=tr("Game {id}", id=game.id))


def lobby_view(game: Game, component: ComponentMaker) -> discord.ui.View:
    """The lobby's buttons (made with the game kind's component class)."""
    view = discord.ui.View(timeout=None)
    tr = for_game(game)
    g = game.id
    full = len(game.players) >= kind_of(game.kind).max_players
    view.add_item(component.button(Click("join", g), label=tr("Join"), emoji="🐼",
                                   style=discord.ButtonStyle.success, disabled=full))
    view.add_item(component.button(Click("leave", g), label=tr("Leave")))
    view.add_item(component.button(Click("start", g), label=tr("Start"), emoji="▶️",
                                   style=discord.ButtonStyle.primary))
    view.add_item(component.button(Click("cancel", g), label=tr("Cancel"),
                                   style=discord.ButtonStyle.danger))
    for level in LEVELS:
        view.add_item(component.button(Click("cpu", g, arg=level),
                                       label=tr(COMPUTER_LABELS[level]), emoji="🤖",
                                       disabled=full, row=1))
    return view


def closed_lobby_embed(game: Game, why: str) -> discord.Embed:
    """A lobby that will not be played (``why``: a msgid, e.g. "cancelled")."""
    tr = for_game(game)
    shown = Names(game, tr)
    names = ", ".join(discord.utils.escape_markdown(shown.seat(i))
                      for i in range(len(game.players)))
    return discord.Embed(title=f"{tr(kind_of(game.kind).title)}: {tr(why)}", color=CLOSED_COLOR,
                         description=names).set_footer(text=tr("Game {id}", id=game.id))


def lobby_shown(game: Game, component: ComponentMaker) -> Shown:
    """The lobby message of ``game`` as it stands."""
    return Shown("", lobby_embed(game), lobby_view(game, component), version=game.version)


async def lobby_expired(hub: Hub, game: Game) -> None:
    """A lobby nobody started closed by itself: its message says so."""
    tr = for_game(game)
    minutes = hub.service.limits.lobby_ttl_s // 60
    await hub.messages.edit(game, Shown(
        tr.ngettext("Nobody started this game for {n} minute: it is closed.",
                    "Nobody started this game for {n} minutes: it is closed.", minutes),
        closed_lobby_embed(game, N_("expired")), None, version=game.version))
    hub.upkeep.ended(game)


async def cancelled(hub: Hub, game: Game, who: str,
                    interaction: discord.Interaction[Any] | None = None) -> None:
    """A game was cancelled by ``who``: its message is closed, its ping goes."""
    tr = for_game(game)
    await hub.messages.edit(game, Shown(
        tr("Cancelled by {name}.", name=discord.utils.escape_markdown(who)),
        closed_lobby_embed(game, N_("cancelled")), None, version=game.version), interaction)
    hub.upkeep.ended(game)


async def _start(ctx: ClickContext) -> None:
    outcome = await ctx.service.start(ctx.game_id, ctx.who)
    outcome.game = await open_thread(ctx.hub, outcome.game, ctx.interaction)
    await ctx.hub.presenter(outcome.game.kind).show(outcome, ctx.interaction)


async def _cancel(ctx: ClickContext) -> None:
    who = ctx.who
    game = await ctx.service.lobbies.cancel(ctx.game_id, who, manager=is_manager(ctx.interaction))
    await cancelled(ctx.hub, game, who.name, ctx.interaction)


async def redraw_lobby(hub: Hub, game: Game,
                       interaction: discord.Interaction[Any] | None = None) -> None:
    """Edit the lobby message to show ``game``'s seats now."""
    await hub.messages.edit(game, lobby_shown(game, hub.games[game.kind].component),
                            interaction)


async def _redraw(ctx: ClickContext, game: Game) -> None:
    await redraw_lobby(ctx.hub, game, ctx.interaction)


async def _join(ctx: ClickContext) -> None:
    await _redraw(ctx, await ctx.service.lobbies.join(ctx.game_id, ctx.who))


async def _leave(ctx: ClickContext) -> None:
    await _redraw(ctx, await ctx.service.lobbies.leave(ctx.game_id, ctx.who))


async def _computer(ctx: ClickContext) -> None:
    level = ctx.click.arg or NORMAL  # a lobby drawn before levels existed: Normal
    await _redraw(ctx, await ctx.service.lobbies.add_computer(ctx.game_id, ctx.who, level))


LOBBY_VERBS: Final[VerbTable] = {
    "join": _join, "leave": _leave, "cpu": _computer, "start": _start, "cancel": _cancel,
}
"""The lobby's verbs, part of every game kind's table."""
