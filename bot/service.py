"""The game service: the one place that loads, locks, applies and saves games.

Every change to a game goes through here: the channel's lock is taken, the game is loaded, the
acting user and the state version are checked, the engine applies the action, SQLite commits
the new state with the action and its events in one transaction, and only then does the caller
answer the user. Computer seats play right after, one committed action each. A timer per
waiting decision lets the computer decide for a player who takes too long.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.errors import (
    GameNotRunning,
    LobbyError,
    NoGameHere,
    NotAllowed,
    NotYourTurnError,
    StaleClick,
)
from bot.ratings import rate_game
from bot.rules.gamelog import log_objects
from bot.rules.registry import engine_for
from storage import ChannelBusy, Finish, GameRow, PlayerRow, StaleVersion, Storage

log = logging.getLogger("bot.service")

CPU_NAMES = ("Bao", "Mochi", "Dumpling", "Bamboo", "Lychee", "Tofu", "Noodle", "Sesame", "Momo",
             "Pepper")
SEATS = {"royale": (2, 10), "posing": (1, 10)}
GAME_TITLES = {"royale": "Panda Royale", "posing": "Posing Pandas"}
TIMEOUT_AI = "heuristic"
# Which game settings are options of the rules (the rest are the service's: timeout, ai).
RULE_OPTIONS: dict[str, frozenset[str]] = {"royale": frozenset({"expansions"}),
                                           "posing": frozenset()}
# A timed-out player's turn ends with this action (Posing: the fill); else one decision.
TURN_ENDS = {"posing": "fill"}
# Events kept in memory per game for the message of the current round (or turns).
TAIL_LIMIT = 160


def wall_ms() -> int:
    """Milliseconds since the epoch (the service's default clock)."""
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Person:
    """A Discord user as the service sees one."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: who took it and what happened."""

    seat: int
    player_id: str
    by: str  # "player", "computer" or "timeout"
    action: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass(slots=True)
class Outcome:
    """What a call to the service changed, for the Discord layer to show."""

    game: GameRow
    state: Any
    steps: list[Step] = field(default_factory=list)
    start_events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def events(self) -> list[dict[str, Any]]:
        out = list(self.start_events)
        for s in self.steps:
            out.extend(s.events)
        return out

    @property
    def finished(self) -> bool:
        return self.game.status == "finished"


def is_cpu(player_id: str) -> bool:
    return player_id.startswith("cpu:")


def cpu_name(slot: int) -> str:
    return f"{CPU_NAMES[(slot - 1) % len(CPU_NAMES)]} (computer)"


Listener = Callable[[Outcome, str], Awaitable[None]]


class GameService:
    """Loads, locks, applies and saves games; plays computer seats and turn timeouts."""

    def __init__(
        self,
        db: Storage,
        *,
        clock: Callable[[], int] = wall_ms,
        default_timeout: int = 120,
        seed_source: Callable[[], int] = lambda: secrets.randbits(48),
    ) -> None:
        self.db = db
        self.clock = clock
        self.default_timeout = default_timeout
        self.seed_source = seed_source
        self._locks: dict[int, asyncio.Lock] = {}
        self._channels: dict[int, int] = {}  # game id -> channel id (never changes)
        self._states: dict[int, tuple[int, Any]] = {}
        self._tails: dict[int, list[dict[str, Any]]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self.listeners: dict[str, Listener] = {}
        self.closed = False

    # ------------------------------------------------------------------ helpers

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: every change to a channel's game happens under it."""
        lk = self._locks.get(channel_id)
        if lk is None:
            lk = self._locks[channel_id] = asyncio.Lock()
        return lk

    def state_of(self, game: GameRow) -> Any:
        """The engine state of an active or finished game (cached by version)."""
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[1]
        if game.state is None:
            raise GameNotRunning("This game hasn't started yet.")
        state = engine_for(game.kind).state_from_json(game.state)
        self._states[game.id] = (game.version, state)
        return state

    async def tail(self, game: GameRow) -> list[dict[str, Any]]:
        """The game's most recent events (those of the current round at least)."""
        t = self._tails.get(game.id)
        if t is None:
            events = await self.db.game_events(game.id)
            t = self._tails[game.id] = _trim(game.kind, events)
        return t

    def _remember(self, game: GameRow, state: Any, events: list[dict[str, Any]]) -> None:
        self._states[game.id] = (game.version, state)
        t = self._tails.get(game.id)
        if t is not None:
            t.extend(events)
            self._tails[game.id] = _trim(game.kind, t)

    def _forget(self, game_id: int) -> None:
        self._states.pop(game_id, None)
        self._tails.pop(game_id, None)
        self.cancel_timer(game_id)

    async def _load(self, game_id: int) -> GameRow:
        game = await self.db.get_game(game_id)
        if game is None:
            raise NoGameHere("That game no longer exists.")
        self._channels[game.id] = game.channel_id
        return game

    async def _channel_lock(self, game_id: int) -> asyncio.Lock:
        """The lock of the game's channel (the channel is read once, then remembered)."""
        channel = self._channels.get(game_id)
        if channel is None:
            channel = (await self._load(game_id)).channel_id
        return self.lock(channel)

    async def game_in_channel(self, channel_id: int, kind: str | None = None) -> GameRow:
        """The channel's open game (of ``kind`` if given), or a NoGameHere error."""
        game = await self.db.open_game_in_channel(channel_id)
        if game is None or (kind is not None and game.kind != kind):
            title = GAME_TITLES.get(kind or "", "game")
            raise NoGameHere(f"There is no {title} game in this channel.")
        return game

    def timeout_of(self, game: GameRow) -> int:
        return int(game.settings.get("turn_timeout", self.default_timeout))

    def _deadline(self, game: GameRow, state: Any) -> int | None:
        engine = engine_for(game.kind)
        seat = engine.current_seat(state)
        if seat is None or is_cpu(game.players[seat].player_id):
            return None
        return self.clock() + self.timeout_of(game) * 1000

    # ------------------------------------------------------------------ lobby

    async def new_lobby(
        self, *, kind: str, guild_id: int, channel_id: int, host: Person,
        settings: dict[str, Any],
    ) -> GameRow:
        """Open a lobby with the host seated. One open game per channel."""
        async with self.lock(channel_id):
            try:
                return await self.db.create_game(
                    guild_id=guild_id, channel_id=channel_id, kind=kind, host_id=host.id,
                    settings=settings, seed=self.seed_source(),
                    players=[PlayerRow(0, str(host.id), host.name, False)], now_ms=self.clock(),
                )
            except ChannelBusy:
                busy = await self.db.open_game_in_channel(channel_id)
                what = GAME_TITLES.get(busy.kind, "game") if busy else "game"
                raise LobbyError(
                    f"A {what} game is already open in this channel: finish or cancel it first."
                ) from None

    async def _edit_lobby(
        self, game_id: int, change: Callable[[GameRow], list[PlayerRow]]
    ) -> GameRow:
        game = await self._load(game_id)
        async with self.lock(game.channel_id):
            game = await self._load(game_id)
            if game.status != "lobby":
                raise GameNotRunning("This lobby is closed: the game has started or ended.")
            players = change(game)
            try:
                return await self.db.set_players(game.id, players, game.version, self.clock())
            except StaleVersion:  # pragma: no cover - guarded by the lock
                raise StaleClick("The lobby just changed: try again.") from None

    async def join(self, game_id: int, who: Person) -> GameRow:
        def change(game: GameRow) -> list[PlayerRow]:
            if str(who.id) in game.player_ids:
                raise LobbyError("You're already in this game.")
            if len(game.players) >= SEATS[game.kind][1]:
                raise LobbyError(f"The game is full ({SEATS[game.kind][1]} players).")
            return [*game.players, PlayerRow(len(game.players), str(who.id), who.name, False)]

        return await self._edit_lobby(game_id, change)

    async def leave(self, game_id: int, who: Person) -> GameRow:
        def change(game: GameRow) -> list[PlayerRow]:
            if str(who.id) not in game.player_ids:
                raise LobbyError("You're not in this game.")
            if who.id == game.host_id:
                raise LobbyError("You're the host: cancel the game instead of leaving it.")
            kept = [p for p in game.players if p.player_id != str(who.id)]
            return [PlayerRow(i, p.player_id, p.display_name, p.is_bot)
                    for i, p in enumerate(kept)]

        return await self._edit_lobby(game_id, change)

    async def add_computer(self, game_id: int, who: Person) -> GameRow:
        def change(game: GameRow) -> list[PlayerRow]:
            if who.id != game.host_id:
                raise NotAllowed("Only the host can add computer players.")
            if len(game.players) >= SEATS[game.kind][1]:
                raise LobbyError(f"The game is full ({SEATS[game.kind][1]} players).")
            taken = {p.player_id for p in game.players}
            slot = next(i for i in range(1, 100) if f"cpu:{i}" not in taken)
            return [*game.players,
                    PlayerRow(len(game.players), f"cpu:{slot}", cpu_name(slot), True)]

        return await self._edit_lobby(game_id, change)

    async def start(self, game_id: int, who: Person) -> Outcome:
        """Deal the game and play computer seats up to the first human decision."""
        game = await self._load(game_id)
        async with self.lock(game.channel_id):
            game = await self._load(game_id)
            if game.status != "lobby":
                raise GameNotRunning("This game has already started or ended.")
            if who.id != game.host_id:
                raise NotAllowed("Only the host can start the game.")
            low, _ = SEATS[game.kind]
            if len(game.players) < low:
                raise LobbyError(f"{GAME_TITLES[game.kind]} needs at least {low} players: "
                                 "ask someone to join or add a computer player.")
            engine = engine_for(game.kind)
            rules = {k: v for k, v in game.settings.items() if k in RULE_OPTIONS[game.kind]}
            state, events = engine.new_game(game.player_ids, game.seed, rules)
            objs = list(log_objects(f"{game.id}", events))
            game = await self.db.start_game(game.id, game.version, engine.state_to_json(state),
                                            objs, self._deadline(game, state), self.clock())
            self._tails[game.id] = _trim(game.kind, objs)
            self._states[game.id] = (game.version, state)
            outcome = Outcome(game, state, start_events=objs)
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome

    async def cancel(self, game_id: int, who: Person, *, manager: bool) -> GameRow:
        """Cancel an open game (the host, or someone who can manage the channel)."""
        game = await self._load(game_id)
        async with self.lock(game.channel_id):
            game = await self._load(game_id)
            if not game.is_open:
                raise GameNotRunning("This game is already over.")
            if who.id != game.host_id and not manager:
                raise NotAllowed("Only the host or someone who can manage this channel can "
                                 "cancel the game.")
            game = await self.db.cancel_game(game.id, self.clock())
            self._forget(game.id)
            return game

    # ------------------------------------------------------------------ play

    def _check(self, game: GameRow, user_id: int, version: int) -> tuple[Any, int]:
        if game.status != "active":
            raise GameNotRunning(_closed_message(game))
        if game.version != version:
            raise StaleClick("That button is from an earlier moment of the game: use the "
                             "latest message.")
        state = self.state_of(game)
        seat = engine_for(game.kind).current_seat(state)
        if seat is None:  # pragma: no cover - an active game always waits on someone
            raise GameNotRunning("This game is over.")
        if game.players[seat].player_id != str(user_id):
            who = game.players[seat].display_name
            if str(user_id) in game.player_ids:
                raise NotYourTurnError(f"It's {who}'s turn, not yours.")
            raise NotYourTurnError(f"You're not playing in this game: it's {who}'s turn.")
        return state, seat

    async def check_turn(self, game_id: int, user_id: int, version: int
                         ) -> tuple[GameRow, Any, int]:
        """The game, its state and the seat, if ``user_id`` may decide now (nothing changes)."""
        game = await self._load(game_id)
        state, seat = self._check(game, user_id, version)
        return game, state, seat

    async def act(
        self, game_id: int, user_id: int, version: int, build: Callable[[Any, int], Any]
    ) -> Outcome:
        """Apply the action ``build(state, seat)`` for ``user_id``, if it is their turn and
        the click is not stale; then let computer seats play."""
        async with await self._channel_lock(game_id):
            game = await self._load(game_id)
            state, seat = self._check(game, user_id, version)
            action = build(state, seat)
            outcome = Outcome(game, state)
            await self._commit(outcome, action, "player")
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome

    async def timeout(self, game_id: int, version: int) -> Outcome | None:
        """The waiting player ran out of time: the computer decides for their seat."""
        game = await self.db.get_game(game_id)
        if game is None:
            return None
        async with self.lock(game.channel_id):
            game = await self._load(game_id)
            if game.status != "active" or game.version != version:
                return None
            state = self.state_of(game)
            engine = engine_for(game.kind)
            seat = engine.current_seat(state)
            if seat is None:
                return None
            outcome = Outcome(game, state)
            end = TURN_ENDS.get(game.kind)
            while True:  # the whole turn of the late player (one decision in Royale)
                bot = engine.make_player(TIMEOUT_AI, _ai_seed(outcome.game, seat))
                await self._commit(outcome, bot.choose(outcome.state), "timeout")
                if end is None or outcome.steps[-1].action.get("type") == end \
                        or engine.current_seat(outcome.state) != seat:
                    break
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome

    async def _commit(self, outcome: Outcome, action: Any, by: str) -> None:
        game = outcome.game
        engine = engine_for(game.kind)
        seat = action.seat
        new_state, events = engine.apply(outcome.state, action)
        objs = list(log_objects(f"{game.id}", events))
        player_id = game.players[seat].player_id
        finish = None
        if engine.current_seat(new_state) is None:
            totals = engine.totals(new_state)
            scores = {p.player_id: totals[p.seat] for p in game.players}
            winners = [game.players[i].player_id for i in engine.winners(new_state)]
            finish = Finish(scores=scores, winners=winners,
                            rate=lambda current: rate_game(current, scores))
        actor = player_id if by != "timeout" else f"timeout:{player_id}"
        game = await self.db.commit_action(
            game.id, game.version, action=action.to_json(), actor=actor, events=objs,
            state=engine.state_to_json(new_state), deadline_ms=self._deadline(game, new_state),
            now_ms=self.clock(), finish=finish,
        )
        outcome.game = game
        outcome.state = new_state
        outcome.steps.append(Step(seat, player_id, by, action.to_json(), objs))
        self._remember(game, new_state, objs)
        if finish is not None:
            self._forget(game.id)

    async def _play_computers(self, outcome: Outcome) -> None:
        engine = engine_for(outcome.game.kind)
        while outcome.game.status == "active":
            seat = engine.current_seat(outcome.state)
            if seat is None or not is_cpu(outcome.game.players[seat].player_id):
                return
            bot = engine.make_player(
                outcome.game.settings.get("ai", "heuristic"), _ai_seed(outcome.game, seat)
            )
            await self._commit(outcome, bot.choose(outcome.state), "computer")

    # ------------------------------------------------------------------ timers

    def _arm(self, game: GameRow) -> None:
        """(Re)start the timer of the decision the game waits on, if a person must decide."""
        self.cancel_timer(game.id)
        if game.status != "active" or game.deadline_ms is None or self.closed:
            return
        delay = max(0.0, (game.deadline_ms - self.clock()) / 1000)
        self._timers[game.id] = asyncio.create_task(
            self._fire(game.id, game.version, delay), name=f"turn-timer-{game.id}"
        )

    def cancel_timer(self, game_id: int) -> None:
        task = self._timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _fire(self, game_id: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._timers.pop(game_id, None)
        try:
            outcome = await self.timeout(game_id, version)
            if outcome is not None:
                listener = self.listeners.get(outcome.game.kind)
                if listener is not None:
                    await listener(outcome, "timeout")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timeout of game %s failed", game_id)

    async def restore(self) -> list[GameRow]:
        """At start-up: re-arm the timer of every game waiting on a person, and play the
        computer seats of a game a crash left waiting on them (between two commits)."""
        games = await self.db.open_games()
        for game in games:
            if game.status != "active":
                continue
            if game.deadline_ms is not None:
                self._arm(game)
                continue
            try:
                outcome = await self._resume_computers(game.id)
                listener = self.listeners.get(game.kind)
                if outcome is not None and listener is not None:
                    await listener(outcome, "resume")
            except Exception:
                log.exception("could not resume game %s at start-up", game.id)
        return games

    async def _resume_computers(self, game_id: int) -> Outcome | None:
        game = await self._load(game_id)
        async with self.lock(game.channel_id):
            game = await self._load(game_id)
            if game.status != "active":
                return None
            outcome = Outcome(game, self.state_of(game))
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome if outcome.steps else None

    @property
    def pending_timers(self) -> int:
        return len(self._timers)

    async def close(self) -> None:
        self.closed = True
        timers = list(self._timers.values())
        self._timers.clear()
        for t in timers:
            t.cancel()
        await asyncio.gather(*timers, return_exceptions=True)


def _ai_seed(game: GameRow, seat: int) -> int:
    return (game.seed * 1_009 + game.version * 31 + seat) % (2**62)


def _closed_message(game: GameRow) -> str:
    if game.status == "finished":
        return "This game is over."
    if game.status == "cancelled":
        return "This game was cancelled."
    return "This game hasn't started yet."


def _trim(kind: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the events of the current and the previous round (Royale) or the last turns."""
    if kind == "royale":
        ends = [i for i, e in enumerate(events) if e.get("event") == "draft_return"]
        if len(ends) >= 2:
            return events[ends[-2] + 1:]  # the round just finished and the current one
    return events[-TAIL_LIMIT:]
