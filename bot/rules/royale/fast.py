"""Whole Panda Royale games of random players, each in one loop: the simulator's fast path.

:class:`RandomGames` plays exactly the games that :mod:`bot.rules.royale.engine` plays when
every seat is a :class:`bot.rules.royale.ai.RandomPlayer`: the same draws from the game's
seeded generator and from each seat's, in the same order, so the same game for the same seeds,
and writes its log byte for byte as :func:`bot.rules.gamelog.log_lines` writes the engine's.

Why a second loop: the engine stops at every decision, checks it and builds event objects; a
random player builds its legal moves to pick one. Here dice are small integers, a choice is one
index, and the log is written into a byte buffer (:mod:`bot.rules.royale.fast_sink`) as UTF-8
pieces looked up in :mod:`bot.rules.royale.fast_tables` and numbers written digit by digit
(:mod:`bot.rules.royale.fast_write`); where ``./dev compile-fast`` built it, a round's score,
token and draft lines are written by ``fast_lines.c`` from numbers staged in the buffer. The
engine stays the reference: tests play both side by side (every option subset, 2-10 players)
and compare every log line. For mypyc as well as CPython (``./dev compile-fast`` compiles this
module and fast_write together): one final class, typed locals. Pure, like the engine: no I/O,
no clock, randomness only from the seeds.
"""

from __future__ import annotations

from _random import Random  # random.Random's C base: the same generator, seeded the same
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, final

from bot.rules.royale.dice import (
    CANNON,
    CANNON_MULTIPLIER,
    CAPTAIN_SIDES,
    GLITTER_MULTIPLIER,
    MERCENARY,
    MISCHIEF,
    PURPLE_MULTIPLIER,
    ROUNDS,
    dice_for,
)
from bot.rules.royale.engine import normalise_expansions
from bot.rules.royale.fast_sink import write_i64_le
from bot.rules.royale.fast_tables import (
    MERCENARY_SLOT,
    SLOTS,
    DiceTable,
    LogPieces,
    dice_table,
    game_tail,
    wide,
)
from bot.rules.royale.fast_write import columns, dice, items, keyed, listed, stage

if TYPE_CHECKING:  # mypyc writes into it natively; see fast_sink for what is passed
    from librt.strings import BytesWriter
    from mypy_extensions import i64

