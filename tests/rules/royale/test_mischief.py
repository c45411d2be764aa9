"""The Mischief option (docs/rules.md, "Mischief")."""

from __future__ import annotations

import pytest

from bot.rules.errors import IllegalAction, NotYourTurn
from bot.rules.royale.actions import Mischief, Pass, Trade
from bot.rules.royale.dice import Column
from bot.rules.royale.engine import apply, apply_in_place, current_seat, legal_actions, new_game
from bot.rules.royale.events import (
    MischiefDealtEvent,
    MischiefEvent,
    PityEvent,
    ScoreEvent,
    TokenEvent,
)
from bot.rules.royale.state import Phase

from .helpers import ALL_OPTIONS, names, of, play, position, start

MISCHIEF = ("mischief",)


@pytest.mark.parametrize("players", range(2, 11))
def test_dealt_after_round_one_is_scored(players):
    s, ev = new_game(names(players), 900 + players, MISCHIEF)
    kinds = [type(e).__name__ for e in ev]
    i = kinds.index("MischiefDealtEvent")
    assert kinds[1:i] == ["TokenEvent"] + ["ScoreEvent"] * players
    assert kinds[i + 1] == "PityEvent"
    (dealt,) = of(ev, MischiefDealtEvent)
    assert dealt.round == 1
    assert [p for p, _ in dealt.dice] == names(players)
    dice = [d.id for _, d in dealt.dice]
    assert len(set(dice)) == players
    assert all(d.kind == "mischief" and d.color == "clear" and d.sides == 12
               for _, d in dealt.dice)
    for seat, die in enumerate(dice):
        assert die in s.hands[seat]
    # the rest stay out of the game, never in the bag
    rest = [d for d in s.dice.mischief if d not in dice]
    assert len(rest) == 10 - players
    assert all(d in s.aside for d in rest)
    assert not any(s.dice.specs[d].kind == "mischief" for d in s.bag + s.pool)
    # not rolled in round 1
    assert not any(sp.kind == "mischief" for sc in of(ev, ScoreEvent) for sp, _ in sc.dice)


def test_no_mischief_without_the_option():
    _, ev, _ = play(4, 3, ("cannon", "mercenary"))
    assert of(ev, MischiefDealtEvent) == [] and of(ev, MischiefEvent) == []
    assert not any(sp.kind == "mischief" for sc in of(ev, ScoreEvent) for sp, _ in sc.dice)


@pytest.mark.parametrize("seed", range(5))
def test_rolled_from_round_two_in_the_clear_column(seed):
    _, ev, _ = play(5, seed, MISCHIEF)
    (dealt,) = of(ev, MischiefDealtEvent)
    dealt_ids = {d.id for _, d in dealt.dice}
    for r in range(2, 11):
        shown = [(sp, v) for sc in of(ev, ScoreEvent) if sc.round == r for sp, v in sc.dice
                 if sp.kind == "mischief"]
        assert {sp.id for sp, _ in shown} == dealt_ids  # every dealt die is rolled each round
        assert all(1 <= v <= 12 for _, v in shown)
    for sc in of(ev, ScoreEvent):
        clear = sum(v for sp, v in sc.dice if sp.color == "clear")
        assert sc.columns[Column.CLEAR] == clear


HANDS = [
    ["yellow6-1", "mischief12-1", "blue6-1"],
    ["yellow6-2", "mischief12-2", "red6-1"],
    ["yellow6-3", "mischief12-3", "green20-1"],
    ["yellow6-4", "mischief12-4", "mischief12-5", "purple8-1"],
]
VALUES = {
    "yellow6-1": 1, "mischief12-1": 5, "blue6-1": 6,
    "yellow6-2": 2, "mischief12-2": 9, "red6-1": 6,
    "yellow6-3": 6, "mischief12-3": 9, "green20-1": 15,
    "yellow6-4": 3, "mischief12-4": 9, "mischief12-5": 9, "purple8-1": 8,
}


def _mischief_position(round_no=3):
    s = position(HANDS, MISCHIEF, round_no=round_no, token=0)
    rerolls = [("blue6-1", 1), ("red6-1", -3), ("green20-1", 20), ("purple8-1", 1)]
    ev = start(s, VALUES, rerolls)
    return s, ev


