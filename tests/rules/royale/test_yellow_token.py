"""The yellow tie re-roll and the Panda token (docs/rules.md, "The Panda token")."""

from __future__ import annotations

import pytest

import bot.rules
from bot.rules.royale import engine
from bot.rules.royale.dice import Column
from bot.rules.royale.engine import draft_order, new_game
from bot.rules.royale.events import ScoreEvent, TokenEvent
from bot.rules.royale.state import Phase

from .helpers import names, of, pass_trades, play, position, start

HANDS = [
    ["yellow6-1", "blue6-1"],
    ["yellow6-2", "yellow8-1"],
    ["yellow6-3", "green20-1"],
    ["green20-2", "purple8-1"],  # holds no yellow die
]
FIRST = {"yellow6-1": 5, "blue6-1": 3,
         "yellow6-2": 2, "yellow8-1": 3,
         "yellow6-3": 3, "green20-1": 10,
         "green20-2": 11, "purple8-1": 4}
# Re-roll 1: every yellow holder re-rolls (seat 2 too, though it was not in the 5-5 tie),
# giving a three-way tie at 6; re-roll 2: seat 1 alone is highest with 8.
REROLLS = [
    ("yellow6-1", 6), ("yellow6-2", 1), ("yellow8-1", 5), ("yellow6-3", 6),
    ("yellow6-1", 2), ("yellow6-2", 4), ("yellow8-1", 4), ("yellow6-3", 1),
]


@pytest.mark.parametrize("round_no", [1, 2, 5, 9])
def test_tie_rerolls_every_yellow_holder_until_one_is_highest(round_no):
    s = position(HANDS, round_no=round_no, token=3)
    ev = start(s, FIRST, REROLLS)
    assert s.rng.exhausted  # type: ignore[attr-defined]
    (tok,) = of(ev, TokenEvent)
    assert tok.round == round_no
    assert tok.player == "p1"
    assert dict(tok.yellow) == {"p0": 2, "p1": 8, "p2": 1, "p3": 0}
    assert tok.rerolls == 2
    assert s.token == 1
    assert s.yellow == [2, 8, 1, 0]
    # the final yellow values are the scored ones
    scores = of(ev, ScoreEvent)
    assert [sc.columns[Column.YELLOW] for sc in scores] == [2, 8, 1, 0]
    shown = {spec.id: v for sc in scores for spec, v in sc.dice}
    assert shown["yellow6-1"] == 2 and shown["yellow6-2"] == 4 and shown["yellow8-1"] == 4
    assert shown["yellow6-3"] == 1
    # other dice are not re-rolled
    assert shown["blue6-1"] == 3 and shown["green20-1"] == 10 and shown["green20-2"] == 11
    # ... and they set the draft order (highest first; seat 3, with no yellow, last)
    pass_trades(s)
    assert s.phase is Phase.DRAFT
    assert [seat for seat, _ in s.queue] == [1, 0, 2, 3]


def test_no_tie_no_reroll():
    s = position(HANDS, round_no=4, token=0)
    values = dict(FIRST, **{"yellow6-3": 6})
    ev = start(s, values)
    (tok,) = of(ev, TokenEvent)
    assert tok.rerolls == 0 and tok.player == "p2" and s.token == 2
    assert s.rng.exhausted  # type: ignore[attr-defined]


def test_single_yellow_holder_takes_the_token():
    hands = [["green20-1"], ["blue6-1"], ["yellow8-1"]]
    s = position(hands, round_no=6, token=0)
    ev = start(s, {"green20-1": 20, "blue6-1": 6, "yellow8-1": 1})
    (tok,) = of(ev, TokenEvent)
    assert tok.player == "p2" and tok.rerolls == 0
    assert dict(tok.yellow) == {"p0": 0, "p1": 0, "p2": 1}


