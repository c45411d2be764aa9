"""The round card of a replayed round: the dice as the round scored them, nobody framed."""

from __future__ import annotations

import pytest

from bot.rules.registry import ROYALE
from bot.rules.replay import replay_steps
from pictures import render_round_card, round_card_data
from pictures.round_card import as_scored
from tests.rules.test_replay import MAYHEM, played


def test_a_replayed_round_shows_the_scored_dice_sorted_and_nobody_framed() -> None:
    log = played(ROYALE, 3, 21, MAYHEM)
    frame = replay_steps(ROYALE, log)[1]
    state = frame.state
    data = round_card_data(["a", "b", "c"], state)
    assert data.current is not None  # the state waits on someone: the trade or the draft
    scored = {e["player"]: e["dice"] for e in frame.events if e["event"] == "score"}
    hands = [[(d["color"], d["kind"], d["sides"], d["value"]) for d in reversed(scored[p])]
             for p in state.players]
    card = as_scored(data, hands)
    assert card.current is None and card.totals == data.totals
    for seat, dice in enumerate(card.dice):
        assert sorted(dice) == sorted(hands[seat]) and all(v is not None for *_, v in dice)
        assert dice[0][0] == "yellow"  # sorted as a hand is drawn: yellow first
    assert render_round_card(card).startswith(b"\x89PNG")
    with pytest.raises(ValueError):
        as_scored(data, hands[:2])