@pytest.mark.parametrize("round_no", [3, 10])
def test_every_top_mischief_die_acts_from_the_token_holder_clockwise(round_no):
    s, ev = _mischief_position(round_no)
    (tok,) = of(ev, TokenEvent)
    assert tok.player == "p2" and s.token == 2
    assert s.phase is Phase.MISCHIEF
    # the 9s: seat 2's, seat 3's two (tied dice of one player: two actions), then seat 1's;
    # seat 0's 5 gives nothing
    assert s.queue == [(2, "mischief12-3"), (3, "mischief12-4"), (3, "mischief12-5"),
                       (1, "mischief12-2")]
    plan = [Mischief(2, "blue6-1"), Mischief(3, "red6-1"), Mischief(3, "green20-1"),
            Mischief(1, "purple8-1")]
    seen = []
    for action in plan:
        seen.append(current_seat(s))
        assert action in legal_actions(s)
        ev += apply_in_place(s, action)
    assert seen == [2, 3, 3, 1]
    assert s.rng.exhausted  # type: ignore[attr-defined]
    got = [(m.round, m.player, m.target, m.die, m.before, m.after) for m in of(ev, MischiefEvent)]
    assert got == [
        (round_no, "p2", "p0", "blue6-1", 6, 1),
        (round_no, "p3", "p1", "red6-1", 6, -3),
        (round_no, "p3", "p2", "green20-1", 15, 20),
        (round_no, "p1", "p3", "purple8-1", 8, 1),
    ]
    # the re-rolled values are the ones scored
    scores = of(ev, ScoreEvent)
    assert [sc.columns[Column.BLUE] for sc in scores] == [1, 0, 0, 0]
    assert [sc.columns[Column.RED] for sc in scores] == [0, -3, 0, 0]
    assert [sc.columns[Column.GREEN] for sc in scores] == [0, 0, 20, 0]
    assert [sc.columns[Column.PURPLE] for sc in scores] == [0, 0, 0, 2]
    # Mischief dice score in the clear column, both of seat 3's
    assert [sc.columns[Column.CLEAR] for sc in scores] == [5, 9, 9, 18]
    # order: token, the mischief actions, then the scores
    kinds = [type(e).__name__ for e in ev]
    assert kinds[:9] == ["TokenEvent"] + ["MischiefEvent"] * 4 + ["ScoreEvent"] * 4


def test_a_single_highest_mischief_die_acts_once():
    hands = [["yellow6-1", "mischief12-1", "green20-1"], ["yellow6-2", "mischief12-2",
                                                           "green20-2"]]
    s = position(hands, MISCHIEF, round_no=2, token=0)
    start(s, {"yellow6-1": 6, "mischief12-1": 3, "green20-1": 1, "yellow6-2": 1,
              "mischief12-2": 4, "green20-2": 1})
    assert s.queue == [(1, "mischief12-2")]
    assert {a.die for a in legal_actions(s)} == {"mischief12-1", "green20-1"}
    apply_in_place(s, Mischief(1, "green20-1"))
    assert s.phase is not Phase.MISCHIEF


def _at_first_mischief():
    s, _ = _mischief_position()
    assert current_seat(s) == 2
    return s


@pytest.mark.parametrize(("action", "exc", "match"), [
    (Mischief(2, "green20-1"), IllegalAction, "another player's die"),
    (Mischief(2, "mischief12-3"), IllegalAction, "another player's die"),
    (Mischief(2, "yellow6-1"), IllegalAction, "Yellow dice can't be re-rolled"),
    (Mischief(2, "yellow6-4"), IllegalAction, "Yellow"),
    (Mischief(2, "blue12-1"), IllegalAction, "not in anyone's hand"),
    (Mischief(2, "no-such-die"), IllegalAction, "not in anyone's hand"),
    (Mischief(3, "blue6-1"), NotYourTurn, "p2's turn"),
    (Pass(2), IllegalAction, "mischief"),
    (Trade(2, "clear6-1", 0, "blue6-1"), IllegalAction, "mischief"),
])
def test_illegal_mischief_is_refused_and_changes_nothing(action, exc, match):
    s = _at_first_mischief()
    before = s.to_json()
    with pytest.raises(exc, match=match):
        apply(s, action)
    with pytest.raises(exc, match=match):
        apply_in_place(s, action)
    assert s.to_json() == before


def test_legal_targets_are_every_non_yellow_die_of_the_others():
    s = _at_first_mischief()
    expected = {d for seat, h in enumerate(HANDS) if seat != 2 for d in h
                if not d.startswith("yellow")}
    assert {a.die for a in legal_actions(s)} == expected
    assert all(a.seat == 2 for a in legal_actions(s))


