"""The trade pass (docs/rules.md, "Trade")."""

from __future__ import annotations

import pytest

from bot.rules.errors import GameOver, IllegalAction, NotYourTurn
from bot.rules.royale.actions import Mischief, Pass, Pick, Trade
from bot.rules.royale.engine import (
    apply,
    apply_in_place,
    current_seat,
    legal_actions,
    trade_gives,
    trade_taking,
)
from bot.rules.royale.events import TradeEvent
from bot.rules.royale.state import Phase

from .helpers import of, play, position, settle, start, token_values


def at_trade(hands, token, options=(), round_no=3):
    """A position played to its trade pass, ``token`` holding the Panda token."""
    s = position(hands, options, round_no=round_no, token=(token + 1) % len(hands))
    start(s, token_values(s, token))
    settle(s)
    assert s.token == token
    assert s.phase is Phase.TRADE
    return s


def trade(s, seat, give, target, take):
    ev = apply_in_place(s, Trade(seat, give, target, take))
    assert of(ev, TradeEvent)[0] == TradeEvent(s.round, f"p{seat}", f"p{target}", give, take)
    return ev


def illegal(s, action, exc=IllegalAction, match=None):
    """``action`` is refused with a readable message, and neither apply changes ``s``."""
    before = s.to_json()
    with pytest.raises(exc, match=match) as info:
        apply(s, action)
    assert s.to_json() == before
    with pytest.raises(exc, match=match):
        apply_in_place(s, action)
    assert s.to_json() == before
    assert isinstance(info.value, IllegalAction)
    msg = info.value.message
    # a sentence for players: no newline, no Python reprs
    assert msg == str(info.value) and msg.endswith(".") and "\n" not in msg
    assert "Error" not in msg and "<" not in msg
    return msg


@pytest.mark.parametrize(("token", "order"), [
    (2, [3, 4, 0, 1, 2]),
    (4, [0, 1, 2, 3, 4]),
    (0, [1, 2, 3, 4, 0]),
])
def test_pass_order_from_the_token_holders_left_token_last(token, order):
    hands = [[f"yellow6-{i + 1}", f"clear6-{i + 1}"] for i in range(5)]
    s = at_trade(hands, token)
    seen = []
    while s.phase is Phase.TRADE:
        seen.append(current_seat(s))
        apply_in_place(s, Pass(current_seat(s)))
    assert seen == order
    assert s.phase is Phase.DRAFT


def test_players_without_a_tradeable_clear_d6_are_skipped():
    hands = [["yellow6-1"], ["yellow6-2", "clear6-1"], ["yellow6-3", "mischief12-1"],
             ["yellow6-4", "clear6-2", "green20-1"]]
    s = at_trade(hands, 0, ("mischief",))
    seen = []
    while s.phase is Phase.TRADE:
        seen.append(current_seat(s))
        apply_in_place(s, Pass(current_seat(s)))
    assert seen == [1, 3]  # seat 2's Mischief die can't be given; seat 0 has no clear die


def test_no_clear_dice_no_trade_pass():
    s = position([["yellow6-1"], ["yellow6-2", "blue6-1"]], round_no=2)
    start(s, token_values(s, 0))
    assert s.phase is Phase.DRAFT


def test_legal_trades_listed():
    hands = [["yellow6-1", "clear6-1", "clear6-2"], ["yellow6-2", "pink12-1", "red6-1"],
             ["yellow6-3", "cannon8-1", "mischief12-1"]]
    s = at_trade(hands, 2, ("mischief", "cannon"))
    assert current_seat(s) == 0
    acts = legal_actions(s)
    assert acts[0] == Pass(0)
    trades = {(a.give, a.target, a.take) for a in acts[1:]}
    takeable = {1: {"yellow6-2", "red6-1"}, 2: {"yellow6-3", "mischief12-1"}}
    # seat 1 may have received the pity die: pity dice are never takeable
    expected = {(g, t, d) for g in ("clear6-1", "clear6-2") for t, ds in takeable.items()
                for d in ds}
    assert trades == expected
    assert len(acts) == 1 + len(expected)


def test_several_trades_in_one_turn():
    hands = [["yellow6-1", "clear6-1", "clear6-2"], ["yellow6-2", "blue6-1"],
             ["yellow6-3", "green20-1"]]
    s = at_trade(hands, 2)
    assert current_seat(s) == 0
    trade(s, 0, "clear6-1", 1, "blue6-1")
    assert current_seat(s) == 0  # still seat 0's turn: it has another clear d6
    trade(s, 0, "clear6-2", 2, "green20-1")
    # no tradeable clear d6 left on any later seat: the pass is over
    assert s.phase is Phase.DRAFT
    assert sorted(s.hands[0]) == ["blue6-1", "green20-1", "yellow6-1"]
    assert "clear6-1" in s.hands[1] and "clear6-2" in s.hands[2]


