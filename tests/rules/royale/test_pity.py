"""Pink pity dice (docs/rules.md, "Pity dice")."""

from __future__ import annotations

import pytest

from bot.rules.royale.dice import pity_dice_for
from bot.rules.royale.engine import new_game, pity_order
from bot.rules.royale.events import PityEvent, ScoreEvent, TokenEvent

from .helpers import names, of, play, position, start


@pytest.mark.parametrize(("totals", "token", "expected"), [
    # lowest totals first
    ([5, -3, 10, 0], 2, [1, 3, 0, 2]),
    # everybody tied: counter-clockwise from the token holder's right, token holder last
    ([6, 6, 6, 6], 0, [3, 2, 1, 0]),
    ([6, 6, 6, 6], 2, [1, 0, 3, 2]),
    ([6, 6], 1, [0, 1]),
    ([6, 6], 0, [1, 0]),
    # the token holder tied: last among the tied, non-tied seats skipped
    ([2, 2, 7, 2], 0, [3, 1, 0, 2]),
    # one alone lowest, then a three-way tie
    ([1, 3, 3, 3, 9], 1, [0, 3, 2, 1, 4]),
    # ties at both levels
    ([4, 4, 1, 1, 4, 1], 3, [2, 5, 3, 1, 0, 4]),
    ([6, 1, 3, 5, 1, 3, 3], 0, [4, 1, 6, 5, 2, 3, 0]),
])
def test_pity_order(totals, token, expected):
    order = pity_order(totals, token)
    assert order[: len(expected)] == expected
    assert sorted(order) == list(range(len(totals)))


def _given(ev):
    (p,) = of(ev, PityEvent)
    return dict(p.given)


def _pity_in(s, seat):
    return [d for d in s.hands[seat] if s.dice.specs[d].kind == "pity"]


def test_all_tied_counter_clockwise_from_the_token_holders_right():
    # 4 players, 2 pity dice. Every round total is 6; seat 0 takes the token (yellow 6).
    hands = [["yellow6-1"], ["yellow6-2", "pink12-1"], ["yellow6-3", "green20-2"],
             ["yellow6-4", "green20-3"]]
    s = position(hands, round_no=5, token=2)
    ev = start(s, {"yellow6-1": 6, "yellow6-2": 5, "pink12-1": 1, "yellow6-3": 4,
                   "green20-2": 2, "yellow6-4": 3, "green20-3": 3})
    assert [sc.total for sc in of(ev, ScoreEvent)] == [6, 6, 6, 6]
    assert s.token == 0
    given = _given(ev)
    assert set(given) == {"p3", "p2"}
    assert sorted(given.values()) == ["pink12-1", "pink12-2"]
    # seat 1's pity die was taken back
    assert _pity_in(s, 1) == [] and _pity_in(s, 0) == []
    assert _pity_in(s, 3) == [given["p3"]] and _pity_in(s, 2) == [given["p2"]]
    assert not any(d.startswith("pink") for d in s.aside + s.bag)


def test_token_holder_tied_comes_last():
    # totals: seat 0 (token) 6, seat 1 6, seat 2 9, seat 3 6; 2 dice, 3 tied players
    hands = [["yellow6-1"], ["yellow6-2", "green20-1"], ["yellow6-3", "green20-2"],
             ["yellow6-4", "green20-3"]]
    s = position(hands, round_no=3, token=1)
    ev = start(s, {"yellow6-1": 6, "yellow6-2": 1, "green20-1": 5, "yellow6-3": 1,
                   "green20-2": 8, "yellow6-4": 1, "green20-3": 5})
    assert s.token == 0
    assert set(_given(ev)) == {"p3", "p1"}


def test_tie_outnumbering_dice_at_the_lowest_level():
    # 6 players, 2 dice; totals [4, 4, 1, 1, 4, 1], seat 3 takes the token.
    hands = [["yellow6-1"], ["yellow6-2", "green20-2"], ["yellow6-3"],
             ["yellow6-4", "red8-1", "red6-1", "green20-1"], ["yellow6-5", "green20-3"],
             ["yellow6-6"]]
    values = {"yellow6-1": 4, "yellow6-2": 3, "green20-2": 1, "yellow6-3": 1,
              "yellow6-4": 6, "red8-1": -4, "red6-1": -1, "green20-1": 5,
              "yellow6-5": 2, "green20-3": 2, "yellow6-6": 1}
    s = position(hands, round_no=2, token=0)
    ev = start(s, values)
    assert [sc.total for sc in of(ev, ScoreEvent)] == [4, 4, 1, 1, 4, 1]
    assert s.token == 3
    assert set(_given(ev)) == {"p2", "p5"}


