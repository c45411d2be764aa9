"""What each button and select of the Posing Pandas turn message does.

``hold`` (a die toggle) only redraws the message: the hold mask travels in the custom_ids.
``roll`` and ``fill`` are actions for the service. ``pcard`` shows the score card privately.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.errors import StaleClick, UserError
from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.engine import ENGINE
from bot.rules.posing.state import PosingState
from cogs.common.components import Click
from cogs.common.stale import refresh_stale
from cogs.posing.present import PosingPresenter, score_card_png
from cogs.posing.render import CARD_FILE, held_indexes, parse_mask

if TYPE_CHECKING:
    from bot.client import PandaBot

TURN_VERBS = ("hold", "roll", "fill", "pcard")


def _one(values: list[str]) -> str:
    if len(values) != 1:
        raise UserError("Choose exactly one box.")
    return values[0]


async def _show_card(interaction: discord.Interaction[Any], click: Click) -> None:
    bot: PandaBot = interaction.client
    game = await bot.service.db.get_game(click.game_id)
    if game is None or game.state is None:
        raise UserError("This game has no score card to show.")
    state: PosingState = bot.service.state_of(game)
    await interaction.response.defer(ephemeral=True, thinking=True)
    png = await score_card_png(game, state)
    await interaction.followup.send(file=discord.File(io.BytesIO(png), filename=CARD_FILE),
                                    ephemeral=True)


async def on_click(interaction: discord.Interaction[Any], click: Click, values: list[str]
                   ) -> None:
    """Route a click of the turn message: redraw for a toggle, the service for Roll/Fill."""
    bot: PandaBot = interaction.client
    service = bot.service
    presenter = cast(PosingPresenter, bot.presenter("posing"))
    if click.verb == "pcard":
        await _show_card(interaction, click)
        return
    mask = parse_mask(click.arg)
    try:
        if click.verb == "hold":
            game, state, _seat = await service.check_turn(click.game_id, interaction.user.id,
                                                          click.version)
            if ENGINE.rolls_left(state) == 0:
                raise UserError("You have no rolls left this turn: fill a box.")
            await presenter.refresh(game, interaction, mask)
            return

        def build(state: PosingState, seat: int) -> Roll | Fill:
            if click.verb == "roll":
                return Roll(seat, held_indexes(mask))
            if click.verb == "fill":
                return Fill(seat, _one(values))
            raise UserError("Unknown action.")

        outcome = await service.act(click.game_id, interaction.user.id, click.version, build)
    except StaleClick as stale:
        await refresh_stale(interaction, click, stale)
        return
    await presenter.show(outcome, interaction)
