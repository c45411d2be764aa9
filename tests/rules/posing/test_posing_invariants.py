"""Invariants of whole games of 1 to 10 players driven by random legal actions (Hypothesis)."""

from __future__ import annotations

from collections import Counter, defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.ai import RandomPosingPlayer
from bot.rules.posing.engine import (
    ENGINE,
    apply_in_place,
    box_points,
    current_seat,
    empty_boxes,
    legal_actions,
    new_game,
)
from bot.rules.posing.events import FillEvent, GameEndEvent, RollEvent, SetupEvent
from bot.rules.posing.poses import BOX_IDS, MAX_ROLLS, score_all, score_box

from .posing_helpers import names

GAMES = settings(
    max_examples=60,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@GAMES
@given(
    n=st.integers(min_value=1, max_value=10),
    seed=st.integers(min_value=-(2**63), max_value=2**63),
    player_seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_games_keep_every_rule(n: int, seed: int, player_seed: int) -> None:
    state, events = new_game(names(n), seed)
    players = [RandomPosingPlayer(player_seed + i) for i in range(n)]
    while (seat := current_seat(state)) is not None:
        options = legal_actions(state)
        assert options, "a player who must decide always has a legal action"
        assert len(options) == len(set(options))
        assert all(a.seat == seat for a in options)
        empty = empty_boxes(state, seat)
        assert sum(isinstance(a, Fill) for a in options) == len(empty) > 0
        rolls = sum(isinstance(a, Roll) for a in options)
        assert rolls == (31 if state.rolls < MAX_ROLLS else 0)
        points = box_points(state)
        assert list(points) == empty
        assert points == {box: score_all(state.dice)[box] for box in empty}
        events.extend(apply_in_place(state, players[seat].choose(state)))

    assert isinstance(events[0], SetupEvent)
    assert events[0].to_log() == {
        "event": "setup",
        "game_kind": "posing",
        "seed": seed,
        "players": names(n),
    }
    assert isinstance(events[-1], GameEndEvent)
    assert sum(isinstance(e, SetupEvent | GameEndEvent) for e in events) == 2

    fills: dict[str, list[str]] = defaultdict(list)
    rolls_per_turn: Counter[tuple[str, int]] = Counter()
    order: list[str] = []
    last_faces: tuple[int, ...] = ()
    last_roll = 0
    for event in events[1:-1]:
        if isinstance(event, RollEvent):
            assert len(event.faces) == 5 and all(1 <= f <= 6 for f in event.faces)
            assert event.roll == last_roll + 1 <= MAX_ROLLS
            if event.roll == 1:
                assert event.held == ()
            else:
                assert list(event.held) == sorted(set(event.held)) and len(event.held) < 5
                assert all(event.faces[i] == last_faces[i] for i in event.held)
            assert event.player == names(n)[event.seat]
            assert event.turn == len(fills[event.player]) + 1
            rolls_per_turn[(event.player, event.turn)] += 1
            last_faces, last_roll = event.faces, event.roll
        else:
            assert isinstance(event, FillEvent)
            assert event.faces == last_faces
            assert event.points == score_box(event.box, event.faces)
            assert event.turn == len(fills[event.player]) + 1
            fills[event.player].append(event.box)
            order.append(event.player)
            last_roll = 0

    # every player fills every box exactly once, in seat order, with at most 3 rolls a turn
    for player in names(n):
        assert sorted(fills[player]) == sorted(BOX_IDS)
    assert order == names(n) * len(BOX_IDS)
    assert all(1 <= count <= MAX_ROLLS for count in rolls_per_turn.values())
    assert len(rolls_per_turn) == n * len(BOX_IDS)

    # totals are the sums of the filled boxes; the highest totals share the win
    totals = ENGINE.totals(state)
    for seat, card in enumerate(state.filled):
        assert set(card) == set(BOX_IDS)
        assert totals[seat] == sum(card.values())
    end = events[-1].to_log()
    assert end == {
        "event": "game_end",
        "totals": dict(zip(names(n), totals, strict=True)),
        "winners": [names(n)[s] for s in range(n) if totals[s] == max(totals)],
    }
    assert ENGINE.winners(state) == [s for s in range(n) if totals[s] == max(totals)]
