"""Achievements, computed from game logs alone (docs/achievements.md lists them).

An achievement is earned in one finished game (:func:`earned`, :func:`earned_by_player`) or
over a season's games (:func:`season_earned`); a player keeps the set of every achievement they
ever earned, so recomputing from every stored log (:func:`recompute`) gives the same set as
adding each game's achievements as it finished. The input is the game's log objects as
docs/game-log.md describes them (what storage keeps and ``/royale log`` gives out): only
``setup``, ``score``, ``cannon``, ``fill`` and ``game_end`` are read. A log without
``game_end`` (a cancelled or abandoned game) earns nothing.

Pure: no I/O, no clock (a game's time and a season's window are given as epoch
milliseconds), no Discord. The names and descriptions are English msgids: the Discord layer
translates them where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.rules.registry import POSING, ROYALE, GameKind, kind_of

LogObject = Mapping[str, Any]

FIRST_WIN: Final = "first_win"
SHARED_WIN: Final = "shared_win"
FULL_TABLE: Final = "royale_full_table"
CENTURY: Final = "royale_century"
COMEBACK: Final = "royale_comeback"
WIRE_TO_WIRE: Final = "royale_wire_to_wire"
SIX_HUNDRED: Final = "royale_six_hundred"
BIG_BANG: Final = "royale_big_bang"
PERFECT_POSE: Final = "posing_perfect_pose"
FULL_CARD: Final = "posing_full_card"
REGULAR: Final = "season_regular"

CENTURY_POINTS: Final = 100
COMEBACK_ROUND: Final = 5
BIG_TOTAL: Final = 600
FULL_TABLE_PLAYERS: Final = 10
BIG_BANG_FACE: Final = 8
SEASON_GAMES: Final = 10


def N_(msgid: str) -> str:  # noqa: N802 - gettext's marker name
    """Mark a name or a description for the catalogues (the Discord layer translates it)."""
    return msgid


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: a stable id (stored; never renamed), its English name and one line
    that says how it is earned (msgids, translated where they are shown).
    """

    id: str
    name: str
    description: str
    kind: str | None
    """The game kind (the registry's name) whose games can earn it; None: any kind, or a
    season's games."""


ACHIEVEMENTS: Final[tuple[Achievement, ...]] = (
    Achievement(FIRST_WIN, N_("First win"),
                N_("Win a game against at least one other player."), None),
    Achievement(SHARED_WIN, N_("Shared glory"),
                N_("Share first place with another player."), None),
    Achievement(FULL_TABLE, N_("Full table"),
                N_("Win a game of Panda Royale with ten players."), ROYALE.name),
    Achievement(CENTURY, N_("Century"),
                N_("Score 100 points or more in one colour column in a single round of "
                "Panda Royale."), ROYALE.name),
    Achievement(COMEBACK, N_("Comeback"),
                N_("Win a game of Panda Royale from last place after round 5."), ROYALE.name),
    Achievement(WIRE_TO_WIRE, N_("Wire to wire"),
                N_("Lead a game of Panda Royale alone after every round."), ROYALE.name),
    Achievement(SIX_HUNDRED, N_("Six hundred"),
                N_("Finish a game of Panda Royale with 600 points or more."), ROYALE.name),
    Achievement(BIG_BANG, N_("Big bang"),
                N_("Fire a Cannon die showing 8: 80 points at once."), ROYALE.name),
    Achievement(PERFECT_POSE, N_("Perfect pose"),
                N_("Fill Set of 5 in Posing Pandas: all five dice alike."), POSING.name),
    Achievement(FULL_CARD, N_("No blanks"),
                N_("Finish a game of Posing Pandas without a 0 on your card."), POSING.name),
    Achievement(REGULAR, N_("Regular"),
                N_("Play ten games in one season."), None),
)
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


