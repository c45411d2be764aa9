"""The expert player's look-ahead in the base game: candidates, play-outs, the choice.

A decision's candidates (the heuristic's best draft picks, one per die type; on a trading
turn, passing, the heuristic's trade and its next best trades) are each played out to the end
of the game by :func:`bot.rules.royale.expert_playout.play_out` in the same determinised
futures, every seat then played by the heuristic's rules (the opponents *are* heuristic
players, so the play-outs model them exactly). A candidate is worth its average win chance at
the end of its play-outs (:func:`bot.rules.royale.round_odds.win_chance` over each seat's total
so far plus the expected points still to come, with the dice's variance).

Every candidate is played in the same ``screen`` futures; with more futures than that, the
``keep`` best then get the rest (the close call gets the samples), unless they trail the leader
by more than ``margin``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.royale.actions import Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.dice import ROUNDS
from bot.rules.royale.expert_futures import Dice, Future, dice_of
from bot.rules.royale.expert_playout import (
    Start,
    heuristic_trade,
    pick_gain,
    play_out,
    put,
    swap,
    trade_scores,
)
from bot.rules.royale.round_odds import win_chance
from bot.rules.royale.state import Phase, RoyaleState


def start_of(state: RoyaleState, dice: Dice) -> Start:
    """``state`` (a trade or draft decision of the base game) by die number."""
    index = dice.index
    hands = [[index[d] for d in hand] for hand in state.hands]
    bag = [False] * len(dice.ids)
    for d in state.bag:
        bag[index[d]] = True
    return Start(hands, bag, [index[d] for d in state.pool], {index[d] for d in state.given},
                 state.phase is Phase.TRADE, [seat for seat, _ in state.queue], state.round,
                 state.token, list(state.yellow), [float(t) for t in state.totals()], dice)


def _apply(st: Start, dice: Dice, action: RoyaleAction) -> Start:
    """A copy of ``st`` with ``action`` made (the mover's turn over, unless it traded)."""
    s = st.copy()
    index = dice.index
    if isinstance(action, Pick):
        d = index[action.die]
        s.pool.remove(d)
        put(dice, s, action.seat, d)
        s.queue = s.queue[1:]
    elif isinstance(action, Trade):
        swap(dice, s, action.seat, index[action.give], action.target, index[action.take])
    else:
        s.queue = s.queue[1:]
    return s


def pick_candidates(state: RoyaleState, dice: Dice, limit: int) -> list[RoyaleAction]:
    """The heuristic's best picks, one per die type, best first (pool order on ties)."""
    seat = state.queue[0][0]
    index = dice.index
    hand = [index[d] for d in state.hands[seat]]
    seen: dict[tuple[float, ...], tuple[float, str]] = {}
    for d in state.pool:
        i = index[d]
        key = (*dice.parts[i], *dice.moments[i])
        if key not in seen:
            seen[key] = (pick_gain(dice.parts, hand, i), d)
    ranked = sorted(seen.values(), key=lambda gd: -gd[0])
    return [Pick(seat, d) for _, d in ranked[: max(1, limit)]]


def trade_candidates(state: RoyaleState, dice: Dice, limit: int) -> list[RoyaleAction]:
    """The heuristic's choice first, then Pass and its best other trades (one per target and
    die type), at most ``limit`` + 1 in all.
    """
    seat = state.queue[0][0]
    st = start_of(state, dice)
    give = next(d for d in st.hands[seat] if dice.giveable[d] and d not in st.given)
    rounds = ROUNDS - state.round
    first = heuristic_trade(dice, st.hands, seat, give, rounds, st.totals)
    ids = dice.ids
    gid = ids[give]
    out: list[RoyaleAction] = [Pass(seat)]
    if first is not None:
        out.insert(0, Trade(seat, gid, first[0], ids[first[1]]))
    ranked = sorted(trade_scores(dice, st.hands, seat, give, rounds, st.totals),
                    key=lambda s: -s[0])
    for _, target, d in ranked:
        if len(out) > limit:
            break
        a = Trade(seat, gid, target, ids[d])
        if a not in out:
            out.append(a)
    return out


def choose_best(state: RoyaleState, candidates: Sequence[RoyaleAction], seeds: Sequence[int],
                screen: int, keep: int, margin: float) -> RoyaleAction:
    """The candidate of best mean win chance: all in the first ``screen`` futures, then the
    ``keep`` best (those within ``margin`` of the leader) in the rest of ``seeds``.
    """
    dice = dice_of(state.dice)
    seat = state.queue[0][0]
    base = start_of(state, dice)
    totals = list(base.totals)
    starts = [_apply(base, dice, a) for a in candidates]
    futures = [Future(dice, s) for s in seeds]
    sums = [0.0] * len(candidates)
    counts = [0] * len(candidates)

    def run(i: int, fut: Future) -> None:
        st = starts[i].copy()
        gained, spread = play_out(fut, st)
        worth = [t + g for t, g in zip(totals, gained, strict=True)]
        mine = (worth[seat], spread[seat])
        others = [(worth[j], spread[j]) for j in range(len(worth)) if j != seat]
        sums[i] += win_chance(mine, others)
        counts[i] += 1

    for fut in futures[:screen]:
        for i in range(len(candidates)):
            run(i, fut)
    alive = sorted(range(len(candidates)), key=lambda i: -sums[i])
    if len(futures) > screen:
        lead = sums[alive[0]] / screen
        alive = [i for i in alive[:keep] if sums[i] / screen >= lead - margin]
        if len(alive) > 1:
            for fut in futures[screen:]:
                for i in alive:
                    run(i, fut)
    best = max(alive, key=lambda i: (sums[i] / counts[i], -i))
    return candidates[best]
