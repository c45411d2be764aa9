"""The rules of a turn the game service applies: which computer decides for a seat, with which
seed, why a closed game takes no decision, and a finished game's results.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from bot.errors import GameNotRunning, GamePaused, NotYourTurnError, StaleClick
from bot.ratings import rate_game
from bot.rules.levels import NORMAL
from bot.rules.registry import GameKind, kind_of
from bot.service.achievements import award_for
from bot.service.lobby import HOST_PAUSE
from bot.service.model import Person, cpu_level
from bot.service.season_calendar import SeasonWindow
from storage import ENDED_WITHOUT_RESULTS, Finish, Game, GameStatus

STAND_IN_AI: Final = NORMAL
"""The level of the computer that decides for a person who ran out of time or left."""

SeasonOf = Callable[[int, int], Awaitable[SeasonWindow | None]]
"""``season_of(guild_id, now_ms)``: the server's season at that time (None: it runs none)."""


async def no_seasons(guild_id: int, now_ms: int) -> SeasonWindow | None:
    """The season of a bot that runs none."""
    return None


def ai_seed(game: Game, seat: int) -> int:
    """The seed of the computer that decides for ``seat`` at the game's current version."""
    return (game.seed * 1_009 + game.version * 31 + seat) % (2**62)


def level_of(game: Game, seat: int) -> str:
    """The level of the computer deciding for ``seat`` (a computer player or a stand-in)."""
    player = game.players[seat]
    if player.is_bot:
        return cpu_level(player.player_id, game.settings.get("ai", NORMAL))
    return STAND_IN_AI


def seat_of_decider(game: Game, state: Any, who: Person, version: int) -> int:
    """The seat ``who`` decides for in ``game`` at ``version`` (its engine ``state``), or the
    error they read: the game is closed or paused, the click is stale, or it is not their turn.
    """
    if game.status != GameStatus.ACTIVE:
        raise GameNotRunning(closed_message(game))
    if game.version != version:
        raise StaleClick("That button is from an earlier moment of the game: use the "
                         "latest message.")
    if game.paused == HOST_PAUSE:
        raise GamePaused("The host paused this game: /{kind} resume starts it again.",
                         kind=game.kind)
    if game.paused is not None:
        raise GamePaused("This game is paused until I can post in this channel again: a "
                         "server admin can grant me the permissions, then use /{kind} "
                         "board.", kind=game.kind)
    seat = kind_of(game.kind).engine.current_seat(state)
    if seat is None:  # pragma: no cover - an active game always waits on someone
        raise GameNotRunning("This game is over.")
    if game.players[seat].player_id != who.player_id:
        name = game.players[seat].display_name
        if who.player_id in game.player_ids:
            raise NotYourTurnError("It's {player}'s turn, not yours.", player=name)
        raise NotYourTurnError("You're not playing in this game: it's {player}'s turn.",
                               player=name)
    return seat


def closed_message(game: Game) -> str:
    """Why a game takes no more decisions."""
    if game.status == GameStatus.FINISHED:
        return "This game is over."
    if game.status in ENDED_WITHOUT_RESULTS:
        return "This game was cancelled."
    return "This game hasn't started yet."


def results_of(game: Game, kind: GameKind[Any, Any], state: Any,
            season: SeasonWindow | None) -> Finish:
    """The results of a game that just ended: seats the computer played for a person who left
    or resigned take their place but get no result and no rating; what its people earned
    (in ``season`` too) is kept with them.
    """
    engine = kind.engine
    totals = engine.totals(state)
    scores = {p.player_id: totals[p.seat] for p in game.players}
    winners = [game.players[i].player_id for i in engine.winners(state)]
    unrated = {p.player_id for p in game.players if p.stand_in is not None}
    rated = {p: s for p, s in scores.items() if p not in unrated}
    return Finish(scores=scores, winners=[w for w in winners if w not in unrated],
                  rate=lambda current: rate_game(current, rated), unrated=unrated,
                  award=award_for(game, season),
                  season=None if season is None else (season.start_ms, season.end_ms))
