"""The Cannon option (docs/rules.md, "Cannon")."""

from __future__ import annotations

import pytest

from bot.rules.errors import IllegalAction, NotYourTurn
from bot.rules.royale.actions import Cannon, Mischief, Pass, Trade
from bot.rules.royale.ai import RandomPlayer
from bot.rules.royale.dice import Column
from bot.rules.royale.engine import apply, apply_in_place, current_seat, legal_actions, new_game
from bot.rules.royale.events import CannonEvent, PityEvent, ScoreEvent
from bot.rules.royale.state import Phase

from .helpers import ALL_OPTIONS, names, of, play, position, start

CANNON = ("cannon",)


def test_cannons_are_in_the_bag_only_with_the_option():
    _, ev = new_game(names(3), 1, CANNON)
    assert sorted(d.id for d in ev[0].bag if d.kind == "cannon") == [
        f"cannon8-{i}" for i in range(1, 6)]
    _, ev = new_game(names(3), 1)
    assert not any(d.kind == "cannon" for d in ev[0].bag)


HANDS = [["yellow6-1", "cannon8-1", "cannon8-2"], ["yellow6-2", "cannon8-3"],
         ["yellow6-3", "green20-1"]]
VALUES = {"yellow6-1": 2, "cannon8-1": 7, "cannon8-2": 3, "yellow6-2": 6, "cannon8-3": 5,
          "yellow6-3": 1, "green20-1": 4}


def _cannon_position():
    s = position(HANDS, CANNON, round_no=4, token=0)
    ev = start(s, VALUES)
    assert s.token == 1 and s.phase is Phase.CANNON
    return s, ev


def test_each_cannon_is_decided_from_the_token_holder_clockwise():
    s, ev = _cannon_position()
    assert s.queue == [(1, "cannon8-3"), (0, "cannon8-1"), (0, "cannon8-2")]
    assert legal_actions(s) == [Cannon(1, "cannon8-3", True), Cannon(1, "cannon8-3", False)]
    ev += apply_in_place(s, Cannon(1, "cannon8-3", True))
    assert legal_actions(s) == [Cannon(0, "cannon8-1", True), Cannon(0, "cannon8-1", False)]
    ev += apply_in_place(s, Cannon(0, "cannon8-1", True))
    ev += apply_in_place(s, Cannon(0, "cannon8-2", False))
    got = [(c.round, c.player, c.die, c.value, c.score) for c in of(ev, CannonEvent)]
    assert got == [(4, "p1", "cannon8-3", 5, True), (4, "p0", "cannon8-1", 7, True),
                   (4, "p0", "cannon8-2", 3, False)]
    assert [c.to_log()["decision"] for c in of(ev, CannonEvent)] == ["score", "score", "save"]
    scores = of(ev, ScoreEvent)
    assert [sc.columns[Column.PINK] for sc in scores] == [70, 50, 0]
    assert [sc.total for sc in scores] == [72, 56, 5]
    # the scored dice were shown in the score events, then left the game
    assert {sp.id for sp, _ in scores[0].dice} >= {"cannon8-1", "cannon8-2"}
    for die in ("cannon8-1", "cannon8-3"):
        assert s.owner_of(die) is None and die in s.aside and die not in s.bag
    # the saved one stays
    assert "cannon8-2" in s.hands[0]
    kinds = [type(e).__name__ for e in ev]
    assert kinds[:4] == ["TokenEvent", "CannonEvent", "CannonEvent", "CannonEvent"]


@pytest.mark.parametrize(("action", "exc", "match"), [
    (Cannon(1, "cannon8-1", True), IllegalAction, r"Decide on your Cannon d8 \(cannon8-3\)"),
    (Cannon(0, "cannon8-1", True), NotYourTurn, "p1's turn"),
    (Pass(1), IllegalAction, "score or save a Cannon"),
    (Trade(1, "cannon8-3", 0, "yellow6-1"), IllegalAction, "Cannon"),
    (Mischief(1, "green20-1"), IllegalAction, "Cannon"),
])
def test_illegal_cannon_decisions(action, exc, match):
    s, _ = _cannon_position()
    before = s.to_json()
    with pytest.raises(exc, match=match):
        apply(s, action)
    with pytest.raises(exc, match=match):
        apply_in_place(s, action)
    assert s.to_json() == before


def test_decided_after_mischief_on_the_new_value():
    hands = [["yellow6-1", "mischief12-1"], ["yellow6-2", "cannon8-1"]]
    s = position(hands, ("mischief", "cannon"), round_no=6, token=0)
    ev = start(s, {"yellow6-1": 6, "mischief12-1": 12, "yellow6-2": 1, "cannon8-1": 2},
               [("cannon8-1", 8)])
    assert s.phase is Phase.MISCHIEF
    ev += apply_in_place(s, Mischief(0, "cannon8-1"))
    assert s.phase is Phase.CANNON and current_seat(s) == 1
    ev += apply_in_place(s, Cannon(1, "cannon8-1", True))
    (c,) = of(ev, CannonEvent)
    assert c.value == 8
    assert of(ev, ScoreEvent)[1].columns[Column.PINK] == 80
    kinds = [type(e).__name__ for e in ev][:4]
    assert kinds == ["TokenEvent", "MischiefEvent", "CannonEvent", "ScoreEvent"]


