"""Checks that hold in every Panda Royale game, shared by the property tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.rules.royale.dice import CANNON, MERCENARY, MISCHIEF, pity_dice_for
from bot.rules.royale.engine import current_seat, legal_actions
from bot.rules.royale.events import (
    CannonEvent,
    CaptainEvent,
    MischiefDealtEvent,
    PickEvent,
    RoyaleEvent,
)
from bot.rules.royale.scoring import score_dice
from bot.rules.royale.state import Phase, RoyaleState

# docs/game-log.md: the order of events inside a round (mischief_dealt after round 1's scores).
ROUND_ORDER = ["token", "mischief", "cannon", "score", "mischief_dealt", "pity", "captain",
               "trade", "draft_pool", "pick", "draft_return"]


class Tracker:
    """Follows a game's events to know what each hand should hold."""

    def __init__(self, s: RoyaleState) -> None:
        self.n = s.n
        self.seat = {p: i for i, p in enumerate(s.players)}
        self.picks = [0] * s.n
        self.dealt = [0] * s.n
        self.lost = [0] * s.n
        self.fired: dict[str, int] = {}  # Cannon scored -> seat

    def feed(self, events: list[RoyaleEvent]) -> None:
        for e in events:
            if isinstance(e, PickEvent):
                self.picks[self.seat[e.player]] += 1
            elif isinstance(e, MischiefDealtEvent):
                for p, _ in e.dice:
                    self.dealt[self.seat[p]] += 1
            elif isinstance(e, CaptainEvent):
                for p, _ in e.lost:
                    self.lost[self.seat[p]] += 1
            elif isinstance(e, CannonEvent) and e.score:
                self.fired[e.die] = self.seat[e.player]


def check_state(s: RoyaleState, t: Tracker) -> None:
    ds = s.dice
    specs = ds.specs
    # every die in exactly one place
    places = [d for h in s.hands for d in h] + s.bag + s.pool + s.aside
    counts = Counter(places)
    assert set(counts) == set(specs), "a die is missing or unknown"
    assert max(counts.values()) == 1, f"a die in two places: {counts.most_common(1)}"
    # the starting yellow d6 never leave the hands; Mischief dice never enter the bag
    held = {d for h in s.hands for d in h}
    assert set(ds.yellow) <= held
    assert not any(specs[d].kind == "mischief" for d in s.bag + s.pool)
    assert not any(specs[d].kind == "pity" for d in s.bag + s.pool)
    # hand sizes: trades are one for one, so each hand holds its yellow d6 (or what replaced
    # it), one die per pick, its Mischief die, minus lost Mercenaries and spent Cannons
    gone = [0] * s.n
    for die, seat in t.fired.items():
        if die not in held:
            gone[seat] += 1
    for seat, hand in enumerate(s.hands):
        pity = sum(1 for d in hand if specs[d].kind == "pity")
        assert pity <= 1, "a player holds two pity dice"
        size = 1 + t.picks[seat] + t.dealt[seat] - t.lost[seat] - gone[seat]
        assert len(hand) - pity == size
    # bag dice in hands: one per pick, less lost Mercenaries and spent Cannons
    bag_dice = set(ds.bag)
    in_hands = sum(1 for d in held if d in bag_dice)
    assert in_hands == sum(t.picks) - sum(t.lost) - sum(gone)
    if s.phase is Phase.TRADE:
        # at the start of the trade pass of round r every player has drafted r - 1 dice
        for seat, hand in enumerate(s.hands):
            core = len(hand) - sum(1 for d in hand if specs[d].kind == "pity") - t.dealt[seat]
            if CANNON in s.expansions or MERCENARY in s.expansions:
                assert core <= s.round
            else:
                assert core == s.round
    # pity dice: all in hands (one each) once round 1 is scored
    if s.sheet and s.phase is not Phase.OVER:
        pity_held = [d for d in held if specs[d].kind == "pity"]
        assert len(pity_held) == pity_dice_for(s.n)
    assert (s.pool == []) or s.phase is Phase.DRAFT
    assert len(s.pool) <= s.n + 1
    # phases
    if s.phase is Phase.OVER:
        assert current_seat(s) is None and legal_actions(s) == []
        assert len(s.sheet) == 10
    else:
        seat = current_seat(s)
        assert seat is not None and seat == s.queue[0][0]
        acts = legal_actions(s)
        assert acts and all(a.seat == seat for a in acts)
        assert len(s.sheet) == s.round - (0 if s.phase in (Phase.TRADE, Phase.DRAFT) else 1)
    if s.phase is Phase.MISCHIEF:
        assert MISCHIEF in s.expansions and s.round >= 2
    if s.phase is Phase.CANNON:
        assert CANNON in s.expansions


def check_log(objs: list[dict[str, Any]], n: int, expansions: tuple[str, ...]) -> None:
    """Event order and counts of a whole game's log objects (``to_log()`` of each event)."""
    assert objs[0]["event"] == "setup"
    assert objs[-1]["event"] == "game_end"
    assert sum(1 for o in objs if o["event"] in ("setup", "game_end")) == 2
    body = objs[1:-1]
    rounds = [o["round"] for o in body]
    assert rounds == sorted(rounds), "rounds out of order"
    assert sorted(set(rounds)) == list(range(1, 11))
    for r in range(1, 11):
        names = [o["event"] for o in body if o["round"] == r]
        idx = [ROUND_ORDER.index(name) for name in names]
        assert idx == sorted(idx), f"round {r} out of order: {names}"
        c = Counter(names)
        last = r == 10
        assert c["token"] == 1
        assert c["score"] == n
        assert c["pity"] == (0 if last else 1)
        assert c["draft_pool"] == (0 if last else 1)
        assert c["draft_return"] == (0 if last else 1)
        assert c["captain"] == (1 if MERCENARY in expansions and not last else 0)
        assert c["mischief_dealt"] == (1 if MISCHIEF in expansions and r == 1 else 0)
        if r == 1 or MISCHIEF not in expansions:
            assert c["mischief"] == 0
        if CANNON not in expansions:
            assert c["cannon"] == 0
        if last:
            assert c["trade"] == c["pick"] == 0
        else:
            (pool,) = [o for o in body if o["round"] == r and o["event"] == "draft_pool"]
            assert c["pick"] == min(n, len(pool["dice"]))
        scores = [o for o in body if o["round"] == r and o["event"] == "score"]
        cannons = {o["die"] for o in body if o["round"] == r and o["event"] == "cannon"}
        held_cannons = {d["id"] for o in scores for d in o["dice"] if d["kind"] == "cannon"}
        assert cannons == held_cannons  # one decision per Cannon rolled


def check_scores(events: list[RoyaleEvent]) -> None:
    """Every score event's columns recomputed with score_dice from its dice."""
    from bot.rules.royale.events import ScoreEvent

    fired: dict[int, set[str]] = {}
    for e in events:
        if isinstance(e, CannonEvent) and e.score:
            fired.setdefault(e.round, set()).add(e.die)
    for e in events:
        if isinstance(e, ScoreEvent):
            assert list(e.columns) == score_dice(e.dice, e.round, fired.get(e.round, set()))
            obj = e.to_log()
            assert obj["total"] == sum(obj["columns"].values())
            for spec, value in e.dice:
                assert value in spec.faces
