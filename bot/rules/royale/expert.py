"""The expert Panda Royale player: Monte-Carlo look-ahead over the heuristic player.

In the base game the expert decides its draft picks and its trades by play-outs. The
candidates of a decision (every die type in the pool; on a trading turn, passing, the
heuristic's own trade and its next best trades) are each played to the end of the game in the
same determinised futures, every seat (the expert's included) then played by the heuristic's
rules: the opponents are heuristic players, so the play-outs model them exactly. In a play-out
only the decisions' effects count, not the dice's luck: every round it rolls scores the
*expected* points of each hand, and the variance of those points is kept too. A candidate is
worth its average win chance: at the end of a play-out each seat's final total is taken as
normal (the points so far plus the expected points to come, the dice's variance) and the chance
that the expert's beats every other is computed. Aiming at the win rather than the expected
margin makes the expert take risks when behind and play safe when ahead.

The play-outs (:mod:`bot.rules.royale.expert_playout`) run on plain integers, with the dice of
each future drawn per die in advance: two candidates played in the same future see the same
faces on the same dice and the same draft pools (common random numbers), so their difference is
mostly the decision's own. The search (:mod:`bot.rules.royale.expert_search`) plays every
candidate in ``futures`` futures, then the ``keep`` best in ``extra`` more.

With Mayhem options the expert plays its draft picks out through the engine
(:mod:`bot.rules.royale.expert_mayhem`, fewer futures: the engine is slower), and its trades,
Cannons and mischief are the heuristic's.

Randomness: each decision has its own generator, seeded from the player's seed and the game's
state (the game's seed, the round, the phase, the seat, how many dice are where); the game's
own generator is never used, so the real game's dice are neither predicted nor consumed, and
the same state always gets the same choice. Every game replays exactly.
"""

from __future__ import annotations

from bot.rules.rng import Rng
from bot.rules.royale.actions import RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.dice import ROUNDS
from bot.rules.royale.expert_futures import dice_of
from bot.rules.royale.expert_mayhem import MayhemLookahead
from bot.rules.royale.expert_search import choose_best, pick_candidates, trade_candidates
from bot.rules.royale.state import Phase, RoyaleState

FUTURES = 16
"""Determinised futures every candidate of a base-game decision is played out in."""
PICK_CANDIDATES = 5
"""Draft picks played out: the heuristic's best few, of distinct die types (5: the whole pool of
a 4-player game)."""
TRADE_CANDIDATES = 4
"""Trading-turn candidates played out besides the heuristic's choice (Pass first)."""
WORK = 480
"""At most this many candidate play-out rounds per future set: the first decisions of a game (9
rounds to play out, every candidate) get fewer futures (10 in round 1, 12 in round 2, 13 in
round 3 for 5 candidates), which bounds the slowest decisions."""
MAYHEM_FUTURES = 3
"""With Mayhem options: futures per candidate pick (at most ``futures``)."""
MAYHEM_PICKS = 4
"""With Mayhem options: picks played out (at most ``pick_candidates``)."""

_SEED_RANGE = 1 << 62
_PHASES = {phase: i for i, phase in enumerate(Phase)}


class ExpertPlayer:
    """Monte-Carlo look-ahead over heuristic play-outs (see the module docstring).

    The defaults are the measured trade-off of strength and time. ``futures`` and the
    candidates (``pick_candidates``, ``trade_candidates``; 0 trade candidates leaves trades to
    the heuristic) size the look-ahead; ``extra`` > 0 plays the ``keep`` best candidates of the
    first ``futures`` out in that many more, unless they trail the leader's win chance by more
    than ``margin``; ``work`` caps the futures of the costliest decisions (see :data:`WORK`).
    """

    def __init__(
        self,
        seed: int,
        *,
        futures: int = FUTURES,
        pick_candidates: int = PICK_CANDIDATES,
        trade_candidates: int = TRADE_CANDIDATES,
        extra: int = 0,
        keep: int = 2,
        margin: float = 1.0,
        work: int = WORK,
    ) -> None:
        self.seed = seed
        self.heuristic = HeuristicPlayer(seed)
        self.futures = futures
        self.pick_candidates = pick_candidates
        self.trade_candidates = trade_candidates
        self.extra = extra
        self.keep = keep
        self.margin = margin
        self.work = work
        self.mayhem = MayhemLookahead(seed, min(futures, MAYHEM_FUTURES),
                                      min(pick_candidates, MAYHEM_PICKS))

    def choose(self, state: RoyaleState) -> RoyaleAction:
        """The expert's decision for the seat that must decide now."""
        if state.phase is Phase.OVER:
            raise ValueError("the game is over")
        rng = self.decision_rng(state)
        if state.expansions:
            if state.phase is Phase.DRAFT:
                return self.mayhem.pick(state, rng)
            return self.heuristic.choose(state)
        dice = dice_of(state.dice)
        if state.phase is Phase.DRAFT:
            candidates = pick_candidates(state, dice, self.pick_candidates)
        elif self.trade_candidates > 0:
            candidates = trade_candidates(state, dice, self.trade_candidates)
        else:
            return self.heuristic.choose(state)
        if len(candidates) == 1 or self.futures < 1:
            return candidates[0]
        futures = min(self.futures,
                      max(1, self.work // (len(candidates) * (ROUNDS - state.round))))
        seeds = [rng.below(_SEED_RANGE) for _ in range(futures + self.extra)]
        return choose_best(state, candidates, seeds, futures, self.keep, self.margin)

    def decision_rng(self, state: RoyaleState) -> Rng:
        """This decision's own generator, seeded from the player's seed and the game's state
        (never from the game's generator): the same state gets the same choice.
        """
        h = self.seed
        keys = (state.seed, state.round, _PHASES[state.phase], state.queue[0][0],
                len(state.given), len(state.pool), len(state.bag),
                *(len(hand) for hand in state.hands))
        for k in keys:
            h = (h * 1_000_003 + k) % _SEED_RANGE
        return Rng(h)
