"""Building Panda Royale positions and playing seeded games, for the tests of this folder.

A *position* is a real waiting state of the engine: the last draft pick of round ``r - 1`` is
pending, the hands are exactly the ones asked for (the picking seat's last die waits in the
pool), and every other die of the game is in the bag (bag dice) or aside (yellow d6, pity and
Mischief dice nobody holds). :func:`start` makes that pick, so the engine runs round ``r`` by
its own code path, optionally with a :class:`ScriptedRng` that decides every roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.rules.rng import Rng
from bot.rules.royale.actions import Pass, Pick, RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer, RandomPlayer
from bot.rules.royale.dice import CAPTAIN_SIDES, EXPANSIONS, DieSpec, dice_for
from bot.rules.royale.engine import apply_in_place, current_seat, new_game
from bot.rules.royale.events import DraftReturnEvent, PickEvent, RoyaleEvent
from bot.rules.royale.state import Phase, RoyaleState

ALL_OPTIONS: tuple[str, ...] = EXPANSIONS
# Every die a game can use (10 players, every option): ids are the same in every game.
BOX: dict[str, DieSpec] = dict(dice_for(10, ALL_OPTIONS).specs)
CAPTAIN = "captain"  # pseudo die id for scripting the Captain roll


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def rolled(*pairs: tuple[str, int]) -> list[tuple[DieSpec, int]]:
    """(die id, value shown) pairs as the (spec, value) pairs score_dice takes."""
    out = []
    for die, value in pairs:
        spec = BOX[die]
        assert value in spec.faces, f"{die} has no face {value}"
        out.append((spec, value))
    return out


class ScriptedRng:
    """A stand-in for the game's Rng whose rolls follow a script of (die id, value) entries.

    Each ``roll(sides)`` takes the next entry and checks that the die rolled has as many sides
    as the scripted one (so a script in the wrong order fails loudly). When the script is used
    up, and for every ``below`` (draft draws), a real seeded Rng takes over.
    """

    def __init__(self, script: Iterable[tuple[str, int]], seed: int = 0) -> None:
        self.script: list[tuple[int, int]] = []
        for die, value in script:
            if die == CAPTAIN:
                assert 1 <= value <= CAPTAIN_SIDES
                self.script.append((CAPTAIN_SIDES, value - 1))
            else:
                faces = BOX[die].faces
                assert value in faces, f"{die} has no face {value}"
                self.script.append((len(faces), faces.index(value)))
        self.fallback = Rng(seed)

    def roll(self, sides: int) -> int:
        if self.script:
            want, index = self.script.pop(0)
            assert sides == want, f"script expected a d{want} roll, the engine rolled a d{sides}"
            return index
        return self.fallback.roll(sides)

    def random(self) -> float:
        """The draw that makes ``floor(random() * sides)`` the next scripted face (the engine
        rolls a hand this way)."""
        if self.script:
            sides, index = self.script.pop(0)
            return (index + 0.5) / sides
        return self.fallback.random()

    def below(self, n: int) -> int:
        return self.fallback.below(n)

    def copy(self) -> ScriptedRng:
        c = ScriptedRng(())
        c.script = list(self.script)
        c.fallback = self.fallback.copy()
        return c

    def to_json(self) -> str:
        """For comparing states (``to_json`` before/after); not readable by state_from_json."""
        return f"scripted:{self.script}:{self.fallback.to_json()}"

    @property
    def exhausted(self) -> bool:
        return not self.script


def position(
    hands: Sequence[Sequence[str]],
    options: Sequence[str] = (),
    *,
    round_no: int,
    token: int = 0,
    seed: int = 0,
    sheet: Sequence[Sequence[Sequence[int]]] | None = None,
) -> RoyaleState:
    """The state just before round ``round_no`` is rolled, with exactly these hands.

    ``sheet`` defaults to zero rows for the rounds already played.
    """
    n = len(hands)
    s, _ = new_game(names(n), seed, options)
    ds = s.dice
    held = [d for h in hands for d in h]
    assert len(set(held)) == len(held), "a die in two hands"
    unknown = [d for d in held if d not in ds.specs]
    assert not unknown, f"dice not in this game: {unknown}"
    seat = next(i for i, h in enumerate(hands) if h)
    s.hands = [list(h) for h in hands]
    last = s.hands[seat].pop()
    s.pool = [last]
    s.bag = [d for d in ds.bag if d not in held]
    s.aside = [d for d in ds.specs if d not in held and d not in ds.bag]
    s.round = round_no - 1
    s.phase = Phase.DRAFT
    s.queue = [(seat, "")]
    s.token = token
    s.values = {}
    s.yellow = [0] * n
    s.rerolls = 0
    s.given = []
    s.scored_cannons = []
    if sheet is None:
        sheet = [[[0] * 7 for _ in range(n)] for _ in range(round_no - 1)]
    s.sheet = [[list(c) for c in rnd] for rnd in sheet]
    return s


def first_roll(s: RoyaleState, values: Mapping[str, int]) -> list[tuple[str, int]]:
    """The script of the round's first roll: every held die, seat by seat, in hand order.

    Works on a :func:`position` (the pending pick's die is rolled last in its seat's hand).
    """
    order: list[str] = []
    for seat, hand in enumerate(s.hands):
        order += hand
        if s.phase is Phase.DRAFT and s.queue and s.queue[0][0] == seat:
            order += s.pool
    missing = [d for d in order if d not in values]
    extra = [d for d in values if d not in order]
    assert not missing and not extra, f"missing {missing}, not held {extra}"
    return [(d, values[d]) for d in order]


def start(
    s: RoyaleState,
    values: Mapping[str, int] | None = None,
    then: Iterable[tuple[str, int]] = (),
) -> list[RoyaleEvent]:
    """Make the pending pick of a :func:`position`, so round ``s.round + 1`` is played.

    ``values`` (every held die -> value) and ``then`` (later rolls: yellow re-rolls, mischief,
    the Captain) script the rolls; without ``values`` the game's own generator rolls.
    Returns the events of the new round.
    """
    if values is not None:
        s.rng = ScriptedRng([*first_roll(s, values), *then], s.seed)  # type: ignore[assignment]
    seat = s.queue[0][0]
    ev = apply_in_place(s, Pick(seat, s.pool[0]))
    assert isinstance(ev[0], PickEvent) and isinstance(ev[1], DraftReturnEvent)
    return ev[2:]


def pass_trades(s: RoyaleState) -> list[RoyaleEvent]:
    """Every remaining trader passes."""
    ev: list[RoyaleEvent] = []
    while s.phase is Phase.TRADE:
        seat = current_seat(s)
        assert seat is not None
        ev += apply_in_place(s, Pass(seat))
    return ev


def of(events: Iterable[Any], *types: type) -> list[Any]:
    return [e for e in events if isinstance(e, types)]


def logs(events: Iterable[RoyaleEvent]) -> list[dict[str, Any]]:
    return [e.to_log() for e in events]


def players_for(n: int, seed: int, heuristic: Sequence[int] = ()) -> list[Any]:
    """Seeded computer players: heuristic at the given seats, random elsewhere."""
    return [HeuristicPlayer(seed * 100 + i) if i in heuristic else RandomPlayer(seed * 100 + i)
            for i in range(n)]


def play(
    n: int,
    seed: int,
    options: Sequence[str] = (),
    *,
    player_seed: int | None = None,
    heuristic: Sequence[int] = (),
) -> tuple[RoyaleState, list[RoyaleEvent], list[RoyaleAction]]:
    """A whole game by seeded computer players: final state, every event, every action."""
    s, ev = new_game(names(n), seed, options)
    bots = players_for(n, seed if player_seed is None else player_seed, heuristic)
    actions: list[RoyaleAction] = []
    while (seat := current_seat(s)) is not None:
        a = bots[seat].choose(s)
        actions.append(a)
        ev += apply_in_place(s, a)
    return s, ev, actions


def token_values(s: RoyaleState, token: int) -> dict[str, int]:
    """Values for every held die of a :func:`position`: the ``token`` seat's yellow dice show
    their top face, every other die its first face (yellow 1, red -1, ...), so ``token`` alone
    has the highest yellow total (it must hold a yellow die)."""
    out: dict[str, int] = {}
    hands = [list(h) for h in s.hands]
    if s.phase is Phase.DRAFT and s.queue:
        hands[s.queue[0][0]] += s.pool
    for seat, hand in enumerate(hands):
        for d in hand:
            spec = s.dice.specs[d]
            top = seat == token and spec.color == "yellow"
            out[d] = spec.faces[-1] if top else spec.faces[0]
    assert any(s.dice.specs[d].color == "yellow" for d in hands[token])
    return out


def settle(s: RoyaleState, *, score_cannons: bool = False) -> list[RoyaleEvent]:
    """Resolve pending mischief (first legal target) and Cannon decisions (all alike)."""
    from bot.rules.royale.actions import Cannon
    from bot.rules.royale.engine import legal_actions

    ev: list[RoyaleEvent] = []
    while s.phase in (Phase.MISCHIEF, Phase.CANNON):
        seat = current_seat(s)
        assert seat is not None
        if s.phase is Phase.CANNON:
            ev += apply_in_place(s, Cannon(seat, s.queue[0][1], score_cannons))
        else:
            ev += apply_in_place(s, legal_actions(s)[0])
    return ev
