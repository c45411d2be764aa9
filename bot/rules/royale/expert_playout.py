"""The expert player's play-outs (:mod:`bot.rules.royale.expert`), on the engine itself.

A play-out (:func:`play_out`) plays every seat with the heuristic player through
:func:`~bot.rules.royale.decisions.apply_in_place` (no events). The engine rolls the dice (they
decide the token, the pity dice, the ties, the draft pools), but each round counts the
*expected* points of the hands it rolls, and their variance (:mod:`bot.rules.royale.round_odds`):
the decision's effect, without the dice's luck in the points. A Cannon fired counts its real
points. The last round is not played: once its hands are drafted, their expected points are all
there is.

A decision made before its round is scored (a mischief target, a Cannon fired or saved) counts
that round's points as the engine tallies them: its dice are already rolled, so the decision's
effect on them is the point. A decision of the last round ends the play-out when the game does.

Mischief: a re-roll is aimed at a die that shows a high value, so it costs its owner in
expectation. Every mischief of a play-out counts that cost: the owner's points with the die at
its mean less its points as it shows, by the engine's scoring (:func:`reroll_slope`), in the
decision's own round too (not as drawn). So a hand that makes a juicy target (many red dice, a
high purple d12) is worth less, and a Mischief d12 (more re-rolls of one's own) more. With
Mischief the last round is played up to its Cannons, for its mischief.
"""

from __future__ import annotations

from typing import Final

from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Mischief, Pick, RoyaleAction
from bot.rules.royale.ai import MEANS, HeuristicPlayer, cannon_value
from bot.rules.royale.decisions import apply_in_place
from bot.rules.royale.dice import BOX, CANNON_DICE, CANNON_MULTIPLIER, MISCHIEF, ROUNDS
from bot.rules.royale.round_odds import RoundParts, moments, round_parts
from bot.rules.royale.scoring import score_hand
from bot.rules.royale.state import Phase, RoyaleState

_DRAFT: Final = Phase.DRAFT
_OVER: Final = Phase.OVER
_MISCHIEF: Final = Phase.MISCHIEF
_BEFORE_SCORING: Final = frozenset((Phase.MISCHIEF, Phase.CANNON))
ROUND_PARTS: Final[dict[int, dict[str, RoundParts]]] = {
    r: {d: round_parts(spec, r) for d, spec in BOX.items()} for r in range(1, ROUNDS + 1)
}
"""ROUND_PARTS[round][die id]: what the die adds to its hand's points that round, in
expectation and variance (computed once, here)."""


def reroll_slope(s: RoyaleState, die: str) -> tuple[int, int]:
    """The owner of ``die`` and what one point more on it adds to their points this round, by
    the engine's scoring (every column is linear in one die's value, the hand fixed). A Cannon
    counts when it is fired (0 here).
    """
    owner = s.owner_of(die)
    assert owner is not None
    if die in CANNON_DICE:
        return owner, 0
    hand = s.hands[owner]
    values = s.values
    specs = s.dice.specs
    shown = values[die]
    now = sum(score_hand(hand, values, specs, s.round))
    values[die] = shown + 1
    try:
        return owner, sum(score_hand(hand, values, specs, s.round)) - now
    finally:
        values[die] = shown


def play_out(state: RoyaleState, action: RoyaleAction, seed: int,
             policy: HeuristicPlayer) -> tuple[list[float], list[float]]:
    """Make ``action`` on a copy of ``state`` (its generator seeded with ``seed``), then let
    ``policy`` play every seat to the end of the game.

    Returns each seat's expected points from the rounds after ``state.round`` (and the points
    of ``state.round`` itself when it is not scored yet), and their variance. ``state`` is
    untouched.
    """
    s = state.clone(Rng(seed))
    policy.rng = Rng(seed + 1)
    n = s.n
    gained = [0.0] * n
    spread = [0.0] * n
    a = action
    first = s.round
    unscored = len(s.sheet) if s.phase in _BEFORE_SCORING else -1  # the row still to come
    mischief = MISCHIEF in s.expansions
    last = False  # the last round's hands are counted: only its mischief is still to come
    drawn: tuple[int, str, int] | None = None  # a re-roll of the unscored round, to correct
    while True:
        if s.phase is _DRAFT and (len(s.queue) == 1 or len(s.pool) == 1):
            # The round's last pick: the hands the next round rolls are known.
            assert isinstance(a, Pick)
            nxt = s.round + 1
            table = ROUND_PARTS[nxt]
            for seat, hand in enumerate(s.hands):
                dice = [*hand, a.die] if seat == a.seat else hand
                m, v = moments([table[d] for d in dice])
                gained[seat] += m
                spread[seat] += v
                if nxt == ROUNDS and not CANNON_DICE.isdisjoint(dice):
                    # a Cannon is always fired in the last round
                    gained[seat] += sum(d in CANNON_DICE for d in dice) * cannon_value(1)
            if nxt == ROUNDS:
                if not mischief:
                    return gained, spread
                last = True
        elif isinstance(a, Mischief):
            owner, slope = reroll_slope(s, a.die)
            if unscored < 0 or s.round != first:
                gained[owner] -= slope * (s.values[a.die] - MEANS[a.die])
            else:  # the engine's tally counts the re-roll as drawn: count it at its mean
                drawn = (owner, a.die, slope)
        elif isinstance(a, Cannon) and a.score and (unscored < 0 or s.round != first):
            gained[a.seat] += s.values[a.die] * CANNON_MULTIPLIER
        apply_in_place(s, a, False)
        if drawn is not None:
            owner, die, slope = drawn
            gained[owner] += slope * (MEANS[die] - s.values[die])
            drawn = None
        if 0 <= unscored < len(s.sheet):  # the decision's own round, as the engine scored it
            for seat, cols in enumerate(s.sheet[unscored]):
                gained[seat] += sum(cols)
            unscored = -1
            if s.phase is _OVER:
                return gained, spread
        if last and s.phase is not _MISCHIEF:
            return gained, spread
        a = policy.choose(s)
