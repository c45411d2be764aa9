"""Golden checks of the Posing Pandas score card: numbered boxes, the turn's dice, legible on
a phone."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.posing.engine import totals, winners
from bot.rules.posing.poses import BOX_IDS
from bot.rules.posing.state import PosingState
from pictures import CardData, card_data, fonts, render_score_card
from pictures.card_layout import BOXES, NUMBER_W, POSES, WIDTH, CardLayout
from pictures.drawing import HELD_FILL, pose_die_image
from pictures.palette import BLACK, COMBO_ROW, CURRENT, HEADER, INK, MUTED, POSE_ROW, WHITE, WINNER
from pictures.png import MAX_BYTES
from pictures.posing_card import DIGIT_SIZES, box_number

from .games import names, posing_game
from .pixels import PNG_SIGNATURE, close, corners, count_near, decode, inset
from .test_round_card import MIN_DIGIT_PX, needs_fonts

PHONE_WIDTH = 390

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
    assert image.width == WIDTH == 2 * PHONE_WIDTH  # a phone shows it at half size
    assert image.height * PHONE_WIDTH / WIDTH <= 270


@needs_fonts
def test_digits_are_tall_enough_on_a_phone() -> None:
    for size in DIGIT_SIZES:
        height = fonts.digit_height(size, bold=False)
        assert height * PHONE_WIDTH / WIDTH >= MIN_DIGIT_PX, (size, height)


def test_boxes_are_numbered_in_card_order(finished_posing: dict[int, PosingState]) -> None:
    assert [box_number(box) for box in BOX_IDS] == list(range(1, BOXES + 1))
    assert box_number("pose_4") == 4 and box_number("all_different") == 11
    image = decode(rendered(finished_posing[4]))
    layout = CardLayout(4)
    drawn = []
    for index in range(BOXES):
        x0, y0, _, y1 = layout.label_cell(index)
        number = (x0, y0 + 2, x0 + NUMBER_W, y1 - 2)
        drawn.append(count_near(image, MUTED, 40, number))
    assert all(ink > 15 for ink in drawn)
    assert min(drawn[9:]) > max(drawn[:9])  # two digits from box 10 on


def test_a_turn_shows_the_dice_numbered_and_the_held_ones_inverted() -> None:
    state = posing_game(3, seed=9, turns=7)
    held = (True, False, False, True, False)
    data = card_data(names(3), state, "Posing Pandas", held=held)
    assert data.dice == tuple(state.dice) and data.held == held and data.rolls == state.rolls
    layout = CardLayout(3, dice=True)
    image = decode(render_score_card(data))
    assert image.size == layout.size and image.height > CardLayout(3).size[1]
    for i, (pips, keep) in enumerate(zip(data.dice, held, strict=True)):
        box = layout.die_box(i)
        dark = count_near(image, HELD_FILL, 6, inset(box, 8))
        light = count_near(image, WHITE, 6, inset(box, 8))
        assert (dark > light) == keep, i
        # drawn as the pose emojis are
        die = pose_die_image(pips, box[2] - box[0], keep).convert("RGB")
        middle = inset((0, 0, die.width, die.height), 12)
        want = die.crop(middle)
        got = image.crop((box[0] + middle[0], box[1] + middle[1], box[0] + middle[2],
                          box[1] + middle[3]))
        assert count_near(got, BLACK if not keep else WHITE, 40) > 0.8 * count_near(
            want, BLACK if not keep else WHITE, 40), i
        number = (box[0] - 26, box[1], box[0] - 2, box[3])
        assert count_near(image, INK if keep else MUTED, 40, number) > 15, i
    over = card_data(names(3), posing_game(3, seed=9))
    assert over.dice == () and over.held == () and not CardLayout(3, dice=False).dice


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
    layout = CardLayout(3, dice=bool(data.dice))
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
        {"dice": (1, 2, 3)},
        {"dice": (1, 2, 3, 4, 7)},
        {"dice": (1, 2, 3, 4, 5), "held": (True,)},
    ],
)
def test_bad_data_is_refused(change: dict[str, object]) -> None:
    data = CardData(names=("a", "b"), scores=((None,) * 11, (None,) * 11))
    with pytest.raises(ValueError):
        dataclasses.replace(data, **change)  # type: ignore[arg-type]
