"""The game service's lobby half: open a lobby, join, leave, add computer players, cancel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bot.errors import GameNotRunning, LobbyError, NotAllowed, StaleClick
from bot.rules.levels import LEVELS, NORMAL
from bot.rules.registry import kind_of
from bot.service.model import Game, Person, Place, cpu_id, cpu_level, cpu_name, cpu_slot
from bot.service.reads import GameReads
from storage import ChannelBusy, PlayerRow, StaleVersion

MIN_TURN_TIMEOUT: Final = 15
MAX_TURN_TIMEOUT: Final = 3600
MAX_OPEN_LOBBIES: Final = 3
"""How many open games (lobby or in play) one person may host at once, across channels."""


class LobbyService(GameReads):
    """Lobbies: seats change under the channel's lock, one version bump per change."""

    # ------------------------------------------------------------------ lobby

    async def new_lobby(self, *, kind: str, place: Place, host: Person,
                        settings: dict[str, Any]) -> Game:
        """Open a lobby with the host seated. One open game per channel."""
        entry = kind_of(kind)
        timeout = settings.get("turn_timeout", self.default_timeout)
        if not isinstance(timeout, int) or not MIN_TURN_TIMEOUT <= timeout <= MAX_TURN_TIMEOUT:
            raise LobbyError(f"The turn timeout must be {MIN_TURN_TIMEOUT} to "
                             f"{MAX_TURN_TIMEOUT} seconds.")
        settings = {**settings, "turn_timeout": timeout}
        hosted = [g for g in await self.db.open_games() if g.host_id == host.id]
        if len(hosted) >= MAX_OPEN_LOBBIES and not any(g.channel_id == place.channel_id
                                                      for g in hosted):
            raise LobbyError(f"You already host {len(hosted)} open games: finish or cancel one "
                             "(/royale cancel or /posing cancel in its channel) first.")
        async with self.lock(place.channel_id):
            try:
                return await self.db.create_game(
                    guild_id=place.guild_id, channel_id=place.channel_id, kind=entry.name,
                    host_id=host.id, settings=settings, seed=self.seed_source(),
                    players=[PlayerRow(0, str(host.id), host.name, False)], now_ms=self.clock(),
                )
            except ChannelBusy:
                busy = await self.db.open_game_in_channel(place.channel_id)
                what = kind_of(busy.kind).title if busy else "game"
                raise LobbyError(
                    f"A {what} game is already open in this channel: finish or cancel it first."
                ) from None

    async def _edit_lobby(self, game_id: int, change: Callable[[Game], list[PlayerRow]]
                          ) -> Game:
        async with await self._channel_lock(game_id):
            game = await self._load(game_id)
            if game.status != "lobby":
                raise GameNotRunning("This lobby is closed: the game has started or ended.")
            players = change(game)
            try:
                return await self.db.set_players(game.id, players, game.version, self.clock())
            except StaleVersion:  # pragma: no cover - guarded by the lock
                raise StaleClick("The lobby just changed: try again.") from None

    async def join(self, game_id: int, who: Person) -> Game:
        """Seat ``who`` in the lobby."""
        def change(game: Game) -> list[PlayerRow]:
            most = kind_of(game.kind).max_players
            if str(who.id) in game.player_ids:
                raise LobbyError("You're already in this game.")
            if len(game.players) >= most:
                raise LobbyError(f"The game is full ({most} players).")
            return [*game.players, PlayerRow(len(game.players), str(who.id), who.name, False)]

        return await self._edit_lobby(game_id, change)

    async def leave(self, game_id: int, who: Person) -> Game:
        """Take ``who`` out of the lobby (not the host: the host cancels)."""
        def change(game: Game) -> list[PlayerRow]:
            if str(who.id) not in game.player_ids:
                raise LobbyError("You're not in this game.")
            if who.id == game.host_id:
                raise LobbyError("You're the host: cancel the game instead of leaving it.")
            kept = [p for p in game.players if p.player_id != str(who.id)]
            return [PlayerRow(i, p.player_id, p.display_name, p.is_bot)
                    for i, p in enumerate(kept)]

        return await self._edit_lobby(game_id, change)

    async def add_computer(self, game_id: int, who: Person, level: str = NORMAL) -> Game:
        """Seat a computer player of ``level`` (easy, normal, hard; the host only)."""
        if level not in LEVELS:
            raise LobbyError(f"Unknown level {level[:20]!r}: choose {', '.join(LEVELS)}.")

        def change(game: Game) -> list[PlayerRow]:
            most = kind_of(game.kind).max_players
            if who.id != game.host_id:
                raise NotAllowed("Only the host can add computer players.")
            if len(game.players) >= most:
                raise LobbyError(f"The game is full ({most} players).")
            taken = {cpu_slot(p.player_id) for p in game.players}
            slot = next(i for i in range(1, 100) if i not in taken)
            return [*game.players, PlayerRow(len(game.players), cpu_id(slot, level),
                                             cpu_name(slot, level), True)]

        return await self._edit_lobby(game_id, change)

    async def cancel(self, game_id: int, who: Person, *, manager: bool) -> Game:
        """Cancel an open game (the host, or someone who can manage the channel)."""
        async with await self._channel_lock(game_id):
            game = await self._load(game_id)
            if not game.is_open:
                raise GameNotRunning("This game is already over.")
            if who.id != game.host_id and not manager:
                raise NotAllowed("Only the host or someone who can manage this channel can "
                                 "cancel the game.")
            game = await self.db.cancel_game(game.id, self.clock())
            self._forget(game.id)
            return game

    async def rematch(self, game_id: int, who: Person, place: Place) -> Game:
        """A new lobby in the finished game's channel with the same settings and computer
        players, hosted by ``who`` (one of its players).
        """
        old = await self._load(game_id)
        if old.status != "finished":
            raise GameNotRunning("A rematch is offered once the game is over.")
        if str(who.id) not in old.player_ids:
            raise NotAllowed("Only the players of that game can start its rematch.")
        game = await self.new_lobby(kind=old.kind, place=place, host=who,
                                    settings=dict(old.settings))
        for seat in old.players:
            if seat.is_bot:
                game = await self.add_computer(game.id, who, cpu_level(seat.player_id))
        return game
