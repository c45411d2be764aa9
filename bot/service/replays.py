"""A finished game again, step by step: its :class:`Replay`, rebuilt from its stored log.

The log is read as it may be shown (:func:`bot.service.logs.log_of`: people by their Discord
ids) and replayed by the kind's engine (:func:`bot.rules.replay.replay_steps`) in a worker
thread, so the event loop never waits on it. Nothing is kept: every step shown is rebuilt from
the log, which is how the replay's buttons keep working after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace

from bot.errors import GameNotRunning, NoGameHere, WrongPlace
from bot.rules.errors import Term
from bot.rules.registry import kind_of
from bot.rules.replay import Frame, replay_steps
from bot.service import logs
from bot.service.model import Place
from storage import OPEN_STATUSES, Game, GameStatus, Storage

log = logging.getLogger("bot.service.replays")


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished game's steps (rounds, turns), the first first."""

    game: Game
    frames: tuple[Frame, ...]

    def frame(self, step: int) -> Frame:
        """The frame of ``step``, held to the steps there are (1 to the last)."""
        return self.frames[min(max(step, 1), len(self.frames)) - 1]


async def replay_of(db: Storage, place: Place, game_id: int | None = None,
                    kind: str | None = None) -> Replay:
    """The replay of game ``game_id``, a finished game of ``place``'s server (of ``kind`` when
    given), or with no ``game_id`` of the last game of ``kind`` played in ``place``'s channel;
    a clear error for any other game.
    """
    if game_id is None:
        if kind is None:
            raise ValueError("a replay needs a game or a kind")
        game = await db.games.latest_played_in_channel(place.channel_id, kind)
        if game is None:
            raise NoGameHere("No {game} game has been played in this channel yet.",
                             game=Term(kind_of(kind).title))
    else:
        game = await db.games.get(game_id)
    if game is None or game.guild_id != place.guild_id \
            or (kind is not None and game.kind != kind):
        if kind is None:
            raise NoGameHere("There is no game {id} in this server.", id=game_id)
        raise NoGameHere("There is no {game} game {id} in this server.",
                         game=Term(kind_of(kind).title), id=game_id)
    entry = kind_of(game.kind)
    if entry.progress is None:
        raise GameNotRunning("Game {id} has no replay.", id=game.id)
    if game.status in OPEN_STATUSES:
        raise GameNotRunning("Game {id} is not over yet: its replay opens when it ends.",
                             id=game.id)
    if game.status != GameStatus.FINISHED:
        raise GameNotRunning("Game {id} was not played to its end: it has no replay.",
                             id=game.id)
    shown = await logs.log_of(db, game)
    logged = await asyncio.to_thread(replay_steps, entry, shown.events)
    players = tuple(shown.events[0].get("players", ())) if shown.events else ()
    frames = [replace(f, events=tuple(entry.read_event(e, players) for e in f.events))
              for f in logged]
    if len(frames) < entry.progress.steps:
        log.warning("game %s: its log replays to %d of %d steps", game.id, len(frames),
                    entry.progress.steps)
    if not frames:
        raise GameNotRunning("Game {id} has no replay.", id=game.id)
    return Replay(game, tuple(frames))


async def check_server(db: Storage, game_id: int, guild_id: int) -> None:
    """Refuse a component of a game of another server than ``guild_id``: the verbs that only
    read a finished game (the replay's steps) work in any channel of its own server.
    """
    game = await db.games.get(game_id)
    if game is None:
        raise NoGameHere("That game no longer exists.")
    if game.guild_id != guild_id:
        raise WrongPlace("That button belongs to a game of another server.")
