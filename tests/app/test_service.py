"""The game service without Discord: locks, versions, computer seats, timeouts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.errors import GameNotRunning, LobbyError, NotYourTurnError, StaleClick
from bot.rules.registry import ROYALE
from bot.rules.royale.actions import Pick
from bot.service import GameService, Person, Place
from tests.services import servers_of

from ..conftest import Backend

ALICE, BOB = Person(1, "alice"), Person(2, "bob")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest_asyncio.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    """The service on each storage backend (SQLite file, PostgreSQL database)."""
    db = await backend.open()
    svc = GameService(db, clock=Clock(), seed_source=lambda: 1234)
    yield svc
    await svc.close()
    await db.close()


async def two_player_game(svc: GameService, timeout: int = 120) -> int:
    game = await svc.new_lobby(kind="royale", place=Place(9, 7), host=ALICE,
                               settings={"expansions": [], "turn_timeout": timeout})
    await svc.join(game.id, BOB)
    outcome = await svc.start(game.id, ALICE)
    return outcome.game.id


def pick_first(state: object, seat: int) -> Pick:
    return Pick(seat, state.pool[0])  # type: ignore[attr-defined]


async def test_concurrent_actions_apply_once(service: GameService) -> None:
    gid = await two_player_game(service)
    game = await service.db.games.get(gid)
    assert game is not None
    state = service.state_of(game)
    seat = service_seat = state.queue[0][0]
    user = int(game.players[seat].player_id)
    results = await asyncio.gather(
        *(service.act(gid, Person(user, ""), game.version, pick_first) for _ in range(5)),
        return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, StaleClick)]
    assert len(ok) == 1 and len(stale) == 4
    log = await service.db.games.action_log(gid)
    assert [a.actor for a in log].count(game.players[seat].token) == 1  # "p1": never an id
    assert service_seat == seat


async def test_wrong_user_and_stranger(service: GameService) -> None:
    gid = await two_player_game(service)
    game = await service.db.games.get(gid)
    assert game is not None
    seat = service.state_of(game).queue[0][0]
    other = 3 - int(game.players[seat].player_id)
    with pytest.raises(NotYourTurnError, match="turn, not yours"):
        await service.act(gid, Person(other, ""), game.version, pick_first)
    with pytest.raises(NotYourTurnError, match="not playing"):
        await service.act(gid, Person(99, ""), game.version, pick_first)
    assert await service.db.games.action_log(gid) == []


async def test_timeout_races_a_player_and_applies_once(service: GameService) -> None:
    gid = await two_player_game(service, timeout=60)
    game = await service.db.games.get(gid)
    assert game is not None
    seat = service.state_of(game).queue[0][0]
    user = int(game.players[seat].player_id)
    results = await asyncio.gather(service.timeout(gid, game.version),
                                   service.act(gid, Person(user, ""), game.version, pick_first),
                                   return_exceptions=True)
    applied = [r for r in results if r is not None and not isinstance(r, BaseException)]
    assert len(applied) == 1
    assert len(await service.db.games.action_log(gid)) == 1


async def test_computer_seats_play_and_finish_results(service: GameService) -> None:
    game = await service.new_lobby(kind="royale", place=Place(9, 8), host=ALICE,
                                   settings={"expansions": ["cannon"]})
    await service.add_computer(game.id, ALICE)
    outcome = await service.start(game.id, ALICE)
    state = outcome.state
    player = ROYALE.make_player("random", 5)
    while outcome.game.status == "active":
        outcome = await service.act(game.id, Person(1, ""), outcome.game.version,
                                    lambda st, seat: player.choose(st))
        state = outcome.state
    assert outcome.finished and state.phase.value == "over"
    results = await service.db.results.of_game(game.id)
    assert len(results) == 2
    log = await service.db.games.action_log(game.id)
    assert {a.actor for a in log} == {"p1", "cpu:1"}  # a person by their seat's token
    with pytest.raises(GameNotRunning):
        await service.act(game.id, Person(1, ""), outcome.game.version, pick_first)


async def test_lobby_rules(service: GameService) -> None:
    game = await service.new_lobby(kind="posing", place=Place(9, 5), host=ALICE,
                                   settings={})
    with pytest.raises(LobbyError, match="already open"):
        await service.new_lobby(kind="royale", place=Place(9, 5), host=BOB, settings={})
    outcome = await service.start(game.id, ALICE)  # solo Posing Pandas is allowed
    assert outcome.game.status == "active"
    with pytest.raises(GameNotRunning):
        await service.join(game.id, BOB)


async def test_a_servers_language_is_for_its_managers(service: GameService) -> None:
    from bot.errors import NotAllowed, UserError

    known = frozenset({"en", "es"})
    with pytest.raises(NotAllowed):
        await servers_of(service).set_language(5, "es", manager=False, known=known)
    for bad in ("Spanish!", "qq", "zz-zzzz", "x" * 5000):
        with pytest.raises(UserError, match="languages"):
            await servers_of(service).set_language(5, bad, manager=True, known=known)
    assert await servers_of(service).language(5) is None
    await servers_of(service).set_language(5, "es", manager=True, known=known)
    assert await servers_of(service).language(5) == "es"


async def test_a_servers_defaults_for_new_games_are_for_its_managers(
        service: GameService) -> None:
    from bot.errors import NotAllowed, UserError
    from bot.service import MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT, ServerDefaults

    servers = servers_of(service)
    with pytest.raises(NotAllowed):
        await servers.set_turn_timeout(5, 60, manager=False)
    with pytest.raises(NotAllowed):
        await servers.set_turn_timeout(5, None, manager=False)
    with pytest.raises(NotAllowed):
        await servers.set_mayhem(5, {"cannon": True}, manager=False)
    with pytest.raises(NotAllowed):
        await servers.set_mayhem(5, None, manager=False)
    for bad in (MIN_TURN_TIMEOUT - 1, MAX_TURN_TIMEOUT + 1, 0, -60, True, "60", 60.0):
        with pytest.raises(UserError, match="turn timeout"):
            await servers.set_turn_timeout(5, bad, manager=True)  # type: ignore[arg-type]
    with pytest.raises(UserError, match="Mayhem option"):
        await servers.set_mayhem(5, {"cannon": True, "dragons": True}, manager=True)
    assert await servers.defaults(5) == ServerDefaults()  # nothing was written
    for seconds in (MIN_TURN_TIMEOUT, MAX_TURN_TIMEOUT, 45):
        await servers.set_turn_timeout(5, seconds, manager=True)
        assert (await servers.defaults(5)).turn_timeout == seconds
    # The options given change, the others stay as they were; in the rules' order.
    assert await servers.set_mayhem(5, {"mercenary": True, "mischief": True},
                                    manager=True) == ("mischief", "mercenary")
    assert await servers.set_mayhem(5, {"mischief": False, "cannon": True},
                                    manager=True) == ("cannon", "mercenary")
    assert await servers.defaults(5) == ServerDefaults(turn_timeout=45,
                                                       mayhem=("cannon", "mercenary"))
    assert await servers.set_mayhem(5, {"cannon": False, "mercenary": False},
                                    manager=True) == ()
    assert await servers.set_mayhem(5, None, manager=True) is None
    await servers.set_turn_timeout(5, None, manager=True)
    assert await servers.defaults(5) == ServerDefaults()
    assert await servers.defaults(6) == ServerDefaults()  # another server's are its own


async def test_a_servers_greeting_is_claimed_once_per_join(service: GameService) -> None:
    assert await servers_of(service).claim_greeting(5, 1_000)
    assert not await servers_of(service).claim_greeting(5, 1_000)
    assert await servers_of(service).claim_greeting(5, 2_000)  # removed, then added back


async def test_error_templates_fill_in_english_and_keep_their_values() -> None:
    from bot.errors import LobbyError
    from bot.rules.errors import Term
    from ui.i18n import tr_for

    err = LobbyError("A {game} game is already open in this channel: finish or cancel it "
                     "first.", game=Term("Posing Pandas"))
    assert err.message == ("A Posing Pandas game is already open in this channel: finish or "
                           "cancel it first.")
    assert tr_for("ja").error(err) == ("このチャンネルではすでにポージングパンダのゲームが開いて"
                                       "います。先に終わらせるか中止してください。")
