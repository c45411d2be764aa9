"""One way in for a click: find the verb's handler, check the place, run it, report failures."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import GamePaused, StaleClick
from ui.clicks import SERVER_WIDE, Click
from ui.errors import answer_error, report
from ui.hub import ClickContext, hub_of, place_of
from ui.i18n import N_, for_user

UNSUPPORTED = N_("This button is no longer supported: use the latest message.")


async def dispatch(interaction: discord.Interaction[Any], prefix: str, click: Click) -> None:
    """Run the handler of ``click.verb`` in ``prefix``'s table; every failure reaches the user
    through :func:`ui.errors.report`, and a stale click redraws the game's message.
    """
    hub = hub_of(interaction.client)
    handler = hub.tables.get(prefix, {}).get(click.verb)
    if handler is None:
        await answer_error(interaction, for_user(interaction)(UNSUPPORTED))
        return
    ctx = ClickContext(interaction, click, hub)
    delivery = hub.messages.delivery
    # The click is answered within Discord's 3 seconds whatever the database or Discord do
    # next: a move by its own edit if it is ready at once, else by a deferral on time
    # (ui.answers); any other click is deferred first. If Discord refuses the deferral, the
    # click still counts: the game message is then edited by id, so the move is shown.
    delivery.answer_later(interaction)
    try:
        if click.verb not in hub.moves.get(prefix, ()) or delivery.behind():
            await delivery.answered(interaction)
        if click.game_id is not None and click.verb in SERVER_WIDE:
            await hub.service.check_server(click.game_id, place_of(interaction).guild_id)
        elif click.game_id is not None:
            await hub.service.check_place(click.game_id, place_of(interaction))
        try:
            await handler(ctx)
        except StaleClick as stale:
            await refresh_stale(ctx, stale)
        except GamePaused:
            if not await hub.upkeep.resume(ctx.game_id, interaction):
                raise
            await handler(ctx)
    except Exception as exc:
        await delivery.answered(interaction)
        await report(interaction, exc)
    finally:
        await delivery.answered(interaction)
        delivery.click_done(interaction)


async def refresh_stale(ctx: ClickContext, stale: StaleClick) -> None:
    """A click on an out-of-date message: nothing is applied; if it is the game's current
    message (an edit that never arrived), redraw it; tell the user privately either way.
    """
    interaction = ctx.interaction
    game = await ctx.service.get_game(ctx.game_id)
    if game is not None and game.status == "active" and interaction.message is not None \
            and interaction.message.id == game.message_id:
        shown = await ctx.hub.presenter(game.kind).current(game)
        await ctx.hub.messages.edit(game, shown, interaction)
        await ctx.hub.messages.delivery.answered(interaction)
        tr = for_user(interaction)
        await interaction.followup.send(
            tr("That was already decided: here is the game as it is now."), ephemeral=True)
        return
    raise stale
