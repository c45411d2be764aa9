"""Migration 006: the Discord ids written into games' states, start events and action logs
before it become their seats' tokens, and the logs shown stay the same.
"""

from __future__ import annotations

import json
import random

import pytest

import storage.games as storage_games
from bot.service import GameService, Person, Place
from bot.service.logs import log_of
from storage import relabel

from ..app.play import play_to_end
from ..conftest import Backend

ALICE, BOB, CAROL = Person(111, "alice"), Person(222, "bob"), Person(333, "carol")


async def _played(svc: GameService) -> int:
    game = await svc.new_lobby(kind="royale", place=Place(9, 7), host=ALICE,
                               settings={"expansions": ["cannon"]})
    await svc.join(game.id, BOB)
    await svc.join(game.id, CAROL)
    await svc.add_computer(game.id, ALICE, "easy")
    await svc.start(game.id, ALICE)
    await play_to_end(svc, game.id, random.Random(6))
    return game.id


def _stored(backend: Backend, game_id: int) -> tuple[list[tuple[object, ...]], ...]:
    return (backend.query("SELECT state, start_events FROM games WHERE id = ?", (game_id,)),
            backend.query("SELECT seq, actor, events FROM actions WHERE game_id = ?"
                          " ORDER BY seq", (game_id,)))


def _as_before_006(backend: Backend, game_id: int, ids: dict[str, str]) -> None:
    """Write the game's rows the way the bot wrote them before migration 006."""
    def old(text: object) -> str:
        return json.dumps(relabel(json.loads(str(text)), ids))

    (state, start), = backend.query("SELECT state, start_events FROM games WHERE id = ?",
                                    (game_id,))
    backend.query("UPDATE games SET state = ?, start_events = ? WHERE id = ?",
                  (old(state), old(start), game_id))
    backend.query("DROP TRIGGER actions_append_only" if backend.name == "sqlite"
                  else "ALTER TABLE actions DISABLE TRIGGER actions_append_only")
    for seq, actor, events in backend.query(
            "SELECT seq, actor, events FROM actions WHERE game_id = ?", (game_id,)):
        who = str(actor).removeprefix("timeout:")
        actor = str(actor).replace(who, ids.get(who, who))
        backend.query("UPDATE actions SET actor = ?, events = ? WHERE game_id = ? AND seq = ?",
                      (actor, old(events), game_id, seq))
    backend.query("CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions BEGIN"
                  " SELECT RAISE(ABORT, 'actions are append-only'); END"
                  if backend.name == "sqlite"
                  else "ALTER TABLE actions ENABLE TRIGGER actions_append_only")


async def test_old_logs_are_relabelled_by_seat(backend: Backend,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # The game is played on the schema before 006 (and 007: no seasons, no achievements; 009:
    # a server's defaults are its language and threads only).
    monkeypatch.setattr("bot.service.turns.award_for", lambda game, season: None)
    monkeypatch.setattr("storage.games._GAME_COLUMNS", storage_games._GAME_COLUMNS.replace(
        "reminded_version", "NULL AS reminded_version").replace(
        "reach", "'bot' AS reach"))  # 010: no reminders; 011: every game the bot's
    monkeypatch.setattr("storage.games._SERVER_DEFAULTS",
                        "s.language, s.threads, NULL AS turn_timeout, NULL AS mayhem")
    async with await backend.open(migrations=backend.migrations()[:5]) as db:
        svc = GameService(db, seed_source=lambda: 77)
        game_id = await _played(svc)
        game = await svc.get_game(game_id)
        assert game is not None
        shown = (await log_of(db, game)).events
        await svc.close()
    written = _stored(backend, game_id)
    ids = {"p1": "111", "p2": "222", "p3": "333"}
    assert {"p1", "p2", "p3"} <= set(json.loads(str(written[0][0][1]))[0]["players"])
    _as_before_006(backend, game_id, ids)
    old = _stored(backend, game_id)
    assert old != written and "p2" not in str(old[1]) and "222" in str(old[1])

    async with await backend.open() as db:
        assert db.applied_migrations[0] == 6
        assert _stored(backend, game_id) == written  # every row as the bot writes it now
        game = await GameService(db).get_game(game_id)
        assert game is not None
        assert (await log_of(db, game)).events == shown
    with pytest.raises(Exception, match="append-only"):  # and the log is append-only again
        backend.query("UPDATE actions SET actor = 'x' WHERE game_id = ?", (game_id,))
