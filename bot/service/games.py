"""The game service: the one place that loads, locks, applies and saves games.

Every change to a game goes through here: the channel's lock is taken, the game is loaded, the
acting user and the state version are checked, the engine applies the action, storage commits
the new state with the action and its events in one transaction, and only then does the caller
answer the user. Computer seats play right after, one committed action each. A deadline per
waiting decision lets the computer decide for a player who takes too long (and expires a lobby
nobody starts). A game whose channel or server is gone ends as ``abandoned``.

:class:`GameService` is one object made of parts: the game store (storage, the open games'
cache, the channels' locks: :mod:`bot.service.store`), the deadlines
(:mod:`bot.service.deadlines`), the lobbies (:mod:`bot.service.lobby`) and the turns
(:mod:`bot.service.turns`: checking, committing and settling decisions).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, Final

from bot.errors import (
    GameNotRunning,
    LobbyError,
    NoGameHere,
    NotAllowed,
    StaleClick,
    UserError,
    WrongPlace,
)
from bot.rules.errors import Term
from bot.rules.gamelog import log_objects
from bot.rules.registry import kind_of
from bot.service import logs, replays
from bot.service.deadlines import Deadlines
from bot.service.lobby import Limits, Lobbies
from bot.service.model import Game, GameLog, Outcome, Person, Place
from bot.service.privacy import PersonalData
from bot.service.replays import Replay
from bot.service.review import Reviews
from bot.service.seasons import Seasons
from bot.service.servers import ServerSettings
from bot.service.store import GameStore
from bot.service.turns import STAND_IN_AI, Turns, closed_message
from bot.shards import ShardPlan
from storage import GameStatus, PingRow, ShownMessage, StaleVersion, Storage, WrongStatus

TIMEOUT_AI: Final = STAND_IN_AI
"""The level of the computer player that decides for a person who ran out of time."""

log = logging.getLogger("bot.service")

Listener = Callable[[Outcome, str], Awaitable[None]]
"""Told when the service moved a game on its own: ``"timeout"`` (a late decision, maybe with
a seat handed to the computer), ``"resume"`` (computer turns a crash left unplayed) or
``"expired"`` (a lobby nobody started)."""
Presence = Callable[[int, int], Awaitable[bool]]
"""``present(guild_id, user_id)``: whether the person is still a member of the server."""


def wall_ms() -> int:
    """Milliseconds since the epoch (the service's default clock)."""
    return int(time.time() * 1000)


async def _always_present(guild_id: int, user_id: int) -> bool:
    return True


class GameService:
    """Loads, locks, applies and saves games; plays computer seats and turn timeouts."""

    def __init__(
        self,
        db: Storage,
        *,
        clock: Callable[[], int] = wall_ms,
        default_timeout: int = 120,
        seed_source: Callable[[], int] = lambda: secrets.randbits(48),
        limits: Limits | None = None,
        retention_days: int = 30,
        plan: ShardPlan | None = None,
        present: Presence = _always_present,
    ) -> None:
        """Serve the games of ``db``; ``clock`` gives now in epoch ms; ``plan``: this process's
        shards (it runs the deadlines of their servers' games; default: every server);
        ``present``: whether a late player is still in the server (asked of Discord).
        """
        self.db = db
        self.clock = clock
        self.default_timeout = default_timeout
        self.seed_source = seed_source
        self.limits = limits or Limits()
        self.plan = plan or ShardPlan()
        self.store = GameStore(db)  # storage, the open games' cache, the channels' locks
        self.deadlines = Deadlines(db, clock, self._deadline_passed, self.plan)
        self.seasons = Seasons(db, clock, owns=self.plan.owns)
        self.turns = Turns(self.store, self.deadlines, clock, self.timeout_of,
                           season_of=self.seasons.at)
        self.servers = ServerSettings(db, clock)
        """A server's own settings (its games' language, threads, seasons)."""
        self.lobbies = Lobbies(self.store, self.deadlines, clock, limits=self.limits,
                               default_timeout=default_timeout,
                               seed=lambda: self.seed_source())  # the lobbies
        self.privacy = PersonalData(self, retention_days=retention_days)  # a person's data
        self.reviews = Reviews(db)  # finished games' reviews, kept in memory
        self.listeners: dict[str, Listener] = {}
        """Per game kind: told when the service moved a game on its own."""
        self.present = present
        self._resumed: set[int] = set()  # the shards whose games were resumed once ready

    # ------------------------------------------------------------------ reading

    def lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """``async with service.lock(channel)``: the channel's lock."""
        return self.store.lock(channel_id)

    def state_of(self, game: Game) -> Any:
        """The engine state of an active or finished game (cached while in play)."""
        return self.store.cache.state_of(game)

    async def recent(self, game: Game) -> list[Any]:
        """The game's most recent events, the engine's (the current round's at least)."""
        return await self.store.recent(game)

    async def get_game(self, game_id: int) -> Game | None:
        """The game with this id, or None."""
        return await self.store.get(game_id)

    async def open_games_of_guild(self, guild_id: int) -> list[Game]:
        """The server's games in the lobby or in play."""
        return await self.db.games.open_in_guild(guild_id)

    async def open_game(self, channel_id: int) -> Game | None:
        """The channel's game in the lobby or in play, if any."""
        return await self.db.games.open_in_channel(channel_id)

    async def game_in_channel(self, channel_id: int, kind: str | None = None) -> Game:
        """The channel's open game (of ``kind`` if given), or a NoGameHere error."""
        game = await self.db.games.open_in_channel(channel_id)
        if game is None or (kind is not None and game.kind != kind):
            title = kind_of(kind).title if kind else "game"
            raise NoGameHere("There is no {game} game in this channel: start one with "
                             "/{kind} new.", game=Term(title), kind=kind or "royale")
        return game

    async def game_log(self, channel_id: int, kind: str) -> GameLog:
        """The log of the channel's latest played game of ``kind`` (:mod:`bot.service.logs`)."""
        return await logs.latest_log(self.db, channel_id, kind)

    async def log_of(self, game: Game) -> GameLog:
        """The log of ``game`` as it may be shown now (seedless while the game is open)."""
        return await logs.log_of(self.db, game)

    async def replay(self, place: Place, game_id: int | None = None, kind: str | None = None
                     ) -> Replay:
        """A finished game of the server, step by step (:func:`~bot.service.replays.replay_of`)."""
        return await replays.replay_of(self.db, place, game_id, kind)

    async def check_server(self, game_id: int, guild_id: int) -> None:
        """Refuse a component of another server's game (for the verbs usable anywhere in it)."""
        await replays.check_server(self.db, game_id, guild_id)

    async def check_place(self, game_id: int, place: Place) -> None:
        """Refuse a component used outside its game's channel (a forged or copied one)."""
        channel = self.store.cache.channel_of(game_id)
        if channel is None:
            game = await self.get_game(game_id)
            if game is None:
                raise NoGameHere("That game no longer exists.")
            channel = game.channel_id
        if channel != place.channel_id:
            raise WrongPlace("That button belongs to a game in another channel.")

    async def move_to_thread(self, game_id: int, thread_id: int) -> Game:
        """The game plays on in a thread of its channel (its lobby channel keeps the lobby
        and gets the result); its buttons do not change.
        """
        async with await self.store.lock_of(game_id):
            game = await self.db.games.move_to_thread(game_id, thread_id)
            self.store.cache.release(game.id)
            self.store.cache.note(game)
            return game

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the game's current Discord message (where its buttons are)."""
        await self.db.games.set_message(game_id, message_id)

    def timeout_of(self, game: Game) -> int:
        """Seconds a person has for one decision in this game."""
        return int(game.settings.get("turn_timeout", self.default_timeout))

    @property
    def pending_timers(self) -> int:
        """How many deadlines (turns, lobbies) are armed."""
        return len(self.deadlines)

    # ------------------------------------------------------------------ play

    async def start(self, game_id: int, who: Person, *, loaded: Game | None = None
                    ) -> Outcome:
        """Deal the game and play computer seats up to the first human decision (``loaded``:
        the lobby as the caller just read it; its version guards the start).
        """
        async with await self.store.lock_of(game_id):
            game = loaded if loaded is not None and loaded.id == game_id \
                else await self.store.load(game_id)
            if game.status != GameStatus.LOBBY:
                raise GameNotRunning("This game has already started or ended.")
            if who.id != game.host_id:
                raise NotAllowed("Only the host can start the game.")
            kind = kind_of(game.kind)
            if len(game.players) < kind.min_players:
                raise LobbyError("{game} needs at least {n} players: ask someone to join or "
                                 "add a computer player.", game=Term(kind.title),
                                 n=kind.min_players)
            rules = {k: v for k, v in game.settings.items() if k in kind.rule_options}
            state, events = kind.engine.new_game([p.token for p in game.players], game.seed,
                                                 rules)
            objs = list(log_objects(f"{game.id}", events))
            try:  # version-guarded: another process may have changed the lobby meanwhile
                game = await self.db.games.start(game.id, game.version,
                                                 kind.engine.state_to_json(state), objs,
                                                 self.turns.deadline(game, state), self.clock())
            except StaleVersion:
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:
                raise GameNotRunning("This game has already started or ended.") from None
            self.store.cache.remember(game, state)
            self.store.cache.keep_recent(game, list(events))
            outcome = Outcome(game, state, start_events=list(events))
            return await self.turns.settle(outcome)

    async def check_turn(self, game_id: int, user_id: int, version: int
                         ) -> tuple[Game, Any, int]:
        """The game, its state and the seat, if ``user_id`` may decide now (nothing changes)."""
        game = await self.store.load(game_id)
        state, seat = self.turns.check(game, user_id, version)
        return game, state, seat

    async def act(self, game_id: int, user_id: int, version: int,
                  build: Callable[[Any, int], Any]) -> Outcome:
        """Apply the action ``build(state, seat)`` for ``user_id``, if it is their turn and
        the click is not stale; then let computer seats play.
        """
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            state, seat = self.turns.check(game, user_id, version)
            outcome = Outcome(game, state)
            await self.turns.commit(outcome, build(state, seat), "player")
            return await self.turns.settle(outcome)

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        """The player hands their seat to the computer for the rest of the game (unrated)."""
        return await self.stand_in(game_id, str(user_id), "resigned")

    async def player_left(self, game_id: int, user_id: int) -> Outcome | None:
        """The player left the server: the computer plays their seat from now on (unrated).
        None when they have no seat a person still plays.
        """
        try:
            return await self.stand_in(game_id, str(user_id), "left")
        except UserError:
            return None

    async def timeout(self, game_id: int, version: int, *, left: bool = False
                      ) -> Outcome | None:
        """The waiting player ran out of time: the computer decides for their seat (for the
        rest of the game if they ``left`` the server).
        """
        game = await self.db.games.get(game_id)
        if game is None or not game.is_open:
            self.store.cache.release(game_id)
            return None
        async with self.lock(game.channel_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.ACTIVE or game.version != version or game.paused:
                self.deadlines.arm(game)  # moved on (maybe by another process): chase its deadline
                return None
            state = self.state_of(game)
            seat = kind_of(game.kind).engine.current_seat(state)
            if seat is None:
                return None
            if left:
                return await self.turns.stand_in(game, state, seat, "left")
            outcome = Outcome(game, state)
            await self.turns.play_late_turn(outcome, seat)
            if not outcome.steps:
                return None
            return await self.turns.settle(outcome)

    async def stand_in(self, game_id: int, player_id: str, reason: str) -> Outcome:
        """The computer plays the person's seat from now on (resigned, left, forgotten)."""
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.ACTIVE:
                raise GameNotRunning(closed_message(game))
            seats = [p.seat for p in game.players
                     if p.player_id == player_id and not p.by_computer]
            if not seats:
                raise NotAllowed("You're not playing in this game (or the computer already "
                                 "plays your seat).")
            return await self.turns.stand_in(game, self.state_of(game), seats[0], reason)

    # ------------------------------------------------------------------ channels and servers

    async def abandon_channel(self, channel_id: int, reason: str) -> list[Game]:
        """The channel is gone (or the bot can no longer see it): its open games end as
        ``abandoned`` (no results, no ratings), their deadlines disarmed.
        """
        async with self.lock(channel_id):
            return self._abandoned(await self.db.games.abandon(
                channel_id=channel_id, reason=reason, now_ms=self.clock()), reason)

    async def abandon_guild(self, guild_id: int, reason: str) -> list[Game]:
        """The bot left the server: every open game there ends as ``abandoned``."""
        return self._abandoned(await self.db.games.abandon(
            guild_id=guild_id, reason=reason, now_ms=self.clock()), reason)

    def _abandoned(self, games: list[Game], reason: str) -> list[Game]:
        for game in games:
            self._ended(game)
            log.info("game %s abandoned: %s", game.id, reason)
        return games

    async def pause(self, game_id: int, reason: str) -> Game:
        """Stop the game's deadline until :meth:`unpause` (the bot may not post there)."""
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.ACTIVE or game.paused == reason:
                return game
            game = await self.db.games.set_paused(game.id, reason, None)
            self.deadlines.arm(game)
            log.info("game %s paused: %s", game.id, reason)
            return game

    async def unpause(self, game_id: int) -> Game:
        """Start a paused game's clock again: the waiting player gets a whole turn."""
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.ACTIVE or game.paused is None:
                return game
            state = self.state_of(game)
            deadline = self.turns.deadline(replace(game, paused=None), state)
            game = await self.db.games.set_paused(game.id, None, deadline)
            self.deadlines.arm(game)
            return game

    # ------------------------------------------------------------------ deadlines, start-up

    def _ended(self, game: Game) -> Game:
        self.lobbies.ended(game)
        return game

    async def _deadline_passed(self, game_id: int, version: int) -> None:
        game = await self.db.games.get(game_id)
        if game is None or not game.is_open:
            self.store.cache.release(game_id)
            return
        if game.status == GameStatus.LOBBY:
            await self._expire(game)
            return
        left = False
        if game.version == version and game.paused is None:
            state = self.state_of(game)
            seat = kind_of(game.kind).engine.current_seat(state)
            if seat is not None and not game.players[seat].by_computer:
                left = not await self._is_present(game, game.players[seat].player_id)
        outcome = await self.timeout(game_id, version, left=left)
        if outcome is not None:
            await self._tell(outcome, "timeout")

    async def _is_present(self, game: Game, player_id: str) -> bool:
        try:
            return await self.present(game.guild_id, int(player_id))
        except Exception:
            log.warning("game %s: could not check whether %s is still in the server", game.id,
                        player_id, exc_info=True)
            return True

    async def _expire(self, game: Game) -> None:
        expired = await self.lobbies.expire(game.id)
        if expired is not None:
            await self._tell(Outcome(expired, None), "expired")

    async def _tell(self, outcome: Outcome, reason: str) -> None:
        listener = self.listeners.get(outcome.game.kind)
        if listener is not None:
            await listener(outcome, reason)

    def hold_deadlines(self, shard: int = 0) -> None:
        """A shard cannot hear its players (its gateway is down): none of its deadlines runs
        out.
        """
        self.deadlines.hold(shard)

    async def release_deadlines(self, shard: int = 0) -> dict[int, int]:
        """A shard hears its players again: each of its deadlines moves on by the time it was
        held. Returns the moved ones: game id -> new deadline.
        """
        return await self.deadlines.release(shard)

    async def heard(self) -> None:
        """Write that this process's connected shards hear their players now (every few
        seconds: :data:`bot.service.deadlines.HEARD_EVERY_S`).
        """
        await self.deadlines.heard()

    async def restore(self) -> list[Game]:
        """At start-up, before the gateway connects: remember every open game this process
        owns and arm its deadline, held until its shard is ready (:meth:`shard_ready`).
        Nothing is played and nothing is sent before then.
        """
        await self.deadlines.hold_until_ready()
        games = [g for g in await self.db.games.all_open() if self.deadlines.owns(g.guild_id)]
        for game in games:
            self.store.cache.note(game)
            self.deadlines.arm(game)
        return games

    def on_shard(self, guild_id: int, shard: int) -> bool:
        """Whether this process owns the server's games and the server is on ``shard``."""
        return self.plan.owns(guild_id) and self.plan.shard_of(guild_id) == shard

    async def servers_gone(self, shard: int, guild_ids: Collection[int]) -> list[Game]:
        """A shard is ready, its READY listing ``guild_ids`` (available or not): a server of
        this shard with open games that is not among them removed the bot while it was away.
        Its games end as abandoned and its departure is recorded (as :meth:`PersonalData.departed`
        does); returns those games.
        """
        present = set(guild_ids)
        gone: list[Game] = []
        for guild_id in await self.db.games.open_guilds():
            if self.on_shard(guild_id, shard) and guild_id not in present:
                log.info("server %s removed the bot while it was away", guild_id)
                gone.extend(await self.privacy.departed(
                    guild_id, "bot removed from the server while it was away"))
        return gone

    async def resume_shard(self, shard: int) -> None:
        """The first time a shard is ready: the computer seats a crash left waiting play in
        its games (each told as ``"resume"``).
        """
        if shard in self._resumed:
            return
        self._resumed.add(shard)
        for game in await self.db.games.all_open():
            if not self.on_shard(game.guild_id, shard) or game.status != GameStatus.ACTIVE \
                    or game.deadline_ms is not None or game.paused:
                continue
            try:
                outcome = await self._resume_computers(game.id)
                if outcome is not None:
                    await self._tell(outcome, "resume")
            except Exception:
                log.exception("could not resume game %s", game.id)

    async def open_games_of_shard(self, shard: int) -> list[Game]:
        """The open games of this process on ``shard``, oldest first."""
        return [g for g in await self.db.games.all_open() if self.on_shard(g.guild_id, shard)]

    # ------------------------------------------------------------------ what the bot has shown

    async def shown(self, channel_id: int, message_ids: Sequence[int]) -> list[ShownMessage]:
        """Which of these messages of a channel are the board of an open game this process
        owns, or one of its pings.
        """
        return [s for s in await self.db.shown.of_messages(channel_id, message_ids)
                if self.plan.owns(s.guild_id)]

    async def ping_asked(self, game: Game, people: Sequence[str], board_id: int | None, *,
                         message_id: int | None = None, retired: Sequence[int] = ()) -> int:
        """Record a ping of ``game`` about to be posted (or posted as ``message_id``: its
        board, posted with its mentions), and that ``retired`` pings stand no more; returns
        its id.
        """
        return await self.db.shown.ping_asked(
            game_id=game.id, guild_id=game.guild_id, channel_id=game.channel_id,
            people=people, board_id=board_id, version=game.version, now_ms=self.clock(),
            message_id=message_id, retired=retired)

    async def ping_posted(self, ping_id: int, message_id: int | None,
                          retired: Sequence[int] = ()) -> None:
        """The ping is posted as ``message_id`` (None: it was not), and ``retired`` pings stand
        no more.
        """
        await self.db.shown.ping_posted(ping_id, message_id, retired)

    async def pings_retired(self, ping_ids: Sequence[int]) -> None:
        """These pings stand no more (their messages are to be deleted)."""
        await self.db.shown.retire(ping_ids)

    async def pings_gone(self, ping_ids: Sequence[int]) -> None:
        """These pings' messages are deleted."""
        await self.db.shown.forget(ping_ids)

    async def pings_of_shard(self, shard: int) -> list[PingRow]:
        """The recorded pings of this process's games on ``shard`` (after a restart)."""
        return [p for p in await self.db.shown.all_pings() if self.on_shard(p.guild_id, shard)]

    async def _resume_computers(self, game_id: int) -> Outcome | None:
        async with await self.store.lock_of(game_id):
            game = await self.store.load(game_id)
            if game.status != GameStatus.ACTIVE:
                return None
            outcome = await self.turns.settle(Outcome(game, self.state_of(game)))
            return outcome if outcome.steps else None

    async def close(self) -> None:
        """Stop every deadline (the database is closed by its owner)."""
        await self.deadlines.close()
