"""Achievements, computed from game logs alone (docs/achievements.md lists them).

An achievement is earned in one finished game (:func:`earned`, :func:`earned_by_player`) or
over a season's games (:func:`season_earned`); a player keeps the set of every achievement they
ever earned, so recomputing from every stored log (:func:`recompute`) gives the same set as
adding each game's achievements as it finished. The input is the game's log objects as
docs/game-log.md describes them (what storage keeps); each kind's own achievements are in
``bot/rules/<kind>/achievements.py``. A log without ``game_end`` (a cancelled or abandoned
game) earns nothing.

Pure: no I/O, no clock (a game's time and a season's window are given as epoch
milliseconds), no Discord.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from bot.rules.api import N_, Achievement, FinishedGame, LogObject
from bot.rules.registry import KINDS, kind_of

FIRST_WIN: Final = "first_win"
SHARED_WIN: Final = "shared_win"
REGULAR: Final = "season_regular"

SEASON_GAMES: Final = 10


def _first_win(g: FinishedGame, p: str) -> bool:
    return len(g.players) >= 2 and p in g.winners


def _shared_win(g: FinishedGame, p: str) -> bool:
    return p in g.winners and len(g.winners) >= 2


ANY_GAME: Final[tuple[Achievement, ...]] = (
    Achievement(FIRST_WIN, N_("First win"),
                N_("Win a game against at least one other player."), None, _first_win),
    Achievement(SHARED_WIN, N_("Shared glory"),
                N_("Share first place with another player."), None, _shared_win),
)
"""What a game of any kind can earn."""
SEASONAL: Final[tuple[Achievement, ...]] = (
    Achievement(REGULAR, N_("Regular"), N_("Play ten games in one season."), None),
)
"""What a season's games earn (:func:`season_earned`)."""
ACHIEVEMENTS: Final[tuple[Achievement, ...]] = (
    *ANY_GAME, *(a for kind in KINDS.values() for a in kind.achievements), *SEASONAL)
"""Every achievement, in the order they are listed to players."""
BY_ID: Final[Mapping[str, Achievement]] = {a.id: a for a in ACHIEVEMENTS}


@dataclass(frozen=True, slots=True)
class Season:
    """A season's window: games finished at ``start_ms`` <= time < ``end_ms`` count."""

    start_ms: int
    end_ms: int

    def holds(self, finished_ms: int) -> bool:
        """Whether a game finished at ``finished_ms`` belongs to the season."""
        return self.start_ms <= finished_ms < self.end_ms


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One stored game: its kind (the registry's name), its log objects and when it finished
    (epoch milliseconds; None: it counts for no season).
    """

    kind: str
    events: Sequence[LogObject]
    finished_ms: int | None = None


def _parse(kind: str, events: Iterable[LogObject]) -> FinishedGame | None:
    game = kind_of(kind)
    log = tuple(events)
    setup = next((e for e in log if e.get("event") == "setup"), None)
    end = next((e for e in log if e.get("event") == "game_end"), None)
    if setup is None:
        raise ValueError("a game log starts with its setup")
    if setup.get("game_kind") != game.name:
        raise ValueError(f"the log is of a {setup.get('game_kind')!r} game, not {kind!r}")
    if end is None:
        return None
    totals = {str(p): int(t) for p, t in end["totals"].items()}
    return FinishedGame(game.name, tuple(str(p) for p in setup["players"]),
                        frozenset(str(p) for p in end["winners"]), totals, log)


def _earned(g: FinishedGame, player: str) -> set[str]:
    return {a.id for a in (*ANY_GAME, *kind_of(g.kind).achievements)
            if a.check is not None and a.check(g, player)}


def earned(kind: str, events: Iterable[LogObject], seat: int) -> set[str]:
    """The ids of the achievements the player in ``seat`` earned in one (finished) game."""
    game = _parse(kind, events)
    if game is None:
        return set()
    if not 0 <= seat < len(game.players):
        raise ValueError(f"the game has seats 0 to {len(game.players) - 1}, not {seat}")
    return _earned(game, game.players[seat])


def earned_by_player(kind: str, events: Iterable[LogObject]) -> dict[str, set[str]]:
    """:func:`earned` for every seat of one game, by player id (each one, even with none)."""
    game = _parse(kind, events)
    if game is None:
        return {}
    return {p: _earned(game, p) for p in game.players}


def season_earned(finished_ms: Iterable[int], season: Season) -> set[str]:
    """The season achievements of a player whose finished games ended at ``finished_ms``."""
    count = sum(1 for t in finished_ms if season.holds(t))
    return {REGULAR} if count >= SEASON_GAMES else set()


def recompute(games: Iterable[GameRecord],
              seasons: Sequence[Season] = ()) -> dict[str, set[str]]:
    """Every player's achievements from their games' logs: the union of each game's
    :func:`earned_by_player`, and of :func:`season_earned` for each of ``seasons`` over the
    times of the player's finished games.
    """
    out: dict[str, set[str]] = {}
    times: dict[str, list[int]] = {}
    for record in games:
        game = _parse(record.kind, record.events)
        if game is None:
            continue
        for player in game.players:
            out.setdefault(player, set()).update(_earned(game, player))
            if record.finished_ms is not None:
                times.setdefault(player, []).append(record.finished_ms)
    for player, finished in times.items():
        for season in seasons:
            out[player].update(season_earned(finished, season))
    return out
