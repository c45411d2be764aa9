"""The charts: names in every script, 1 to 10 players, negative totals, legible at 400 px, a
colour-blind-safe palette, the same bytes for the same input, totals read from game logs."""

from __future__ import annotations

import dataclasses
import io
import itertools
import logging
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import matplotlib
import pytest
from PIL import Image

from bot.rules.gamelog import log_objects
from bot.rules.registry import POSING, ROYALE
from bot.sim.runner import play_game
from pictures import fonts
from pictures.charts import (
    GameChartData,
    StatsChartData,
    StatsGame,
    base,
    column_averages,
    game,
    game_chart_data,
    render_game_chart,
    render_stats_chart,
    royale_columns,
    running_totals,
    stats,
)
from pictures.palette import INK, NEGATIVE, RGB, RULE, WINNER_TINT
from pictures.round_card import SMALLEST_DIGITS
from pictures.text import shown_names
from ui.i18n import SOURCE, languages, tr_for

from .pixels import PNG_SIGNATURE, count_near, decode
from .test_round_card import MIN_DIGIT_PX, PHONE_WIDTH, SCRIPTS, needs_fonts

SIZE_LIMIT = 150 * 1024
EXPANSIONS = {"expansions": ("mischief", "cannon", "mercenary")}
NAMES = [*SCRIPTS.values(), "Bo", "Bo", "Ada"]
"""Ten names: every script, then two players of one name."""


def logged(kind: str, n: int, seed: int) -> list[dict[str, Any]]:
    """The log objects of a seeded game between computer players."""
    entry = ROYALE if kind == "royale" else POSING
    played = play_game(entry, [f"p{i}" for i in range(n)], seed, ["normal"],
                       EXPANSIONS if kind == "royale" else None)
    return list(log_objects(str(seed), played.events))


@pytest.fixture(scope="module")
def royale_logs() -> dict[int, list[dict[str, Any]]]:
    return {n: logged("royale", n, seed=20 + n) for n in (2, 4, 10)}


def made_up(n: int, negative: bool = False, steps: int = 10) -> GameChartData:
    """Straight lines of different slopes (one going below zero when ``negative``)."""
    totals = tuple(tuple((seat + 1) * 7 * r - (60 * r if negative and seat == 0 else 0)
                         for r in range(1, steps + 1)) for seat in range(n))
    return GameChartData(names=tuple(NAMES[:n]), totals=totals, title="Panda Royale - game 7")


def stats_data(count: int = 30, averages: bool = True, **change: Any) -> StatsChartData:
    rows = tuple(StatsGame("royale" if i % 3 else "posing", 300 + 13 * i if i % 3 else 20 + i,
                           won=i % 4 == 0) for i in range(count))
    columns = (40.5, 80.25, 100.0, -3.5, 120.0, 60.0, 55.5) if averages else None
    return dataclasses.replace(StatsChartData("Chloé 🐼", rows, columns), **change)


def ink_bands(image: Image.Image, box: tuple[int, int, int, int],
              dark: int = 150) -> list[int]:
    """The heights of the runs of rows of ``box`` that hold dark pixels (one per text line)."""
    grey = image.crop(box).convert("L")
    width = grey.width
    data = grey.tobytes()
    rows = [min(data[y * width:(y + 1) * width]) < dark for y in range(grey.height)]
    return [len(list(run)) for inked, run in itertools.groupby(rows) if inked]


def phone(png: bytes) -> Image.Image:
    """The picture as a phone shows it: scaled to 400 px wide."""
    image = decode(png)
    return image.resize((PHONE_WIDTH, round(image.height * PHONE_WIDTH / image.width)),
                        Image.Resampling.LANCZOS)


@pytest.fixture()
def quiet(caplog: pytest.LogCaptureFixture) -> Iterator[list[str]]:
    """Collects every complaint about a glyph: the pictures' log and matplotlib's warnings."""
    caplog.set_level(logging.WARNING, logger="pictures")
    found: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield found
    found += [str(w.message) for w in caught if "missing from font" in str(w.message)]
    found += [r.getMessage() for r in caplog.records if "No installed font" in r.getMessage()]


# -- the game chart ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 11))
def test_one_to_ten_players(n: int) -> None:
    data = made_up(n)
    png = render_game_chart(data)
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < SIZE_LIMIT
    image = decode(png)
    assert image.size == game.chart_size(data)
    assert image.width == base.WIDTH == 800
    # every line is drawn inside the plot in its own colour, every name on its legend row
    plot = (game.PLOT_LEFT, game.PLOT_TOP, game.PLOT_RIGHT, game.PLOT_TOP + game.PLOT_H)
    for seat in range(n):
        assert count_near(image, base.series(seat).color, 10, plot) > 200, seat
    for rank in range(n):
        top, bottom = game.legend_row(rank)
        name_box = (base.MARGIN + game.SAMPLE_W + 30, top, 500, bottom)
        assert count_near(image, INK, 40, name_box) > 30, rank


