"""What each button and select of the Panda Royale round message does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

from bot.errors import StaleClick, UserError
from bot.rules.errors import IllegalAction
from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, Trade
from bot.rules.royale.engine import tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState
from cogs.common.components import Click
from cogs.common.stale import refresh_stale
from cogs.royale.hand import hand_embed
from cogs.royale.present import RoyalePresenter

if TYPE_CHECKING:
    from bot.client import PandaBot


def _one(values: list[str]) -> str:
    if len(values) != 1:
        raise UserError("Choose exactly one option.")
    return values[0]


def _seat_arg(text: str) -> int:
    if not text.isdigit():
        raise UserError("That choice is not valid any more: use the latest message.")
    return int(text)


def _trade(state: RoyaleState, seat: int, target: int, take: str) -> Trade:
    give = tradeable_dice(state, seat)
    if not give:
        raise IllegalAction("You have no clear die to trade.")
    return Trade(seat, give[0], target, take)


async def on_click(interaction: discord.Interaction[Any], click: Click, values: list[str]
                   ) -> None:
    """Route a click of the round message to the service, then show the result."""
    bot: PandaBot = interaction.client
    service = bot.service
    presenter = cast(RoyalePresenter, bot.presenter("royale"))
    verb, arg = click.verb, click.arg
    if verb == "hand":
        game = await service.db.get_game(click.game_id)
        if game is None or game.state is None:
            raise UserError("This game has no dice to show.")
        await interaction.response.send_message(
            embed=hand_embed(game, service.state_of(game), interaction.user.id), ephemeral=True)
        return
    if verb in ("mtarget", "ttarget", "back"):
        game, _state, _seat = await service.check_turn(click.game_id, interaction.user.id,
                                                       click.version)
        if verb == "back":
            await presenter.refresh(game, interaction)
            return
        chosen = _seat_arg(_one(values))
        await presenter.refresh(game, interaction, step="mdie" if verb == "mtarget" else "tdie",
                                chosen=chosen)
        return

    def build(state: RoyaleState, seat: int) -> Any:
        if verb == "pick":
            return Pick(seat, arg)
        if verb in ("fire", "save"):
            return Cannon(seat, arg, verb == "fire")
        if verb == "pass":
            return Pass(seat)
        if verb == "mdie":
            return Mischief(seat, _one(values))
        if verb == "tdie":
            if state.phase is not Phase.TRADE:
                raise IllegalAction("It's not time to trade.")
            return _trade(state, seat, _seat_arg(arg), _one(values))
        raise UserError("Unknown action.")

    try:
        outcome = await service.act(click.game_id, interaction.user.id, click.version, build)
    except StaleClick as stale:
        await refresh_stale(interaction, click, stale)
        return
    await presenter.show(outcome, interaction)


ROUND_VERBS = ("hand", "mtarget", "ttarget", "back", "pick", "fire", "save", "pass", "mdie",
               "tdie")
