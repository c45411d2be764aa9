"""Golden checks of the Panda Royale score sheet: format, size, and pixels that must be there."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.royale.state import Phase, RoyaleState
from pictures import SheetData, render_score_sheet, sheet_data
from pictures.drawing import GLITTER_KINDS, DieFace
from pictures.palette import (
    BLACK,
    COLUMN_COLORS,
    CURRENT,
    GLITTER_RIM,
    SPARKLE,
    WINNER,
)
from pictures.png import MAX_BYTES
from pictures.sheet_layout import COLUMNS, SheetLayout
from pictures.text import player_name

from .games import names
from .pixels import PNG_SIGNATURE, close, corners, count_near, decode, inset

SIZE_LIMIT = 300 * 1024
EXPECTED_HEIGHT = {2: (380, 520), 4: (620, 800), 10: (1350, 1650)}

RED_NEG: DieFace = ("red", "standard", 6, -3)
RED_POS: DieFace = ("red", "standard", 8, 7)
GLITTER: DieFace = ("blue", "glitter", 6, 4)
BLUE: DieFace = ("blue", "standard", 6, 4)
UNROLLED: DieFace = ("pink", "pity", 12, None)
KINDS: tuple[DieFace, ...] = (
    ("yellow", "standard", 6, 5), RED_NEG, RED_POS, GLITTER, BLUE, ("green", "mercenary", 6, 2),
    ("clear", "mischief", 12, 11), ("pink", "cannon", 8, 3), UNROLLED,
)


def made_up(players: int = 3, rounds: int = 4, final: bool = False) -> SheetData:
    """A sheet with chosen dice for seat 0 and simple scores."""
    row = tuple((1, 2, 3, -4, 5, 6, 7) for _ in range(players))
    dice = (KINDS, *(((("yellow", "standard", 6, 1)),) for _ in range(players - 1)))
    return SheetData(names=tuple(names(players)), sheet=(row,) * rounds, round=max(1, rounds),
                     token=1,
                     dice=dice, title="Test sheet", final=final)


def rendered(state: RoyaleState, final: bool | None = None) -> bytes:
    return render_score_sheet(sheet_data(names(state.n), state, "Panda Royale", final))


@pytest.mark.parametrize("n", [2, 4, 10])
def test_png_size_and_bytes(finished_royale: dict[int, RoyaleState], n: int) -> None:
    png = rendered(finished_royale[n])
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < SIZE_LIMIT < MAX_BYTES
    image = decode(png)
    assert image.size == SheetLayout(n).size
    low, high = EXPECTED_HEIGHT[n]
    assert 1000 <= image.width <= 1200
    assert low <= image.height <= high


@pytest.mark.parametrize("n", [2, 4, 10])
def test_column_headers_have_their_colours(finished_royale: dict[int, RoyaleState],
                                           n: int) -> None:
    image = decode(rendered(finished_royale[n]))
    layout = SheetLayout(n)
    for i, name in enumerate(COLUMNS):
        boxes = [layout.color_header(0, i), layout.color_header(1, i), layout.totals_header(2 + i)]
        for box in boxes:
            for point in corners(box):
                assert close(image.getpixel(point), COLUMN_COLORS[name], 6), (name, point)  # type: ignore[arg-type]


def test_each_kind_of_die_is_drawn() -> None:
    data = made_up()
    image = decode(render_score_sheet(data))
    layout = SheetLayout(3)
    boxes = [layout.die_box(0, i, len(KINDS)) for i in range(len(KINDS))]
    by_face = dict(zip(KINDS, boxes, strict=True))
    for face, box in by_face.items():
        area = (box[2] - box[0]) * (box[3] - box[1])
        body = count_near(image, COLUMN_COLORS[face[0]], 10, box)
        assert body > area * 0.25, face  # the die's colour fills much of its box
        sparkles = count_near(image, SPARKLE, 6, box)
        rim = count_near(image, GLITTER_RIM, 8, box)
        if face[1] in GLITTER_KINDS:
            assert sparkles > 5 and rim > 40, face
        else:
            assert sparkles == 0, face
            if face[0] != "yellow":  # a yellow die's own edge is close to the gold rim
                assert rim == 0, face
    # negative red faces are black, positive ones are not
    assert count_near(image, BLACK, 12, inset(by_face[RED_NEG], 6)) > 40
    assert count_near(image, BLACK, 12, inset(by_face[RED_POS], 6)) == 0


def test_many_dice_stay_on_their_line() -> None:
    dice = (KINDS * 2, (RED_POS,))
    base = made_up(players=2)
    image = decode(render_score_sheet(dataclasses.replace(base, dice=dice)))
    layout = SheetLayout(2)
    last = layout.die_box(0, len(dice[0]) - 1, len(dice[0]))
    line = layout.totals_line(0)
    assert last[2] <= line[2] - 4
    assert count_near(image, COLUMN_COLORS["pink"], 10, last) > 100


def test_winner_highlight_only_when_final(finished_royale: dict[int, RoyaleState]) -> None:
    state = finished_royale[4]
    final = decode(rendered(state, final=True))
    not_final = decode(rendered(state, final=False))
    assert count_near(final, WINNER, 3) > 5000
    assert count_near(not_final, WINNER, 3) == 0
    layout = SheetLayout(4)
    totals = state.totals()
    for seat in range(4):
        line = inset(layout.total_cell(seat, 1), 2)
        gold = count_near(final, WINNER, 3, line)
        assert (gold > 100) == (totals[seat] == max(totals)), seat


def test_current_round_is_framed(drafting_royale: RoyaleState) -> None:
    image = decode(rendered(drafting_royale))
    layout = SheetLayout(4)
    label = layout.cell(4, 0, 0)
    assert close(image.getpixel((label[0] + 3, label[1] + 3)), CURRENT, 6)  # type: ignore[arg-type]
    other = layout.cell(3, 0, 0)
    assert not close(image.getpixel((other[0] + 3, other[1] + 3)), CURRENT, 30)  # type: ignore[arg-type]


def test_token_is_drawn_on_its_holders_line(drafting_royale: RoyaleState) -> None:
    image = decode(rendered(drafting_royale))
    layout = SheetLayout(4)
    for seat in range(4):
        dark = count_near(image, BLACK, 30, layout.token_box(seat))
        assert (dark > 20) == (seat == drafting_royale.token), seat


def test_a_score_change_changes_the_picture() -> None:
    data = made_up()
    same = render_score_sheet(made_up())
    row = list(data.sheet[-1])
    row[2] = (1, 2, 3, -4, 5, 6, 8)
    changed = dataclasses.replace(data, sheet=(*data.sheet[:-1], tuple(row)))
    assert render_score_sheet(data) == same  # deterministic
    assert render_score_sheet(changed) != same


def test_sheet_data_from_a_game_in_the_draft(drafting_royale: RoyaleState) -> None:
    state = drafting_royale
    data = sheet_data(names(4), state, "Draft")
    assert data.round == 4 and len(data.sheet) == 4 and not data.final
    assert data.token == state.token
    assert [len(d) for d in data.dice] == [len(h) for h in state.hands]
    specs = state.dice.specs
    for seat, hand in enumerate(state.hands):
        expected = sorted((specs[d].color, specs[d].kind, specs[d].sides, state.values.get(d))
                          for d in hand)
        assert sorted(data.dice[seat], key=repr) == sorted(expected, key=repr)
        order = [COLUMNS.index(face[0]) for face in data.dice[seat]]
        assert order == sorted(order)
    # somebody has picked a die this round: it has not been rolled yet
    assert any(face[3] is None for dice in data.dice for face in dice)


def test_final_follows_the_phase(finished_royale: dict[int, RoyaleState]) -> None:
    state = finished_royale[2]
    assert state.phase is Phase.OVER
    assert sheet_data(names(2), state, "x").final
    assert not sheet_data(names(2), state, "x", final=False).final
    data = sheet_data(names(2), state, "x")
    assert data.totals() == state.totals()
    assert data.winners() == [i for i, t in enumerate(state.totals()) if t == max(state.totals())]


@pytest.mark.parametrize("rounds", [0, 1, 10])
@pytest.mark.parametrize("players", [2, 10])
def test_any_number_of_rounds_and_players(players: int, rounds: int) -> None:
    data = made_up(players, rounds)
    data = dataclasses.replace(data, round=max(1, rounds))
    assert decode(render_score_sheet(data)).size == SheetLayout(players).size


@pytest.mark.parametrize(
    "change",
    [
        {"names": ()},
        {"names": tuple(f"p{i}" for i in range(11))},
        {"round": 11},
        {"token": 5},
        {"sheet": (((1, 2, 3),) * 3,)},
        {"dice": ()},
    ],
)
def test_bad_data_is_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(made_up(), **change)  # type: ignore[arg-type]


def test_names_are_kept_as_written() -> None:
    assert player_name("Chloé 🐼", 2) == "Chloé 🐼"
    assert player_name("🐼🐼", 2) == "🐼🐼"
    assert player_name("  Bob   the  Builder ", 0) == "Bob the Builder"
    assert player_name("  ", 2) == "#3"
