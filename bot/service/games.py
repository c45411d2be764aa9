"""The game service: the one place that loads, locks, applies and saves games.

Every change to a game goes through here: the channel's lock is taken, the game is loaded, the
acting person and the state version are checked, the engine applies the action, storage commits
the new state with the action and its events in one transaction, and only then does the caller
answer the user. Computer seats play right after, one committed action each. A deadline per
waiting decision lets the computer decide for a player who takes too long (and expires a lobby
nobody starts). A game whose channel or server is gone ends as ``abandoned``.

What :class:`GameService` owns and the rules beside it: docs/architecture.md, *The services*.

Deadlines never run out while the bot cannot hear the players they wait on: a shard's timers
are held while its gateway is down and from start-up until it is ready, and when released each
deadline moves on by the time lost (stored, so a later restart keeps it). While a shard is
connected its hearing is written every few seconds (:meth:`GameService.heard`, the bot's
heartbeat: :mod:`bot.health`), so after a restart of any length each deadline is held from when
its shard last heard its players.
"""

from __future__ import annotations

import asyncio
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
from bot.rules.levels import HARD, NORMAL
from bot.rules.registry import default_kind, kind_of
from bot.service import logs, replays
from bot.service.cache import GameCache
from bot.service.lobby import (
    HOST_PAUSE,
    THREAD,
    Limits,
    NewSettings,
    by_app,
    check_level,
    checked_settings,
    host_seat,
    is_slow,
    seats_with,
    seats_with_computer,
    seats_without,
)
from bot.service.locks import KeyedLocks
from bot.service.model import GameLog, Outcome, Person, Place, Step, cpu_level, is_person
from bot.service.quiet_hours import (
    MAX_LEAD_MS,
    QuietHours,
    quiet_hours,
    reminder_time,
    slow_deadline,
)
from bot.service.replays import Replay
from bot.service.timers import TurnTimers
from bot.service.turns import (
    STAND_IN_AI,
    SeasonOf,
    ai_seed,
    closed_message,
    level_of,
    no_seasons,
    results_of,
    seat_of_decider,
)
from bot.shards import ShardPlan
from storage import (
    ChannelBusy,
    Game,
    GameStatus,
    PingRow,
    Reach,
    ReminderPrefs,
    Seat,
    ServerDefaults,
    ShownMessage,
    StaleVersion,
    Storage,
    StorageError,
    TooManyOpen,
    WrongStatus,
)

SLOW_HORIZON_MS: Final = 15 * 60_000
"""A slow game's deadline (or reminder) further away than this holds no timer and no cache
entry: waiting slow games cost no memory, and the sweep arms each one as it comes within
reach. The sweep sleeps until the next stored deadline is near (at least :data:`SWEEP_S`, at
most :data:`SWEEP_LONGEST_S`), and a game put out of reach sooner than that wakes it."""
SWEEP_S: Final = 5 * 60
SWEEP_LONGEST_S: Final = 6 * 3600
APP_SHOWS_MS: Final = 14 * 60_000
"""How long after an interaction a game played through the app can still show what happens:
an interaction's token lives 15 minutes, less a minute for the work. A turn's timer of such a
game is armed only when it fires within this of the last interaction on it, and one turn times
out per interaction (what it shows takes a few of the interaction's 5 followups); otherwise the
game waits for its next interaction (:meth:`GameService.wake`)."""

TIMEOUT_AI: Final = STAND_IN_AI
"""The level of the computer player that decides for a person who ran out of time."""

log = logging.getLogger("bot.service")

Listener = Callable[[Outcome, str], Awaitable[None]]
"""Told when the service moved a game on its own: ``"timeout"`` (a late decision, maybe with
a seat handed to the computer), ``"resume"`` (computer turns a crash left unplayed) or
``"expired"`` (a lobby nobody started)."""
Membership = Callable[[int, int], Awaitable[bool]]
"""``is_member(guild_id, user_id)``: whether the person is still a member of the server."""


def wall_ms() -> int:
    """Milliseconds since the epoch (the service's default clock)."""
    return int(time.time() * 1000)


