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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.rules.posing.engine import ENGINE
from bot.rules.posing.state import PosingState
from bot.rules.replay import Frame
from bot.service import Game, Outcome
from cogs.posing.components import PosingComponent
from cogs.posing.render import (
    CARD_FILE,
    Mask,
    carried_mask,
    final_embed,
    render_closed,
    render_turn,
    replay_embed,
    standings,
)
from pictures import card_data, render_score_card
from ui.channel_access import can_post, channel_permissions
from ui.ending import announce_end, ending
from ui.hub import ReplayPage
from ui.i18n import N_, Tr, for_game
from ui.lobby import lobby_expired, lobby_shown
from ui.names import Names
from ui.shown import Shown, timeout_note
from ui.upkeep import stand_in_note

if TYPE_CHECKING:
    from ui.hub import Hub

KIND = "posing"
RESUMED = N_("♻️ I was restarted: the computer players have caught up.")


async def score_card_png(game: Game, state: PosingState, tr: Tr | None = None, *,
                         replayed: bool = False) -> bytes:
    """The score card of ``state`` as PNG bytes, drawn in a worker thread (in the game's
    language, or ``tr``'s). ``replayed``: a step of the replay (nobody framed: nobody waits).
    """
    tr = tr or for_game(game)
    shown = Names(game, tr)
    names = [shown.names[p.player_id] for p in game.players]
    data = card_data(names, state, title=tr("Posing Pandas · game {id}", id=game.id), words=tr)
    if replayed:
        data = replace(data, current=None)
    return await asyncio.to_thread(render_score_card, data)


class PosingPresenter:
    """Turns outcomes into one edit per decision (plus one post when the player changes)."""

    kind = KIND

    def __init__(self, hub: Hub) -> None:
        """Show the games of ``hub``'s service through its messages."""
        self.hub = hub
        self.service = hub.service
        self.messages = hub.messages

    async def current(self, game: Game, *, note: str = "", mask: Mask | None = None,
                      tr: Tr | None = None, recent: list[dict[str, Any]] | None = None
                      ) -> Shown:
        """The game's message as it should look now (``mask``: the dice held in the UI;
        ``tr``: another language than the game's, for a private copy; ``recent``: the game's
        recent events, when the caller has them).
        """
        tr = tr or for_game(game)
        state: PosingState = self.service.state_of(game)
        tail = recent if recent is not None else await self.service.recent(game)
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
        note = note or stand_in_note(outcome) or timeout_note(outcome, N_("played their turn"))
        actor = outcome.steps[0].player_id if outcome.steps else None
        seat = ENGINE.current_seat(state)
        recent = outcome.recent
        if seat is None:  # the last turns, every score; the announcement follows
            closing = Shown("", final_embed(tr, game, state, recent, False), None,
                            version=game.version)
            await self.messages.edit(game, closing, interaction)
            await self.announce_end(game, state, interaction)
            return
        decider = game.players[seat]
        if not can_post(channel_permissions(self.messages.client, game)):
            await self.messages.edit(game, await self.current(game, note=note, recent=recent),
                                     interaction)
            await self.hub.upkeep.cannot_post(game, interaction)
            return
        if actor is not None and decider.player_id != actor and not decider.by_computer \
                and self.messages.message_of(game) is not None:
            closing = render_closed(tr, game, state, outcome.events, actor)
            closing.version = game.version

            async def next_turn() -> Shown:
                shown = await self.current(game, note=note, recent=recent)
                shown.pings = (decider.player_id,)
                return shown

            await self.messages.unping(game)
            if not await self.messages.advance(game, closing, next_turn, interaction):
                await self.hub.upkeep.cannot_post(game, interaction)
            return
        await self.messages.edit(game, await self.current(game, note=note, recent=recent),
                                 interaction)
        if actor is None:
            await self.prompt_current(game)

    async def prompt_current(self, game: Game) -> None:
        """Ping the player whose turn it is (the turn message itself pings when the turn
        passes from one person to another).
        """
        seat = ENGINE.current_seat(self.service.state_of(game))
        if seat is None or game.players[seat].by_computer:
            await self.messages.unping(game)
            return
        tr = for_game(game)
        await self.messages.ping(game, [game.players[seat].player_id],
                                 tr("your turn in Posing Pandas: roll, hold and fill a box on "
                                    "the game message."))

    async def announce_end(self, game: Game, state: PosingState,
                           interaction: discord.Interaction[Any] | None = None) -> None:
        """The game-over message: everyone pinged, standings, the score card, the buttons."""
        png = await score_card_png(game, state)
        shown = ending(game, ENGINE.totals(state), standings(for_game(game), game, state),
                       PosingComponent,
                       [discord.File(io.BytesIO(png), filename=CARD_FILE)], CARD_FILE)
        await announce_end(self.hub, game, shown, interaction)

    async def refresh(self, game: Game, interaction: discord.Interaction[Any],
                      mask: Mask) -> None:
        """Redraw the clicked message with other dice held (UI only: nothing is saved)."""
        await self.messages.edit(game, await self.current(game, mask=mask), interaction)

    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage:
        """Turn ``frame.step`` of the replay: every player's fill in it, the scores after it,
        and the score card as it stood then.
        """
        state: PosingState = frame.state
        return ReplayPage(replay_embed(tr, game, state, frame.events),
                          await score_card_png(game, state, tr, replayed=True))

    async def moved(self, outcome: Outcome, reason: str) -> None:
        """The service moved the game on its own. ``"timeout"``: a player ran out of time,
        the computer finishes their whole turn and the channel is told. ``"expired"``: a lobby
        nobody started closed. Otherwise (``"resume"`` at start-up) computer players a crash
        left waiting have played.
        """
        if reason == "expired":
            await lobby_expired(self.hub, outcome.game)
        elif reason == "timeout":
            await self.show(outcome)
        else:
            await self.show(outcome, note=for_game(outcome.game)(RESUMED))

    async def board(self, game: Game) -> Shown:
        """The board to post anew: the lobby, or the turn message."""
        if game.status == "lobby":
            return lobby_shown(game, PosingComponent)
        return await self.current(game)