def test_not_a_pity_die():
    # seat 1, lowest, holds a Cannon (saved: 0) and still gets the pity die
    hands = [["yellow6-1", "green20-1"], ["yellow6-2", "cannon8-1"]]
    s = position(hands, CANNON, round_no=2, token=0)
    ev = start(s, {"yellow6-1": 6, "green20-1": 10, "yellow6-2": 1, "cannon8-1": 8})
    ev += apply_in_place(s, Cannon(1, "cannon8-1", False))
    (p,) = of(ev, PityEvent)
    assert dict(p.given) == {"p1": "pink12-1"}
    assert sorted(s.hands[1]) == ["cannon8-1", "pink12-1", "yellow6-2"]


def test_scored_in_round_ten_leaves_the_game():
    hands = [["yellow6-1", "cannon8-1"], ["yellow6-2"]]
    s = position(hands, CANNON, round_no=10, token=0)
    ev = start(s, {"yellow6-1": 3, "cannon8-1": 4, "yellow6-2": 1})
    ev += apply_in_place(s, Cannon(0, "cannon8-1", True))
    assert s.phase is Phase.OVER
    assert of(ev, ScoreEvent)[0].columns[Column.PINK] == 40
    assert "cannon8-1" in s.aside and s.owner_of("cannon8-1") is None


class Saver:
    """Random, but saves every Cannon until ``fire_from`` and scores it from then on."""

    def __init__(self, seed: int, fire_from: int) -> None:
        self.random = RandomPlayer(seed)
        self.fire_from = fire_from

    def choose(self, state):
        if state.phase is Phase.CANNON:
            return Cannon(state.queue[0][0], state.queue[0][1], state.round >= self.fire_from)
        return self.random.choose(state)


def _play_savers(n, seed, fire_from):
    s, ev = new_game(names(n), seed, ALL_OPTIONS)
    bots = [Saver(seed * 10 + i, fire_from) for i in range(n)]
    while (seat := current_seat(s)) is not None:
        ev += apply_in_place(s, bots[seat].choose(s))
    return s, ev


@pytest.mark.parametrize("fire_from", [6, 10])
def test_saved_over_several_rounds_then_scored(fire_from):
    checked = 0
    for seed in range(8):
        s, ev = _play_savers(6, seed, fire_from)
        by_die: dict[str, list[CannonEvent]] = {}
        for c in of(ev, CannonEvent):
            by_die.setdefault(c.die, []).append(c)
        for die, cs in by_die.items():
            rounds = [c.round for c in cs]
            first = rounds[0]
            last = max(first, fire_from)
            # rolled every round from the one after its pick until it is scored
            assert rounds == list(range(first, last + 1))
            assert [c.score for c in cs] == [False] * (len(cs) - 1) + [True]
            assert len({c.player for c in cs}) == 1  # nobody can take it in a trade
            for c in cs:
                (sc,) = [e for e in of(ev, ScoreEvent)
                         if e.round == c.round and e.player == c.player]
                others = sum(_pink(sp, v, _scored(ev, c.round))
                             for sp, v in sc.dice if sp.id != die)
                pink = sc.columns[Column.PINK] - others
                assert pink == (c.value * 10 if c.score else 0)
            # after it is scored the die is gone for good
            later = [sp.id for sc in of(ev, ScoreEvent) if sc.round > last for sp, _ in sc.dice]
            assert die not in later
            assert die in s.aside
            if len(cs) >= 3:
                checked += 1
    assert checked >= 3


def _pink(sp, v, scored):
    if sp.kind == "pity":
        return v
    if sp.kind == "cannon":
        return v * 10 if sp.id in scored else 0
    return 0


def _scored(ev, r):
    return {c.die for c in of(ev, CannonEvent) if c.round == r and c.score}


@pytest.mark.parametrize("seed", range(10))
def test_cannons_in_seeded_games(seed):
    _, ev, _ = play(3 + seed % 8, seed, ALL_OPTIONS)
    for r in range(1, 11):
        scores = [sc for sc in of(ev, ScoreEvent) if sc.round == r]
        held = {sp.id for sc in scores for sp, _ in sc.dice if sp.kind == "cannon"}
        decided = [c for c in of(ev, CannonEvent) if c.round == r]
        assert sorted(c.die for c in decided) == sorted(held)
        for sc in scores:
            pink = sum(_pink(sp, v, _scored(ev, r)) for sp, v in sc.dice)
            assert sc.columns[Column.PINK] == pink
    for p in of(ev, PityEvent):
        assert all(d.startswith("pink12") for d in dict(p.given).values())
