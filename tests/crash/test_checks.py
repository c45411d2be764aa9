"""The drill's checker finds damage: each test breaks a copy of a played database."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.rules.registry import engine_for
from tools.crashdrill.checks import Answer, CheckResult, check_database
from tools.crashdrill.protocol import digest, state_text


@pytest.fixture
def copy(played_db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy.db"
    shutil.copyfile(played_db, target)
    return target


def edit(path: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        for sql, params in statements:
            conn.execute(sql, params)


def rows(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(path)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql, params).fetchall()


def failed(result: CheckResult, name: str) -> bool:
    return any(f.startswith(f"{name}:") for f in result.failures)


def last_answer(path: Path, game_id: int) -> Answer:
    """What the child answered last about a game: its stored version and state."""
    (game,) = rows(path, "SELECT version, state FROM games WHERE id = ?", (game_id,))
    return Answer(game["version"], digest(game["state"]))


def replayed_states(path: Path, game_id: int) -> Iterator[str]:
    """The state text after 0, 1, 2, ... of the game's actions."""
    (game,) = rows(path, "SELECT kind, seed, settings FROM games WHERE id = ?", (game_id,))
    players = [r["player_id"] if r["is_bot"] else f"p{r['seat'] + 1}" for r in rows(
        path, "SELECT seat, player_id, is_bot FROM game_players WHERE game_id = ? ORDER BY seat",
        (game_id,))]  # a person's token in the state is their seat, a computer's its id
    engine = engine_for(game["kind"])
    state, _ = engine.new_game(players, game["seed"], json.loads(game["settings"]))
    yield state_text(engine.state_to_json(state))
    for a in rows(path, "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)):
        state, _ = engine.apply(state, engine.action_from_json(json.loads(a["action"])))
        yield state_text(engine.state_to_json(state))


def test_a_sound_database_passes(copy: Path) -> None:
    result = check_database(copy, {1: last_answer(copy, 1), 2: last_answer(copy, 2)})
    assert result.ok, result.failures
    assert result.finished_games == 2
    assert result.passed > 100
    assert result.open_game is None


def test_a_missing_action_row_is_found(copy: Path) -> None:
    edit(copy, ("DELETE FROM actions WHERE game_id = 1 AND seq = 5", ()))
    result = check_database(copy)
    assert failed(result, "action_log") and failed(result, "versions")
    assert failed(result, "replay")


def test_the_last_action_lost_with_its_version_is_found(copy: Path) -> None:
    """A 'lost' commit whose version went with it: only the answer can tell."""
    answer = last_answer(copy, 2)
    edit(copy, ("DELETE FROM actions WHERE game_id = 2 AND seq = (SELECT MAX(seq) FROM actions"
                " WHERE game_id = 2)", ()),
         ("UPDATE games SET version = version - 1 WHERE id = 2", ()))
    result = check_database(copy, {2: answer})
    assert failed(result, "lost")


def test_an_action_applied_twice_is_found(copy: Path) -> None:
    """The last action logged a second time (and the version bumped for it)."""
    (last,) = rows(copy, "SELECT * FROM actions WHERE game_id = 1 ORDER BY seq DESC LIMIT 1")
    edit(copy, ("INSERT INTO actions (game_id, seq, action, actor, events, created_ms)"
                " VALUES (1, ?, ?, ?, ?, ?)",
                (last["seq"] + 1, last["action"], last["actor"], last["events"],
                 last["created_ms"])),
         ("UPDATE games SET version = version + 1 WHERE id = 1", ()))
    result = check_database(copy)
    assert failed(result, "replay")


def test_a_state_that_moved_on_twice_is_found(copy: Path) -> None:
    """The stored state has one action's effect more than the log (applied twice), or less."""
    states = list(replayed_states(copy, 1))
    for wrong in (states[-2], states[len(states) // 2]):
        edit(copy, ("UPDATE games SET state = ? WHERE id = 1", (wrong,)))
        result = check_database(copy)
        assert failed(result, "replay"), result.failures


def test_an_answer_that_is_not_in_the_log_is_found(copy: Path) -> None:
    states = list(replayed_states(copy, 1))
    (game,) = rows(copy, "SELECT version FROM games WHERE id = 1")
    version = game["version"] - 3  # an answered version in the middle of the game ...
    right = Answer(version, digest(states[-4]))
    assert check_database(copy, {1: right}).ok
    # ... whose stored state is not where the log leads (the log was rewritten after it)
    wrong = Answer(version, digest(states[-3]))
    assert failed(check_database(copy, {1: wrong}), "lost")
    # an answer beyond what is stored
    assert failed(check_database(copy, {1: Answer(game["version"] + 1)}), "lost")
    assert failed(check_database(copy, {9: Answer(1)}), "lost")


def test_wrong_results_and_ratings_are_found(copy: Path) -> None:
    edit(copy, ("UPDATE results SET score = score + 1 WHERE game_id = 2 AND seat = 0", ()))
    assert failed(check_database(copy), "results")
    edit(copy, ("DELETE FROM results WHERE game_id = 2", ()))
    result = check_database(copy)
    assert failed(result, "results") and failed(result, "ratings")


def test_a_finished_game_that_is_not_over_is_found(copy: Path) -> None:
    edit(copy, ("DELETE FROM actions WHERE game_id = 1 AND seq = (SELECT MAX(seq) FROM actions"
                " WHERE game_id = 1)", ()),
         ("UPDATE games SET version = version - 1 WHERE id = 1", ()))
    result = check_database(copy)
    assert failed(result, "replay") and failed(result, "status")


def test_rows_pointing_nowhere_are_found(copy: Path) -> None:
    edit(copy, ("INSERT INTO actions (game_id, seq, action, actor, events, created_ms)"
                " VALUES (77, 1, '{}', 'x', '[]', 0)", ()))
    assert failed(check_database(copy), "foreign_key_check")


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_a_truncated_file_is_found(copy: Path, keep: float) -> None:
    size = copy.stat().st_size
    with open(copy, "r+b") as f:
        f.truncate(int(size * keep) // 4096 * 4096 or 4096)
    result = check_database(copy, {1: Answer(1)})
    assert not result.ok
    assert failed(result, "integrity_check") or failed(result, "sqlite")


def test_a_garbled_page_is_found(copy: Path) -> None:
    with open(copy, "r+b") as f:
        f.seek(3 * 4096)
        f.write(b"\xff" * 4096)
    result = check_database(copy)
    assert not result.ok


def test_a_replayed_game_is_replayed_again_only_when_it_changed(copy: Path) -> None:
    verified: dict[int, str] = {}
    assert check_database(copy, verified=verified).ok
    assert set(verified) == {1, 2}
    assert check_database(copy, verified=verified).ok
    edit(copy, ("UPDATE games SET state = ? WHERE id = 2",
                (list(replayed_states(copy, 2))[-2],)))
    result = check_database(copy, verified=verified)
    assert failed(result, "replay")
    assert set(verified) == {1}


def test_a_missing_file_is_fine_until_something_was_answered(tmp_path: Path) -> None:
    assert check_database(tmp_path / "none.db").ok
    assert failed(check_database(tmp_path / "none.db", {1: Answer(0)}), "lost")
