"""How an outcome of the service shows up in the channel for Posing Pandas.

One message per stretch of turns of the same person: it is edited in place while that player
rolls and fills (and while computer players take their turns in between), and a new message
is posted, pinging them, when the turn passes to a different person. The old message is then
closed (components removed, what its player did). The game ends in the last message, edited
into the standings and the score card image.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.rules.posing.engine import ENGINE
from bot.rules.posing.state import PosingState
from bot.service import Game, GameService, Outcome, is_cpu
from cogs.posing.render import (
    CARD_FILE,
    Mask,
    carried_mask,
    final_embed,
    render_closed,
    render_turn,
    standings,
)
from pictures import card_data, render_score_card
from ui.components import PosingComponent
from ui.ending import ending
from ui.i18n import N_, Tr, for_game
from ui.messages import GameMessages, Shown, timeout_note
from ui.names import Names

KIND = "posing"
RESUMED = N_("♻️ I was restarted: the computer players have caught up.")


async def score_card_png(game: Game, state: PosingState, tr: Tr | None = None) -> bytes:
    """The score card of ``state`` as PNG bytes, drawn in a worker thread (in the game's
    language, or ``tr``'s).
    """
    tr = tr or for_game(game)
    shown = Names(game, tr)
    names = [shown.names[p.player_id] for p in game.players]
    data = card_data(names, state, title=tr("Posing Pandas · game {id}", id=game.id), words=tr)
    return await asyncio.to_thread(render_score_card, data)


class PosingPresenter:
    """Turns outcomes into one edit per decision (plus one post when the player changes)."""

    kind = KIND

    def __init__(self, messages: GameMessages, service: GameService) -> None:
        """Show games of ``service`` through ``messages``."""
        self.service = service
        self.messages = messages

    async def current(self, game: Game, *, note: str = "", mask: Mask | None = None,
                      tr: Tr | None = None) -> Shown:
        """The game's message as it should look now (``mask``: the dice held in the UI;
        ``tr``: another language than the game's, for a private copy).
        """
        tr = tr or for_game(game)
        state: PosingState = self.service.state_of(game)
        tail = await self.service.tail(game)
        if state.is_over:
            png = await score_card_png(game, state, tr)
            return Shown(standings(tr, game, state), final_embed(tr, game, state, tail, True),
                         None,
                         [discord.File(io.BytesIO(png), filename=CARD_FILE)],
                         version=game.version)
        if mask is None:
            mask = carried_mask(state, tail)
        shown = render_turn(tr, game, state, tail, mask, note)
        shown.version = game.version
        return shown

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed: edit the current message, or close it and post a new
        one (which pings them) when the decision passes to another person; at the end, close
        it and announce the result to everyone.
        """
        game, state = outcome.game, outcome.state
        tr = for_game(game)
        note = note or timeout_note(outcome, N_("played their turn"))
        actor = outcome.steps[0].player_id if outcome.steps else None
        seat = ENGINE.current_seat(state)
        if seat is None:  # the last turns, every score; the announcement follows
            tail = await self.service.tail(game)
            closing = Shown("", final_embed(tr, game, state, tail, False), None,
                            version=game.version)
            await self.messages.edit(game, closing, interaction)
            await self.announce_end(game, state)
            return
        decider = game.players[seat].player_id
        if actor is not None and decider != actor and not is_cpu(decider) \
                and self.messages.message_of(game) is not None:
            closing = render_closed(tr, game, state, outcome.events, actor)
            closing.version = game.version

            async def next_turn() -> Shown:
                shown = await self.current(game, note=note)
                shown.pings = (decider,)
                return shown

            await self.messages.unping(game)
            await self.messages.advance(game, closing, next_turn, interaction)
            return
        await self.messages.edit(game, await self.current(game, note=note), interaction)
        if actor is None and not is_cpu(decider):
            await self.messages.ping(game, [decider], tr("your turn in Posing Pandas: roll, "
                                                         "hold and fill a box on the game "
                                                         "message."))

    async def announce_end(self, game: Game, state: PosingState) -> None:
        """The game-over message: everyone pinged, standings, the score card, the buttons."""
        png = await score_card_png(game, state)
        shown = ending(game, ENGINE.totals(state), standings(for_game(game), game, state),
                       PosingComponent,
                       [discord.File(io.BytesIO(png), filename=CARD_FILE)], CARD_FILE)
        await self.messages.announce(game, shown, [p.player_id for p in game.players])

    async def refresh(self, game: Game, interaction: discord.Interaction[Any],
                      mask: Mask) -> None:
        """Redraw the clicked message with other dice held (UI only: nothing is saved)."""
        await self.messages.edit(game, await self.current(game, mask=mask), interaction)

    async def moved(self, outcome: Outcome, reason: str) -> None:
        """The service moved the game on its own. ``"timeout"``: a player ran out of time,
        the computer finishes their whole turn and the channel is told. Otherwise (``"resume"``
        at start-up) computer players a crash left waiting have played.
        """
        if reason == "timeout":
            await self.show(outcome)
        else:
            await self.show(outcome, note=for_game(outcome.game)(RESUMED))

