"""What the drill checks after every kill, reading the database with ``sqlite3`` (read-only).

1. The file is sound: ``PRAGMA integrity_check`` says ``ok``, ``PRAGMA foreign_key_check`` is
   empty.
2. Nothing answered was lost: for every game the stored version is at least the last version
   the child answered, and the state stored then is the one the replay reaches at that point.
3. Nothing was applied twice: the action log's ``seq`` are exactly 1..n, the version is the
   lobby's writes + the start + n, and replaying the game from its seed with the logged actions
   (``engine.new_game`` + ``engine.apply``) gives exactly the stored start events, each action's
   stored events and the stored state JSON; the game is finished exactly when the replay is over,
   with one result per player (the replay's totals and winners), and each player's rating counts
   exactly the results they have.

Read-only means ``mode=ro``: the checker never recovers, checkpoints or changes the files the
restarted child will open.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storage import inspect as db
from tools.crashdrill.protocol import digest, state_text

NO_DIGEST = "-"


@dataclass(frozen=True, slots=True)
class Answer:
    """The last thing the child answered about a game: its version and state digest."""

    version: int
    digest: str = NO_DIGEST


@dataclass(frozen=True, slots=True)
class GameFacts:
    """A game as the checker found it."""

    id: int
    status: str
    version: int
    players: int
    actions: int


@dataclass(slots=True)
class CheckResult:
    """The outcome of one :func:`check_database`: checks passed and every failure found."""

    passed: int = 0
    failures: list[str] = field(default_factory=list)
    games: dict[int, GameFacts] = field(default_factory=dict)
    verified: dict[int, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def open_game(self) -> GameFacts | None:
        """The game in the lobby or being played, if any."""
        found = [g for g in self.games.values() if g.status in ("lobby", "active")]
        return found[-1] if found else None

    @property
    def finished_games(self) -> int:
        return sum(g.status == "finished" for g in self.games.values())

    @property
    def actions(self) -> int:
        return sum(g.actions for g in self.games.values())

    def check(self, good: bool, name: str, message: str) -> bool:
        if good:
            self.passed += 1
        else:
            self.failures.append(f"{name}: {message}")
        return good


def check_database(
    path: Path,
    answered: Mapping[int, Answer] | None = None,
    verified: dict[int, str] | None = None,
) -> CheckResult:
    """Run every check on the drill database at ``path`` (see the module docstring).

    ``answered`` holds the last answer of each game. ``verified`` (kept by the caller across
    calls) remembers the fingerprint of every finished game whose replay passed: such a game is
    replayed again only if any of its rows changed since.
    """
    result = CheckResult()
    result.verified = {} if verified is None else verified
    answered = answered or {}
    if not path.exists():
        result.check(not answered, "lost", f"{path.name} does not exist but games were answered")
        return result
    try:
        with closing(db.connect_ro(path)) as conn:
            _check_file(conn, result)
            if result.ok:
                _check_games(conn, answered, result)
    except sqlite3.DatabaseError as error:
        result.check(False, "sqlite", f"{type(error).__name__}: {error}")
    return result


def _check_file(conn: sqlite3.Connection, result: CheckResult) -> None:
    db.begin_snapshot(conn)
    rows = db.integrity_problems(conn)
    result.check(rows == ["ok"], "integrity_check", "; ".join(str(r) for r in rows[:5]))
    bad = db.foreign_key_problems(conn)
    result.check(not bad, "foreign_key_check", f"{len(bad)} row(s) point nowhere: "
                 + ", ".join(str(tuple(r)) for r in bad[:3]))


def _check_games(
    conn: sqlite3.Connection, answered: Mapping[int, Answer], result: CheckResult
) -> None:
    tables = db.table_names(conn)
    if "games" not in tables:  # killed before the first migration committed
        result.check(not answered, "lost", "no schema yet but games were answered")
        return
    games = db.all_games(conn)
    known = {g["id"] for g in games}
    for game_id in answered:
        result.check(game_id in known, "lost", f"game {game_id} was answered but is gone")
    for game in games:
        _check_game(conn, game, answered.get(game["id"]), result)
    _check_ratings(conn, result)


def _check_game(
    conn: sqlite3.Connection, game: sqlite3.Row, answer: Answer | None, result: CheckResult
) -> None:
    gid, status, version = game["id"], game["status"], game["version"]
    where = f"game {gid}"
    seats = db.seat_players(conn, gid)
    players = [token for token, _ in seats]
    actions = db.game_actions(conn, gid)
    n = len(actions)
    result.games[gid] = GameFacts(gid, status, version, len(players), n)

    seqs = [a["seq"] for a in actions]
    result.check(seqs == list(range(1, n + 1)), "action_log",
                 f"{where}: seq are {_ranges(seqs)}, expected 1..{n}")
    if answer is not None:
        result.check(version >= answer.version, "lost",
                     f"{where}: answered version {answer.version}, stored version {version}")

    if status == "lobby":
        # A drill lobby only grows: the host at version 0, then one write per seat added.
        result.check(version == len(players) - 1 and n == 0 and game["state"] is None,
                     "versions", f"{where}: lobby at version {version} with {len(players)} "
                     f"players, {n} actions")
        return
    if not result.check(status in ("active", "finished"), "status",
                        f"{where}: unexpected status {status!r}"):
        return
    # Versions: one per lobby seat added, one for the start, one per action.
    result.check(version == len(players) + n, "versions",
                 f"{where}: version {version} but {len(players)} players and {n} actions")
    results = db.game_results(conn, gid)
    print_ = _fingerprint(game, [f"{t}={p}" for t, p in seats], actions, results)
    if status == "finished" and result.verified.get(gid) == print_:
        result.check(True, "replay", "")  # the very rows a full replay accepted before
        return
    failures = len(result.failures)
    _replay(game, seats, actions, results, answer, result)
    if status == "finished" and len(result.failures) == failures:
        result.verified[gid] = print_
    else:
        result.verified.pop(gid, None)


def _fingerprint(game: sqlite3.Row, players: list[str], actions: list[sqlite3.Row],
                 results: list[sqlite3.Row]) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in (tuple(game), players, *map(tuple, actions), *map(tuple, results)):
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


def _replay(
    game: sqlite3.Row,
    seats: list[tuple[str, str]],
    actions: list[sqlite3.Row],
    results: list[sqlite3.Row],
    answer: Answer | None,
    result: CheckResult,
) -> None:
    from bot.rules.gamelog import log_objects
    from bot.rules.registry import engine_for

    gid = game["id"]
    where = f"game {gid}"
    engine = engine_for(game["kind"])
    settings = json.loads(game["settings"])
    players = [token for token, _ in seats]
    state, events = engine.new_game(players, game["seed"], settings)

    def events_text(evs: Sequence[Any]) -> str:
        return state_text(list(log_objects(str(gid), evs)))

    if not result.check(events_text(events) == game["start_events"], "replay",
                        f"{where}: start events differ from a fresh deal of its seed"):
        return
    answer_seq = None
    if answer is not None and answer.digest != NO_DIGEST:
        answer_seq = answer.version - len(players)

    def check_answer(seq: int) -> None:
        if answer is not None and seq == answer_seq:
            text = state_text(engine.state_to_json(state))
            result.check(digest(text) == answer.digest, "lost",
                         f"{where}: the state answered at version {answer.version} is not the "
                         "one the action log leads to")

    check_answer(0)
    for row in actions:
        seq = row["seq"]
        try:
            action = engine.action_from_json(json.loads(row["action"]))
            pid = players[action.seat]
            state, events = engine.apply(state, action)
        except Exception as error:
            result.check(False, "replay",
                         f"{where}: action {seq} does not apply: {type(error).__name__}: {error}")
            return
        result.check(row["actor"] in (pid, f"timeout:{pid}"), "replay",
                     f"{where}: action {seq} by {row['actor']!r} for seat of {pid!r}")
        if not result.check(events_text(events) == row["events"], "replay",
                            f"{where}: action {seq}'s stored events differ from the replay"):
            return
        check_answer(seq)
    result.check(state_text(engine.state_to_json(state)) == game["state"], "replay",
                 f"{where}: stored state differs from the replay of its {len(actions)} actions")
    over = engine.current_seat(state) is None
    result.check(over == (game["status"] == "finished"), "status",
                 f"{where}: status {game['status']!r} but the replay is "
                 + ("over" if over else "not over"))
    stored = {r["player_id"]: (r["score"], bool(r["won"])) for r in results}
    expected: dict[str, tuple[int, bool]] = {}
    if over:
        totals, winners = engine.totals(state), set(engine.winners(state))
        expected = {pid: (totals[i], i in winners) for i, (_, pid) in enumerate(seats)}
    result.check(stored == expected, "results",
                 f"{where}: results {stored} but the replay gives {expected}")


def _check_ratings(conn: sqlite3.Connection, result: CheckResult) -> None:
    rows = db.rating_counts(conn)
    bad = [f"{r['player_id']} rated for {r['games']} games, played {r['played']}"
           for r in rows if r["games"] != r["played"]]
    unrated = db.unrated_players(conn)
    if unrated:
        bad.append(f"{unrated} player(s) with results but no rating")
    result.check(not bad, "ratings", "; ".join(bad[:3]))


def _ranges(values: list[int]) -> str:
    if len(values) <= 8:
        return str(values)
    return f"[{', '.join(map(str, values[:4]))}, ..., {', '.join(map(str, values[-3:]))}]"
