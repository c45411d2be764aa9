"""The Panda Royale judge of a game review (:mod:`bot.rules.review`): the Hard player's
look-ahead (:mod:`bot.rules.royale.expert`) asked about one decision.

The options weighed are the expert's own candidates, both choices of a Cannon, the heuristic's
likeliest mischief targets, and always the option the player chose, each worth the player's
expected final total over its play-outs (:func:`bot.rules.royale.expert_search.outcome`), in
a race (:func:`bot.rules.review.race`).
"""

from __future__ import annotations

from typing import Final

from bot.rules.review import Option, Reviewer, Verdict, race
from bot.rules.rng import Rng
from bot.rules.royale.actions import Cannon, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.dice import ROUNDS
from bot.rules.royale.expert import TRADE_CANDIDATES
from bot.rules.royale.expert_search import die_kind, outcome, pick_candidates, trade_candidates
from bot.rules.royale.state import Phase, RoyaleState

MARGIN: Final = 2.0
"""A decision within this many expected points of the best one counts as accurate."""
MISCHIEF_CANDIDATES: Final = 4
"""Mischief targets weighed: the heuristic's likeliest ones (and the player's own)."""
JUDGE_FUTURES: Final = 16
"""Futures an option is judged in at most (the Hard player plays with twice as many; a review
judges every decision of a seat, within a few seconds for a 10-player game)."""
JUDGE_WORK: Final = 480
"""At most this many option play-out rounds per decision (the early decisions of a game get
fewer futures)."""
_SEED_RANGE: Final = 1 << 62


def _same(state: RoyaleState, a: RoyaleAction, b: RoyaleAction) -> bool:
    """Whether two options are the same choice (dice of one kind are alike)."""
    specs = state.dice.specs
    if isinstance(a, Pick) and isinstance(b, Pick):
        return die_kind(specs[a.die]) == die_kind(specs[b.die])
    if isinstance(a, Trade) and isinstance(b, Trade):
        return a.target == b.target and die_kind(specs[a.take]) == die_kind(specs[b.take])
    return a == b


def candidates(state: RoyaleState, chosen: RoyaleAction, seed: int) -> list[RoyaleAction]:
    """The options weighed for the decision ``chosen`` was made in, the chosen one among them
    (in place of the candidate it is alike to).
    """
    seat = state.queue[0][0]
    heuristic = HeuristicPlayer(seed)
    out: list[RoyaleAction]
    if state.phase is Phase.DRAFT:
        out = pick_candidates(state, len(state.pool))
    elif state.phase is Phase.TRADE:
        out = trade_candidates(state, heuristic, TRADE_CANDIDATES)
    elif state.phase is Phase.CANNON:
        die = state.queue[0][1]
        out = [Cannon(seat, die, True), Cannon(seat, die, False)]
    else:
        scored = sorted(heuristic.mischief_scores(state, seat), key=lambda la: -la[0])
        out = [a for _, a in scored[:MISCHIEF_CANDIDATES]]
    alike = [i for i, a in enumerate(out) if _same(state, a, chosen)]
    if alike:
        out[alike[0]] = chosen
    else:
        out.append(chosen)
    return out


def option(state: RoyaleState, action: RoyaleAction, points: float) -> Option:
    """``action`` in plain values (die labels, the other player's token)."""
    specs = state.dice.specs
    if isinstance(action, Pick):
        return Option("take", (specs[action.die].label,), points)
    if isinstance(action, Trade):
        return Option("trade", (specs[action.take].label, state.players[action.target]),
                      points)
    if isinstance(action, Pass):
        return Option("pass", (), points)
    if isinstance(action, Cannon):
        return Option("fire" if action.score else "save", (str(state.values[action.die]),),
                      points)
    owner = state.owner_of(action.die)
    return Option("mischief", (specs[action.die].label,
                               state.players[owner] if owner is not None else ""), points)


def race_futures(state: RoyaleState, count: int) -> int:
    """The futures a decision of ``count`` options is judged in (its options not beaten on the
    way are played in all of them).
    """
    left = max(1, ROUNDS - state.round)
    return min(JUDGE_FUTURES, max(1, JUDGE_WORK // (count * left)))


def judge(state: RoyaleState, action: RoyaleAction, seed: int) -> Verdict | None:
    """The verdict on ``action``, made by the seat deciding in ``state`` (None when there was
    only one option). Every option is played in the same futures (seeds from ``seed``).
    """
    options = candidates(state, action, seed)
    if len(options) < 2:
        return None
    futures = race_futures(state, len(options))
    rng = Rng(seed)
    seeds = [rng.below(_SEED_RANGE) for _ in range(futures)]
    policy = HeuristicPlayer(seed)
    mine = next(i for i, a in enumerate(options) if a is action)

    def sample(i: int, j: int) -> float:
        return outcome(state, options[i], seeds[j], policy, False)[1]

    points = race(len(options), futures, sample, mine)
    best = max(points, key=lambda i: (points[i], -i))
    return Verdict(-1, state.round, option(state, action, points[mine]),
                   option(state, options[best], points[best]))


REVIEWER: Final = Reviewer(judge, MARGIN)
"""Panda Royale's judge for :func:`bot.rules.review.review_seat`."""