async def _always_member(guild_id: int, user_id: int) -> bool:
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
        plan: ShardPlan | None = None,
        is_member: Membership = _always_member,
        season_of: SeasonOf = no_seasons,
    ) -> None:
        """Serve the games of ``db``; ``clock`` gives now in epoch ms; ``plan``: this process's
        shards (it runs the deadlines of their servers' games; default: every server);
        ``is_member``: whether a late player is still in the server (asked of Discord);
        ``season_of``: the season a finished game counts for.
        """
        self.db = db  # its owner closes it
        self.clock = clock
        self.default_timeout = default_timeout
        self.seed_source = seed_source
        self.limits = limits or Limits()
        self.plan = plan or ShardPlan()
        self.listeners: dict[str, Listener] = {}
        """Per game kind: told when the service moved a game on its own."""
        self._is_member = is_member
        self._season_of = season_of
        self._cache = GameCache()
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._timers = TurnTimers(clock, self._deadline_passed)
        self._connected: set[int] = set()  # the shards that hear their players now
        self._resumed: set[int] = set()  # the shards whose games were resumed once ready
        self._sweeper: asyncio.Task[None] | None = None
        self._sweep_at = 0  # when the sweep wakes next (epoch ms)
        self._sweep_woken = False
        self._heard: dict[int, int] = {}  # games played through the app: their last interaction

    # ------------------------------------------------------------------ reading

    def lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """``async with service.lock(channel)``: the channel's lock."""
        return self._locks.hold(channel_id)

    async def _lock_of(self, game_id: int) -> AbstractAsyncContextManager[None]:
        channel = self._cache.channel_of(game_id)
        if channel is None:
            channel = (await self._load(game_id)).channel_id
        return self.lock(channel)

    async def _load(self, game_id: int) -> Game:
        game = await self.get_game(game_id)
        if game is None:
            raise NoGameHere("That game no longer exists.")
        return game

    def state_of(self, game: Game) -> Any:
        """The engine state of an active or finished game (cached while in play)."""
        return self._cache.state_of(game)

    async def recent(self, game: Game) -> list[Any]:
        """The game's most recent events, the engine's (those of the current round at least),
        read back from its stored log when they are not in memory.
        """
        kept = self._cache.recent(game)
        if kept is None:
            kind = kind_of(game.kind)
            tokens = tuple(p.token for p in game.players)
            read = [kind.read_event(e, tokens) for e in await self.db.games.events(game.id)]
            kept = self._cache.keep_recent(game, read)
        return kept

    async def get_game(self, game_id: int) -> Game | None:
        game = await self.db.games.get(game_id)
        if game is not None:
            self._cache.track(game)
        return game

    async def games_of(self, who: Person) -> list[tuple[Game, bool]]:
        """Every open game with a seat of ``who``, in every server, each with whether it waits
        on them now: those waiting first, the longest-waiting first.
        """
        mine = []
        for game in await self.db.games.open_of_player(who.player_id):
            waits = False
            if game.status == GameStatus.ACTIVE and game.paused is None:
                seat = kind_of(game.kind).engine.current_seat(self.state_of(game))
                waits = seat is not None and not game.players[seat].by_computer \
                    and game.players[seat].player_id == who.player_id
            mine.append((game, waits))
        return sorted(mine, key=lambda entry: (not entry[1], entry[0].updated_ms))

    async def since_last_move(self, game: Game, seat: int) -> list[Any]:
        """The engine's events since the seat's last decision (its own or the computer's when
        it was late), oldest first: what a slow game's player missed.
        """
        kind = kind_of(game.kind)
        token = game.players[seat].token
        tokens = tuple(p.token for p in game.players)
        log = await self.db.games.action_log(game.id)
        last = max((i for i, a in enumerate(log) if a.actor in (token, f"timeout:{token}")),
                   default=-1)
        return [kind.read_event(e, tokens) for a in log[last + 1:] for e in a.events]

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
                             "/{kind} new.", game=Term(title), kind=kind or default_kind().name)
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
        channel = self._cache.channel_of(game_id)
        if channel is None:
            channel = (await self._load(game_id)).channel_id
        if channel != place.channel_id:
            raise WrongPlace("That button belongs to a game in another channel.")

    def timeout_of(self, game: Game) -> int:
        """Seconds a person has for one decision in this game."""
        return int(game.settings.get("turn_timeout", self.default_timeout))

    def memory(self) -> dict[str, int]:
        """What the service holds in memory: games cached, channel locks, armed deadlines."""
        return {"cached games": len(self._cache), "channel locks": len(self._locks),
                "deadlines": len(self._timers), "games heard through the app": len(self._heard)}

    @property
    def pending_timers(self) -> int:
        """How many deadlines (turns, lobbies) are armed."""
        return len(self._timers)

    # ------------------------------------------------------------------ lobbies

    async def new_lobby(self, *, kind: str, place: Place, host: Person,
                        settings: NewSettings) -> Game:
        """Open a lobby with the host seated: one open game per channel, at most
        ``limits.per_host`` per host and ``limits.per_server`` per server (checked in the
        transaction that opens it). ``settings``: the game's, or how to make them from the
        server's defaults (read in that transaction).
        """
        entry = kind_of(kind)
        reach = place.reach
        if callable(settings):
            make = settings

            def chosen(server: ServerDefaults) -> dict[str, Any]:
                if reach is not Reach.BOT:  # no server's defaults where the bot is not
                    server = ServerDefaults()
                return checked_settings(make(server), self.default_timeout, reach)
        else:
            fixed = checked_settings(settings, self.default_timeout, reach)

            def chosen(server: ServerDefaults) -> dict[str, Any]:
                return fixed
        async with self.lock(place.channel_id):
            try:
                game = await self.db.games.create(
                    guild_id=place.guild_id, channel_id=place.channel_id, kind=entry.name,
                    host_id=host.id, settings=chosen, seed=self.seed_source(),
                    players=[host_seat(host)], now_ms=self.clock(),
                    deadline_ms=self._lobby_expiry(), host_limit=self.limits.per_host,
                    server_limit=self.limits.per_server, reach=reach,
                )
            except ChannelBusy:
                busy = await self.db.games.open_in_channel(place.channel_id)
                what = kind_of(busy.kind).title if busy else "game"
                raise LobbyError(
                    "A {game} game is already open in this channel: finish or cancel it first.",
                    game=Term(what)) from None
            except TooManyOpen as full:
                if full.scope == "host":
                    raise LobbyError("You already host {n} open games: finish or cancel one "
                                     "(/royale cancel or /posing cancel) first.",
                                     n=full.limit) from None
                raise LobbyError("This server already has {n} open games: finish or cancel "
                                 "one first.", n=full.limit) from None
            self._cache.track(game)
            self._arm(game)
            return game

    def _lobby_expiry(self) -> int:
        return self.clock() + self.limits.lobby_ttl_s * 1000

    async def _edit_seats(self, game_id: int, change: Callable[[Game], list[Seat]],
                          loaded: Game | None) -> Game:
        async with await self._lock_of(game_id):
            game = loaded if loaded is not None and loaded.id == game_id \
                else await self._load(game_id)
            if game.status == GameStatus.ACTIVE:
                raise GameNotRunning("The game has started: /{kind} resign hands your seat to "
                                     "the computer.", kind=game.kind)
            if game.status != GameStatus.LOBBY:
                raise GameNotRunning("This lobby is closed: the game has ended.")
            players = change(game)
            try:
                game = await self.db.games.set_players(game.id, players, game.version,
                                                       self.clock(), self._lobby_expiry())
            except StaleVersion:  # another process changed the lobby meanwhile
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:  # another process started or closed it meanwhile
                raise GameNotRunning("This game has already started or ended.") from None
            self._arm(game)
            return game

    async def join(self, game_id: int, who: Person, *, loaded: Game | None = None) -> Game:
        """Seat ``who`` in the lobby (``loaded``: the game as the caller just read it; its
        version guards the write).
        """
        return await self._edit_seats(game_id, lambda game: seats_with(game, who), loaded)

    async def leave(self, game_id: int, who: Person, *, loaded: Game | None = None) -> Game:
        """Take ``who`` out of the lobby (not the host: the host cancels)."""
        return await self._edit_seats(game_id, lambda game: seats_without(game, who), loaded)

    async def add_computer(self, game_id: int, who: Person, level: str = NORMAL) -> Game:
        """Seat a computer player of ``level`` (easy, normal, hard; the host only)."""
        check_level(level)
        return await self._edit_seats(
            game_id, lambda game: seats_with_computer(game, who, level), None)

    async def set_thread(self, game_id: int, who: Person, thread: bool) -> Game:
        """The host chooses whether the game plays in a thread of its channel."""
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if game.status != GameStatus.LOBBY:
                raise GameNotRunning("This lobby is closed: the game has started or ended.")
            if who.id != game.host_id:
                raise NotAllowed("Only the host can choose where the game is played.")
            if thread and by_app(game):
                raise LobbyError("Threads need the bot in the server: here the app can only "
                                 "answer your clicks.")
            settings = {**game.settings, THREAD: True} if thread \
                else {k: v for k, v in game.settings.items() if k != THREAD}
            try:
                game = await self.db.games.set_lobby_settings(game.id, game.version, settings,
                                                              self.clock())
            except StaleVersion:
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:
                raise GameNotRunning("This game has already started or ended.") from None
            self._cache.track(game)
            return game

    async def cancel(self, game_id: int, who: Person, *, manager: bool,
                     guild_id: int | None = None) -> Game:
        """Cancel an open game (its host, or ``manager``: someone who may manage its channel).
        ``guild_id``: the server the request comes from (a game elsewhere is refused).
        """
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if guild_id is not None and game.guild_id != guild_id:
                raise NoGameHere("That game no longer exists.")
            if not game.is_open:
                raise GameNotRunning("This game is already over.")
            if who.id != game.host_id and not manager:
                raise NotAllowed("Only the host or someone who can manage this channel can "
                                 "cancel the game.")
            try:
                game = await self.db.games.end(game.id, GameStatus.CANCELLED, "cancelled",
                                               self.clock())
            except WrongStatus:  # another process ended it meanwhile
                raise GameNotRunning("This game is already over.") from None
            self._forget(game.id)
            return game

    async def rematch(self, game_id: int, who: Person, place: Place) -> Game:
        """A new lobby in the finished game's channel with the same settings and computer
        players, hosted by ``who`` (one of its players).
        """
        old = await self._load(game_id)
        if old.status != GameStatus.FINISHED:
            raise GameNotRunning("A rematch is offered once the game is over.")
        if who.player_id not in old.player_ids:
            raise NotAllowed("Only the players of that game can start its rematch.")
        game = await self.new_lobby(kind=old.kind, place=place, host=who,
                                    settings=dict(old.settings))
        for seat in old.players:
            if seat.is_bot:
                game = await self.add_computer(game.id, who, cpu_level(seat.player_id))
        return game

    async def expire(self, game_id: int) -> Game | None:
        """Close a lobby nobody started before its deadline (None: it changed meanwhile)."""
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if game.status != GameStatus.LOBBY:
                return None
            if game.deadline_ms is not None and game.deadline_ms > self.clock():
                self._arm(game)  # changed meanwhile: a later deadline
                return None
            try:
                game = await self.db.games.end(game.id, GameStatus.CANCELLED, "expired",
                                               self.clock(), expected_version=game.version)
            except (StaleVersion, WrongStatus):
                return None
            self._forget(game.id)
            return game

    async def move_to_thread(self, game_id: int, thread_id: int) -> Game:
        """The game plays on in a thread of its channel (its lobby channel keeps the lobby
        and gets the result); its buttons do not change.
        """
        async with await self._lock_of(game_id):
            game = await self.db.games.move_to_thread(game_id, thread_id)
            self._cache.release(game.id)
            self._cache.track(game)
            return game

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the game's current Discord message (where its buttons are)."""
        await self.db.games.set_message(game_id, message_id)

    # ------------------------------------------------------------------ play

    async def start(self, game_id: int, who: Person, *, loaded: Game | None = None
                    ) -> Outcome:
        """Deal the game and play computer seats up to the first human decision (``loaded``:
        the lobby as the caller just read it; its version guards the start).
        """
        async with await self._lock_of(game_id):
            game = loaded if loaded is not None and loaded.id == game_id \
                else await self._load(game_id)
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
                                                 await self._deadline(game, state), self.clock())
            except StaleVersion:
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:
                raise GameNotRunning("This game has already started or ended.") from None
            self._hear(game)
            self._cache.remember(game, state)
            self._cache.keep_recent(game, list(events))
            return await self._play_on(Outcome(game, state, start_events=list(events)))

    async def check_turn(self, game_id: int, who: Person, version: int
                         ) -> tuple[Game, Any, int]:
        """The game, its state and the seat, if ``who`` may decide now (nothing changes)."""
        game = await self._load(game_id)
        state = self.state_of(game)
        return game, state, seat_of_decider(game, state, who, version)

    async def act(self, game_id: int, who: Person, version: int,
                  build: Callable[[Any, int], Any]) -> Outcome:
        """Apply the action ``build(state, seat)`` for ``who``, if it is their turn and the
        click is not stale; then let computer seats play.
        """
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            state = self.state_of(game)
            seat = seat_of_decider(game, state, who, version)
            self._hear(game)
            outcome = Outcome(game, state)
            await self._commit(outcome, build(state, seat), "player")
            return await self._play_on(outcome)

    def _hear(self, game: Game) -> None:
        """An interaction on a game played through the app: it can show what happens for
        :data:`APP_SHOWS_MS` from now.
        """
        if by_app(game):
            self._heard[game.id] = self.clock()

    async def wake(self, game_id: int) -> Outcome | None:
        """An interaction came on a game played through the app (a click, ``/royale board``):
        its turn's clock runs again while this interaction can show what happens, and a
        deadline already past is played now (the computer decides for the late player). What
        changed, or None.
        """
        game = await self._load(game_id)
        if not by_app(game):
            return None
        self._hear(game)
        if game.status == GameStatus.ACTIVE and game.paused is None:
            if game.deadline_ms is None:  # computer turns a restart left unplayed, if any
                return await self._resume_computers(game.id)
            if game.deadline_ms <= self.clock():
                return await self.timeout(game.id, game.version)
        self._arm(game)
        return None

    async def resign(self, game_id: int, who: Person) -> Outcome:
        """The player hands their seat to the computer for the rest of the game (unrated)."""
        return await self.stand_in(game_id, who.player_id, "resigned")

    async def player_left(self, game_id: int, who: Person) -> Outcome | None:
        """The player left the server: the computer plays their seat from now on (unrated).
        None when they have no seat a person still plays.
        """
        try:
            return await self.stand_in(game_id, who.player_id, "left")
        except UserError:
            return None

    async def stand_in(self, game_id: int, player_id: str, reason: str) -> Outcome:
        """The computer plays the seat of ``player_id`` from now on (``reason``: resigned,
        left, forgotten).
        """
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if game.status != GameStatus.ACTIVE:
                raise GameNotRunning(closed_message(game))
            seats = [p.seat for p in game.players
                     if p.player_id == player_id and not p.by_computer]
            if not seats:
                raise NotAllowed("You're not playing in this game (or the computer already "
                                 "plays your seat).")
            return await self._hand_to_computer(game, self.state_of(game), seats[0], reason)

    async def timeout(self, game_id: int, version: int, *, left: bool = False
                      ) -> Outcome | None:
        """The waiting player ran out of time: the computer decides for their seat (for the
        rest of the game if they ``left`` the server).
        """
        game = await self.db.games.get(game_id)
        if game is None or not game.is_open:
            self._cache.release(game_id)
            return None
        async with self.lock(game.channel_id):
            game = await self._load(game_id)
            if game.status != GameStatus.ACTIVE or game.version != version or game.paused:
                self._arm(game)  # moved on (maybe by another process): chase its deadline
                return None
            state = self.state_of(game)
            seat = kind_of(game.kind).engine.current_seat(state)
            if seat is None:
                return None
            if left:
                return await self._hand_to_computer(game, state, seat, "left")
            outcome = Outcome(game, state)
            await self._play_late_turn(outcome, seat)
            if not outcome.steps:
                return None
            return await self._play_on(outcome)

    async def _hand_to_computer(self, game: Game, state: Any, seat: int, reason: str
                                ) -> Outcome:
        """The computer plays ``seat`` for the rest of the game (``reason``: its person left
        or resigned); then the game goes on. The caller holds the channel's lock.
        """
        seated = replace(game, players=tuple(replace(p, stand_in=reason) if p.seat == seat
                                             else p for p in game.players))
        try:
            game = await self.db.games.stand_in(game.id, seat, reason, game.version,
                                                await self._deadline(seated, state), self.clock())
        except StaleVersion:
            raise StaleClick("The game just moved on: try again.") from None
        except WrongStatus:  # another process ended it meanwhile
            raise GameNotRunning("This game just ended.") from None
        self._cache.remember(game, state)
        return await self._play_on(Outcome(game, state, stood_in=[seat]))

    async def _deadline(self, game: Game, state: Any) -> int | None:
        """When the decision ``state`` waits on times out (None: a computer decides it, or
        the game is over or paused). In a slow game it falls outside the waiting player's quiet
        hours (:func:`bot.service.quiet_hours.slow_deadline`).
        """
        seat = kind_of(game.kind).engine.current_seat(state)
        if seat is None or game.players[seat].by_computer or game.paused is not None:
            return None
        turn_ms = self.timeout_of(game) * 1000
        if not is_slow(game):
            return self.clock() + turn_ms
        quiet = await self.quiet_hours_of(game.players[seat].player_id)
        return slow_deadline(self.clock(), turn_ms, quiet)

    async def reminders_of(self, player_id: str) -> ReminderPrefs | None:
        """How the person wants to be reminded (None: never set, or a computer)."""
        return await self.db.people.reminders(player_id) if is_person(player_id) else None

    async def quiet_hours_of(self, player_id: str) -> QuietHours | None:
        """The person's quiet hours (None: none set, or a computer)."""
        prefs = await self.reminders_of(player_id)
        return None if prefs is None else quiet_hours(prefs)

    async def _commit(self, outcome: Outcome, action: Any, by: str) -> None:
        """Apply ``action`` to the outcome's state and commit it (``by``: ``player``,
        ``computer`` or ``timeout``); the last action also records the results.
        """
        game = outcome.game
        kind = kind_of(game.kind)
        engine = kind.engine
        seat = action.seat
        new_state, events = engine.apply(outcome.state, action)
        objs = list(log_objects(f"{game.id}", events))
        now = self.clock()
        finish = None
        if engine.current_seat(new_state) is None:
            finish = results_of(game, kind, new_state,
                                await self._season_of(game.guild_id, now))
        token = game.players[seat].token  # the log never holds a Discord id
        actor = token if by != "timeout" else f"timeout:{token}"
        try:  # the version guard: of racing writers (other processes too), one wins
            game = await self.db.games.commit_action(
                game.id, game.version, action=action.to_json(), actor=actor, events=objs,
                state=engine.state_to_json(new_state),
                deadline_ms=await self._deadline(game, new_state), now_ms=now, finish=finish,
            )
        except StaleVersion:
            raise StaleClick("Someone was quicker: the game just moved on. Use the latest "
                             "message.") from None
        except WrongStatus:
            raise GameNotRunning("This game just ended.") from None
        player_id = outcome.game.players[seat].player_id
        outcome.game = game
        outcome.state = new_state
        outcome.steps.append(Step(seat, player_id, by, action.to_json(), list(events)))
        self._cache.remember(game, new_state, list(events))

    async def _play_on(self, outcome: Outcome) -> Outcome:
        """After a change: computers play, the next deadline is armed, the recent events are
        attached (what the boards show); a game that ended is forgotten.
        """
        kind = kind_of(outcome.game.kind)
        while outcome.game.status == GameStatus.ACTIVE:
            seat = kind.engine.current_seat(outcome.state)
            if seat is None or not outcome.game.players[seat].by_computer:
                break
            level = level_of(outcome.game, seat)
            player = kind.make_player(level, ai_seed(outcome.game, seat))
            if level == HARD:  # it looks ahead: off the event loop
                action = await asyncio.to_thread(player.choose, outcome.state)
            else:
                action = player.choose(outcome.state)
            try:
                await self._commit(outcome, action, "computer")
            except (StaleClick, GameNotRunning):  # another process played this turn
                break
        game = outcome.game
        self._arm(game)
        outcome.recent = await self.recent(game)
        if not game.is_open:
            self._forget(game.id)
        elif is_slow(game):  # it waits hours or days: read it back when it moves
            self._cache.release(game.id)
        return outcome

    async def _play_late_turn(self, outcome: Outcome, seat: int) -> None:
        """The computer finishes the late player's turn (one decision in Royale; up to the
        kind's ``turn_end`` action otherwise).
        """
        kind = kind_of(outcome.game.kind)
        while True:
            player = kind.make_player(STAND_IN_AI, ai_seed(outcome.game, seat))
            try:
                await self._commit(outcome, player.choose(outcome.state), "timeout")
            except StaleClick:  # another process moved the game first: nothing more applied
                return
            if kind.turn_end is None or outcome.steps[-1].action.get("type") == kind.turn_end \
                    or kind.engine.current_seat(outcome.state) != seat:
                return

    def _forget(self, game_id: int) -> None:
        """An ended game leaves memory: its cache entry, its deadline."""
        self._cache.release(game_id)
        self._timers.cancel(game_id)
        self._heard.pop(game_id, None)

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
            self._forget(game.id)
            log.info("game %s abandoned: %s", game.id, reason)
        return games

    async def withdraw(self, who: Person) -> tuple[list[Outcome], list[Game]]:
        """Take a person out of every open game before they are forgotten: the computer plays
        their seats in play, they leave the lobbies they joined and the lobbies they host
        close. Returns the games in play and the lobbies changed.
        """
        stood_in: list[Outcome] = []
        lobbies: list[Game] = []
        for game in (await self.db.personal.person_rows(who.player_id)).games:
            if not game.is_open or who.player_id not in game.player_ids:
                continue
            try:
                if game.status == GameStatus.ACTIVE:
                    stood_in.append(await self.stand_in(game.id, who.player_id, "forgotten"))
                elif game.host_id == who.id:
                    lobbies.append(await self.cancel(game.id, who, manager=True))
                else:
                    lobbies.append(await self.leave(game.id, who))
            except UserError:
                continue  # it moved on meanwhile (ended, or the computer already plays)
        return stood_in, lobbies

    async def pause_by_host(self, game_id: int, who: Person) -> Game:
        """The host pauses their slow game: no deadline runs and nobody is reminded until they
        resume it (:meth:`resume_by_host`).
        """
        game = await self._load(game_id)
        self._check_host_pause(game, who)
        if game.paused is not None:
            raise GameNotRunning("This game is already paused.")
        return await self.pause(game_id, HOST_PAUSE)

    async def resume_by_host(self, game_id: int, who: Person) -> Game:
        """The host resumes their paused slow game: the waiting player gets a whole turn."""
        game = await self._load(game_id)
        self._check_host_pause(game, who)
        if game.paused != HOST_PAUSE:
            raise GameNotRunning("This game isn't paused by its host.")
        return await self.unpause(game_id)

    @staticmethod
    def _check_host_pause(game: Game, who: Person) -> None:
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(closed_message(game))
        if who.id != game.host_id:
            raise NotAllowed("Only the host can pause or resume the game.")
        if not is_slow(game):
            raise LobbyError("Only a slow game can be paused: a live game is played in one "
                             "sitting.")

    async def pause(self, game_id: int, reason: str) -> Game:
        """Stop the game's deadline until :meth:`unpause` (the bot may not post there)."""
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if game.status != GameStatus.ACTIVE or game.paused == reason:
                return game
            game = await self.db.games.set_paused(game.id, reason, None)
            self._arm(game)
            log.info("game %s paused: %s", game.id, reason)
            return game

    async def unpause(self, game_id: int) -> Game:
        """Start a paused game's clock again: the waiting player gets a whole turn."""
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if game.status != GameStatus.ACTIVE or game.paused is None:
                return game
            deadline = await self._deadline(replace(game, paused=None), self.state_of(game))
            game = await self.db.games.set_paused(game.id, None, deadline)
            self._arm(game)
            return game

    # ------------------------------------------------------------------ deadlines

    def _arm(self, game: Game) -> None:
        """(Re)start the deadline the game waits on (none once it is over or paused, or in a
        process that does not own its server).
        """
        if not self._owns(game):
            self._timers.cancel(game.id)
            return
        due = self._due(game)
        if due is not None and by_app(game) and game.status == GameStatus.ACTIVE:
            heard = self._heard.get(game.id)
            if heard is None or due > heard + APP_SHOWS_MS:
                due = None  # nothing could show it: the game waits for an interaction (wake)
        if due is not None and is_slow(game) and game.status == GameStatus.ACTIVE \
                and due - self.clock() > SLOW_HORIZON_MS:
            self._wake_sweep(due)
            due = None  # out of reach: the sweep arms it later
        self._timers.arm(game.id, game.version, due, self.plan.shard_of(self._shard_key(game)))

    def _due(self, game: Game) -> int | None:
        """When the game's timer fires: its deadline, or before it its waiting player's
        reminder (None: no deadline runs).
        """
        due = game.deadline_ms if game.is_open and game.paused is None else None
        if due is not None and self._reminder_due(game):
            due = reminder_time(due, self.timeout_of(game) * 1000)
        return due

    def _reminder_due(self, game: Game) -> bool:
        """Whether the player a slow game waits on is still to be reminded."""
        return (game.status == GameStatus.ACTIVE and is_slow(game)
                and game.reminded_version != game.version and game.deadline_ms is not None)

    async def _deadline_passed(self, game_id: int, version: int) -> None:
        game = await self.db.games.get(game_id)
        if game is None or not game.is_open:
            self._cache.release(game_id)
            return
        if game.status == GameStatus.LOBBY:
            expired = await self.expire(game.id)
            if expired is not None:
                await self._tell(Outcome(expired, None), "expired")
            return
        if game.version == version and game.paused is None and game.deadline_ms is not None \
                and self.clock() < game.deadline_ms:
            if self._reminder_due(game):
                await self._remind(game)
            else:  # a timer armed from an older read: wait for the deadline itself
                self._arm(game)
            return
        left = False
        # Played through the app, one turn times out per interaction: the next waits for one
        self._heard.pop(game_id, None)
        if game.version == version and game.paused is None:
            seat = kind_of(game.kind).engine.current_seat(self.state_of(game))
            if seat is not None and not game.players[seat].by_computer:
                left = not await self._still_member(game, game.players[seat].player_id)
        outcome = await self.timeout(game_id, version, left=left)
        if outcome is not None:
            await self._tell(outcome, "timeout")

    async def _remind(self, game: Game) -> None:
        """Remind the player a slow game waits on, once (the claim is stored), then wait for
        the deadline.
        """
        if await self.db.games.claim_reminder(game.id, game.version):
            await self._tell(Outcome(game, self.state_of(game)), "remind")
        fresh = await self.db.games.get(game.id)
        if fresh is not None:
            self._arm(fresh)

    async def _still_member(self, game: Game, player_id: str) -> bool:
        try:
            return await self._is_member(game.guild_id, int(player_id))
        except Exception:
            log.warning("game %s: could not check whether %s is still in the server", game.id,
                        player_id, exc_info=True)
            return True

    async def _tell(self, outcome: Outcome, reason: str) -> None:
        listener = self.listeners.get(outcome.game.kind)
        if listener is not None:
            await listener(outcome, reason)

    def hold_deadlines(self, shard: int = 0) -> None:
        """A shard cannot hear its players (its gateway is down): its deadlines stop."""
        self._connected.discard(shard)
        self._timers.hold(shard)

    async def release_deadlines(self, shard: int = 0) -> None:
        """A shard hears its players again: each of its deadlines moves on by the time it was
        held, and is stored.
        """
        lost, _moved = self._timers.release(shard)
        if lost:  # every stored deadline of the shard, those out of reach too
            await self.db.games.shift_deadlines(self.plan.layout, shard, lost)
        self._connected.add(shard)
        await self.heard()

    async def heard(self) -> None:
        """Write that this process's connected shards hear their players now (none before a
        shard was ready once).
        """
        await self.db.shown.heard(self.plan.layout, sorted(self._connected), self.clock())

    # ------------------------------------------------------------------ start-up

    async def restore(self) -> list[Game]:
        """At start-up, before the gateway connects: remember every open game this process
        owns and arm its deadline, held until its shard is ready. Each shard is held from when
        it last heard its players (a shard never heard: from the latest hearing of any shard,
        else from now). Nothing is played and nothing is sent before then.
        """
        mine, latest = await self.db.shown.last_heard(self.plan.layout)
        for shard in self.plan.shard_ids:
            self._timers.hold(shard, since=mine.get(shard, latest))
        games = [g for g in await self.db.games.all_open() if self._owns(g)]
        for game in games:
            if not is_slow(game):
                self._cache.track(game)
            self._arm(game)
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(), name="slow-deadlines")
        return games

    async def _sweep(self) -> None:
        while True:
            try:
                wake: int | None = None
                try:
                    wake = await self.arm_due()
                except StorageError as exc:
                    log.warning("the slow games' deadlines could not be read (%s)", exc)
                wait_ms = SWEEP_LONGEST_S * 1000 if wake is None else wake - self.clock()
                wait_s = min(max(wait_ms / 1000, SWEEP_S), SWEEP_LONGEST_S)
                self._sweep_at = self.clock() + int(wait_s * 1000)
                await asyncio.sleep(wait_s)
            except asyncio.CancelledError:
                if not self._sweep_woken:  # closing
                    raise
                self._sweep_woken = False  # woken early: sweep again now
                asyncio.current_task().uncancel()  # type: ignore[union-attr]

    def _reach(self) -> int:
        """Deadlines before this (epoch ms) have their reminder or themselves within reach."""
        return self.clock() + SLOW_HORIZON_MS + MAX_LEAD_MS

    def _wake_sweep(self, due_ms: int) -> None:
        """A slow game's deadline or reminder at ``due_ms`` was left out of reach: the sweep
        wakes in time for it.
        """
        sweeper = self._sweeper
        if sweeper is None or sweeper is asyncio.current_task() or self._sweep_woken \
                or due_ms - SLOW_HORIZON_MS >= self._sweep_at:
            return
        self._sweep_woken = True  # the sweep's sleep ends early, the sweep goes on
        sweeper.cancel()

    async def arm_due(self) -> int | None:
        """Arm the slow games' deadlines and reminders that came within reach; when the next
        one will (epoch ms; None: no open game has a deadline to come).
        """
        wakes: list[int] = []
        for game in await self.db.games.due_before(self._reach()):
            if not is_slow(game) or not self._owns(game):
                continue
            due = self._due(game)
            if due is not None and due - self.clock() > SLOW_HORIZON_MS:
                wakes.append(due - SLOW_HORIZON_MS)
            elif not self._timers.armed(game.id, game.version):
                self._arm(game)
        later = await self.db.games.next_deadline(self._reach())
        if later is not None:
            wakes.append(later - MAX_LEAD_MS - SLOW_HORIZON_MS)
        return min(wakes, default=None)

    def on_shard(self, guild_id: int, shard: int) -> bool:
        """Whether this process owns the server's games and the server is on ``shard``."""
        return self.plan.owns(guild_id) and self.plan.shard_of(guild_id) == shard

    @staticmethod
    def _shard_key(game: Game) -> int:
        """The id Discord shards the game's interactions by: its server's, and for a DM or
        group DM 0 (shard 0).
        """
        return 0 if game.reach is Reach.PRIVATE else game.guild_id

    def _owns(self, game: Game) -> bool:
        """Whether this process runs the game's deadlines."""
        return self.plan.owns(self._shard_key(game))

    async def servers_gone(self, shard: int, guild_ids: Collection[int]) -> list[int]:
        """A shard is ready, its READY listing ``guild_ids`` (available or not): the servers of
        this shard with open games that are not among them removed the bot while it was away.
        """
        present = set(guild_ids)
        return [guild_id for guild_id in await self.db.games.open_guilds()
                if self.on_shard(guild_id, shard) and guild_id not in present]

    async def resume_shard(self, shard: int) -> None:
        """The first time a shard is ready: the computer seats a crash left waiting play in
        its games (each told as ``"resume"``).
        """
        if shard in self._resumed:
            return
        self._resumed.add(shard)
        for game in await self.db.games.all_open():
            if by_app(game) or not self.on_shard(game.guild_id, shard) \
                    or game.status != GameStatus.ACTIVE \
                    or game.deadline_ms is not None or game.paused:
                continue
            try:
                outcome = await self._resume_computers(game.id)
                if outcome is not None:
                    await self._tell(outcome, "resume")
            except Exception:
                log.exception("could not resume game %s", game.id)

    async def _resume_computers(self, game_id: int) -> Outcome | None:
        async with await self._lock_of(game_id):
            game = await self._load(game_id)
            if game.status != GameStatus.ACTIVE:
                return None
            outcome = await self._play_on(Outcome(game, self.state_of(game)))
            return outcome if outcome.steps else None

    async def open_games_of_shard(self, shard: int) -> list[Game]:
        """The open games of this process on ``shard`` in servers the bot is in, oldest
        first.
        """
        return [g for g in await self.db.games.all_open()
                if not by_app(g) and self.on_shard(g.guild_id, shard)]

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

    async def standing_ping(self, game_id: int) -> PingRow | None:
        """The game's newest posted ping that still stands, if any."""
        return await self.db.shown.standing_ping(game_id)

    async def pings_of_shard(self, shard: int) -> list[PingRow]:
        """The recorded pings of this process's games on ``shard`` (after a restart)."""
        return [p for p in await self.db.shown.all_pings() if self.on_shard(p.guild_id, shard)]

    async def close(self) -> None:
        """Write the connected shards' hearing, then stop every deadline (the database is
        closed by its owner).
        """
        if not self.db.closed:
            try:
                await self.heard()
            except StorageError as exc:  # the next start gives back more time, no less
                log.warning("the shards' last hearing could not be written (%s)", exc)
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self._timers.close()
