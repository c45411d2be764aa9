"""A click's one answer (ui.board.Answer): a move ready at once is answered by its own edit (the
callback UPDATE_MESSAGE: no webhook edit, nothing any rate limit counts); a slower one is
deferred on time and edited through the webhook; an error still reaches the clicker."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.e2e.table import Table, components, refused, verb


def kind_of(res: Any) -> str:
    kind = res._interaction.response_kind
    return str(getattr(kind, "value", kind))


async def _two_people(table: Table) -> None:
    await table["alice"].slash(table.channel, "royale new", turn_timeout=3600)
    await table["bob"].click(table.channel.last_message, label="Join")
    await table["alice"].click(table.channel.last_message, label="Start")


def _edits_of_original(env: Any, start: int) -> int:
    return sum(1 for r in env.http_requests[start:]
               if r.method == "PATCH" and r.path.endswith("/messages/@original"))


async def test_a_quick_move_is_answered_by_its_own_edit(table: Table) -> None:
    await _two_people(table)
    env = table.env
    rng = random.Random(3)
    start = len(env.http_requests)
    decisions = 0
    for _ in range(12):
        if not await table.play_decision(rng):
            break
        decisions += 1
    answers = [r.json.get("type") for r in env.http_requests[start:]
               if r.path.endswith("/callback")]
    # every click (a decision, or a step of one) answered by UPDATE_MESSAGE (7), none
    # deferred (6); the board's move came with the answer, not through the webhook
    assert decisions == 12 and len(answers) >= decisions
    assert set(answers) == {7}, answers
    assert _edits_of_original(env, start) == 0
    # the hand-overs' pings still came as new messages that mention the player
    assert any(m.content.startswith("<@") for m in table.channel.history())


async def _pick(table: Table) -> tuple[Any, Any, int]:
    """The player whose turn it is picks a die: the message clicked, SimCord's result, and the
    edits of the interaction's original message that followed (the move through the webhook)."""
    msg = table.game_message()
    who = table.decider(msg)
    assert who is not None
    pick = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    start = len(table.env.http_requests)
    res = await who.click(msg, custom_id=pick.custom_id)
    return msg, res, _edits_of_original(table.env, start)


async def test_each_answer_kind_by_speed(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    await _two_people(table)
    env = table.env
    msg, res, edits = await _pick(table)
    assert kind_of(res) == "update" and not refused(res)
    assert edits == 0

    service = env.bot.service
    act = service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)  # a slow database: past ui.board.SHOW_WITHIN
        return await act(*args, **kwargs)

    monkeypatch.setattr(service, "act", slow_act)
    monkeypatch.setattr("ui.board.SHOW_WITHIN", 0.025)  # the bot's own deadline
    msg, res, edits = await _pick(table)
    assert kind_of(res) == "deferred_update" and not refused(res)
    assert edits >= 1  # the move, through the webhook
    assert table.game_message().id != msg.id or \
        custom_ids_changed(msg, table.game_message())

    # a bot whose last move missed its window is busy: the next click is deferred first (its
    # move through the webhook); that move is quick again, so the one after is its own edit
    monkeypatch.setattr(service, "act", act)
    for expected in ("deferred_update", "update"):
        msg, res, edits = await _pick(table)
        assert kind_of(res) == expected and not refused(res)
        assert edits == (expected == "deferred_update")


def custom_ids_changed(old: Any, new: Any) -> bool:
    return [c.custom_id for c in components(old)] != [c.custom_id for c in components(new)]


async def test_a_move_click_that_fails_is_told_privately(table: Table) -> None:
    await _two_people(table)
    msg = table.game_message()
    who = table.decider(msg)
    other = table["bob"] if who is table["alice"] else table["alice"]
    pick = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    res = await other.click(msg, custom_id=pick.custom_id)  # not their turn
    assert res.acknowledged and refused(res)
    # and the player whose turn it is can still make the move
    res = await who.click(msg, custom_id=pick.custom_id)
    assert res.acknowledged and not refused(res) and kind_of(res) == "update"


class _Response:
    def __init__(self) -> None:
        self.deferred = 0

    def is_done(self) -> bool:
        return self.deferred > 0

    async def defer(self) -> None:
        self.deferred += 1


class _Click:
    id = 7

    def __init__(self) -> None:
        self.response = _Response()


async def test_a_deferral_waits_with_the_clock_it_is_given() -> None:
    from ui.board import SHOW_WITHIN, Answer, Boards

    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    click: Any = _Click()
    answer = Answer(click, SHOW_WITHIN, sleep)
    await asyncio.sleep(0)  # the timer's task runs: its sleep returns at once, it defers
    await answer.defer()  # a second answer changes nothing
    assert waited == [SHOW_WITHIN] and click.response.deferred == 1

    # the boards hand their clock to every click's answer (the benchmarks give a wall clock)
    boards = Boards(None, None, None, sleep=sleep)  # type: ignore[arg-type]
    other: Any = _Click()
    boards.answer_later(other)
    await asyncio.sleep(0)
    assert waited == [SHOW_WITHIN, SHOW_WITHIN] and other.response.deferred == 1
    await boards.answered(other)
    assert other.response.deferred == 1


async def test_a_round_ending_click_is_answered_before_the_next_round_is_drawn(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The closing edit of a round's message is the click's answer: it goes before the next
    round's message (and its round card) is built, so the answer never waits for a picture."""
    from ui.board import Boards

    await _two_people(table)
    env = table.env
    advance = Boards.advance
    seen: list[Any] = []  # the last request when the next round's message is built

    async def watched(self: Any, game: Any, closing: Any, make_next: Any,
                      interaction: Any) -> bool:
        async def next_round() -> Any:
            seen.append(env.http_requests[-1])
            return await make_next()
        return await advance(self, game, closing, next_round, interaction)

    monkeypatch.setattr(Boards, "advance", watched)
    rng = random.Random(5)
    for _ in range(40):
        if len(seen) >= 2 or not await table.play_decision(rng):
            break
    assert len(seen) >= 2  # two rounds ended
    for request in seen:  # each time, the click had just been answered by the closing edit
        assert request.path.endswith("/callback") and request.json.get("type") == 7, \
            (request.method, request.path)
