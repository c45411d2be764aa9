"""``/royale hand`` and the My dice button: a player's own dice, privately."""

from __future__ import annotations

import discord

from bot.rules.royale.engine import tradeable_dice
from bot.rules.royale.state import RoyaleState
from bot.service import Game
from cogs.royale.dice_text import die_emoji


def hand_embed(game: Game, state: RoyaleState, user_id: int) -> discord.Embed:
    """The user's dice with what they show this round (or a note for spectators)."""
    ids = game.player_ids
    if str(user_id) not in ids:
        return discord.Embed(title="Your dice", color=0x95A5A6,
                             description="You're not playing in this game.")
    seat = ids.index(str(user_id))
    specs = state.dice.specs
    lines = []
    for d in state.hands[seat]:
        spec = specs[d]
        v = state.values.get(d)
        shown = f"showing **{v}**" if v is not None else "not rolled yet"
        lines.append(f"{die_emoji(spec)} {spec.label} {shown}")
    free = len(tradeable_dice(state, seat))
    if free:
        lines.append(f"\nYou can give {free} Clear d6 in trades this round.")
    total = state.totals()[seat]
    return discord.Embed(title=f"Your dice · round {state.round}", color=0x2ECC71,
                         description="\n".join(lines) or "You hold no dice."
                         ).set_footer(text=f"Your total so far: {total}")
