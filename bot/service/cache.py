"""What the game service keeps in memory of the games being played: each open game's channel,
its engine state at the version last seen, its recent events (what its board shows). An entry
lives while its game is open and is released the moment the game ends, so memory follows the
games in play, not the games ever played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.errors import GameNotRunning
from bot.rules.registry import kind_of
from storage import Game, GameStatus


def recent_events(kind: str, events: list[Any]) -> list[Any]:
    """The events a game's board shows (the kind's own rule: its registry entry)."""
    return kind_of(kind).recent_events(events)


@dataclass(slots=True)
class _Entry:
    channel_id: int
    version: int = -1
    state: Any = None
    recent: list[Any] | None = None


@dataclass(slots=True)
class GameCache:
    """The open games' channels, states and recent events."""

    _games: dict[int, _Entry] = field(default_factory=dict)

    def track(self, game: Game) -> None:
        """Remember an open game's channel (a closed game is released instead)."""
        if not game.is_open:
            self.release(game.id)
        elif game.id not in self._games:
            self._games[game.id] = _Entry(game.channel_id)

    def channel_of(self, game_id: int) -> int | None:
        """The channel of an open game seen before, or None."""
        entry = self._games.get(game_id)
        return None if entry is None else entry.channel_id

    def state_of(self, game: Game) -> Any:
        """The engine state of a started game; kept (by version) while the game is in play and
        still in the cache: a caller's copy of a game that ended meanwhile (abandoned with its
        channel, say) does not bring it back.
        """
        entry = self._games.get(game.id)
        if entry is not None and entry.version == game.version:
            return entry.state
        if game.state is None:
            raise GameNotRunning("This game hasn't started yet.")
        state = kind_of(game.kind).engine.state_from_json(game.state)
        if entry is not None and game.status == GameStatus.ACTIVE:
            entry.version, entry.state = game.version, state
        return state

    def remember(self, game: Game, state: Any, events: Sequence[Any] = ()) -> None:
        """The state ``game`` is at now; ``events`` (the engine's) just happened."""
        if game.status != GameStatus.ACTIVE:
            self.release(game.id)
            return
        entry = self._games.get(game.id)
        if entry is None:
            entry = self._games[game.id] = _Entry(game.channel_id)
        entry.version, entry.state = game.version, state
        if entry.recent is not None and events:
            entry.recent = recent_events(game.kind, [*entry.recent, *events])

    def recent(self, game: Game) -> list[Any] | None:
        """The game's recent events if they are in memory."""
        entry = self._games.get(game.id)
        return None if entry is None else entry.recent

    def keep_recent(self, game: Game, events: list[Any]) -> list[Any]:
        """Trim a game's events (the engine's) to its recent ones, kept while the game is in
        play (and in the cache, as :meth:`state_of`).
        """
        recent = recent_events(game.kind, events)
        entry = self._games.get(game.id)
        if entry is not None and game.status == GameStatus.ACTIVE:
            entry.recent = recent
        return recent

    def release(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)
