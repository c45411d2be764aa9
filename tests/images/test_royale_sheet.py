"""Golden checks of the Panda Royale score sheet: format, size, legible on a phone, and pixels
that must be there."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.royale.state import Phase, RoyaleState
from pictures import SheetData, fonts, render_score_sheet, sheet_data
from pictures.drawing import DieFace
from pictures.palette import COLUMN_COLORS, CURRENT, WHITE, WINNER
from pictures.png import MAX_BYTES
from pictures.royale_sheet import DIGIT_SIZES, shown_rounds
from pictures.sheet_layout import COLUMNS, WIDTH, SheetLayout
from pictures.text import player_name

from .games import names
from .pixels import PNG_SIGNATURE, close, corners, count_near, decode, inset
from .test_round_card import MIN_DIGIT_PX, needs_fonts

PHONE_WIDTH = 390
SIZE_LIMIT = 400 * 1024
KINDS: tuple[DieFace, ...] = (
    ("yellow", "standard", 6, 5), ("red", "standard", 6, -3), ("blue", "glitter", 6, 4),
    ("pink", "pity", 12, None),
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


@pytest.mark.parametrize(("n", "height"), [(2, 976), (4, 1736), (10, 4016)])
def test_png_size_and_bytes(finished_royale: dict[int, RoyaleState], n: int,
                            height: int) -> None:
    png = rendered(finished_royale[n])
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < SIZE_LIMIT < MAX_BYTES
    image = decode(png)
    assert image.size == SheetLayout(n).size == (WIDTH, height)
    assert WIDTH == 2 * PHONE_WIDTH  # a phone shows it at half size


@needs_fonts
def test_digits_are_tall_enough_on_a_phone() -> None:
    for size in DIGIT_SIZES:
        height = fonts.digit_height(size, bold=False)
        assert height * PHONE_WIDTH / WIDTH >= MIN_DIGIT_PX, (size, height)


def test_a_game_under_way_shows_the_rounds_so_far(drafting_royale: RoyaleState) -> None:
    data = sheet_data(names(4), drafting_royale)
    assert shown_rounds(data) == 4
    image = decode(render_score_sheet(data))
    assert image.size == SheetLayout(4, 4).size
    assert image.height < SheetLayout(4).size[1] * 0.6


@pytest.mark.parametrize("n", [2, 4, 10])
def test_column_headers_have_their_colours(finished_royale: dict[int, RoyaleState],
                                           n: int) -> None:
    image = decode(rendered(finished_royale[n]))
    layout = SheetLayout(n)
    for i, name in enumerate(COLUMNS):
        for box in (layout.color_header(i), layout.standings_header(2 + i)):
            for point in corners(box):
                assert close(image.getpixel(point), COLUMN_COLORS[name], 6), (name, point)  # type: ignore[arg-type]


def test_winner_highlight_only_when_final(finished_royale: dict[int, RoyaleState]) -> None:
    state = finished_royale[4]
    final = decode(rendered(state, final=True))
    not_final = decode(rendered(state, final=False))
    assert count_near(final, WINNER, 3) > 5000
    assert count_near(not_final, WINNER, 3) == 0
    layout = SheetLayout(4)
    totals = state.totals()
    for seat in range(4):
        line = inset(layout.standing_cell(seat, 1), 2)
        gold = count_near(final, WINNER, 3, line)
        assert (gold > 100) == (totals[seat] == max(totals)), seat


def test_current_round_is_framed(drafting_royale: RoyaleState) -> None:
    image = decode(rendered(drafting_royale))
    layout = SheetLayout(4, 4)
    label = layout.round_label(4)
    assert close(image.getpixel((label[0] + 3, label[1] + 3)), CURRENT, 6)  # type: ignore[arg-type]
    other = layout.round_label(3)
    assert not close(image.getpixel((other[0] + 3, other[1] + 3)), CURRENT, 30)  # type: ignore[arg-type]


def test_token_is_drawn_on_its_holders_line(drafting_royale: RoyaleState) -> None:
    image = decode(render_score_sheet(sheet_data(["Ada", "Bo", "Cy", "Dev"], drafting_royale)))
    layout = SheetLayout(4, 4)
    for seat in range(4):
        panda = count_near(image, WHITE, 10, layout.cell(4, seat, 1))  # the panda's white face
        assert (panda > 20) == (seat == drafting_royale.token), seat


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
    size = decode(render_score_sheet(data)).size
    assert size == SheetLayout(players, max(1, rounds)).size
    assert size[1] > SheetLayout(players, max(1, rounds) - 1).size[1]


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
