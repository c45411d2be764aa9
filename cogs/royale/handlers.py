"""What each button and select of the Panda Royale messages does: one table, verb -> handler."""

from __future__ import annotations

from typing import Any, Final

from bot.errors import UserError
from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick
from bot.rules.royale.engine import trade_taking
from cogs.royale.hand import hand_embed
from cogs.royale.present import RoyalePresenter, sheet_file
from ui.ending import END_VERBS
from ui.hub import ClickContext, VerbTable
from ui.i18n import for_user
from ui.lobby import LOBBY_VERBS


def _presenter(ctx: ClickContext) -> RoyalePresenter:
    presenter = ctx.hub.presenter("royale")
    assert isinstance(presenter, RoyalePresenter)
    return presenter


def _seat_arg(text: str) -> int:
    if not text.isdigit() or len(text) > 2:  # a seat: 0-9 (a forged value can be any length)
        raise UserError("That choice is not valid any more: use the latest message.")
    return int(text)


async def _play(ctx: ClickContext, build: Any) -> None:
    outcome = await ctx.service.act(ctx.game_id, ctx.interaction.user.id, ctx.version, build)
    await _presenter(ctx).show(outcome, ctx.interaction)


async def _hand(ctx: ClickContext) -> None:
    game = await ctx.service.get_game(ctx.game_id)
    if game is None or game.state is None:
        raise UserError("This game has no dice to show.")
    await ctx.interaction.followup.send(
        embed=hand_embed(game, ctx.service.state_of(game), ctx.interaction.user.id,
                         for_user(ctx.interaction)),
        ephemeral=True)


async def _sheet(ctx: ClickContext) -> None:
    game = await ctx.service.get_game(ctx.game_id)
    if game is None or game.state is None:
        raise UserError("This game has no score sheet yet.")
    await ctx.interaction.followup.send(
        file=await sheet_file(game, ctx.service.state_of(game), for_user(ctx.interaction)),
        ephemeral=True)


async def _choose_player(ctx: ClickContext, step: str) -> None:
    game, _state, _seat = await ctx.service.check_turn(ctx.game_id, ctx.interaction.user.id,
                                                       ctx.version)
    await _presenter(ctx).refresh(game, ctx.interaction, step=step,
                                  chosen=_seat_arg(ctx.one()))


async def _mischief_target(ctx: ClickContext) -> None:
    await _choose_player(ctx, "mdie")


async def _trade_target(ctx: ClickContext) -> None:
    await _choose_player(ctx, "tdie")


async def _back(ctx: ClickContext) -> None:
    game, _state, _seat = await ctx.service.check_turn(ctx.game_id, ctx.interaction.user.id,
                                                       ctx.version)
    await _presenter(ctx).refresh(game, ctx.interaction)


async def _pick(ctx: ClickContext) -> None:
    await _play(ctx, lambda state, seat: Pick(seat, ctx.click.arg))


async def _fire(ctx: ClickContext) -> None:
    await _play(ctx, lambda state, seat: Cannon(seat, ctx.click.arg, True))


async def _save(ctx: ClickContext) -> None:
    await _play(ctx, lambda state, seat: Cannon(seat, ctx.click.arg, False))


async def _pass(ctx: ClickContext) -> None:
    await _play(ctx, lambda state, seat: Pass(seat))


async def _mischief_die(ctx: ClickContext) -> None:
    die = ctx.one()
    await _play(ctx, lambda state, seat: Mischief(seat, die))


async def _trade_die(ctx: ClickContext) -> None:
    target, take = _seat_arg(ctx.click.arg), ctx.one()
    await _play(ctx, lambda state, seat: trade_taking(state, seat, target, take))


ROYALE_VERBS: Final[VerbTable] = {
    **LOBBY_VERBS,
    **END_VERBS,
    "hand": _hand,
    "sheet": _sheet,
    "mtarget": _mischief_target,
    "ttarget": _trade_target,
    "back": _back,
    "pick": _pick,
    "fire": _fire,
    "save": _save,
    "pass": _pass,
    "mdie": _mischief_die,
    "tdie": _trade_die,
}
"""Every verb of a Panda Royale message: the lobby's and the round's."""

ROYALE_MOVES: Final = frozenset({"mtarget", "ttarget", "back", "pick", "fire", "save", "pass",
                                 "mdie", "tdie"})
"""The verbs that edit the round message they are clicked on (decisions and their steps)."""