def test_a_given_clear_d6_is_not_tradeable_again_this_round():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "clear6-2"], ["yellow6-3", "green20-1"]]
    s = at_trade(hands, 2)
    trade(s, 0, "clear6-1", 1, "yellow6-2")
    assert current_seat(s) == 1
    assert not any(isinstance(a, Trade) and a.give == "clear6-1" for a in legal_actions(s))
    msg = illegal(s, Trade(1, "clear6-1", 2, "green20-1"), match="already traded")
    assert "next round" in msg
    trade(s, 1, "clear6-2", 2, "green20-1")
    # seat 2 only holds the given clear6-2: skipped
    assert s.phase is Phase.DRAFT


def test_a_player_whose_only_clear_d6_was_given_is_skipped():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "blue6-1"], ["yellow6-3", "clear6-2"]]
    s = at_trade(hands, 2)
    trade(s, 0, "clear6-1", 1, "blue6-1")
    assert current_seat(s) == 2  # seat 1 holds clear6-1, given this round


def test_a_taken_clear_d6_is_tradeable_on_the_same_turn():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "clear6-2"], ["yellow6-3", "green20-1"]]
    s = at_trade(hands, 2)
    trade(s, 0, "clear6-1", 1, "clear6-2")
    assert current_seat(s) == 0
    assert any(isinstance(a, Trade) and a.give == "clear6-2" for a in legal_actions(s))
    trade(s, 0, "clear6-2", 2, "green20-1")
    assert s.given == ["clear6-1", "clear6-2"]
    # seat 1 holds clear6-1 (given) and seat 2 clear6-2 (given): nobody left to trade
    assert s.phase is Phase.DRAFT


def test_a_taken_clear_d6_is_tradeable_later_in_the_pass():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "clear6-2"], ["yellow6-3", "clear6-3"],
             ["yellow6-4", "green20-1"]]
    s = at_trade(hands, 3)
    trade(s, 0, "clear6-1", 1, "clear6-2")  # seat 0 takes clear6-2
    apply_in_place(s, Pass(0))
    # seat 1 only holds clear6-1 (given): skipped. Seat 2 takes clear6-2 from seat 0 ...
    assert current_seat(s) == 2
    trade(s, 2, "clear6-3", 0, "clear6-2")
    # ... and, nobody having given it this round, gives it on in the same turn
    trade(s, 2, "clear6-2", 3, "green20-1")
    assert s.phase is Phase.DRAFT  # seat 3 holds clear6-2, now given: skipped


def test_a_given_clear_d6_can_be_taken_but_not_given_again():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "blue6-1"],
             ["yellow6-3", "clear6-3", "clear6-4"]]
    s = at_trade(hands, 2)
    trade(s, 0, "clear6-1", 1, "blue6-1")
    assert current_seat(s) == 2
    trade(s, 2, "clear6-3", 1, "clear6-1")  # taking a die just acquired in a trade is fine
    assert s.phase is Phase.TRADE and current_seat(s) == 2
    assert {a.give for a in legal_actions(s) if isinstance(a, Trade)} == {"clear6-4"}
    illegal(s, Trade(2, "clear6-1", 0, "yellow6-1"), match="already traded")
    apply_in_place(s, Pass(2))
    assert s.phase is Phase.DRAFT


def test_a_turn_ends_when_nothing_tradeable_is_left():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "blue6-1"], ["yellow6-3", "clear6-3"]]
    s = at_trade(hands, 2)
    trade(s, 0, "clear6-1", 1, "blue6-1")
    trade(s, 2, "clear6-3", 1, "clear6-1")
    # seat 2 (the token holder, last) now only holds the given clear6-1: the pass is over
    assert s.phase is Phase.DRAFT


def test_taken_yellow_and_trade_events_in_order():
    hands = [["yellow6-1", "clear6-1", "clear6-2"], ["yellow6-2", "yellow8-1"],
             ["yellow6-3"]]
    s = at_trade(hands, 2)
    ev = trade(s, 0, "clear6-1", 1, "yellow8-1")
    ev += trade(s, 0, "clear6-2", 2, "yellow6-3")
    assert [(e.gave, e.took) for e in of(ev, TradeEvent)] == [("clear6-1", "yellow8-1"),
                                                              ("clear6-2", "yellow6-3")]
    assert s.hands[2] == ["clear6-2"]


def test_pity_dice_cannot_be_taken():
    # seat 1 scores 6 + (-1 - 1 - 1) x 3 = -3, the lowest: it gets the pity die
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "red6-1", "red6-2", "red8-1"]]
    s = at_trade(hands, 1, round_no=4)
    assert "pink12-1" in s.hands[1]
    msg = illegal(s, Trade(0, "clear6-1", 1, "pink12-1"), match="pity")
    assert "can't be taken" in msg
    assert not any(isinstance(a, Trade) and a.take == "pink12-1" for a in legal_actions(s))


def test_cannon_dice_cannot_be_taken():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "cannon8-1", "red6-1"]]
    s = at_trade(hands, 1, ("cannon",))
    assert "cannon8-1" in s.hands[1]  # saved
    illegal(s, Trade(0, "clear6-1", 1, "cannon8-1"), match="Cannon dice can't be taken")
    assert {a.take for a in legal_actions(s) if isinstance(a, Trade)} == {"yellow6-2", "red6-1"}


