"""What each button and select of the Posing Pandas messages does: one table, verb -> handler.

``hold`` (a die toggle) only redraws the message: the hold mask travels in the custom_ids.
``roll`` and ``fill`` are actions for the service. ``pcard`` shows the score card privately.
"""

from __future__ import annotations

import io
from typing import Final

import discord

from bot.errors import UserError
from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.engine import ENGINE
from bot.rules.posing.state import PosingState
from cogs.posing.present import PosingPresenter, score_card_png
from cogs.posing.render import CARD_FILE, held_indexes, parse_mask
from ui.ending import END_VERBS
from ui.hub import ClickContext, VerbTable
from ui.i18n import for_user
from ui.lobby import LOBBY_VERBS


def _presenter(ctx: ClickContext) -> PosingPresenter:
    presenter = ctx.hub.presenter("posing")
    assert isinstance(presenter, PosingPresenter)
    return presenter


async def _card(ctx: ClickContext) -> None:
    game = await ctx.service.get_game(ctx.game_id)
    if game is None or game.state is None:
        raise UserError("This game has no score card to show.")
    state: PosingState = ctx.service.state_of(game)
    png = await score_card_png(game, state, for_user(ctx.interaction))
    await ctx.interaction.followup.send(
        file=discord.File(io.BytesIO(png), filename=CARD_FILE), ephemeral=True)


async def _hold(ctx: ClickContext) -> None:
    mask = parse_mask(ctx.click.arg)
    game, state, _seat = await ctx.service.check_turn(ctx.game_id, ctx.interaction.user.id,
                                                      ctx.version)
    if ENGINE.rolls_left(state) == 0:
        raise UserError("You have no rolls left this turn: fill a box.")
    await _presenter(ctx).refresh(game, ctx.interaction, mask)


async def _roll(ctx: ClickContext) -> None:
    held = held_indexes(parse_mask(ctx.click.arg))
    outcome = await ctx.service.act(ctx.game_id, ctx.interaction.user.id, ctx.version,
                                    lambda state, seat: Roll(seat, held))
    await _presenter(ctx).show(outcome, ctx.interaction)


async def _fill(ctx: ClickContext) -> None:
    parse_mask(ctx.click.arg)
    box = ctx.one()
    outcome = await ctx.service.act(ctx.game_id, ctx.interaction.user.id, ctx.version,
                                    lambda state, seat: Fill(seat, box))
    await _presenter(ctx).show(outcome, ctx.interaction)


POSING_VERBS: Final[VerbTable] = {
    **LOBBY_VERBS, **END_VERBS, "hold": _hold, "roll": _roll, "fill": _fill, "pcard": _card,
}
"""Every verb of a Posing Pandas message: the lobby's and the turn's."""

POSING_MOVES: Final = frozenset({"hold", "roll", "fill"})
"""The verbs that edit the turn message they are clicked on."""
