"""Golden checks of the Posing Pandas score card."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.posing.engine import totals, winners
from bot.rules.posing.poses import BOX_IDS
from bot.rules.posing.state import PosingState
from pictures import CardData, card_data, render_score_card
from pictures.card_layout import BOXES, POSES, CardLayout
from pictures.palette import COMBO_ROW, CURRENT, HEADER, POSE_ROW, WINNER
from pictures.png import MAX_BYTES

from .games import names, posing_game
from .pixels import PNG_SIGNATURE, close, corners, count_near, decode, inset

SIZE_LIMIT = 100 * 1024


def rendered(state: PosingState, final: bool | None = None) -> bytes:
    return render_score_card(card_data(names(len(state.players)), state, "Posing Pandas", final))


@pytest.mark.parametrize("n", [1, 4, 10])
def test_png_size_and_bytes(finished_posing: dict[int, PosingState], n: int) -> None:
    png = rendered(finished_posing[n])
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < SIZE_LIMIT < MAX_BYTES
    image = decode(png)
    assert image.size == CardLayout(n).size
    assert 440 <= image.width <= 1200
    assert 400 <= image.height <= 520


@pytest.mark.parametrize("n", [1, 4, 10])
def test_winners_are_highlighted(finished_posing: dict[int, PosingState], n: int) -> None:
    state = finished_posing[n]
    image = decode(rendered(state))
    layout = CardLayout(n)
    won = winners(state)
    for seat in range(n):
        for box in (layout.header_cell(seat), layout.total_cell(seat)):
            gold = close(image.getpixel(corners(box)[2]), WINNER, 4)  # type: ignore[arg-type]
            assert gold == (seat in won), seat
    not_final = decode(rendered(state, final=False))
    assert count_near(not_final, WINNER, 3) == 0


def test_rows_are_laid_out_in_card_order(finished_posing: dict[int, PosingState]) -> None:
    image = decode(rendered(finished_posing[4]))
    layout = CardLayout(4)
    for index in range(BOXES):
        _x0, y0, x1, _y1 = layout.label_cell(index)
        point = (x1 - 3, y0 + 3)  # inside the label cell, clear of the texts
        wanted = POSE_ROW if index < POSES else COMBO_ROW
        assert close(image.getpixel(point), wanted, 12), index  # type: ignore[arg-type]
    for seat in range(4):
        assert close(image.getpixel(corners(layout.header_cell(seat))[0]), HEADER, 4) or (  # type: ignore[arg-type]
            seat in winners(finished_posing[4]))


def test_game_in_progress_marks_the_player_to_move() -> None:
    state = posing_game(3, seed=9, turns=7)
    data = card_data(names(3), state, "Posing Pandas")
    assert not data.final and data.current == state.seat
    filled = [sum(p is not None for p in card) for card in data.scores]
    assert filled == [len(f) for f in state.filled]
    image = decode(render_score_card(data))
    layout = CardLayout(3)
    for seat in range(3):
        blue = count_near(image, CURRENT, 4, inset(layout.header_cell(seat), 1))
        assert (blue > 100) == (seat == state.seat), seat
    assert count_near(image, WINNER, 3) == 0


def test_card_data_follows_the_state(finished_posing: dict[int, PosingState]) -> None:
    state = finished_posing[4]
    data = card_data(names(4), state, "x")
    assert data.final and data.current is None
    assert data.totals() == totals(state)
    assert data.winners() == winners(state)
    assert all(p is not None for card in data.scores for p in card)
    assert [card[BOX_IDS.index("set_of_5")] for card in data.scores] == [
        f["set_of_5"] for f in state.filled
    ]


def test_a_score_change_changes_the_picture(finished_posing: dict[int, PosingState]) -> None:
    data = card_data(names(4), finished_posing[4], "x")
    same = render_score_card(data)
    card = list(data.scores[1])
    card[0] = (card[0] or 0) + 1
    changed = dataclasses.replace(data, scores=(data.scores[0], tuple(card), *data.scores[2:]))
    assert render_score_card(data) == same
    assert render_score_card(changed) != same


@pytest.mark.parametrize(
    "change",
    [
        {"names": ()},
        {"names": tuple(f"p{i}" for i in range(11))},
        {"scores": ((None,) * 10, (None,) * 11)},
        {"current": 2},
    ],
)
def test_bad_data_is_refused(change: dict[str, object]) -> None:
    data = CardData(names=("a", "b"), scores=((None,) * 11, (None,) * 11))
    with pytest.raises(ValueError):
        dataclasses.replace(data, **change)  # type: ignore[arg-type]
