"""A game's log as it may be shown: complete once the game is over; while it is open the
setup's seed is left out (it would predict every roll to come).
"""

from __future__ import annotations

from typing import Any

from bot.errors import NoGameHere
from bot.rules.errors import Term
from bot.rules.registry import kind_of
from bot.service.model import GameLog
from storage import Game, Storage, relabel


async def latest_log(db: Storage, channel_id: int, kind: str) -> GameLog:
    """The log of the channel's current or most recent game of ``kind`` that was played
    (lobbies that never started are skipped).
    """
    game = await db.games.latest_played_in_channel(channel_id, kind)
    if game is None:
        raise NoGameHere("No {game} game has been played in this channel yet.",
                         game=Term(kind_of(kind).title))
    return await log_of(db, game)


async def log_of(db: Storage, game: Game) -> GameLog:
    """The log of ``game`` as it may be shown now: its people named by their Discord ids (the
    stored log names them by seat, ``p1``...; a forgotten person by their pseudonym).
    """
    events = relabel(await db.games.events(game.id), people_of(game))
    complete = not game.is_open
    if not complete:
        events = [_without_seed(e) for e in events]
    return GameLog(game, events, complete)


def people_of(game: Game) -> dict[str, str]:
    """The game's people: their token in its stored log -> their id."""
    return {p.token: p.player_id for p in game.players if not p.is_bot}


def _without_seed(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("event") != "setup" or "seed" not in event:
        return event
    return {k: v for k, v in event.items() if k != "seed"}