def test_the_standings_are_the_legend_and_winners_stand_out() -> None:
    data = GameChartData(names=("A", "B", "C"), totals=((5, 10), (5, 30), (5, 30)))
    assert data.standings() == [1, 2, 0] and data.winners() == [1, 2]
    image = decode(render_game_chart(data))
    for rank in range(3):
        top, bottom = game.legend_row(rank)
        gold = count_near(image, WINNER_TINT, 3, (400, top + 2, 600, bottom - 2))
        assert (gold > 1000) == (rank < 2), rank
        seat = data.standings()[rank]
        sample = (base.MARGIN, top, base.MARGIN + game.SAMPLE_W + 12, bottom)
        assert count_near(image, base.series(seat).color, 10, sample) > 50, rank


def test_negative_totals() -> None:
    plain, negative = made_up(4), made_up(4, negative=True)
    assert min(negative.totals[0]) < 0
    image, below = decode(render_game_chart(plain)), decode(render_game_chart(negative))
    plot = (game.PLOT_LEFT + 4, game.PLOT_TOP, game.PLOT_RIGHT, game.PLOT_TOP + game.PLOT_H)
    # the zero line runs across the plot only when a line goes below it
    assert count_near(below, RULE, 6, plot) > count_near(image, RULE, 6, plot) + 500
    # a negative final total is written in the negative colour, on the last legend row
    top, bottom = game.legend_row(3)
    assert negative.standings()[3] == 0
    total = (base.WIDTH - game.VALUE_W, top, base.WIDTH, bottom)
    assert count_near(below, NEGATIVE, 30, total) > 30
    assert count_near(image, NEGATIVE, 30, total) == 0


@needs_fonts
def test_every_script_is_drawn(quiet: list[str]) -> None:
    data = made_up(10)
    image = decode(render_game_chart(data))
    names = shown_names(data.names)
    assert names[-3:] == ["Bo #8", "Bo #9", "Ada"]
    for name in names:
        for part_font, text in fonts.runs(name):
            assert fonts.MISSING not in text and part_font is not fonts.DEFAULT, name
    # each name's row holds the ink of that name (distinct rows for distinct names)
    rows = []
    for rank, seat in enumerate(data.standings()):
        top, bottom = game.legend_row(rank)
        x = base.MARGIN + 6 + game.SAMPLE_W + 18
        rows.append((seat, image.crop((x, top, base.WIDTH - game.VALUE_W, bottom))))
    for (seat_a, a), (seat_b, b) in itertools.combinations(rows, 2):
        if names[seat_a] != names[seat_b]:
            assert a.tobytes() != b.tobytes(), (names[seat_a], names[seat_b])
    emoji = next(r for s, r in rows if "🐼" in names[s])
    assert any(len(set(px[:3])) > 1 and max(px) - min(px[:3]) > 60
               for px in emoji.getdata())  # the panda is drawn in colour
    assert not quiet


@needs_fonts
@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != SOURCE])
def test_the_labels_in_every_language(lang: str, quiet: list[str],
                                      royale_logs: dict[int, list[dict[str, Any]]]) -> None:
    tr = tr_for(lang)
    events = royale_logs[4]
    local = render_game_chart(game_chart_data("royale", events, NAMES[:4], words=tr))
    english = render_game_chart(game_chart_data("royale", events, NAMES[:4]))
    assert decode(local).tobytes() != decode(english).tobytes()
    assert render_stats_chart(stats_data(words=tr)) != render_stats_chart(stats_data())
    assert not quiet


def test_long_names_are_cut_to_their_room() -> None:
    long = "Bartholomew " * 8
    data = GameChartData(names=(long, "B"), totals=((1, 2), (3, 4)))
    image = decode(render_game_chart(data))
    top, bottom = game.legend_row(1)  # the long name is second
    gap = (base.WIDTH - game.VALUE_W - 4, top + 4, base.WIDTH - game.VALUE_W + 10, bottom - 4)
    assert count_near(image, INK, 60, gap) == 0  # the name stops before the total


# -- legible on a phone -----------------------------------------------------------------------

@needs_fonts
def test_text_sizes_follow_the_phone_rule() -> None:
    assert min(base.DIGIT_SIZES) >= SMALLEST_DIGITS
    for size in base.DIGIT_SIZES:
        assert fonts.digit_height(size, bold=False) * PHONE_WIDTH / base.WIDTH >= MIN_DIGIT_PX


