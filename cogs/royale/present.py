"""How an outcome of the service shows up in the channel for Panda Royale."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.rules.royale.state import RoyaleState
from bot.service import Game, GameService, Outcome
from cogs.royale.render import render, render_closed_round, standings
from pictures import render_score_sheet, sheet_data
from ui.messages import GameMessages, Shown, timeout_note
from ui.names import Names

SHEET_NAME = "score-sheet.png"
SHEET_URL = f"attachment://{SHEET_NAME}"


def _shown(r: Any) -> Shown:
    return Shown(r.content, r.embed, r.view)


def scored(state: RoyaleState) -> bool:
    """Whether the current round is on the score sheet (the message then shows the sheet)."""
    return len(state.sheet) >= state.round


async def sheet_file(game: Game, state: RoyaleState) -> discord.File:
    """The score sheet picture, drawn in a worker thread (it takes tens of milliseconds)."""
    names = Names(game)
    data = sheet_data([names.seat(i) for i in range(state.n)], state,
                      title=f"Panda Royale - game {game.id}")
    png = await asyncio.to_thread(render_score_sheet, data)
    return discord.File(io.BytesIO(png), filename=SHEET_NAME)


class RoyalePresenter:
    """Turns outcomes into one edit per decision (plus one post when a round starts)."""

    kind = "royale"

    def __init__(self, client: discord.Client, service: GameService) -> None:
        """Show games of ``service`` through ``client``."""
        self.service = service
        self.messages = GameMessages(client, service)

    async def current(self, game: Game, *, note: str = "", step: str = "",
                      chosen: int = -1, with_sheet: bool = False) -> Shown:
        """The game's message as it should look now. ``with_sheet`` attaches a freshly drawn
        score sheet (only when the sheet changed: edits otherwise keep the attachment).
        """
        state: RoyaleState = self.service.state_of(game)
        tail = await self.service.tail(game)
        this_round = [e for e in tail if e.get("round") == state.round]
        if game.status == "finished":
            r = render(game, state, this_round)
            shown = Shown(standings(game, state), r.embed, None)
        else:
            shown = _shown(render(game, state, this_round, note=note, step=step,
                                  chosen=chosen))
        if scored(state):
            shown.embed.set_image(url=SHEET_URL)
            if with_sheet:
                shown.files = [await sheet_file(game, state)]
        return shown

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed: edit the round message, or close it and post the
        next round's.
        """
        game = outcome.game
        note = note or timeout_note(outcome, "decided for them")
        state: RoyaleState = outcome.state
        events = outcome.events
        closed = [e["round"] for e in events if e.get("event") == "draft_return"]
        newly_scored = any(e.get("event") == "score" and e.get("round") == state.round
                           for e in events)
        if closed:
            tail = await self.service.tail(game)
            closing = _shown(render_closed_round(game, state, tail, closed[0]))
            closing.embed.set_image(url=SHEET_URL)
            await self.messages.advance(
                game, closing, lambda: self.current(game, note=note, with_sheet=newly_scored),
                interaction)
        else:
            # Answer first; a new score-sheet picture follows in a second edit, so drawing it
            # never delays the answer to the click.
            await self.messages.edit(game, await self.current(game, note=note), interaction)
            if newly_scored:
                await self.messages.edit(game, await self.current(game, note=note,
                                                                  with_sheet=True))

    async def moved(self, outcome: Outcome, reason: str) -> None:
        """A timeout (or a restart) moved the game on: show it."""
        await self.show(outcome)

    async def refresh(self, game: Game, interaction: discord.Interaction[Any] | None = None,
                      *, step: str = "", chosen: int = -1) -> None:
        """Redraw the current message (a UI step: choosing a player, going back)."""
        await self.messages.edit(game, await self.current(game, step=step, chosen=chosen),
                                 interaction)