@final
class RandomGames:
    """Plays games of one set-up (player ids, options) between random players.

    The players must be valid (2-10 distinct ids): use the engine to check a set-up first.
    """

    def __init__(self, players: Sequence[str], expansions: Sequence[str],
                 lines_in_c: Any = None) -> None:
        self.players: tuple[str, ...] = tuple(players)
        self.expansions: tuple[str, ...] = normalise_expansions(expansions)
        self.n: int = len(self.players)
        self.t: DiceTable = dice_table(self.n, self.expansions)
        self.pieces: LogPieces | None = None  # built on the first game with a log
        # Generators re-seeded for every game (the same state as new ones with those seeds).
        self.gen: Random = Random(0)
        self.rnd: Callable[[], float] = self.gen.random
        self.gens: list[Random] = [Random(0) for _ in self.players]
        self.ais: list[Callable[[], float]] = [g.random for g in self.gens]
        self.lines: int = 0  # log lines written by play(), all games together
        # fast_lines (C, where compile-fast built it) writes the busiest lines
        self.c_score: Callable[..., None] | None = getattr(lines_in_c, "score_lines", None)
        self.c_token: Callable[..., None] | None = getattr(lines_in_c, "token_line", None)
        self.c_draft: Callable[..., None] | None = getattr(lines_in_c, "draft_lines", None)

    def log_pieces(self) -> LogPieces:
        """The log text pieces of this set-up (built once)."""
        pieces = self.pieces
        if pieces is None:
            pieces = self.pieces = LogPieces(self.players, self.expansions,
                                             dice_for(self.n, self.expansions))
        return pieces

    def play(self, seed: int, ai_seeds: Sequence[int], game_id: str | None,
             out: BytesWriter) -> tuple[list[int], list[int]]:
        """Play one game where seat ``i`` is a RandomPlayer seeded with ``ai_seeds[i]``.

        Returns each seat's total and the winning seats. If ``game_id`` is given, writes the
        game's log lines to ``out`` (UTF-8 pieces, see :mod:`bot.rules.royale.fast_sink`) and
        adds the number of lines to :attr:`lines`.
        """
        n = self.n
        t = self.t
        exp = self.expansions
        has_mischief, has_cannon, has_mercenary = MISCHIEF in exp, CANNON in exp, MERCENARY in exp
        faces, sides, slot, is_yellow = t.faces, t.sides, t.slot, t.yellow
        is_red, is_glitter, giveable, takeable = t.red, t.glitter, t.giveable, t.takeable
        cdie, pity = t.cannon_die, t.pity
        npity = len(pity)
        self.gen.seed(seed)
        rnd = self.rnd
        gens = self.gens
        for i in range(n):
            gens[i].seed(ai_seeds[i])
        ai = self.ais
        hands = [[d] for d in t.start]
        bag = list(t.bag)
        values = [0] * len(faces)
        traded_in = [0] * len(faces)  # the round a die was last given in a trade
        totals = [0] * n
        # red dice, glitter dice and clear d6 in each hand (they move by picks and trades)
        reds, glitters, clears = [0] * n, [0] * n, [0] * n
        token = 0
        given: list[tuple[int, int]] = []  # (seat, pity die) of the last pity step

        log = game_id is not None
        c_score, c_token, c_draft = (self.c_score, self.c_token, self.c_draft) if log else (
            None, None, None)
        lines: i64 = 2  # setup and game_end, then each line as it is written
        tail = dealt = brace_tail = bracket_tail = no_rerolls = b""
        text_tail = ""  # the tail as text, for the lines written with f-strings
        ids = opened = opened_next = die = die_next = id_next = key = key_next = []
        names = names_next = []
        token_head = score_head = pick_head = pity_head = pool_head = return_head = rr = []
        trade_head = gave_head = took = []
        text_names = text_ids = [""]
        if game_id is not None:
            pieces = self.log_pieces()
            tail = game_tail(game_id)
            brace_tail, bracket_tail = b"}" + tail, b"]" + tail  # the ends of many lines
            text_tail = tail.decode()
            ids, id_next, key, key_next = pieces.ids, pieces.id_next, pieces.key, pieces.key_next
            text_names, text_ids = pieces.text_names, pieces.text_ids
            rr = pieces.rerolls
            no_rerolls = rr[0] + tail
            opened, opened_next = pieces.opened, pieces.opened_next
            die, die_next = pieces.die, pieces.die_next
            names, names_next = pieces.names, pieces.names_next
            token_head, score_head, pick_head = (pieces.token_head, pieces.score_head,
                                                 pieces.pick_head)
            pity_head, pool_head, return_head = (pieces.pity_head, pieces.pool_head,
                                                 pieces.return_head)
            dealt = pieces.dealt + tail
            trade_head, gave_head, took = pieces.trade_head, pieces.gave_head, pieces.took
            out.write(f'{{"event":"setup","game_kind":"royale","seed":{seed}'.encode())
            out.write(pieces.setup_tail)
            out.write(tail)

        for r in range(1, ROUNDS + 1):
            rn = r * n  # where the round's pieces by round and seat start
            # --- step 1: roll everything, settle the yellow tie, move the token
            sums = [0] * (SLOTS * n)
            b = 0
            for hand in hands:
                for d in hand:
                    v = faces[d][int(rnd() * sides[d])]
                    values[d] = v
                    k = b + slot[d]
                    sums[k] = sums[k] + v  # (mypyc: x[i] += y would be a generic add)
                b += SLOTS
            yellow = [sums[SLOTS * s] for s in range(n)]
            rerolls = 0
            top = max(yellow)
            if top > 0:  # somebody holds a yellow die (yellow faces are all positive)
                if r < ROUNDS and yellow.count(top) > 1:
                    ydice = [[d for d in hand if is_yellow[d]] for hand in hands]
                    while yellow.count(top) > 1:
                        rerolls += 1
                        for ys in ydice:
                            for d in ys:
                                values[d] = faces[d][int(rnd() * sides[d])]
                        yellow = [sum([values[d] for d in ys]) for ys in ydice]
                        top = max(yellow)
                if yellow.count(top) == 1:
                    token = yellow.index(top)
            if log:
                lines += 1
                if c_token is not None:
                    c_token(out, token_head[rn + token], key, key_next, yellow)
                else:
                    keyed(out, token_head[rn + token], key, key_next, yellow)
                if rerolls:
                    out.write(rr[rerolls] if rerolls < len(rr) else wide(rr, 0, rerolls))
                    out.write(tail)
                else:
                    out.write(no_rerolls)

            # --- mischief: the highest Mischief dice re-roll one die each of another player
            if has_mischief and r >= 2:
                mdie = t.mischief_die
                held = [((token + i) % n, d) for i in range(n) for d in hands[(token + i) % n]
                        if mdie[d]]
                if held:
                    mtop = max([values[d] for _, d in held])
                    for seat in [seat for seat, d in held if values[d] == mtop]:
                        targets = [(other, d) for other in range(n) if other != seat
                                   for d in hands[other] if not is_yellow[d]]
                        if not targets:
                            continue
                        owner, d = targets[int(ai[seat]() * len(targets))]
                        before = values[d]
                        after = values[d] = faces[d][int(rnd() * sides[d])]
                        k = SLOTS * owner + slot[d]
                        sums[k] = sums[k] + after - before
                        if log:
                            lines += 1
                            out.write((f'{{"event":"mischief","round":{r},"player":'
                                        f'{text_names[seat]},"target":{text_names[owner]},'
                                        f'"die":{text_ids[d]},"before":{before},'
                                        f'"after":{after}{text_tail}').encode())

            # --- cannons: score (the first of two choices) or save
            scored: list[tuple[int, int]] = []
            fired = [0] * n
            if has_cannon:
                for i in range(n):
                    seat = (token + i) % n
                    for d in hands[seat]:
                        if cdie[d]:
                            fire = int(ai[seat]() * 2) == 0
                            if fire:
                                scored.append((seat, d))
                                fired[seat] = fired[seat] + values[d] * CANNON_MULTIPLIER
                            if log:
                                lines += 1
                                out.write((f'{{"event":"cannon","round":{r},"player":'
                                            f'{text_names[seat]},"die":{text_ids[d]},'
                                            f'"decision":"{"score" if fire else "save"}",'
                                            f'"value":{values[d]}{text_tail}').encode())

            # --- the round's scores
            round_totals = [0] * n
            b = 0
            for seat in range(n):
                c1 = sums[b + 1] * PURPLE_MULTIPLIER
                c2 = sums[b + 2]
                if glitters[seat]:
                    c2 *= GLITTER_MULTIPLIER
                c3 = sums[b + 3] * reds[seat]
                c4 = sums[b + 4] + sums[b + MERCENARY_SLOT] * r
                c5 = sums[b + 5]
                c6 = sums[b + 6] + fired[seat]
                b += SLOTS
                total = yellow[seat] + c1 + c2 + c3 + c4 + c5 + c6
                round_totals[seat] = total
                totals[seat] = totals[seat] + total
                if c_score is not None:  # numbers the C writer turns into the lines
                    stage(out, yellow[seat], c1, c2, c3, c4, c5, c6, total)
                elif log:
                    lines += 1
                    out.write(score_head[rn + seat])
                    dice(out, hands[seat], values, opened, opened_next)
                    columns(out, yellow[seat], c1, c2, c3, c4, c5, c6, total)
                    out.write(tail)
            if c_score is not None:
                lines += n
                c_score(out, score_head, rn, hands, values, opened, opened_next, tail)
            for seat, d in scored:
                hands[seat].remove(d)
            if r == ROUNDS:
                break

            if has_mischief and r == 1:
                for seat, d in zip(range(n), t.mischief, strict=False):
                    hands[seat].append(d)
                if log:
                    lines += 1
                    out.write(dealt)  # the line with its end

            # --- step 2: pity dice to the lowest round totals, ties from the token's right
            for seat, d in given:  # last round's pity dice go back to the middle
                hands[seat].remove(d)
            # (round total, seats counter-clockwise from the token's right) as one number
            ranked = sorted([round_totals[p] * n + (token - 1 - p) % n for p in range(n)])
            given = [((token - 1 - ranked[i] % n) % n, pity[i]) for i in range(min(npity, n))]
            for seat, d in given:
                hands[seat].append(d)
            if log:
                lines += 1
                out.write(pity_head[r])
                for i in range(len(given)):
                    seat, d = given[i]
                    out.write(key_next[seat] if i else key[seat])
                    out.write(ids[d])
                out.write(brace_tail)

            # --- the Captain sends matching Mercenaries back to the bag
            if has_mercenary:
                value = int(rnd() * CAPTAIN_SIDES) + 1
                lost: list[tuple[int, int]] = []
                for seat in range(n):
                    hand = hands[seat]
                    gone = [d for d in hand if slot[d] == MERCENARY_SLOT and values[d] == value]
                    if gone:
                        hand[:] = [d for d in hand if d not in gone]
                        bag.extend(gone)
                        lost.extend([(seat, d) for d in gone])
                if log:
                    lines += 1
                    ls = ",".join([f'{{"player":{text_names[seat]},"die":{text_ids[d]}}}'
                                   for seat, d in lost])
                    out.write(f'{{"event":"captain","round":{r},"value":{value},"lost":[{ls}]'
                               f"{text_tail}".encode())

            # --- step 3: the trade pass, from the token holder's left
            # The random player numbers its moves: Pass, then each (clear die, player, die to
            # take) with players in seat order and dice in hand order; only the chosen move is
            # found. How many dice each hand offers stays the same through the pass: a trade
            # swaps one takeable die for another.
            offered: list[int] = []
            for i in range(1, n + 1):
                seat = (token + i) % n
                if not clears[seat]:
                    continue
                hand = hands[seat]
                choose = ai[seat]
                while True:
                    gives = [d for d in hand if giveable[d] and traded_in[d] != r]
                    if not gives:
                        break
                    if not offered:
                        offered = [len(h) for h in hands]
                        for holder, _ in given:
                            offered[holder] = offered[holder] - 1
                        if has_cannon:
                            for o in range(n):
                                offered[o] = offered[o] - sum([cdie[d] for d in hands[o]])
                    per_give = sum(offered) - offered[seat]
                    pick = int(choose() * (1 + len(gives) * per_give))
                    if pick == 0:
                        break
                    g, j = divmod(pick - 1, per_give)
                    give = gives[g]
                    target = 0
                    for target in range(n):
                        if target != seat:
                            if j < offered[target]:
                                break
                            j -= offered[target]
                    theirs = hands[target]
                    if offered[target] == len(theirs):
                        take = theirs[j]
                    else:
                        take = [d for d in theirs if takeable[d]][j]
                    hand.remove(give)
                    theirs.remove(take)
                    theirs.append(give)
                    hand.append(take)
                    if not giveable[take]:  # else a clear d6 for a clear d6
                        clears[seat] = clears[seat] - 1
                        clears[target] = clears[target] + 1
                        if is_red[take]:
                            reds[seat] = reds[seat] + 1
                            reds[target] = reds[target] - 1
                        elif is_glitter[take]:
                            glitters[seat] = glitters[seat] + 1
                            glitters[target] = glitters[target] - 1
                    traded_in[give] = r
                    if log:
                        lines += 1
                        out.write(trade_head[rn + seat])
                        out.write(gave_head[target])
                        out.write(ids[give])
                        out.write(took[take])
                        out.write(tail)

            # --- the draft: players + 1 dice from the bag, highest yellow first
            pool = []
            size = len(bag)
            for left in range(size, max(size - n - 1, 0), -1):
                pool.append(bag.pop(int(rnd() * left)))
            pooled = len(pool)
            if c_draft is not None:  # staged for it: the pool, then each pick's seat and die
                for d in pool:
                    write_i64_le(out, d)
            elif log:
                listed(out, pool_head[r], die, die_next, pool, bracket_tail)
            # (highest yellow first, seats clockwise from the token holder) as one number
            for rank in sorted([(p - token) % n - yellow[p] * n for p in range(n)]):
                if not pool:
                    break
                seat = (rank % n + token) % n
                choose = ai[seat]
                d = pool.pop(int(choose() * len(pool)))
                hands[seat].append(d)
                reds[seat] = reds[seat] + is_red[d]
                glitters[seat] = glitters[seat] + is_glitter[d]
                clears[seat] = clears[seat] + giveable[d]
                if c_draft is not None:
                    write_i64_le(out, seat)
                    write_i64_le(out, d)
                elif log:
                    out.write(pick_head[rn + seat])
                    out.write(ids[d])
                    out.write(tail)
            bag.extend(pool)
            if log:
                lines += 2 + pooled - len(pool)  # draft_pool, the picks, draft_return
            if c_draft is not None:
                c_draft(out, pooled, pooled - len(pool), pool_head[r], die, die_next, pick_head,
                        rn, ids, id_next, return_head[r], pool, tail, bracket_tail)
            elif log:
                listed(out, return_head[r], ids, id_next, pool, bracket_tail)

        top = max(totals)
        winners = [i for i in range(n) if totals[i] == top]
        if log:
            keyed(out, b'{"event":"game_end","totals":{', key, key_next, totals)
            out.write(b'},"winners":[')
            items(out, names, names_next, winners)
            out.write(bracket_tail)
            self.lines += lines
        return totals, winners


__all__ = ["RandomGames"]
