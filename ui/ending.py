"""The end of a game: the announcement every player is pinged by, with the final standings,
the final picture and the chart of the running totals, what its people earned (achievements),
the game log, the replay and a Rematch button (same channel, same settings, the same players
invited).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.rules.gamelog import dumps_line
from bot.rules.registry import kind_of
from bot.service import Game, is_person
from pictures.charts import game_chart_data, render_game_chart
from ui.achievements import note_earned
from ui.clicks import Click
from ui.hub import ClickContext, ComponentMaker, Hub, VerbTable, place_of
from ui.i18n import for_game, for_user
from ui.lobby import lobby_embed, lobby_view
from ui.names import Names
from ui.replay import REPLAY_VERBS
from ui.review import review_clicked
from ui.shown import Shown, pings_for
from ui.threads import result_in_channel

OVER_COLOR: Final = 0xF1C40F
CHART_NAME: Final = "running-totals.png"

log = logging.getLogger("ui.ending")


def humans(game: Game) -> list[str]:
    """The Discord ids of the game's people, in seat order."""
    return [p.player_id for p in game.players if is_person(p.player_id)]


def ending_view(game: Game, component: ComponentMaker, *, sheet: bool = False
                ) -> discord.ui.View:
    """The game-over message's buttons: the full score sheet (``sheet``), the game log, the
    player's review (:mod:`ui.review`), a replay (a kind whose log counts steps), a rematch.
    """
    view = discord.ui.View(timeout=None)
    tr = for_game(game)
    if sheet:
        view.add_item(component.button(Click("sheet", game.id), label=tr("Score sheet"),
                                       emoji="📋"))
    view.add_item(component.button(Click("log", game.id), label=tr("Game log"), emoji="📜"))
    view.add_item(component.button(Click("review", game.id), label=tr("Review"), emoji="🔍"))
    if kind_of(game.kind).progress is not None:
        view.add_item(component.button(Click("replay", game.id), label=tr("Replay"),
                                       emoji="🎬"))
    view.add_item(component.button(Click("rematch", game.id), label=tr("Rematch"), emoji="🔁",
                                   style=discord.ButtonStyle.success))
    return view


def ending(game: Game, totals: Sequence[int], standings: str, component: ComponentMaker,
           files: list[discord.File], image: str | None, *, sheet: bool = False) -> Shown:
    """The game-over announcement: who won, the standings, the picture, the buttons."""
    tr = for_game(game)
    names = Names(game, tr)
    people = " ".join(f"<@{u}>" for u in humans(game))
    title = tr(kind_of(game.kind).title)
    content = (tr("🏁 {game} is over!", game=title) + f" {people}").strip()
    embed = discord.Embed(title=tr("{game} · final standings", game=title),
                          description=standings[:4000], color=OVER_COLOR)
    best = max(totals)
    winners = [names.seat(i) for i, t in enumerate(totals) if t == best]
    embed.set_footer(text=tr.ngettext("Game {id} · winner: {names}",
                                      "Game {id} · winners: {names}", len(winners),
                                      id=game.id, names=", ".join(winners))[:2048])
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    return Shown(content, embed, ending_view(game, component, sheet=sheet), files,
                 version=game.version)


async def chart_file(hub: Hub, game: Game) -> discord.File | None:
    """The chart of every player's running total, step by step (the game's language), drawn
    in a worker thread from the game's log; None for a kind whose log counts no steps, or when
    it cannot be drawn (logged: the announcement goes on without it).
    """
    if kind_of(game.kind).progress is None:
        return None
    tr = for_game(game)
    names = Names(game, tr)
    title = tr("{game} · game {id} · running totals", game=tr(kind_of(game.kind).title),
               id=game.id)
    try:
        events = (await hub.service.log_of(game)).events
        data = game_chart_data(game.kind, events,
                               [names.seat(i) for i in range(len(game.players))],
                               title=title, words=tr)
        png = await asyncio.to_thread(render_game_chart, data)
    except Exception:
        log.exception("game %s: the chart of its totals could not be drawn", game.id)
        return None
    return discord.File(io.BytesIO(png), filename=CHART_NAME)


async def announce_end(hub: Hub, game: Game, shown: Shown,
                       interaction: discord.Interaction[Any] | None = None) -> None:
    """The game-over message in the game's channel, pinging every player, with the chart of
    the running totals beside the final picture; a game played in a thread also sums itself
    up in one message back in its lobby's channel.
    """
    chart = await chart_file(hub, game)
    if chart is not None:
        # an attachment of its own, not an embed's image: shown as wide as the message
        shown.files = [*(shown.files or []), chart]
    players = [p.player_id for p in game.players]
    shown = await note_earned(hub.bot.stats, game, shown)
    sent = await hub.messages.announce(game, shown, players, interaction)
    if game.parent_channel_id is not None:
        summary = result_in_channel(game, shown, sent.id if sent is not None else None)
        try:
            await hub.messages.delivery.send(game, summary.send_kwargs(),
                                             channel_id=game.parent_channel_id)
        except discord.HTTPException as exc:
            log.info("game %s: the result was not posted in its channel (%s)", game.id,
                     exc.status)
    hub.upkeep.ended(game)


async def _log(ctx: ClickContext) -> None:
    game = await ctx.service.get_game(ctx.game_id)
    if game is None:
        return
    log = await ctx.service.log_of(game)
    data = "".join(dumps_line(e) for e in log.events).encode("utf-8")
    await ctx.interaction.followup.send(
        for_user(ctx.interaction).ngettext(
            "Game {id}: {n} event (docs/game-log.md in the bot's repository describes them).",
            "Game {id}: {n} events (docs/game-log.md in the bot's repository describes them).",
            len(log.events), id=game.id),
        file=discord.File(io.BytesIO(data), filename=f"{game.kind}-game-{game.id}.jsonl"),
        ephemeral=True)


async def _rematch(ctx: ClickContext) -> None:
    old = await ctx.service.get_game(ctx.game_id)
    game = await ctx.service.lobbies.rematch(ctx.game_id, ctx.who, place_of(ctx.interaction))
    component = ctx.hub.games[game.kind].component
    invited = [u for u in (humans(old) if old else []) if u != str(ctx.who.id)]
    mentions = " ".join(f"<@{u}>" for u in invited)
    tr = for_game(game)
    content = tr("🔁 Rematch! {people} join with the button below.",
                 people=mentions).replace("  ", " ")
    # through the click's interaction (outside the bot's global request budget)
    msg = await ctx.interaction.followup.send(content=content, embed=lobby_embed(game),
                                              view=lobby_view(game, component),
                                              allowed_mentions=pings_for(invited), wait=True)
    await ctx.service.set_message(game.id, msg.id)


END_VERBS: Final[VerbTable] = {"log": _log, "rematch": _rematch, "review": review_clicked,
                               **REPLAY_VERBS}
"""The verbs of a game-over message (and of the replay it opens), part of every game kind's
table."""