@pytest.mark.parametrize(("round_no", "token"), [(1, 0), (4, 2), (7, 1), (10, 2)])
def test_nobody_holds_yellow_token_stays(round_no, token):
    hands = [["green20-1"], ["blue6-1", "red6-1"], ["purple8-1"]]
    s = position(hands, round_no=round_no, token=token)
    ev = start(s, {"green20-1": 3, "blue6-1": 3, "red6-1": 4, "purple8-1": 3})
    (tok,) = of(ev, TokenEvent)
    assert tok.player == f"p{token}"
    assert tok.rerolls == 0
    assert dict(tok.yellow) == {"p0": 0, "p1": 0, "p2": 0}
    assert s.rng.exhausted  # type: ignore[attr-defined]


@pytest.mark.skipif(bot.rules.compiled(), reason="spies on a call inside the engine, which "
                    "compiled code makes directly")
def test_first_round_starts_with_the_token_on_the_first_seat(monkeypatch):
    seen: list[tuple[int, int]] = []
    original = engine.roll_round

    def spy(s, ev):
        seen.append((s.round, s.token))
        original(s, ev)

    monkeypatch.setattr(engine, "roll_round", spy)
    new_game(names(5), 77)
    assert seen == [(1, 0)]


@pytest.mark.parametrize("token", [0, 1, 2])
def test_round_10_tie_no_reroll_token_stays(token):
    hands = [["yellow6-1", "blue6-1"], ["yellow6-2"], ["yellow6-3"]]
    s = position(hands, round_no=10, token=token)
    ev = start(s, {"yellow6-1": 4, "blue6-1": 1, "yellow6-2": 4, "yellow6-3": 2})
    assert s.rng.exhausted  # type: ignore[attr-defined]  # nothing re-rolled
    (tok,) = of(ev, TokenEvent)
    assert tok.rerolls == 0
    assert tok.player == f"p{token}"
    assert s.token == token
    assert [sc.columns[Column.YELLOW] for sc in of(ev, ScoreEvent)] == [4, 4, 2]
    assert s.phase is Phase.OVER


def test_round_10_without_tie_moves_the_token():
    hands = [["yellow6-1"], ["yellow6-2"], ["yellow6-3"]]
    s = position(hands, round_no=10, token=0)
    ev = start(s, {"yellow6-1": 4, "yellow6-2": 3, "yellow6-3": 6})
    (tok,) = of(ev, TokenEvent)
    assert tok.player == "p2" and tok.rerolls == 0


@pytest.mark.parametrize("seed", range(40))
def test_token_in_seeded_games(seed):
    n = 2 + seed % 9
    _, ev, _ = play(n, seed, ("mischief",) if seed % 2 else ())
    tokens = of(ev, TokenEvent)
    assert [t.round for t in tokens] == list(range(1, 11))
    players = names(n)
    previous = "p0"
    for t in tokens:
        yellow = dict(t.yellow)
        assert list(yellow) == players
        top = max(yellow.values())
        leaders = [p for p, v in yellow.items() if v == top]
        if t.round < 10:
            assert len(leaders) == 1, "a tie survived the re-rolls"
            assert t.player == leaders[0]
        else:
            assert t.rerolls == 0
            assert t.player == (leaders[0] if len(leaders) == 1 else previous)
        previous = t.player
        scored = [sc.columns[Column.YELLOW] for sc in of(ev, ScoreEvent) if sc.round == t.round]
        assert scored == list(yellow.values())


def test_seeded_games_do_reroll():
    """Ties are common: seeded 2-player games re-roll often, and the count is reported."""
    rerolls = []
    for seed in range(30):
        _, ev, _ = play(2, seed)
        rerolls += [t.rerolls for t in of(ev, TokenEvent) if t.round < 10]
    assert sum(1 for r in rerolls if r > 0) >= 10
    assert max(rerolls) >= 2


def test_draft_order_uses_final_yellow():
    assert draft_order([2, 8, 1, 0], 1) == [1, 0, 2, 3]
