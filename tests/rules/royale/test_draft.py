"""The draft (docs/rules.md, "Draft") and the short last round."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules.errors import IllegalAction, NotYourTurn
from bot.rules.royale.actions import Pick
from bot.rules.royale.engine import apply, apply_in_place, current_seat, draft_order, new_game
from bot.rules.royale.events import (
    DraftPoolEvent,
    DraftReturnEvent,
    GameEndEvent,
    PickEvent,
    ScoreEvent,
    TokenEvent,
)
from bot.rules.royale.state import Phase

from .helpers import ALL_OPTIONS, names, of, pass_trades, play, position, start


@pytest.mark.parametrize(("yellow", "token", "expected"), [
    ([1, 5, 3], 1, [1, 2, 0]),
    ([4, 6, 4, 4], 1, [1, 2, 3, 0]),
    ([3, 6, 3, 1], 1, [1, 2, 0, 3]),
    ([3, 1, 6, 3], 2, [2, 3, 0, 1]),
    ([0, 0, 0], 1, [1, 2, 0]),
    ([0, 0, 0, 0, 0], 4, [4, 0, 1, 2, 3]),
    ([2, 9, 2, 9, 2], 3, [3, 1, 4, 0, 2]),
])
def test_draft_order(yellow, token, expected):
    assert draft_order(yellow, token) == expected


def _draft(s):
    pass_trades(s)
    assert s.phase is Phase.DRAFT
    return [seat for seat, _ in s.queue]


@pytest.mark.parametrize(("yellow", "order"), [
    ([4, 6, 4, 4], [1, 2, 3, 0]),
    ([3, 6, 3, 1], [1, 2, 0, 3]),
    ([5, 2, 2, 6], [3, 0, 1, 2]),
])
def test_pick_order_by_yellow_then_clockwise_from_the_token_holder(yellow, order):
    hands = [[f"yellow6-{i + 1}", f"green20-{i + 1}"] for i in range(4)]
    values = {}
    for i, y in enumerate(yellow):
        values[f"yellow6-{i + 1}"] = y
        values[f"green20-{i + 1}"] = 10
    s = position(hands, round_no=2, token=0)
    start(s, values)
    assert s.token == yellow.index(6)
    assert _draft(s) == order
    picked = []
    while s.round == 2:
        seat = current_seat(s)
        picked.append(seat)
        apply_in_place(s, Pick(seat, s.pool[-1]))
    assert picked == order


def test_nobody_with_yellow_picks_clockwise_from_the_token_holder():
    hands = [["green20-1"], ["green20-2"], ["green20-3"]]
    s = position(hands, round_no=3, token=1)
    start(s, {"green20-1": 1, "green20-2": 2, "green20-3": 3})
    assert _draft(s) == [1, 2, 0]


@pytest.mark.parametrize("players", range(2, 11))
def test_pool_of_players_plus_one_rest_back_to_the_bag(players):
    s, ev = new_game(names(players), 500 + players, ALL_OPTIONS)
    bag_before = len(ev[0].bag)  # the setup event's bag
    ev += pass_trades(s)
    (pool_ev,) = of(ev, DraftPoolEvent)
    pool = [d.id for d in pool_ev.dice]
    assert len(pool) == players + 1 == len(set(pool))
    assert s.pool == pool
    assert len(s.bag) == bag_before - (players + 1)
    assert not set(pool) & set(s.bag)
    hands_before = [list(h) for h in s.hands]
    ev = []
    order = [seat for seat, _ in s.queue]
    while s.round == 1:
        seat = current_seat(s)
        die = s.pool[(seat * 7) % len(s.pool)]
        ev += apply_in_place(s, Pick(seat, die))
        if s.round == 1:
            assert s.hands[seat] == [*hands_before[seat], die]
    picks = of(ev, PickEvent)
    assert [p.player for p in picks] == [f"p{seat}" for seat in order]
    assert len({p.die for p in picks}) == players
    (ret,) = of(ev, DraftReturnEvent)
    assert ret.round == 1
    assert Counter(ret.dice) + Counter(p.die for p in picks) == Counter(pool)
    assert len(ret.dice) == 1
    assert ret.dice[0] in s.bag
    assert s.pool == [] and s.round == 2
    # the draft_return comes right after the last pick, then round 2 starts
    kinds = [type(e).__name__ for e in ev]
    assert kinds[players: players + 2] == ["DraftReturnEvent", "TokenEvent"]


def test_a_short_bag_gives_a_short_pool():
    hands = [[f"yellow6-{i + 1}"] for i in range(4)]
    s = position(hands, round_no=6, token=0)
    s.aside += s.bag[2:]
    del s.bag[2:]
    left = list(s.bag)
    ev = start(s, {"yellow6-1": 1, "yellow6-2": 2, "yellow6-3": 6, "yellow6-4": 3})
    (pool_ev,) = of(ev, DraftPoolEvent)
    assert sorted(d.id for d in pool_ev.dice) == sorted(left)
    assert s.bag == []
    assert [seat for seat, _ in s.queue] == [2, 3, 1, 0]
    ev = apply_in_place(s, Pick(2, s.pool[0]))
    ev += apply_in_place(s, Pick(3, s.pool[0]))
    # the pool is empty: seats 1 and 0 get nothing and round 7 starts; with no bag and no clear
    # dice nobody has anything to decide, so the game runs to its end
    ret = of(ev, DraftReturnEvent)
    assert [(r.round, r.dice) for r in ret] == [(r, ()) for r in range(6, 10)]
    assert [p.round for p in of(ev, PickEvent)] == [6, 6]
    assert s.phase is Phase.OVER
    assert [sum(1 for d in h if not d.startswith("pink")) for h in s.hands] == [1, 1, 2, 2]


def test_an_empty_bag_skips_the_picks():
    hands = [["yellow6-1"], ["yellow6-2"]]
    s = position(hands, round_no=6, token=0)
    s.aside += s.bag
    s.bag = []
    ev = start(s, {"yellow6-1": 1, "yellow6-2": 2})
    assert [len(p.dice) for p in of(ev, DraftPoolEvent)] == [0] * 4  # rounds 6 to 9
    assert of(ev, PickEvent) == []
    assert s.phase is Phase.OVER


def test_illegal_picks():
    s, _ = new_game(names(3), 8)
    pass_trades(s)
    seat = current_seat(s)
    before = s.to_json()
    with pytest.raises(IllegalAction, match="not in the pool"):
        apply(s, Pick(seat, s.bag[0]))
    with pytest.raises(NotYourTurn):
        apply_in_place(s, Pick((seat + 1) % 3, s.pool[0]))
    assert s.to_json() == before


def test_round_ten_is_only_step_one():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "clear6-2", "green20-1"]]
    s = position(hands, round_no=10, token=0)
    bag = list(s.bag)
    ev = start(s, {"yellow6-1": 1, "clear6-1": 1, "yellow6-2": 2, "clear6-2": 2,
                   "green20-1": 2})
    assert [type(e) for e in ev] == [TokenEvent, ScoreEvent, ScoreEvent, GameEndEvent]
    assert s.phase is Phase.OVER and current_seat(s) is None
    assert s.bag == bag and s.pool == []


@pytest.mark.parametrize("seed", range(10))
def test_no_draft_pity_or_trade_in_round_ten(seed):
    _, ev, _ = play(3 + seed % 7, seed, ALL_OPTIONS)
    last = [e for e in ev if getattr(e, "round", None) == 10]
    allowed = {"TokenEvent", "MischiefEvent", "CannonEvent", "ScoreEvent"}
    assert {type(e).__name__ for e in last} <= allowed
    assert isinstance(ev[-1], GameEndEvent)
    pools = of(ev, DraftPoolEvent)
    assert [p.round for p in pools] == list(range(1, 10))
