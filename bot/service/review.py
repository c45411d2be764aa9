"""Game reviews: a finished game's decisions of one player, judged by the game's strongest
player (:mod:`bot.rules.review`).

The review is computed from the game's seed and its stored action log (replayed through the
engine), in a worker thread (``asyncio.to_thread``: the look-ahead takes up to a few seconds,
and the event loop goes on meanwhile), and kept in memory per game and seat: a second request
is answered at once, and requests made while it is computed wait for the same computation.
The memory is this process's only (a restart computes again: the same review, it is seeded).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from bot.errors import NoGameHere, UserError
from bot.rules.errors import Term
from bot.rules.registry import kind_of
from bot.rules.review import Review, review_seat
from bot.service.model import Place
from storage import Game, GameStatus, Storage

KEPT: Final = 256
"""Reviews kept in memory (the least recently asked for go first)."""


@dataclass(frozen=True, slots=True)
class GameReview:
    """A player's review of one game: the game (its seats name the players the options
    mention by their tokens) and the verdicts.
    """

    game: Game
    review: Review


class Reviews:
    """Computes and keeps game reviews."""

    def __init__(self, db: Storage) -> None:
        self.db = db
        self._kept: OrderedDict[tuple[int, int], asyncio.Future[Review]] = OrderedDict()

    async def find(self, place: Place, kind: str, game_id: int | None) -> Game:
        """Game ``game_id`` of ``kind`` in this server, or the channel's most recent game of
        ``kind`` that was played; refused if it is not over.
        """
        title = Term(kind_of(kind).title)
        if game_id is None:
            game = await self.db.games.latest_played_in_channel(place.channel_id, kind)
            if game is None:
                raise NoGameHere("No {game} game has been played in this channel yet.",
                                 game=title)
        else:
            found = await self.db.games.get(game_id)
            if found is None or found.guild_id != place.guild_id or found.kind != kind:
                raise UserError("There is no {game} game {id} in this server.", game=title,
                                id=game_id)
            game = found
        if game.status != GameStatus.FINISHED:
            raise UserError("Game {id} is not over: its review comes when it ends.",
                            id=game.id)
        return game

    async def review(self, game: Game, user_id: int) -> GameReview:
        """``user_id``'s review of the finished ``game`` (computed once, then kept)."""
        if game.status != GameStatus.FINISHED:
            raise UserError("Game {id} is not over: its review comes when it ends.",
                            id=game.id)
        seat = next((p.seat for p in game.players
                     if not p.is_bot and p.player_id == str(user_id)), None)
        if seat is None:
            raise UserError("You didn't play in game {id}: a review is for its players.",
                            id=game.id)
        key = (game.id, seat)
        kept = self._kept.get(key)
        if kept is None:
            kept = asyncio.get_running_loop().create_future()
            self._kept[key] = kept
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
            try:
                kept.set_result(await self._compute(game, seat))
            except BaseException as exc:
                kept.set_exception(exc)
                kept.exception()  # retrieved: whoever waits on it is told by raising
                self._kept.pop(key, None)
                raise
        else:
            self._kept.move_to_end(key)
        return GameReview(game, await asyncio.shield(kept))

    async def _compute(self, game: Game, seat: int) -> Review:
        kind = kind_of(game.kind)
        if kind.reviewer is None:
            raise UserError("{game} games have no review.", game=Term(kind.title))
        token = game.players[seat].token
        rows = await self.db.games.action_log(game.id)
        actions = [(row.action, row.actor == token) for row in rows]
        rules = {k: v for k, v in game.settings.items() if k in kind.rule_options}
        players = [p.token for p in game.players]
        return await asyncio.to_thread(review_seat, kind.engine, kind.reviewer, players,
                                       game.seed, rules, actions, seat)
