"""The components table of docs/rules.md, the bag at setup and the pity dice by player count."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules.errors import InvalidSetup
from bot.rules.royale.dice import dice_for, pity_dice_for
from bot.rules.royale.engine import new_game
from bot.rules.royale.events import SetupEvent

from .helpers import ALL_OPTIONS, names

PLAIN = lambda n: tuple(range(1, n + 1))  # noqa: E731

# docs/rules.md "The dice", plus the Mayhem dice: (id prefix, color, sides, kind, count, faces).
TABLE = [
    ("yellow6", "yellow", 6, "standard", 10, PLAIN(6)),
    ("yellow8", "yellow", 8, "standard", 7, PLAIN(8)),
    ("purple8", "purple", 8, "standard", 7, PLAIN(8)),
    ("purple12", "purple", 12, "standard", 7, PLAIN(12)),
    ("blue6", "blue", 6, "standard", 10, PLAIN(6)),
    ("blue8", "blue", 8, "standard", 9, PLAIN(8)),
    ("blue12", "blue", 12, "standard", 9, PLAIN(12)),
    ("glitter6", "blue", 6, "glitter", 7, PLAIN(6)),
    ("red6", "red", 6, "standard", 10, (-1, -2, -3, 4, 5, 6)),
    ("red8", "red", 8, "standard", 9, (-1, -2, -3, -4, 5, 6, 7, 8)),
    ("green20", "green", 20, "standard", 10, PLAIN(20)),
    ("clear6", "clear", 6, "standard", 7, PLAIN(6)),
    ("pink12", "pink", 12, "pity", 4, PLAIN(12)),
    ("mischief12", "clear", 12, "mischief", 10, PLAIN(12)),
    ("cannon8", "pink", 8, "cannon", 5, PLAIN(8)),
    ("mercenary6", "green", 6, "mercenary", 9, PLAIN(6)),
]
BAG_PREFIXES = {row[0] for row in TABLE} - {"yellow6", "pink12", "mischief12", "cannon8",
                                            "mercenary6"}


def _prefix(die_id: str) -> str:
    return die_id.rsplit("-", 1)[0]


@pytest.mark.parametrize(("prefix", "color", "sides", "kind", "count", "faces"), TABLE,
                         ids=[row[0] for row in TABLE])
def test_components_row(prefix, color, sides, kind, count, faces):
    # The whole box: 10 players (all 10 yellow d6, all 4 pity dice) and every option.
    specs = dice_for(10, ALL_OPTIONS).specs
    dice = [sp for sp in specs.values() if _prefix(sp.id) == prefix]
    assert len(dice) == count
    assert sorted(sp.id for sp in dice) == sorted(f"{prefix}-{i}" for i in range(1, count + 1))
    for sp in dice:
        assert (sp.color, sp.sides, sp.kind) == (color, sides, kind)
        assert sp.faces == faces
        assert len(sp.faces) == sp.sides


def test_red_faces_low_half_negative():
    specs = dice_for(2, ()).specs
    assert specs["red6-1"].faces == (-1, -2, -3, 4, 5, 6)
    assert specs["red8-1"].faces == (-1, -2, -3, -4, 5, 6, 7, 8)
    # The rulebook's example (6 + 5 - 4 - 1) needs a -4 and a -1: only the d8 has -4.
    assert -4 in specs["red8-1"].faces and -4 not in specs["red6-1"].faces


def test_base_bag_holds_92_dice():
    ds = dice_for(4, ())
    assert len(ds.bag) == 92
    assert len(set(ds.bag)) == 92
    counts = Counter(_prefix(d) for d in ds.bag)
    expected = {row[0]: row[4] for row in TABLE if row[0] in BAG_PREFIXES}
    assert counts == expected


@pytest.mark.parametrize(("options", "size", "cannons", "mercenaries"), [
    ((), 92, 0, 0),
    (("cannon",), 97, 5, 0),
    (("mercenary",), 101, 0, 9),
    (("mischief",), 92, 0, 0),
    (("cannon", "mercenary"), 106, 5, 9),
    (ALL_OPTIONS, 106, 5, 9),
])
def test_bag_with_options(options, size, cannons, mercenaries):
    ds = dice_for(5, options)
    counts = Counter(ds.specs[d].kind for d in ds.bag)
    assert len(ds.bag) == size
    assert counts["cannon"] == cannons
    assert counts["mercenary"] == mercenaries
    assert counts["mischief"] == 0  # never in the bag
    assert counts["pity"] == 0
    assert not any(d.startswith("yellow6") for d in ds.bag)


@pytest.mark.parametrize("options", [(), ("mischief",), ALL_OPTIONS])
def test_mischief_dice_never_in_the_bag(options):
    s, ev = new_game(names(3), 5, options)
    setup = ev[0]
    assert isinstance(setup, SetupEvent)
    assert not any(d.kind == "mischief" for d in setup.bag)
    expected = 10 if "mischief" in options else 0
    assert len(s.dice.mischief) == expected
    assert not any(s.dice.specs[d].kind == "mischief" for d in s.bag)


@pytest.mark.parametrize(("players", "pity"), [
    (2, 1), (3, 1), (4, 2), (5, 2), (6, 2), (7, 3), (8, 3), (9, 3), (10, 4),
])
def test_pity_dice_by_player_count(players, pity):
    assert pity_dice_for(players) == pity
    ds = dice_for(players, ())
    assert len(ds.pity) == pity
    assert all(ds.specs[d].kind == "pity" and ds.specs[d].sides == 12 for d in ds.pity)
    # one yellow d6 per player, the rest of the box's yellow d6 and pink dice stay out
    assert len(ds.yellow) == players
    assert sum(1 for d in ds.specs if d.startswith("yellow6")) == players
    assert sum(1 for d in ds.specs if d.startswith("pink12")) == pity


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("options", [(), ALL_OPTIONS])
def test_setup_event(players, options):
    s, ev = new_game(names(players), 1000 + players, options)
    setup = ev[0]
    assert isinstance(setup, SetupEvent)
    assert setup.players == tuple(names(players))
    # each player starts with exactly one yellow d6
    for hand in setup.hands:
        assert len(hand) == 1
        assert (hand[0].color, hand[0].sides, hand[0].kind) == ("yellow", 6, "standard")
    assert len({h[0].id for h in setup.hands}) == players
    assert len(setup.bag) == 92 + (14 if options else 0)
    # setup accounts for every die of the game exactly once: hands + bag + aside
    everything = [h[0].id for h in setup.hands] + [d.id for d in setup.bag]
    everything += [d for d in s.dice.specs if d in s.dice.pity or d in s.dice.mischief]
    assert sorted(everything) == sorted(s.dice.specs)


def test_take_and_give_flags():
    specs = dice_for(10, ALL_OPTIONS).specs
    for sp in specs.values():
        assert sp.takeable == (sp.kind not in ("pity", "cannon"))
        assert sp.giveable == (sp.color == "clear" and sp.kind == "standard")
    assert specs["clear6-1"].giveable
    assert not specs["mischief12-1"].giveable and specs["mischief12-1"].takeable


@pytest.mark.parametrize("players", [0, 1, 11, 12])
def test_player_count_limits(players):
    with pytest.raises(InvalidSetup, match="2 to 10 players"):
        new_game(names(players), 1)


@pytest.mark.parametrize(("players", "options"), [
    (["a", "a"], ()),
    (["a", ""], ()),
    (["a", "b"], ("mayhem",)),
])
def test_invalid_setup(players, options):
    with pytest.raises(InvalidSetup):
        new_game(players, 1, options)


def test_options_are_normalised():
    s, _ = new_game(names(2), 1, ["Mercenary", "mischief", "mischief"])
    assert s.expansions == ("mischief", "mercenary")
