"""``/royale hand`` and the My dice button: a player's own dice, privately."""

from __future__ import annotations

import discord

from bot.rules.royale.engine import tradeable_dice
from bot.rules.royale.state import RoyaleState
from bot.service import Game
from cogs.royale.dice_text import die_emoji
from ui.i18n import Tr


def hand_embed(game: Game, state: RoyaleState, user_id: int, tr: Tr) -> discord.Embed:
    """The user's dice with what they show this round (or a note for spectators), in the
    user's language (``tr``).
    """
    seats = [p.seat for p in game.players if p.player_id == str(user_id)]
    if not seats:
        return discord.Embed(title=tr("Your dice"), color=0x95A5A6,
                             description=tr("You're not playing in this game."))
    seat = seats[0]
    specs = state.dice.specs
    lines = []
    for d in state.hands[seat]:
        spec = specs[d]
        v = state.values.get(d)
        shown = tr("showing **{value}**", value=v) if v is not None else tr("not rolled yet")
        lines.append(f"{die_emoji(spec)} {tr(spec.label)} {shown}")
    free = len(tradeable_dice(state, seat))
    if free:
        lines.append("\n" + tr("You can give {n} Clear d6 in trades this round.", n=free))
    total = state.totals()[seat]
    return discord.Embed(title=tr("Your dice · round {n}", n=state.round), color=0x2ECC71,
                         description="\n".join(lines) or tr("You hold no dice.")
                         ).set_footer(text=tr("Your total so far: {total}", total=total))
