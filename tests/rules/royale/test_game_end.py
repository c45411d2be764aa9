"""The end of the game: totals, shared wins, the game_end event."""

from __future__ import annotations

import pytest

from bot.rules.royale.engine import ENGINE, winners_of
from bot.rules.royale.events import GameEndEvent, ScoreEvent
from bot.rules.royale.state import Phase

from .helpers import ALL_OPTIONS, names, of, play, position, start


def _sheet(per_round_totals):
    """Sheet rows putting each seat's round total in its yellow column."""
    return [[[t, 0, 0, 0, 0, 0, 0] for t in row] for row in per_round_totals]


@pytest.mark.parametrize(("before", "yellow", "totals", "winners"), [
    ([50, 40, 50], [3, 3, 3], [53, 43, 53], ["p0", "p2"]),
    ([50, 40, 50], [3, 2, 4], [53, 42, 54], ["p2"]),
    ([10, 20, 30], [6, 5, 1], [16, 25, 31], ["p2"]),
    ([-5, -5, -5], [2, 2, 2], [-3, -3, -3], ["p0", "p1", "p2"]),
])
def test_totals_and_shared_wins(before, yellow, totals, winners):
    rounds = [[0, 0, 0] for _ in range(9)]
    rounds[3] = before
    s = position([["yellow6-1"], ["yellow6-2"], ["yellow6-3"]], round_no=10, token=1,
                 sheet=_sheet(rounds))
    ev = start(s, {f"yellow6-{i + 1}": y for i, y in enumerate(yellow)})
    end = ev[-1]
    assert isinstance(end, GameEndEvent)
    assert dict(end.totals) == dict(zip(names(3), totals, strict=True))
    assert list(end.winners) == winners
    assert s.phase is Phase.OVER
    assert s.totals() == totals
    assert ENGINE.totals(s) == totals
    assert ENGINE.winners(s) == [names(3).index(w) for w in winners]
    assert len(s.sheet) == 10


@pytest.mark.parametrize(("totals", "winners"), [
    ([1, 2, 3], [2]), ([3, 3, 1], [0, 1]), ([0, 0], [0, 1]), ([-4, -9, -4, -5], [0, 2]),
])
def test_winners_of(totals, winners):
    assert winners_of(totals) == winners


@pytest.mark.parametrize("seed", range(20))
def test_total_is_the_sum_of_ten_rounds(seed):
    n = 2 + seed % 9
    s, ev, _ = play(n, seed, ALL_OPTIONS if seed % 2 else ())
    scores = of(ev, ScoreEvent)
    assert len(scores) == 10 * n
    assert [sc.round for sc in scores] == [r for r in range(1, 11) for _ in range(n)]
    per_player = {p: 0 for p in names(n)}
    for sc in scores:
        per_player[sc.player] += sc.total
        assert sc.total == sum(sc.columns)
        assert s.sheet[sc.round - 1][names(n).index(sc.player)] == list(sc.columns)
    end = ev[-1]
    assert isinstance(end, GameEndEvent) and of(ev, GameEndEvent) == [end]
    assert dict(end.totals) == per_player
    assert s.totals() == list(per_player.values())
    top = max(per_player.values())
    assert list(end.winners) == [p for p, t in per_player.items() if t == top]
    assert ENGINE.winners(s) == [names(n).index(w) for w in end.winners]


def test_no_winners_before_the_end():
    s, _ = ENGINE.new_game(names(3), 4, {"expansions": ["cannon"]})
    assert s.expansions == ("cannon",)
    assert ENGINE.winners(s) == []
    assert ENGINE.current_seat(s) is not None
