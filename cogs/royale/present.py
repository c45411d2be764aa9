"""How an outcome of the service shows up in the channel for Panda Royale.

One message per round, edited as the round goes on; the next round posts a new one. Whoever must
decide next is pinged by a short new message (edits notify nobody). The end of the game is a new
message that pings every player, with the final standings, the score sheet and a Rematch button.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.rules.replay import Frame
from bot.rules.royale.engine import current_seat
from bot.rules.royale.state import Phase, RoyaleState
from bot.service import Game, Outcome
from cogs.royale.components import RoyaleComponent
from cogs.royale.render import render, render_closed_round, standings
from pictures import render_round_card, render_score_sheet, round_card_data, sheet_data
from pictures.round_card import as_scored
from ui.channel_access import can_post, channel_permissions
from ui.clicks import Click
from ui.ending import announce_end, ending
from ui.hub import ReplayPage
from ui.i18n import N_, P_, Tr, for_game
from ui.lobby import lobby_expired, lobby_shown
from ui.names import Names
from ui.shown import Shown, jump_link, timeout_note
from ui.upkeep import stand_in_note

if TYPE_CHECKING:
    from ui.hub import Hub

SHEET_NAME: Final = "score-sheet.png"
CARD_NAME: Final = "round-card.png"
CARD_URL: Final = f"attachment://{CARD_NAME}"
ASK: Final = "turn ping"
"""The msgctxt of what a ping asks for (an imperative: "pick a die from the pool")."""
ASKS: Final = {
    Phase.MISCHIEF: P_("turn ping", "choose a die for your mischief"),
    Phase.CANNON: P_("turn ping", "fire or save your Cannon"),
    Phase.TRADE: P_("turn ping", "trade or pass"),
    Phase.DRAFT: P_("turn ping", "pick a die from the pool"),
}


def scored(state: RoyaleState) -> bool:
    """Whether the current round is on the score sheet (the message then shows the sheet)."""
    return len(state.sheet) >= state.round


async def sheet_file(game: Game, state: RoyaleState, tr: Tr) -> discord.File:
    """The full score sheet picture (on demand and at the end), drawn in a worker thread."""
    names = Names(game, tr)
    data = sheet_data([names.seat(i) for i in range(state.n)], state,
                      title=tr("Panda Royale - game {id}", id=game.id), words=tr)
    png = await asyncio.to_thread(render_score_sheet, data)
    return discord.File(io.BytesIO(png), filename=SHEET_NAME)


async def card_file(game: Game, state: RoyaleState) -> discord.File:
    """The round card: the picture made for a phone that a round message carries (in the
    game's language).
    """
    tr = for_game(game)
    names = Names(game, tr)
    data = round_card_data([names.seat(i) for i in range(state.n)], state,
                           title=tr("Panda Royale - game {id}", id=game.id), words=tr)
    png = await asyncio.to_thread(render_round_card, data)
    return discord.File(io.BytesIO(png), filename=CARD_NAME)


async def replay_card(game: Game, frame: Frame, tr: Tr) -> bytes:
    """The round card of a replayed round, in ``tr``'s language, drawn in a worker thread:
    each player's dice as the round's ``score`` events list them (the state has moved on to
    the trade and the draft), nobody framed.
    """
    state: RoyaleState = frame.state
    names = Names(game, tr)
    data = round_card_data([names.seat(i) for i in range(state.n)], state,
                           title=tr("Panda Royale - game {id}", id=game.id), words=tr)
    scored = {e["player"]: e["dice"] for e in frame.events if e.get("event") == "score"}
    hands = [[(d["color"], d["kind"], d["sides"], d.get("value"))
              for d in scored.get(player, ())] for player in state.players]
    return await asyncio.to_thread(render_round_card, as_scored(data, hands))


class RoyalePresenter:
    """Turns outcomes into one edit per decision, a post per round and a ping per hand-over."""

    kind = "royale"

    def __init__(self, hub: Hub) -> None:
        """Show the games of ``hub``'s service through its messages."""
        self.hub = hub
        self.service = hub.service
        self.messages = hub.messages

    async def current(self, game: Game, *, note: str = "", step: str = "",
                      chosen: int = -1, with_sheet: bool = False, tr: Tr | None = None,
                      recent: list[dict[str, Any]] | None = None) -> Shown:
        """The game's message as it should look now. ``with_sheet`` attaches a freshly drawn
        round card (only when the round was scored: edits otherwise keep the attachment).
        ``tr``: another language than the game's (a private copy). ``recent``: the game's
        recent events, when the caller has them.
        """
        tr = tr or for_game(game)
        state: RoyaleState = self.service.state_of(game)
        tail = recent if recent is not None else await self.service.recent(game)
        if state.phase is Phase.OVER:
            shown = render_closed_round(tr, game, state, tail, len(state.sheet))
            shown.version = game.version
        else:
            this_round = [e for e in tail if e.get("round") == state.round]
            shown = render(tr, game, state, this_round, note=note, step=step, chosen=chosen)
            shown.version = game.version
            if shown.view is not None and len(shown.view.children) < 25:
                shown.view.add_item(RoyaleComponent.button(
                    Click("sheet", game.id), label=tr("Score sheet"), emoji="📋", row=4))
        if scored(state):
            assert shown.embed is not None
            shown.embed.set_image(url=CARD_URL)
            if with_sheet:
                shown.files = [await card_file(game, state)]
        return shown

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed: edit the round message (or close it and post the
        next round's), ping whoever must decide now, or announce the end.
        """
        game = outcome.game
        note = note or stand_in_note(outcome) or timeout_note(outcome, N_("decided for them"))
        state: RoyaleState = outcome.state
        events = outcome.events
        recent = outcome.recent
        closed = [e["round"] for e in events if e.get("event") == "draft_return"]
        newly_scored = any(e.get("event") == "score" and e.get("round") == state.round
                           for e in events)
        if closed and state.phase is not Phase.OVER:
            closing = render_closed_round(for_game(game), game, state, recent, closed[0])
            closing.version = game.version
            assert closing.embed is not None
            closing.embed.set_image(url=CARD_URL)
            posted = await self.messages.advance(
                game, closing, lambda: self.current(game, note=note, with_sheet=newly_scored,
                                                    recent=recent),
                interaction)
        else:
            posted = can_post(channel_permissions(self.messages.client, game))
            await self.messages.edit(game, await self.current(game, note=note,
                                                              with_sheet=newly_scored,
                                                              recent=recent),
                                     interaction)
        if state.phase is Phase.OVER:
            await self.announce_end(game, state, interaction)
        elif not posted:
            await self.hub.upkeep.cannot_post(game, interaction)
        else:
            await self.prompt_current(game)

    async def prompt_current(self, game: Game) -> None:
        """Ping the player who must decide now (a new ping whenever the board changed or the
        last ping is gone).
        """
        state: RoyaleState = self.service.state_of(game)
        seat = current_seat(state)
        if seat is None or game.players[seat].by_computer:
            await self.messages.unping(game)
            return
        tr = for_game(game)
        wanted = ASKS.get(state.phase, P_("turn ping", "decide"))
        ask = tr.pgettext(ASK, wanted) or wanted
        link = jump_link(game, self.messages.message_of(game))
        text = tr("your turn in Panda Royale: {ask}.", ask=ask)
        await self.messages.ping(game, [game.players[seat].player_id], f"{text} {link}".strip())

    async def announce_end(self, game: Game, state: RoyaleState,
                           interaction: discord.Interaction[Any] | None = None) -> None:
        """The game-over message: everyone pinged, standings, the final round card (made for a
        phone), the full score sheet on a button, the game log, a rematch.
        """
        shown = ending(game, state.totals(), standings(for_game(game), game, state),
                       RoyaleComponent,
                       [await card_file(game, state)], CARD_NAME, sheet=True)
        await announce_end(self.hub, game, shown, interaction)

    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage:
        """Round ``frame.step`` of the replay: what happened in it, its scores and its seven
        columns (as the round's message showed them once it was done), and its round card.
        """
        state: RoyaleState = frame.state
        closed = render_closed_round(tr, game, state, frame.events, frame.step)
        assert closed.embed is not None
        return ReplayPage(closed.embed, await replay_card(game, frame, tr))

    async def moved(self, outcome: Outcome, reason: str) -> None:
        """A timeout (or a restart) moved the game on, or a lobby expired: show it."""
        if reason == "expired":
            await lobby_expired(self.hub, outcome.game)
            return
        await self.show(outcome)

    async def board(self, game: Game) -> Shown:
        """The board to post anew: the lobby, or the round with its picture."""
        if game.status == "lobby":
            return lobby_shown(game, RoyaleComponent)
        state: RoyaleState = self.service.state_of(game)
        return await self.current(game, with_sheet=scored(state))

    async def refresh(self, game: Game, interaction: discord.Interaction[Any] | None = None,
                      *, step: str = "", chosen: int = -1) -> None:
        """Redraw the current message (a UI step: choosing a player, going back)."""
        await self.messages.edit(game, await self.current(game, step=step, chosen=chosen),
                                 interaction)