def test_a_mischief_owner_with_no_target_is_skipped():
    hands = [["yellow6-1", "mischief12-1"], ["yellow6-2"]]
    s = position(hands, MISCHIEF, round_no=4, token=0)
    ev = start(s, {"yellow6-1": 1, "mischief12-1": 12, "yellow6-2": 6})
    assert of(ev, MischiefEvent) == []
    assert of(ev, ScoreEvent)


def test_pity_dice_and_mischief_dice_can_be_targets():
    hands = [["yellow6-1", "mischief12-1"], ["yellow6-2", "mischief12-2", "pink12-1"]]
    s = position(hands, MISCHIEF, round_no=4, token=0)
    start(s, {"yellow6-1": 6, "mischief12-1": 12, "yellow6-2": 1, "mischief12-2": 3,
              "pink12-1": 12})
    assert {a.die for a in legal_actions(s)} == {"mischief12-2", "pink12-1"}


def test_the_set_of_actions_is_fixed_when_mischief_starts():
    """Pins the engine's reading: the Mischief dice showing the top value when mischief starts
    each act once; re-rolling one of them (or another Mischief die) changes nothing to that."""
    hands = [["yellow6-1", "mischief12-1", "green20-1"], ["yellow6-2", "mischief12-2"]]
    s = position(hands, MISCHIEF, round_no=5, token=0)
    start(s, {"yellow6-1": 6, "mischief12-1": 11, "green20-1": 1, "yellow6-2": 1,
              "mischief12-2": 11}, [("mischief12-2", 1), ("mischief12-1", 12)])
    assert s.queue == [(0, "mischief12-1"), (1, "mischief12-2")]
    ev = apply_in_place(s, Mischief(0, "mischief12-2"))  # 11 -> 1: seat 1 still acts
    assert current_seat(s) == 1 and s.phase is Phase.MISCHIEF
    ev += apply_in_place(s, Mischief(1, "mischief12-1"))  # 11 -> 12: no extra action
    assert s.phase is not Phase.MISCHIEF
    shown = {sp.id: v for sc in of(ev, ScoreEvent) for sp, v in sc.dice}
    assert shown["mischief12-1"] == 12 and shown["mischief12-2"] == 1


def _roll_time_values(ev, r):
    """Each Mischief die's value as rolled in round r (before any mischief re-roll)."""
    values = {sp.id: v for sc in of(ev, ScoreEvent) if sc.round == r for sp, v in sc.dice
              if sp.kind == "mischief"}
    for m in reversed([m for m in of(ev, MischiefEvent) if m.round == r]):
        if m.die in values:
            values[m.die] = m.before
    return values


@pytest.mark.parametrize("seed", range(30))
def test_mischief_in_seeded_games(seed):
    n = 2 + seed % 9
    _, ev, _ = play(n, seed, ALL_OPTIONS)
    players = names(n)
    events = of(ev, MischiefEvent)
    assert all(m.round >= 2 for m in events)
    for r in range(2, 11):
        (tok,) = [t for t in of(ev, TokenEvent) if t.round == r]
        token = players.index(tok.player)
        values = _roll_time_values(ev, r)
        owners = {sp.id: sc.player for sc in of(ev, ScoreEvent) if sc.round == r
                  for sp, _ in sc.dice}
        top = max(values.values())
        expected = sorted((players.index(owners[d]) - token) % n
                          for d, v in values.items() if v == top)
        acts = [m for m in events if m.round == r]
        # one action per top die, in clockwise order from the token holder
        assert [(players.index(m.player) - token) % n for m in acts] == expected
        for m in acts:
            assert m.target != m.player
            assert not m.die.startswith("yellow")
        # every die's scored value is its last mischief re-roll
        shown = {sp.id: v for sc in of(ev, ScoreEvent) if sc.round == r for sp, v in sc.dice}
        last = {m.die: m.after for m in acts}
        for die, after in last.items():
            assert shown[die] == after
        # mischief comes after the token event and before every score of the round
        kinds = [type(e).__name__ for e in ev if getattr(e, "round", None) == r]
        assert kinds[0] == "TokenEvent"
        assert kinds[1: 1 + len(acts)] == ["MischiefEvent"] * len(acts)
    assert of(ev, PityEvent)
