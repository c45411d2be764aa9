"""The expert Panda Royale player: Monte-Carlo look-ahead over the heuristic player.

The expert decides its draft picks, its trades and its mischief targets by play-outs; Cannon
decisions are the heuristic's. The candidates of a decision (:mod:`.expert_search`,
:mod:`.expert_mischief`) are each played to the end of the game in the same futures, on the
engine itself, every seat then played by the heuristic player: the opponents are heuristic
players, so the play-outs model them exactly. A play-out counts the expected points of the
hands, not the dice's luck (:mod:`.expert_playout`). A candidate is worth its mean chance of
winning at the end of its play-outs; aiming at the win rather than the expected margin makes
the expert take risks when behind and play safe when ahead.

Randomness: each decision has its own generator, seeded from the player's seed and the game's
state; the game's own generator is never used, so the real game's dice are neither predicted
nor consumed, and the same state always gets the same choice. Every game replays exactly.
"""

from __future__ import annotations

from bot.rules.rng import Rng
from bot.rules.royale.actions import RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.dice import ROUNDS
from bot.rules.royale.expert_mischief import mischief_candidates
from bot.rules.royale.expert_search import choose_best, pick_candidates, trade_candidates
from bot.rules.royale.state import Phase, RoyaleState

FUTURES = 32
"""Futures every candidate of a decision is played out in: more futures judge the candidates
more surely, and :data:`WORK` keeps the costliest decisions within their time."""
PICK_CANDIDATES = 5
"""Draft picks played out: the heuristic's best few, of distinct kinds of die (5: the whole
pool of a 4-player game)."""
TRADE_CANDIDATES = 4
"""Trading-turn candidates played out besides the heuristic's choice (Pass first)."""
MISCHIEF_CANDIDATES = 3
"""Mischief targets played out: the heuristic's best die of each other player, best first (3:
every opponent of a 4-player game; 0 leaves mischief to the heuristic)."""
MISCHIEF_WORK = 240
""":data:`WORK` for a mischief target (whose effect is mostly on the round being scored; a
play-out from it also plays the rest of that round): a third of a draft pick's, which keeps
the slowest decisions below the draft's."""
WORK = 720
"""At most this many candidate play-out rounds per decision: the first decisions of a game (9
rounds to play out, every candidate) get fewer futures (16 in round 1, 18 in round 2, 20 in
round 3 for 5 candidates), which bounds the slowest decisions."""

_SEED_RANGE = 1 << 62
_PHASES = {phase: i for i, phase in enumerate(Phase)}


class ExpertPlayer:
    """Monte-Carlo look-ahead over heuristic play-outs (see the module docstring).

    The keyword arguments size the look-ahead (0 candidates leaves a decision to the
    heuristic); the defaults weigh strength against time (docs/performance.md).
    """

    def __init__(
        self,
        seed: int,
        *,
        futures: int = FUTURES,
        pick_candidates: int = PICK_CANDIDATES,
        trade_candidates: int = TRADE_CANDIDATES,
        mischief_candidates: int = MISCHIEF_CANDIDATES,
        work: int = WORK,
    ) -> None:
        self.seed = seed
        self.heuristic = HeuristicPlayer(seed)
        self.policy = HeuristicPlayer(seed)  # the play-outs' player (reseeded in each one)
        self.futures = futures
        self.pick_candidates = pick_candidates
        self.trade_candidates = trade_candidates
        self.mischief_candidates = mischief_candidates
        self.work = work

    def choose(self, state: RoyaleState) -> RoyaleAction:
        """The expert's decision for the seat that must decide now."""
        if state.phase is Phase.OVER:
            raise ValueError("the game is over")
        if state.phase is Phase.DRAFT:
            candidates = pick_candidates(state, self.pick_candidates)
        elif state.phase is Phase.TRADE and self.trade_candidates > 0:
            candidates = trade_candidates(state, self.heuristic, self.trade_candidates)
        elif state.phase is Phase.MISCHIEF and self.mischief_candidates > 0:
            candidates = mischief_candidates(state, self.heuristic, self.mischief_candidates)
        else:
            return self.heuristic.choose(state)
        if len(candidates) == 1 or self.futures < 1:
            return candidates[0]
        if state.phase is Phase.MISCHIEF:
            work, rounds = min(self.work, MISCHIEF_WORK), ROUNDS - state.round + 1
        else:
            work, rounds = self.work, ROUNDS - state.round
        futures = min(self.futures, max(1, work // (len(candidates) * rounds)))
        rng = self.decision_rng(state)
        seeds = [rng.below(_SEED_RANGE) for _ in range(futures)]
        return choose_best(state, candidates, seeds, self.policy)

    def decision_rng(self, state: RoyaleState) -> Rng:
        """This decision's own generator, seeded from the player's seed and the game's state."""
        h = self.seed
        keys = (state.seed, state.round, _PHASES[state.phase], state.queue[0][0],
                len(state.given), len(state.pool), len(state.bag),
                *(len(hand) for hand in state.hands))
        for k in keys:
            h = (h * 1_000_003 + k) % _SEED_RANGE
        return Rng(h)
