"""The pictures' text caches are bounded in bytes and keep one game's texts (titles, names)
apart from the tiles every picture reuses (pictures/tilecache.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.rules.royale.state import RoyaleState
from pictures import (
    drawing,
    fonts,
    render_round_card,
    render_score_card,
    render_score_sheet,
    round_card_data,
    sheet_data,
    text,
)
from pictures.posing_card import card_data
from pictures.tilecache import (
    CACHES,
    TEXT_BUDGET,
    TileCache,
    image_bytes,
    text_caches,
    total_budget,
)

from .games import posing_game, royale_game

NAMES = ("Ada", "Bartholomew Longname", "Chloé 🐼", "Dev", "Eun-ji", "ミク", "Олег", "مريم")


@pytest.fixture
def empty_caches() -> Iterator[None]:
    for cache in CACHES:
        cache.clear()
    drawing.clear_caches()  # a die kept whole hides the drawing of its value
    yield
    for cache in CACHES:
        cache.clear()
    drawing.clear_caches()


def game_names(rng: random.Random, n: int) -> list[str]:
    return [f"{rng.choice(NAMES)} {rng.randrange(10_000)}" for _ in range(n)]


def draw_game(game_id: int, state: RoyaleState, names: list[str]) -> list[bytes]:
    """The pictures of one game: its round card and (every third game) its score sheet."""
    title = f"Panda Royale - game {game_id}"
    out = [render_round_card(round_card_data(names, state, title=title))]
    if game_id % 3 == 0:
        out.append(render_score_sheet(sheet_data(names, state, title=title)))
    return out


def test_the_budget_is_stated_and_shared_by_every_text_cache() -> None:
    assert total_budget() == TEXT_BUDGET == 8 * 1024 * 1024
    names = {f.name for f in text_caches()}
    assert len(names) == 4 and any("one game" in n for n in names)


def test_the_budget_holds_after_many_games(empty_caches: None) -> None:
    rng = random.Random(4)
    states = {n: royale_game(n, seed=n) for n in (2, 4)}
    for game_id in range(1, 91):
        n = 2 if game_id % 2 else 4
        draw_game(game_id, states[n], game_names(rng, n))
    for figures in text_caches():
        assert figures.bytes <= figures.budget, figures
    one_off = fonts._ONE_OFF.figures()
    # the titles and names of 90 games did not all fit: the oldest games' were let go
    assert one_off.misses > one_off.entries and one_off.bytes > one_off.budget * 0.8
    held = sum(f.bytes for f in text_caches())
    assert held <= TEXT_BUDGET
    # what a cache says it holds is what its tiles are
    assert fonts._ONE_OFF.bytes == sum(image_bytes(t.image) for t, _ in
                                       fonts._ONE_OFF._items.values())


def test_one_game_texts_never_push_out_the_reused_tiles(empty_caches: None) -> None:
    rng = random.Random(5)
    state = royale_game(4, seed=3)
    draw_game(3, state, game_names(rng, 4))
    reused_tiles = set(fonts._REUSED._items)
    reused_masks = set(text._MASKS._items)
    assert len(reused_tiles) > 20 and len(reused_masks) > 20  # digits, headings, die labels
    assert any(key[0] == "Final scores" for key in reused_tiles)
    assert any(key[0].isdigit() for key in reused_masks)
    for game_id in range(4, 100):  # every one a new title and new names (a third a sheet)
        draw_game(game_id, state, game_names(rng, 4))
    assert set(fonts._REUSED._items) == reused_tiles  # the same pictures: nothing new to keep
    assert set(text._MASKS._items) == reused_masks
    assert fonts._ONE_OFF.misses > 300 and text._ONE_OFF_MASKS.misses > 30


def test_pictures_are_the_same_cold_warm_and_uncached(empty_caches: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(6)
    state = royale_game(4, seed=9)
    names = game_names(rng, 4)
    posing = posing_game(3, seed=2)
    posing_names = game_names(rng, 3)

    def pictures() -> list[bytes]:
        return [*draw_game(42, state, names), *draw_game(43, state, names),
                render_score_card(card_data(posing_names, posing, title="Posing Pandas · game 7"))]

    cold = pictures()
    warm = pictures()
    for game_id in range(100, 130):  # other games in between
        draw_game(game_id, state, game_names(rng, 4))
    after_others = pictures()
    for cache in CACHES:  # nothing kept at all
        monkeypatch.setattr(cache, "largest", -1)
        cache.clear()
    drawing.clear_caches()
    uncached = pictures()
    assert all(len(c) == 0 for c in CACHES)
    assert cold == warm == after_others == uncached


def test_a_tile_too_large_for_its_cache_is_drawn_but_not_kept() -> None:
    cache: TileCache[str, Image.Image] = TileCache("test", 8_000, image_bytes)
    try:
        small = cache.get("small", lambda: Image.new("L", (10, 10)))
        big = cache.get("big", lambda: Image.new("RGBA", (40, 40)))  # 6,400 bytes > 1,000
        assert small.size == (10, 10) and big.size == (40, 40)
        assert "small" in cache._items and "big" not in cache._items
        for i in range(20):  # 900 bytes each: the least recently used go
            cache.get(f"t{i}", lambda: Image.new("L", (30, 30)))
            cache.get("small", lambda: Image.new("L", (10, 10)))  # used again: stays
        assert "small" in cache._items and "t0" not in cache._items
        assert len(cache) == 9 and cache.bytes == 100 + 8 * 900 <= 8_000
    finally:
        CACHES.remove(cache)