def test_tie_at_the_second_level():
    # 7 players, 3 dice: seats 1 and 4 alone at the bottom (total 1), then seats 2, 5, 6 tied
    # at 3 for the last die: counter-clockwise from the token's right (seat 6) -> seat 6.
    hands = [[f"yellow6-{i + 1}"] for i in range(7)]
    hands[6].append("green20-1")
    values = {"yellow6-1": 6, "yellow6-2": 1, "yellow6-3": 3, "yellow6-4": 5,
              "yellow6-5": 1, "yellow6-6": 3, "yellow6-7": 2, "green20-1": 1}
    s = position(hands, round_no=8, token=4)
    ev = start(s, values)
    assert [sc.total for sc in of(ev, ScoreEvent)] == [6, 1, 3, 5, 1, 3, 3]
    assert s.token == 0
    assert set(_given(ev)) == {"p1", "p4", "p6"}


def test_nobody_holds_two():
    # seat 1 holds the only pity die and is lowest again: it is taken back and given again.
    hands = [["yellow6-1", "green20-1"], ["yellow6-2", "pink12-1"]]
    s = position(hands, round_no=4, token=0)
    ev = start(s, {"yellow6-1": 6, "green20-1": 9, "yellow6-2": 1, "pink12-1": 2})
    assert _given(ev) == {"p1": "pink12-1"}
    assert _pity_in(s, 1) == ["pink12-1"]
    assert _pity_in(s, 0) == []


def test_pity_die_value_counts_in_the_round_total():
    hands = [["yellow6-1", "green20-1"], ["yellow6-2", "pink12-1"]]
    s = position(hands, round_no=4, token=0)
    ev = start(s, {"yellow6-1": 6, "green20-1": 1, "yellow6-2": 1, "pink12-1": 12})
    totals = [sc.total for sc in of(ev, ScoreEvent)]
    assert totals == [7, 13]
    assert _given(ev) == {"p0": "pink12-1"}


@pytest.mark.parametrize("players", range(2, 11))
def test_round_one_pity_dice_by_player_count(players):
    s, ev = new_game(names(players), 31 * players)
    k = pity_dice_for(players)
    given = _given(ev)
    assert len(given) == k
    assert sorted(given.values()) == sorted(s.dice.pity)
    totals = [sc.total for sc in of(ev, ScoreEvent)]
    (tok,) = of(ev, TokenEvent)
    expected = {f"p{seat}" for seat in pity_order(totals, names(players).index(tok.player))[:k]}
    assert set(given) == expected
    for seat in range(players):
        assert len(_pity_in(s, seat)) == (1 if f"p{seat}" in given else 0)


def test_round_ten_gives_no_pity_dice():
    hands = [["yellow6-1"], ["yellow6-2", "pink12-1"]]
    s = position(hands, round_no=10, token=0)
    ev = start(s, {"yellow6-1": 6, "yellow6-2": 1, "pink12-1": 3})
    assert of(ev, PityEvent) == []
    assert _pity_in(s, 1) == ["pink12-1"]


@pytest.mark.parametrize("seed", range(30))
def test_pity_in_seeded_games(seed):
    n = 2 + seed % 9
    options = ("mischief", "cannon", "mercenary") if seed % 3 == 0 else ()
    s, ev, _ = play(n, seed, options)
    players = names(n)
    k = pity_dice_for(n)
    pities = of(ev, PityEvent)
    assert [p.round for p in pities] == list(range(1, 10))
    tokens = {t.round: players.index(t.player) for t in of(ev, TokenEvent)}
    for p in pities:
        given = dict(p.given)
        assert len(given) == k  # every pity die given, each to a different player
        assert len(set(given.values())) == k
        totals = [sc.total for sc in of(ev, ScoreEvent) if sc.round == p.round]
        expected = {players[i] for i in pity_order(totals, tokens[p.round])[:k]}
        assert set(given) == expected
        # the pity dice shown in the next round's score events are exactly the ones given
        held = {sc.player: [sp.id for sp, _ in sc.dice if sp.kind == "pity"]
                for sc in of(ev, ScoreEvent) if sc.round == p.round + 1}
        assert {pl: ds for pl, ds in held.items() if ds} == {pl: [d] for pl, d in given.items()}
    for seat in range(n):
        assert len(_pity_in(s, seat)) <= 1
