"""What every game kind's presenter (``cogs/<kind>/card.py``) shares: :class:`Presenter`."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, ClassVar, Final

import discord

from bot.rules.registry import kind_of
from bot.service.lobby import is_slow
from ui.board import Boards, Card, ReplayPage, emojis_shown, jump_link
from ui.ending import announce_end, earned_line, ending_card, standings_text
from ui.i18n import for_game
from ui.lobby import lobby_expired

if TYPE_CHECKING:
    from bot.rules.replay import Frame
    from bot.service import Game, GameService, Outcome, StatsService
    from ui.cards import Emojis
    from ui.i18n import Tr


MISSED_LINES: Final = 6
"""The moves a slow game's ping lists, the latest ones."""


class Presenter:
    """A game kind's cards from the stored game, and what each outcome of the service changes
    on its board.
    """

    picture_name: ClassVar[str]
    """The file name of the kind's card picture."""
    resumed: ClassVar[str] = ""
    """The note on a board a restart moved on ("": none)."""

    def __init__(self, boards: Boards, stats: StatsService, emojis: Emojis) -> None:
        self.boards = boards
        self.service: GameService = boards.service
        self.stats = stats
        self.emojis = emojis

    def _emojis(self, game: Game) -> Emojis:
        return emojis_shown(self.boards.client, game, self.emojis)

    async def current(self, game: Game, *, tr: Tr | None = None) -> Card:
        """The game's board as it should look now (in ``tr``'s language: a private copy)."""
        raise NotImplementedError

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed (answering ``interaction`` if given)."""
        raise NotImplementedError

    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage:
        """One step of the finished game's replay, in ``tr``'s language."""
        raise NotImplementedError

    def moves_since(self, tr: Tr, game: Game, state: Any, events: list[Any]) -> list[str]:
        """A line per move in ``events`` (the engine's, oldest first), for a slow game's ping."""
        raise NotImplementedError

    def your_turn(self, tr: Tr, state: Any) -> str:
        """The words of the ping to whoever must decide in ``state``."""
        raise NotImplementedError

    async def end_picture(self, game: Game, state: Any, tr: Tr) -> tuple[bytes, str]:
        """The game-over card's picture (PNG) and its words for screen readers."""
        raise NotImplementedError

    async def board(self, game: Game) -> Card:
        """The board to post anew: the lobby, or the game with its picture."""
        return await self.current(game)

    async def moved(self, outcome: Outcome, reason: str) -> None:
        """The service moved the game on its own (``reason``: :data:`bot.service.Listener`)."""
        if reason == "expired":
            await lobby_expired(self.boards, outcome.game)
            return
        if reason == "remind":
            await self.remind(outcome.game, outcome.state)
            return
        resumed = reason == "resume" and self.resumed
        await self.show(outcome, note=for_game(outcome.game)(self.resumed) if resumed else "")

    async def remind(self, game: Game, state: Any) -> None:
        """Remind the player a slow game waits on, once before its deadline: by a new message
        that mentions them (an edit notifies nobody), or by a direct message if they chose it
        and Discord lets the bot send it.
        """
        seat = kind_of(game.kind).engine.current_seat(state)
        if seat is None or game.players[seat].by_computer or game.deadline_ms is None:
            return
        player = game.players[seat].player_id
        tr = for_game(game)
        words = tr("⏰ {ask} Past {when}, the computer plays it.",
                   ask=self.your_turn(tr, state), when=f"<t:{game.deadline_ms // 1000}:R>")
        text = f"{words} {jump_link(game, self.boards.message_of(game))}"
        text = (text + await self.missed(tr, game, state, seat)).strip()
        prefs = await self.service.reminders_of(player)
        if prefs is not None and prefs.by_dm and await self.boards.direct(int(player), text):
            return
        await self.boards.ping(game, [player], text, again=True)

    async def prompt_current(self, game: Game) -> None:
        """Ping the player who must decide now (:meth:`ui.board.Boards.ping`)."""
        state = self.service.state_of(game)
        seat = kind_of(game.kind).engine.current_seat(state)
        if seat is None or game.players[seat].by_computer:
            await self.boards.unping(game)
            return
        tr = for_game(game)
        words = f"{self.your_turn(tr, state)} {jump_link(game, self.boards.message_of(game))}"
        words += await self.missed(tr, game, state, seat)
        await self.boards.ping(game, [game.players[seat].player_id], words.strip())

    async def missed(self, tr: Tr, game: Game, state: Any, seat: int) -> str:
        """In a slow game, the lines of what happened since ``seat``'s last decision (its
        latest moves, in small print), else nothing.
        """
        if not is_slow(game):
            return ""
        lines = self.moves_since(tr, game, state, await self.service.since_last_move(game, seat))
        if not lines:
            return ""
        return "\n-# " + tr("Since your last move:") + "".join(
            f"\n-# {line}" for line in lines[-MISSED_LINES:])

    async def announce_end(self, game: Game, state: Any,
                           interaction: discord.Interaction[Any] | None = None) -> None:
        """The game-over card: everyone pinged, the winner, the final picture, the buttons."""
        tr = for_game(game)
        png, words = await self.end_picture(game, state, tr)
        totals = kind_of(game.kind).engine.totals(state)
        card = ending_card(game, totals, self.boards,
                           [discord.File(io.BytesIO(png), filename=self.picture_name)],
                           self.picture_name, earned=await earned_line(self.stats, game),
                           description=words)
        await announce_end(self.boards, game, card, standings_text(tr, game, totals),
                           interaction)