@needs_fonts
def test_digits_and_names_are_tall_enough_at_400_px() -> None:
    image = phone(render_game_chart(made_up(10)))
    scale = PHONE_WIDTH / base.WIDTH
    # the y tick numbers, left of the plot
    ticks = ink_bands(image, (0, round(game.PLOT_TOP * scale),
                              round((game.PLOT_LEFT - 14) * scale),
                              round((game.PLOT_TOP + game.PLOT_H) * scale)))
    assert len(ticks) >= 3 and min(ticks) >= MIN_DIGIT_PX, ticks
    # the x tick numbers, under the plot
    top = game.PLOT_TOP + game.PLOT_H + 10
    xticks = ink_bands(image, (round(game.PLOT_LEFT * scale), round(top * scale),
                               round(game.PLOT_RIGHT * scale), round((top + 40) * scale)))
    assert xticks and min(xticks) >= MIN_DIGIT_PX, xticks
    # the totals in the legend ("Ada": digits and capitals at least as tall)
    for rank in range(10):
        y0, y1 = game.legend_row(rank)
        bands = ink_bands(image, (round((base.WIDTH - game.VALUE_W) * scale), round(y0 * scale),
                                  PHONE_WIDTH, round(y1 * scale)))
        assert bands and max(bands) >= MIN_DIGIT_PX + 1, (rank, bands)


@needs_fonts
def test_stats_digits_are_tall_enough_at_400_px() -> None:
    data = stats_data()
    image = phone(render_stats_chart(data))
    scale = PHONE_WIDTH / base.WIDTH
    top = stats.panel_top(data, 0) + stats.HEAD_H
    ticks = ink_bands(image, (0, round(top * scale), round((stats.PLOT_LEFT - 14) * scale),
                              round((top + stats.PANEL_H) * scale)))
    assert len(ticks) >= 3 and min(ticks) >= MIN_DIGIT_PX, ticks


# -- the palette ------------------------------------------------------------------------------

CVD = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    # Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def lab(color: RGB, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of ``color`` as seen with the colour vision ``matrix``."""
    linear = [(c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4)
              for c in color]
    r, g, b = (min(1.0, max(0.0, sum(m * v for m, v in zip(row, linear, strict=True))))
               for row in matrix)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


@pytest.mark.parametrize("vision", list(CVD))
def test_the_colours_stay_apart_for_colour_blind_eyes(vision: str) -> None:
    seen = [lab(c, CVD[vision]) for c in base.OKABE_ITO]
    for a, b in itertools.combinations(seen, 2):
        assert sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5 >= 15, vision
    paper = lab((255, 255, 255), CVD[vision])
    assert all(paper[0] - c[0] >= 25 for c in seen)  # every line is darker than the plot


def test_ten_seats_are_told_apart_without_colour() -> None:
    styles = [base.series(seat) for seat in range(10)]
    assert len({s.marker for s in styles}) == 10
    assert len({(s.color, s.marker, str(s.dash)) for s in styles}) == 10
    # a seat that repeats a colour has a dashed line
    for a, b in itertools.combinations(styles, 2):
        if a.color == b.color:
            assert str(a.dash) != str(b.dash)


# -- the same bytes ---------------------------------------------------------------------------

