"""The Mercenary option (docs/rules.md, "Mercenary")."""

from __future__ import annotations

import pytest

from bot.rules.royale.actions import Mischief
from bot.rules.royale.dice import Column
from bot.rules.royale.engine import apply_in_place, current_seat, new_game
from bot.rules.royale.events import CaptainEvent, PickEvent, PityEvent, ScoreEvent, TradeEvent

from .helpers import ALL_OPTIONS, names, of, play, players_for, position, start

MERCENARY = ("mercenary",)


def test_mercenaries_are_in_the_bag_only_with_the_option():
    _, ev = new_game(names(3), 1, MERCENARY)
    assert sorted(d.id for d in ev[0].bag if d.kind == "mercenary") == [
        f"mercenary6-{i}" for i in range(1, 10)]
    assert all(d.color == "green" and d.sides == 6 for d in ev[0].bag if d.kind == "mercenary")
    _, ev = new_game(names(3), 1)
    assert not any(d.kind == "mercenary" for d in ev[0].bag)


HANDS = [["yellow6-1", "mercenary6-1", "green20-1", "clear6-1"],
         ["yellow6-2", "mercenary6-2", "mercenary6-3"],
         ["yellow6-3", "blue6-1"]]
VALUES = {"yellow6-1": 6, "mercenary6-1": 4, "green20-1": 5, "clear6-1": 1,
          "yellow6-2": 1, "mercenary6-2": 4, "mercenary6-3": 2,
          "yellow6-3": 2, "blue6-1": 3}


@pytest.mark.parametrize("round_no", [1, 6, 9])
def test_value_times_round_then_the_captain_sends_matches_back(round_no):
    s = position(HANDS, MERCENARY, round_no=round_no, token=0)
    bag = len(s.bag)
    ev = start(s, VALUES, [("captain", 4)])
    assert s.rng.exhausted  # type: ignore[attr-defined]
    scores = of(ev, ScoreEvent)
    assert [sc.columns[Column.GREEN] for sc in scores] == [4 * round_no + 5, 6 * round_no, 0]
    (cap,) = of(ev, CaptainEvent)
    assert cap.round == round_no and cap.value == 4
    assert cap.lost == (("p0", "mercenary6-1"), ("p1", "mercenary6-2"))
    assert s.owner_of("mercenary6-1") is None and s.owner_of("mercenary6-2") is None
    assert "mercenary6-1" in s.bag and "mercenary6-2" in s.bag
    assert len(s.bag) == bag + 2
    assert "mercenary6-3" in s.hands[1]
    # after the score and the pity dice, before the trades
    kinds = [type(e).__name__ for e in ev]
    assert kinds.index("PityEvent") + 1 == kinds.index("CaptainEvent")
    assert s.phase.value == "trade"
    # hands now hold fewer dice than a player drafted
    assert len([d for d in s.hands[0] if not d.startswith("pink")]) == 3


def test_no_match_no_loss():
    s = position(HANDS, MERCENARY, round_no=3, token=0)
    ev = start(s, VALUES, [("captain", 6)])
    (cap,) = of(ev, CaptainEvent)
    assert cap.value == 6 and cap.lost == ()
    assert {"mercenary6-1", "mercenary6-2", "mercenary6-3"} <= {d for h in s.hands for d in h}


@pytest.mark.parametrize(("captain", "lost"), [(5, True), (3, False)])
def test_a_mercenary_rerolled_by_mischief_is_judged_on_its_new_value(captain, lost):
    hands = [["yellow6-1", "mischief12-1"], ["yellow6-2", "mercenary6-1"]]
    s = position(hands, ("mischief", "mercenary"), round_no=4, token=0)
    ev = start(s, {"yellow6-1": 6, "mischief12-1": 12, "yellow6-2": 1, "mercenary6-1": 3},
               [("mercenary6-1", 5), ("captain", captain)])
    ev += apply_in_place(s, Mischief(0, "mercenary6-1"))
    assert s.rng.exhausted  # type: ignore[attr-defined]
    assert of(ev, ScoreEvent)[1].columns[Column.GREEN] == 5 * 4
    (cap,) = of(ev, CaptainEvent)
    assert cap.value == captain
    assert cap.lost == ((("p1", "mercenary6-1"),) if lost else ())
    assert (s.owner_of("mercenary6-1") is None) == lost


def test_no_captain_in_round_ten():
    hands = [["yellow6-1", "mercenary6-1"], ["yellow6-2"]]
    s = position(hands, MERCENARY, round_no=10, token=0)
    ev = start(s, {"yellow6-1": 6, "mercenary6-1": 2, "yellow6-2": 1})
    assert of(ev, CaptainEvent) == []
    assert of(ev, ScoreEvent)[0].columns[Column.GREEN] == 20
    assert s.rng.exhausted  # type: ignore[attr-defined]  # no Captain roll


def test_no_captain_without_the_option():
    _, ev, _ = play(4, 2, ("mischief", "cannon"))
    assert of(ev, CaptainEvent) == []


@pytest.mark.parametrize("seed", range(20))
def test_captain_in_seeded_games(seed):
    n = 2 + seed % 9
    _, ev, _ = play(n, seed, ALL_OPTIONS if seed % 2 else MERCENARY)
    caps = of(ev, CaptainEvent)
    assert [c.round for c in caps] == list(range(1, 10))
    for c in caps:
        assert 1 <= c.value <= 6
        expected = [(sc.player, sp.id) for sc in of(ev, ScoreEvent) if sc.round == c.round
                    for sp, v in sc.dice if sp.kind == "mercenary" and v == c.value]
        assert sorted(c.lost) == sorted(expected)
        # the Captain is rolled after the pity dice and before any trade of the round
        idx = ev.index(c)
        pity = next(e for e in of(ev, PityEvent) if e.round == c.round)
        assert ev.index(pity) == idx - 1
        trades = [ev.index(t) for t in of(ev, TradeEvent) if t.round == c.round]
        assert all(i > idx for i in trades)
    for sc in of(ev, ScoreEvent):
        green = sum(v * (sc.round if sp.kind == "mercenary" else 1)
                    for sp, v in sc.dice if sp.color == "green")
        assert sc.columns[Column.GREEN] == green


def test_hands_may_hold_fewer_dice_than_rounds_drafted():
    """With Mercenaries lost to the Captain, a hand can hold fewer than r - 1 drafted dice."""
    short = 0
    for seed in range(10):
        s, ev = new_game(names(5), seed, MERCENARY)
        bots = players_for(5, seed)
        lost = [0] * 5
        while (seat := current_seat(s)) is not None:
            new = apply_in_place(s, bots[seat].choose(s))
            ev += new
            for c in of(new, CaptainEvent):
                for p, _ in c.lost:
                    lost[names(5).index(p)] += 1
        picks = [sum(1 for p in of(ev, PickEvent) if p.player == name) for name in names(5)]
        for seat in range(5):
            hand = [d for d in s.hands[seat] if not d.startswith("pink")]
            assert picks[seat] == 9
            assert len(hand) == 1 + picks[seat] - lost[seat]
            if lost[seat]:
                assert len(hand) < s.round == 10
                short += 1
    assert short >= 5
