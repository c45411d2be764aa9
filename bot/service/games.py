"""The game service: the one place that loads, locks, applies and saves games.

Every change to a game goes through here: the channel's lock is taken, the game is loaded, the
acting user and the state version are checked, the engine applies the action, storage commits
the new state with the action and its events in one transaction, and only then does the caller
answer the user. Computer seats play right after, one committed action each. A timer per
waiting decision lets the computer decide for a player who takes too long.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

from bot.errors import GameNotRunning, LobbyError, NotAllowed, NotYourTurnError, StaleClick
from bot.ratings import rate_game
from bot.rules.errors import Term
from bot.rules.gamelog import log_objects
from bot.rules.levels import HARD, NORMAL
from bot.rules.registry import GameKind, kind_of
from bot.service.lobby import LobbyService
from bot.service.model import Game, Outcome, Person, Step, cpu_level, is_cpu
from bot.service.reads import trim_events
from storage import Finish, StaleVersion, WrongStatus

TIMEOUT_AI: Final = NORMAL
"""The level of the computer player that decides for a person who ran out of time."""

log = logging.getLogger("bot.service")


class GameService(LobbyService):
    """Loads, locks, applies and saves games; plays computer seats and turn timeouts."""

    # ------------------------------------------------------------------ play

    async def start(self, game_id: int, who: Person) -> Outcome:
        """Deal the game and play computer seats up to the first human decision."""
        async with await self._channel_lock(game_id):
            game = await self._load(game_id)
            if game.status != "lobby":
                raise GameNotRunning("This game has already started or ended.")
            if who.id != game.host_id:
                raise NotAllowed("Only the host can start the game.")
            kind = kind_of(game.kind)
            if len(game.players) < kind.min_players:
                raise LobbyError("{game} needs at least {n} players: ask someone to join or "
                                 "add a computer player.", game=Term(kind.title),
                                 n=kind.min_players)
            rules = {k: v for k, v in game.settings.items() if k in kind.rule_options}
            state, events = kind.engine.new_game(game.player_ids, game.seed, rules)
            objs = list(log_objects(f"{game.id}", events))
            try:  # version-guarded: another process may have changed the lobby meanwhile
                game = await self.db.start_game(game.id, game.version,
                                                kind.engine.state_to_json(state), objs,
                                                self._deadline(game, kind, state), self.clock())
            except StaleVersion:
                raise StaleClick("The lobby just changed: try again.") from None
            except WrongStatus:
                raise GameNotRunning("This game has already started or ended.") from None
            self._tails[game.id] = trim_events(game.kind, objs)
            self._states[game.id] = (game.version, state)
            outcome = Outcome(game, state, start_events=objs)
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome

    async def check_turn(self, game_id: int, user_id: int, version: int
                         ) -> tuple[Game, Any, int]:
        """The game, its state and the seat, if ``user_id`` may decide now (nothing changes)."""
        game = await self._load(game_id)
        state, seat = self._check(game, user_id, version)
        return game, state, seat

    async def act(self, game_id: int, user_id: int, version: int,
                  build: Callable[[Any, int], Any]) -> Outcome:
        """Apply the action ``build(state, seat)`` for ``user_id``, if it is their turn and
        the click is not stale; then let computer seats play.
        """
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
                self._arm(game)  # moved on (maybe by another process): chase its deadline
                return None
            kind = kind_of(game.kind)
            state = self.state_of(game)
            seat = kind.engine.current_seat(state)
            if seat is None:
                return None
            outcome = Outcome(game, state)
            while True:  # the whole turn of the late player (one decision in Royale)
                bot = kind.make_player(TIMEOUT_AI, _ai_seed(outcome.game, seat))
                try:
                    await self._commit(outcome, bot.choose(outcome.state), "timeout")
                except StaleClick:  # another process moved the game first: nothing applied
                    if not outcome.steps:
                        return None
                    break
                if kind.turn_end is None or outcome.steps[-1].action.get("type") == \
                        kind.turn_end or kind.engine.current_seat(outcome.state) != seat:
                    break
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome

    def _check(self, game: Game, user_id: int, version: int) -> tuple[Any, int]:
        if game.status != "active":
            raise GameNotRunning(_closed_message(game))
        if game.version != version:
            raise StaleClick("That button is from an earlier moment of the game: use the "
                             "latest message.")
        state = self.state_of(game)
        seat = kind_of(game.kind).engine.current_seat(state)
        if seat is None:  # pragma: no cover - an active game always waits on someone
            raise GameNotRunning("This game is over.")
        if game.players[seat].player_id != str(user_id):
            who = game.players[seat].display_name
            if str(user_id) in game.player_ids:
                raise NotYourTurnError("It's {player}'s turn, not yours.", player=who)
            raise NotYourTurnError("You're not playing in this game: it's {player}'s turn.",
                                   player=who)
        return state, seat

    async def _commit(self, outcome: Outcome, action: Any, by: str) -> None:
        game = outcome.game
        kind = kind_of(game.kind)
        engine = kind.engine
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
        try:  # the version guard: of racing writers (other processes too), one wins
            game = await self.db.commit_action(
                game.id, game.version, action=action.to_json(), actor=actor, events=objs,
                state=engine.state_to_json(new_state),
                deadline_ms=self._deadline(game, kind, new_state), now_ms=self.clock(),
                finish=finish,
            )
        except StaleVersion:
            raise StaleClick("Someone was quicker: the game just moved on. Use the latest "
                             "message.") from None
        except WrongStatus:
            raise GameNotRunning("This game just ended.") from None
        outcome.game = game
        outcome.state = new_state
        outcome.steps.append(Step(seat, player_id, by, action.to_json(), objs))
        self._remember(game, new_state, objs)
        if finish is not None:
            self._forget(game.id)

    async def _play_computers(self, outcome: Outcome) -> None:
        kind = kind_of(outcome.game.kind)
        while outcome.game.status == "active":
            seat = kind.engine.current_seat(outcome.state)
            if seat is None or not is_cpu(outcome.game.players[seat].player_id):
                return
            player_id = outcome.game.players[seat].player_id
            level = cpu_level(player_id, outcome.game.settings.get("ai", NORMAL))
            bot = kind.make_player(level, _ai_seed(outcome.game, seat))
            if level == HARD:  # looks ahead for up to ~100 ms: off the event loop
                action = await asyncio.to_thread(bot.choose, outcome.state)
            else:
                action = bot.choose(outcome.state)
            try:
                await self._commit(outcome, action, "computer")
            except (StaleClick, GameNotRunning):  # another process played this turn
                return

    # ------------------------------------------------------------------ timers, start-up

    def _deadline(self, game: Game, kind: GameKind[Any, Any], state: Any) -> int | None:
        seat = kind.engine.current_seat(state)
        if seat is None or is_cpu(game.players[seat].player_id):
            return None
        return self.clock() + self.timeout_of(game) * 1000

    def _arm(self, game: Game) -> None:
        """(Re)start the timer of the decision the game waits on, if a person must decide
        (only in the process that owns the game's guild: see :attr:`owns`).
        """
        if not self.owns(game.guild_id):
            self._timers.cancel(game.id)
            return
        deadline = game.deadline_ms if game.status == "active" else None
        self._timers.arm(game.id, game.version, deadline)

    async def _fire(self, game_id: int, version: int) -> None:
        outcome = await self.timeout(game_id, version)
        if outcome is not None:
            listener = self.listeners.get(outcome.game.kind)
            if listener is not None:
                await listener(outcome, "timeout")

    async def restore(self) -> list[Game]:
        """At start-up: re-arm the timer of every game waiting on a person, and play the
        computer seats of a game a crash left waiting on them (between two commits).
        """
        games = [g for g in await self.db.open_games() if self.owns(g.guild_id)]
        for game in games:
            self._channels[game.id] = game.channel_id
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
        async with await self._channel_lock(game_id):
            game = await self._load(game_id)
            if game.status != "active":
                return None
            outcome = Outcome(game, self.state_of(game))
            await self._play_computers(outcome)
            self._arm(outcome.game)
            return outcome if outcome.steps else None

    async def close(self) -> None:
        """Stop every turn timer (the database is closed by its owner)."""
        await self._timers.close()

def _ai_seed(game: Game, seat: int) -> int:
    return (game.seed * 1_009 + game.version * 31 + seat) % (2**62)


def _closed_message(game: Game) -> str:
    if game.status == "finished":
        return "This game is over."
    if game.status == "cancelled":
        return "This game was cancelled."
    return "This game hasn't started yet."