def test_the_same_input_gives_the_same_bytes() -> None:
    data, other = made_up(6), made_up(6, negative=True)
    first = render_game_chart(data)
    assert render_game_chart(other) != first
    with matplotlib.rc_context({"lines.linewidth": 9.0, "axes.facecolor": "black",
                                "font.size": 30.0}):  # a user's settings change nothing
        assert render_game_chart(data) == first
    out: list[bytes] = []
    threads = [threading.Thread(target=lambda: out.append(render_game_chart(data)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [first] * 3
    stats_png = render_stats_chart(stats_data())
    assert render_stats_chart(stats_data()) == stats_png


# -- from the game logs -----------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 4, 10])
def test_royale_totals_come_from_the_log(n: int,
                                         royale_logs: dict[int, list[dict[str, Any]]]) -> None:
    events = royale_logs[n]
    data = game_chart_data("royale", events, NAMES[:n], title="Panda Royale - game 1")
    end = events[-1]
    assert end["event"] == "game_end"
    players = events[0]["players"]
    assert data.finals() == [end["totals"][p] for p in players]
    assert all(len(t) == 10 for t in data.totals) and data.step == game.ROUND
    assert [players[s] for s in data.winners()] == end["winners"]
    rounds = [e for e in events if e["event"] == "score" and e["round"] == 3]
    for e in rounds:
        seat = players.index(e["player"])
        assert data.totals[seat][2] - data.totals[seat][1] == e["total"]
    assert len(render_game_chart(data)) < SIZE_LIMIT


def test_posing_totals_come_from_the_log() -> None:
    events = logged("posing", 3, seed=5)
    data = game_chart_data("posing", events, ["a", "b", "c"])
    assert data.step == game.TURN and all(len(t) == 11 for t in data.totals)
    assert data.finals() == [events[-1]["totals"][p] for p in events[0]["players"]]
    assert render_game_chart(data).startswith(PNG_SIGNATURE)


def test_an_unfinished_log_keeps_the_last_totals() -> None:
    events = logged("royale", 3, seed=9)
    last = max(i for i, e in enumerate(events) if e["event"] == "score" and e["round"] == 4)
    cut = events[:last]  # the last player's round-4 score is missing
    totals = running_totals("royale", cut)
    assert sorted(len(t) for t in totals.values()) == [3, 4, 4]
    data = game_chart_data("royale", cut, ["a", "b", "c"])
    assert {len(t) for t in data.totals} == {4}
    with pytest.raises(ValueError):
        running_totals("chess", cut)
    with pytest.raises(ValueError):
        game_chart_data("royale", cut[1:], ["a", "b", "c"])  # no setup


@pytest.mark.parametrize("change", [
    {"names": ()}, {"names": tuple("abcdefghijk")}, {"totals": ((1,), (1, 2), (3, 4))},
    {"totals": ((), (), ())},
])
def test_bad_game_data_is_refused(change: dict[str, Any]) -> None:
    base_data = GameChartData(names=("a", "b", "c"), totals=((1,), (2,), (3,)))
    with pytest.raises(ValueError):
        dataclasses.replace(base_data, **change)


# -- the stats chart --------------------------------------------------------------------------

def test_stats_chart_shapes() -> None:
    full = stats_data()
    assert full.kinds() == ["royale", "posing"]
    png = render_stats_chart(full)
    assert png.startswith(PNG_SIGNATURE) and len(png) < SIZE_LIMIT
    assert decode(png).size == stats.chart_size(full)
    no_columns = stats_data(averages=False)
    assert stats.chart_size(no_columns)[1] < stats.chart_size(full)[1]
    only_royale = dataclasses.replace(full, games=tuple(
        g for g in full.games if g.kind == "royale"))
    assert only_royale.kinds() == ["royale"]
    assert stats.chart_size(only_royale)[1] < stats.chart_size(full)[1]
    assert decode(render_stats_chart(only_royale)).size == stats.chart_size(only_royale)
    empty = stats_data(count=0, averages=False)
    assert decode(render_stats_chart(empty)).size == stats.chart_size(empty)


def test_only_the_last_30_games_are_drawn() -> None:
    many = stats_data(count=40)
    last = dataclasses.replace(many, games=many.games[-30:])
    assert len(many.shown()) == 30
    assert render_stats_chart(many) == render_stats_chart(last)
    changed = dataclasses.replace(many, games=(StatsGame("royale", 999), *many.games[1:]))
    assert render_stats_chart(changed) == render_stats_chart(many)  # game 1 is not shown


def test_column_bars_have_their_colours_and_wins_are_gold() -> None:
    from pictures.palette import COLUMN_COLORS, WINNER

    data = stats_data()
    image = decode(render_stats_chart(data))
    top = stats.columns_top(data) + stats.HEAD_H
    for i, name in enumerate(stats.COLUMN_NAMES):
        row = (0, top + i * stats.BAR_STEP + 6, base.WIDTH, top + (i + 1) * stats.BAR_STEP - 6)
        assert count_near(image, COLUMN_COLORS[name], 6, row) > 200, name
    gold = count_near(image, WINNER, 6)
    lost = dataclasses.replace(data, games=tuple(dataclasses.replace(g, won=False)
                                                 for g in data.games))
    assert count_near(decode(render_stats_chart(lost)), WINNER, 6) < gold / 4  # the key's star


def test_column_averages_from_the_logs() -> None:
    logs = [logged("royale", 3, seed=s) for s in (1, 2)]
    sums = [royale_columns(events, "p1") for events in logs]
    assert [sum(s) for s in sums] == [events[-1]["totals"]["p1"] for events in logs]
    averages = column_averages(sums)
    assert averages is not None and len(averages) == 7
    assert averages[3] == (sums[0][3] + sums[1][3]) / 2
    assert column_averages([]) is None


@pytest.mark.parametrize("change", [{"columns": (1.0, 2.0)},
                                    {"games": (StatsGame("chess", 1),)}])
def test_bad_stats_data_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        stats_data(**change)


def test_drawn_as_png_from_plain_values() -> None:
    image = Image.open(io.BytesIO(render_game_chart(made_up(2))))
    assert image.format == "PNG" and not image.info.get("Software")