@dataclass(frozen=True, slots=True)
class _Game:
    """The parts of a finished game's log that the achievements read."""

    kind: GameKind[Any, Any]
    players: tuple[str, ...]
    winners: frozenset[str]
    totals: Mapping[str, int]
    events: tuple[LogObject, ...]

    def lines(self, player: str, event: str) -> list[LogObject]:
        """``player``'s events named ``event``, in log order."""
        return [e for e in self.events if e.get("event") == event and e.get("player") == player]

    def after_rounds(self) -> list[dict[str, int]]:
        """Each player's running total after each round (Panda Royale), round 1 first."""
        out: list[dict[str, int]] = []
        running = dict.fromkeys(self.players, 0)
        for e in self.events:
            if e.get("event") != "score":
                continue
            rnd = int(e["round"])
            running[str(e["player"])] += int(e["total"])
            while len(out) < rnd:
                out.append({})
            out[rnd - 1] = dict(running)
        return out


def _parse(kind: str, events: Iterable[LogObject]) -> _Game | None:
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
    return _Game(game, tuple(str(p) for p in setup["players"]),
                 frozenset(str(p) for p in end["winners"]), totals, log)


def _first_win(g: _Game, p: str) -> bool:
    return len(g.players) >= 2 and p in g.winners


def _shared_win(g: _Game, p: str) -> bool:
    return p in g.winners and len(g.winners) >= 2


def _full_table(g: _Game, p: str) -> bool:
    return len(g.players) >= FULL_TABLE_PLAYERS and p in g.winners


def _century(g: _Game, p: str) -> bool:
    return any(int(v) >= CENTURY_POINTS for e in g.lines(p, "score")
               for v in e["columns"].values())


def _comeback(g: _Game, p: str) -> bool:
    rounds = g.after_rounds()
    if p not in g.winners or len(rounds) < COMEBACK_ROUND:
        return False
    then = rounds[COMEBACK_ROUND - 1]
    return then[p] == min(then.values()) < max(then.values())


def _wire_to_wire(g: _Game, p: str) -> bool:
    rounds = g.after_rounds()
    return (len(g.players) >= 2 and bool(rounds)
            and all(all(t[p] > v for q, v in t.items() if q != p) for t in rounds))


def _six_hundred(g: _Game, p: str) -> bool:
    return g.totals.get(p, 0) >= BIG_TOTAL


def _big_bang(g: _Game, p: str) -> bool:
    return any(e.get("decision") == "score" and e.get("value") == BIG_BANG_FACE
               for e in g.lines(p, "cannon"))


def _perfect_pose(g: _Game, p: str) -> bool:
    return any(e.get("box") == "set_of_5" and int(e["points"]) > 0 for e in g.lines(p, "fill"))


def _full_card(g: _Game, p: str) -> bool:
    fills = g.lines(p, "fill")
    return bool(fills) and all(int(e["points"]) > 0 for e in fills)


_CHECKS: Final[dict[str, Callable[[_Game, str], bool]]] = {
    FIRST_WIN: _first_win, SHARED_WIN: _shared_win, FULL_TABLE: _full_table,
    CENTURY: _century, COMEBACK: _comeback, WIRE_TO_WIRE: _wire_to_wire,
    SIX_HUNDRED: _six_hundred, BIG_BANG: _big_bang, PERFECT_POSE: _perfect_pose,
    FULL_CARD: _full_card,
}
"""The achievements one game earns, by id (the season's are counted apart)."""


def _earned(g: _Game, player: str) -> set[str]:
    return {aid for aid, check in _CHECKS.items()
            if BY_ID[aid].kind in (None, g.kind.name) and check(g, player)}


def earned(kind: str, events: Iterable[LogObject], seat: int) -> set[str]:
    """The ids of the achievements the player in ``seat`` earned in one game: ``kind`` as
    the registry names it, ``events`` the game's log objects. Empty for an unfinished game;
    ValueError for an unknown kind, a log of another kind, or a seat the game does not have.
    """
    game = _parse(kind, events)
    if game is None:
        return set()
    if not 0 <= seat < len(game.players):
        raise ValueError(f"the game has seats 0 to {len(game.players) - 1}, not {seat}")
    return _earned(game, game.players[seat])


def earned_by_player(kind: str, events: Iterable[LogObject]) -> dict[str, set[str]]:
    """:func:`earned` for every seat of one game, by player id (each player, even with
    nothing earned).
    """
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
