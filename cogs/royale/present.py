"""How an outcome of the service shows up in the channel for Panda Royale."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.rules.royale.state import RoyaleState
from bot.service import Outcome
from cogs.common.messages import GameMessages, Shown
from cogs.royale.render import render, render_closed_round, standings
from storage import GameRow

if TYPE_CHECKING:
    from bot.client import PandaBot


def _shown(r: Any) -> Shown:
    return Shown(r.content, r.embed, r.view)


def timeout_note(outcome: Outcome) -> str:
    """Who ran out of time, for the channel."""
    for step in outcome.steps:
        if step.by == "timeout":
            name = next(p.display_name for p in outcome.game.players
                        if p.player_id == step.player_id)
            return f"⏰ {name} ran out of time: the computer decided for them."
    return ""


class RoyalePresenter:
    """Turns outcomes into one edit per decision (plus one post when a round starts)."""

    kind = "royale"

    def __init__(self, bot: PandaBot) -> None:
        self.bot = bot
        self.messages = GameMessages(bot)

    async def current(self, game: GameRow, *, note: str = "", step: str = "",
                      chosen: int = -1) -> Shown:
        """The game's message as it should look now."""
        state: RoyaleState = self.bot.service.state_of(game)
        tail = await self.bot.service.tail(game)
        if game.status == "finished":
            r = render(game, state, [e for e in tail if e.get("round") == state.round])
            return Shown(standings(game, state), r.embed, None)
        r = render(game, state, [e for e in tail if e.get("round") == state.round],
                   note=note, step=step, chosen=chosen)
        return _shown(r)

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed: edit the round message, or close it and post the
        next round's."""
        game = outcome.game
        note = note or timeout_note(outcome)
        state: RoyaleState = outcome.state
        closed = [e["round"] for e in outcome.events if e.get("event") == "draft_return"]
        nxt = await self.current(game, note=note)
        if closed:
            tail = await self.bot.service.tail(game)
            closing = render_closed_round(game, state, tail, closed[0])
            await self.messages.advance(game, _shown(closing), nxt, interaction)
        else:
            await self.messages.edit(game, nxt, interaction)

    async def on_timeout(self, outcome: Outcome, reason: str) -> None:
        await self.show(outcome)

    async def refresh(self, game: GameRow, interaction: discord.Interaction[Any] | None = None,
                      *, step: str = "", chosen: int = -1) -> None:
        """Redraw the current message (a UI step: choosing a player, going back)."""
        await self.messages.edit(game, await self.current(game, step=step, chosen=chosen),
                                 interaction)