def test_mischief_dice_can_be_taken_but_never_given():
    hands = [["yellow6-1", "clear6-1", "mischief12-1"], ["yellow6-2", "mischief12-2"]]
    s = at_trade(hands, 1, ("mischief",))
    msg = illegal(s, Trade(0, "mischief12-1", 1, "yellow6-2"), match="never given")
    assert "Mischief" in msg
    assert not any(isinstance(a, Trade) and a.give.startswith("mischief")
                   for a in legal_actions(s))
    trade(s, 0, "clear6-1", 1, "mischief12-2")
    assert sorted(d for d in s.hands[0] if d.startswith("mischief")) == ["mischief12-1",
                                                                          "mischief12-2"]


@pytest.mark.parametrize(("action", "exc", "match"), [
    (Trade(0, "clear6-1", 0, "yellow6-1"), IllegalAction, "another player"),
    (Trade(0, "clear6-1", 5, "yellow6-2"), IllegalAction, "another player"),
    (Trade(0, "clear6-1", -1, "yellow6-2"), IllegalAction, "another player"),
    (Trade(0, "clear6-9", 1, "yellow6-2"), IllegalAction, "don't hold"),
    (Trade(0, "yellow6-1", 1, "yellow6-2"), IllegalAction, "Only a clear d6"),
    (Trade(0, "clear6-1", 1, "green20-1"), IllegalAction, "p1 doesn't hold"),
    (Trade(1, "clear6-2", 0, "yellow6-1"), NotYourTurn, "It's p0's turn"),
    (Pass(1), NotYourTurn, "p0's turn"),
    (Pick(0, "blue6-1"), IllegalAction, "time to trade"),
    (Mischief(0, "yellow6-2"), IllegalAction, "time to trade"),
    ("trade please", IllegalAction, "not a Panda Royale action"),
])
def test_illegal_trades_are_refused_and_change_nothing(action, exc, match):
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "clear6-2"], ["yellow6-3", "green20-1"]]
    s = at_trade(hands, 2)
    assert current_seat(s) == 0
    illegal(s, action, exc, match)


def test_no_action_after_the_game_is_over():
    s, _, actions = play(2, 5)
    assert current_seat(s) is None and legal_actions(s) == []
    illegal(s, actions[-1], GameOver, "over")
    illegal(s, Pass(0), GameOver, "over")


def test_a_given_clear_d6_is_tradeable_again_next_round():
    hands = [["yellow6-1", "clear6-1"], ["yellow6-2", "blue6-1"], ["yellow6-3", "green20-1"]]
    s = at_trade(hands, 2)
    trade(s, 0, "clear6-1", 1, "blue6-1")
    assert s.phase is Phase.DRAFT and s.round == 3
    while s.round == 3:
        apply_in_place(s, Pick(current_seat(s), s.pool[0]))
    # round 4: seat 1 holds clear6-1, given last round, and may give it now
    assert s.phase is Phase.TRADE and s.given == []
    assert 1 in [seat for seat, _ in s.queue]
    while current_seat(s) != 1:
        apply_in_place(s, Pass(current_seat(s)))
    assert any(isinstance(a, Trade) and a.give == "clear6-1" for a in legal_actions(s))
    trade(s, 1, "clear6-1", 0, "yellow6-1")


def test_a_player_chooses_the_die_taken_and_gives_their_first_clear_d6_not_given():
    hands = [["yellow6-1", "clear6-1", "clear6-2"], ["yellow6-2", "blue6-1"],
             ["yellow6-3", "clear6-3", "green20-1"]]
    s = at_trade(hands, 2)
    assert [trade_gives(s, seat) for seat in range(3)] == ["clear6-1", None, "clear6-3"]
    assert trade_taking(s, 0, 1, "blue6-1") == Trade(0, "clear6-1", 1, "blue6-1")
    trade(s, 0, "clear6-1", 1, "blue6-1")
    assert trade_taking(s, 0, 2, "green20-1") == Trade(0, "clear6-2", 2, "green20-1")
    trade(s, 0, "clear6-2", 2, "green20-1")
    # seat 1 holds only the given clear6-1: its trade is refused before the engine sees it
    assert trade_gives(s, 1) is None
    with pytest.raises(IllegalAction, match="You have no clear die to trade"):
        trade_taking(s, 1, 2, "clear6-3")
    # the target and the die taken are the engine's to check, as for any trade
    made = trade_taking(s, 2, 0, "green20-9")
    assert made == Trade(2, "clear6-3", 0, "green20-9")
    illegal(s, made, match="p0 doesn't hold")


def test_no_trade_is_chosen_outside_the_trade_pass():
    s = position([["yellow6-1"], ["yellow6-2", "blue6-1"]], round_no=2)
    start(s, token_values(s, 0))
    assert s.phase is Phase.DRAFT
    with pytest.raises(IllegalAction, match="It's not time to trade"):
        trade_taking(s, current_seat(s), 1, "blue6-1")
