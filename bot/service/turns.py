"""Moving one game on: check who may decide, commit a decision, let computers (and
stand-ins) decide, hand a seat to the computer, end the game.

:class:`Turns` holds what that needs (the game store, the deadlines, the clock) and nothing of
Discord. The caller holds the game's channel lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Final

from bot.errors import GameNotRunning, GamePaused, NotYourTurnError, StaleClick
from bot.ratings import rate_game
from bot.rules.gamelog import log_objects
from bot.rules.levels import HARD, NORMAL
from bot.rules.registry import GameKind, kind_of
from bot.service.achievements import award_for
from bot.service.deadlines import Deadlines
from bot.service.model import Game, Outcome, Step, cpu_level
from bot.service.season_calendar import SeasonWindow
from bot.service.store import GameStore
from storage import ENDED_WITHOUT_RESULTS, Finish, GameStatus, StaleVersion, WrongStatus

STAND_IN_AI: Final = NORMAL
"""The level of the computer that decides for a person who ran out of time or left."""

SeasonOf = Callable[[int, int], Awaitable[SeasonWindow | None]]
"""``season_of(guild_id, now_ms)``: the server's season at that time (None: it runs none)."""


async def _no_seasons(guild_id: int, now_ms: int) -> SeasonWindow | None:
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


class Turns:
    """Commits decisions of one game at a time (the caller holds the channel's lock)."""

    def __init__(self, store: GameStore, deadlines: Deadlines, clock: Callable[[], int],
                 timeout_of: Callable[[Game], int], season_of: SeasonOf = _no_seasons) -> None:
        """Commit to ``store`` at ``clock``'s time; arm the next deadline in ``deadlines``;
        a finish counts for the season ``season_of`` names.
        """
        self.store = store
        self.season_of = season_of
        self.db = store.db
        self.cache = store.cache
        self.deadlines = deadlines
        self.clock = clock
        self.timeout_of = timeout_of

    def check(self, game: Game, user_id: int, version: int) -> tuple[Any, int]:
        """The state and the seat if ``user_id`` may decide in ``game`` at ``version``, else
        the error the user reads.
        """
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(closed_message(game))
        if game.version != version:
            raise StaleClick("That button is from an earlier moment of the game: use the "
                             "latest message.")
        if game.paused is not None:
            raise GamePaused("This game is paused until I can post in this channel again: a "
                             "server admin can grant me the permissions, then use /{kind} "
                             "board.", kind=game.kind)
        state = self.cache.state_of(game)
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

    async def settle(self, outcome: Outcome) -> Outcome:
        """After a change: computers play, the next deadline is armed, the recent events are
        attached (what the presenters show); a game that ended is forgotten.
        """
        await self.play_computers(outcome)
        game = outcome.game
        self.deadlines.arm(game)
        outcome.recent = await self.store.recent(game)
        if not game.is_open:
            self.cache.release(game.id)
            self.deadlines.cancel(game.id)
        return outcome

    async def stand_in(self, game: Game, state: Any, seat: int, reason: str) -> Outcome:
        """The computer plays ``seat`` for the rest of the game (``reason``: its person left
        or resigned); then the game goes on.
        """
        seated = replace(game, players=tuple(replace(p, stand_in=reason) if p.seat == seat
                                             else p for p in game.players))
        try:
            game = await self.db.games.stand_in(game.id, seat, reason, game.version,
                                                self.deadline(seated, state), self.clock())
        except StaleVersion:
            raise StaleClick("The game just moved on: try again.") from None
        except WrongStatus:  # another process ended it meanwhile
            raise GameNotRunning("This game just ended.") from None
        self.cache.remember(game, state)
        return await self.settle(Outcome(game, state, stood_in=[seat]))

    def deadline(self, game: Game, state: Any) -> int | None:
        """When the decision ``state`` waits on times out (None: a computer decides it, or
        the game is over or paused).
        """
        seat = kind_of(game.kind).engine.current_seat(state)
        if seat is None or game.players[seat].by_computer or game.paused is not None:
            return None
        return self.clock() + self.timeout_of(game) * 1000

    async def commit(self, outcome: Outcome, action: Any, by: str) -> None:
        """Apply ``action`` to the outcome's state and commit it (``by``: ``player``,
        ``computer`` or ``timeout``); the last action also records the results.
        """
        game = outcome.game
        kind = kind_of(game.kind)
        engine = kind.engine
        seat = action.seat
        new_state, events = engine.apply(outcome.state, action)
        objs = list(log_objects(f"{game.id}", events))
        player_id = game.players[seat].player_id
        now = self.clock()
        finish = None
        if engine.current_seat(new_state) is None:
            finish = _finish(game, kind, new_state, await self.season_of(game.guild_id, now))
        token = game.players[seat].token  # the log never holds a Discord id
        actor = token if by != "timeout" else f"timeout:{token}"
        try:  # the version guard: of racing writers (other processes too), one wins
            game = await self.db.games.commit_action(
                game.id, game.version, action=action.to_json(), actor=actor, events=objs,
                state=engine.state_to_json(new_state),
                deadline_ms=self.deadline(game, new_state), now_ms=now, finish=finish,
            )
        except StaleVersion:
            raise StaleClick("Someone was quicker: the game just moved on. Use the latest "
                             "message.") from None
        except WrongStatus:
            raise GameNotRunning("This game just ended.") from None
        outcome.game = game
        outcome.state = new_state
        outcome.steps.append(Step(seat, player_id, by, action.to_json(), list(events)))
        self.cache.remember(game, new_state, list(events))

    async def play_computers(self, outcome: Outcome) -> None:
        """Let every seat a computer decides for play, up to the next person's decision."""
        kind = kind_of(outcome.game.kind)
        while outcome.game.status == GameStatus.ACTIVE:
            seat = kind.engine.current_seat(outcome.state)
            if seat is None or not outcome.game.players[seat].by_computer:
                return
            level = level_of(outcome.game, seat)
            bot = kind.make_player(level, ai_seed(outcome.game, seat))
            if level == HARD:  # it looks ahead: off the event loop
                action = await asyncio.to_thread(bot.choose, outcome.state)
            else:
                action = bot.choose(outcome.state)
            try:
                await self.commit(outcome, action, "computer")
            except (StaleClick, GameNotRunning):  # another process played this turn
                return

    async def play_late_turn(self, outcome: Outcome, seat: int) -> None:
        """The computer finishes the late player's turn (one decision in Royale; up to the
        kind's ``turn_end`` action otherwise).
        """
        kind = kind_of(outcome.game.kind)
        while True:
            bot = kind.make_player(STAND_IN_AI, ai_seed(outcome.game, seat))
            try:
                await self.commit(outcome, bot.choose(outcome.state), "timeout")
            except StaleClick:  # another process moved the game first: nothing more applied
                return
            if kind.turn_end is None or outcome.steps[-1].action.get("type") == kind.turn_end \
                    or kind.engine.current_seat(outcome.state) != seat:
                return


def closed_message(game: Game) -> str:
    """Why a game takes no more decisions."""
    if game.status == GameStatus.FINISHED:
        return "This game is over."
    if game.status in ENDED_WITHOUT_RESULTS:
        return "This game was cancelled."
    return "This game hasn't started yet."


def _finish(game: Game, kind: GameKind[Any, Any], state: Any,
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
