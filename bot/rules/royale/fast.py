"""A whole Panda Royale game of random computer players in one function: the simulator's
fast path.

:func:`play_random_game` plays exactly the game that :mod:`bot.rules.royale.engine` plays when
every seat is a :class:`bot.rules.royale.ai.RandomPlayer`: the same draws from the game's
seeded generator and from each seat's, in the same order, so the same game for the same seeds.
It can also return the game's log lines, byte-for-byte the lines that
:func:`bot.rules.gamelog.log_lines` writes for the engine's events.

Why a second loop: the engine stops at every decision, checks it and builds event objects; a
random player builds its legal moves to pick one. For headless simulation none of that is
needed: here dice are small integers, a choice is one index, and a log line is joined from
JSON fragments cached per die. The engine stays the reference: tests play both side by side
(every option subset, 2-10 players) and compare every log line, totals and winners.

Pure, like the engine: no I/O, no clock, randomness only from the seeds given.
"""

from __future__ import annotations

import json
from _random import Random  # random.Random's C base: the same generator, seeded the same
from collections.abc import Sequence

from bot.rules.royale.dice import (
    CANNON,
    CANNON_KIND,
    CANNON_MULTIPLIER,
    CAPTAIN_SIDES,
    GLITTER,
    GLITTER_MULTIPLIER,
    MERCENARY,
    MERCENARY_KIND,
    MISCHIEF,
    MISCHIEF_KIND,
    PURPLE_MULTIPLIER,
    ROUNDS,
    Column,
    DiceSet,
    DieSpec,
    dice_for,
)
from bot.rules.royale.engine import normalise_expansions, winners_of

# The sums kept per hand while rolling: the seven columns, then Mercenary and Cannon dice.
_MERCENARY_SLOT = 7
_CANNON_SLOT = 8


def _js(value: object) -> str:
    """``value`` as the log writer serialises it (json.dumps, compact, ensure_ascii=False)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _die_log(spec: DieSpec) -> str:
    return _js(spec.to_log())


class _Table:
    """Everything about the dice of one game set-up that does not change during a game."""

    __slots__ = (
        "bag", "cannon_die", "faces", "giveable", "glitter", "ids", "jids", "mischief",
        "mischief_die", "pity", "plain", "red", "rolled", "sides", "slot", "start", "takeable",
        "yellow",
    )

    def __init__(self, ds: DiceSet) -> None:
        specs = list(ds.specs.values())
        index = {sp.id: i for i, sp in enumerate(specs)}
        self.ids = [sp.id for sp in specs]
        self.jids = [_js(sp.id) for sp in specs]
        self.faces = [sp.faces for sp in specs]
        self.sides = [sp.sides for sp in specs]
        # Where a die's value is summed as it is rolled: its column, but Mercenary and Cannon
        # dice apart (they score value x round, and value x 10 if fired).
        slots = {MERCENARY_KIND: _MERCENARY_SLOT, CANNON_KIND: _CANNON_SLOT}
        self.slot = [slots.get(sp.kind, int(sp.column)) for sp in specs]
        self.red = [int(sp.column == Column.RED) for sp in specs]
        self.glitter = [int(sp.kind == GLITTER) for sp in specs]
        self.yellow = [sp.color == "yellow" for sp in specs]
        self.giveable = [int(sp.giveable) for sp in specs]
        self.takeable = [sp.takeable for sp in specs]
        self.mischief_die = [sp.kind == MISCHIEF_KIND for sp in specs]
        self.cannon_die = [sp.kind == CANNON_KIND for sp in specs]
        self.pity = [index[d] for d in ds.pity]
        self.mischief = [index[d] for d in ds.mischief]
        self.bag = [index[d] for d in ds.bag]
        self.start = [index[d] for d in ds.yellow]
        # JSON fragments: a die, and a rolled die by the value it shows.
        self.plain = [_die_log(sp) for sp in specs]
        self.rolled: list[dict[int, str]] = []
        for sp in specs:
            head = _die_log(sp)[:-1] + ',"value":'
            self.rolled.append({v: f"{head}{v}}}" for v in sp.faces})


class _Setup:
    """The parts of the log that depend on the players and options only."""

    __slots__ = ("dealt", "keys", "names", "setup_tail")

    def __init__(self, players: tuple[str, ...], expansions: tuple[str, ...], ds: DiceSet) -> None:
        specs = ds.specs
        self.names = [_js(p) for p in players]
        self.keys = [f"{name}:" for name in self.names]
        # setup: everything after the seed, up to the game id
        hands = {p: [specs[d].to_log()] for p, d in zip(players, ds.yellow, strict=True)}
        aside = [specs[d].to_log() for d in (*ds.pity, *ds.mischief)]
        tail = _js({"players": list(players), "expansions": list(expansions), "hands": hands,
                    "bag": [specs[d].to_log() for d in ds.bag], "aside": aside})
        self.setup_tail = "," + tail[1:-1] + ',"game":'
        dealt = {p: specs[d].to_log() for p, d in zip(players, ds.mischief, strict=False)}
        self.dealt = '{"event":"mischief_dealt","round":1,"dice":' + _js(dealt) + ',"game":'


_TABLES: dict[tuple[int, tuple[str, ...]], _Table] = {}
_SETUPS: dict[tuple[tuple[str, ...], tuple[str, ...]], _Setup] = {}


def _tables(players: tuple[str, ...], expansions: tuple[str, ...]) -> tuple[_Table, _Setup]:
    key = (len(players), expansions)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = _Table(dice_for(len(players), expansions))
    su = _SETUPS.get((players, expansions))
    if su is None:
        if len(_SETUPS) >= 256:  # a simulation uses one; don't grow without end
            _SETUPS.clear()
        su = _SETUPS[(players, expansions)] = _Setup(players, expansions,
                                                     dice_for(len(players), expansions))
    return t, su


def play_random_game(
    players: Sequence[str],
    seed: int,
    expansions: Sequence[str],
    ai_seeds: Sequence[int],
    game_id: str | None = None,
) -> tuple[list[int], list[int], list[str]]:
    """Play one game where seat ``i`` is a RandomPlayer seeded with ``ai_seeds[i]``.

    Returns each seat's total, the winning seats, and, if ``game_id`` is given, the game's log
    lines (each ending in a newline) exactly as the log writer writes the engine's events.
    The players must be valid (2-10 distinct ids): use the engine to check a set-up first.
    """
    names = tuple(players)
    exp = normalise_expansions(expansions)
    t, su = _tables(names, exp)
    n = len(names)
    has_mischief = MISCHIEF in exp
    has_cannon = CANNON in exp
    has_mercenary = MERCENARY in exp
    faces = t.faces
    sides = t.sides
    slot = t.slot
    is_red = t.red
    is_glitter = t.glitter
    is_yellow = t.yellow
    giveable = t.giveable
    takeable = t.takeable
    pity = t.pity
    rnd = Random(seed).random
    ai = [Random(s).random for s in ai_seeds]
    hands = [[d] for d in t.start]
    bag = list(t.bag)
    values = [0] * len(faces)
    totals = [0] * n
    # red dice and glitter dice in each hand (they change hands only by picks and trades)
    reds = [0] * n
    glitters = [0] * n
    clears = [0] * n  # clear d6 (the dice a trade gives), which also move by picks and trades
    token = 0
    seats = range(n)

    log = game_id is not None
    out: list[str] = []
    if log:
        tail = _js(game_id) + "}\n"
        pnames = su.names
        pkeys = su.keys
        ids = t.jids
        plain = t.plain
        rolled = t.rolled
        out.append(f'{{"event":"setup","game_kind":"royale","seed":{seed}{su.setup_tail}{tail}')

    for r in range(1, ROUNDS + 1):
        # --- step 1: roll everything, settle the yellow tie, move the token
        sums = []
        for hand in hands:
            acc = [0, 0, 0, 0, 0, 0, 0, 0, 0]
            for d in hand:
                acc[slot[d]] += (v := faces[d][int(rnd() * sides[d])])
                values[d] = v
            sums.append(acc)
        yellow = [acc[0] for acc in sums]
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
            yl = ",".join([f"{pkeys[i]}{yellow[i]}" for i in seats])
            out.append(f'{{"event":"token","round":{r},"player":{pnames[token]},'
                       f'"yellow":{{{yl}}},"rerolls":{rerolls},"game":{tail}')
        order = [(token + i) % n for i in seats]

        # --- mischief: the highest Mischief dice re-roll one die each of another player
        if has_mischief and r >= 2:
            mdie = t.mischief_die
            held = [(seat, d) for seat in order for d in hands[seat] if mdie[d]]
            if held:
                mtop = max(values[d] for _, d in held)
                for seat in [seat for seat, d in held if values[d] == mtop]:
                    targets = [(other, d) for other in seats if other != seat
                               for d in hands[other] if not is_yellow[d]]
                    if not targets:
                        continue
                    owner, d = targets[int(ai[seat]() * len(targets))]
                    before = values[d]
                    after = values[d] = faces[d][int(rnd() * sides[d])]
                    sums[owner][slot[d]] += after - before
                    if log:
                        out.append(f'{{"event":"mischief","round":{r},"player":{pnames[seat]},'
                                   f'"target":{pnames[owner]},"die":{ids[d]},'
                                   f'"before":{before},"after":{after},"game":{tail}')

        # --- cannons: score (the first of two choices) or save
        scored: list[int] = []
        fired = [0] * n
        if has_cannon:
            cdie = t.cannon_die
            for seat in order:
                for d in hands[seat]:
                    if cdie[d]:
                        fire = int(ai[seat]() * 2) == 0
                        if fire:
                            scored.append(d)
                            fired[seat] += values[d] * CANNON_MULTIPLIER
                        if log:
                            out.append(f'{{"event":"cannon","round":{r},'
                                       f'"player":{pnames[seat]},"die":{ids[d]},"decision":'
                                       f'"{"score" if fire else "save"}","value":{values[d]},'
                                       f'"game":{tail}')

        # --- the round's scores
        round_totals = []
        for seat in seats:
            c0, c1, c2, c3, c4, c5, c6, merc, _ = sums[seat]
            c0 = yellow[seat]
            c1 *= PURPLE_MULTIPLIER
            if glitters[seat]:
                c2 *= GLITTER_MULTIPLIER
            c3 *= reds[seat]
            c4 += merc * r
            c6 += fired[seat]
            total = c0 + c1 + c2 + c3 + c4 + c5 + c6
            round_totals.append(total)
            totals[seat] += total
            if log:
                dice = ",".join([rolled[d][values[d]] for d in hands[seat]])
                out.append(f'{{"event":"score","round":{r},"player":{pnames[seat]},'
                           f'"dice":[{dice}],"columns":{{"yellow":{c0},"purple":{c1},'
                           f'"blue":{c2},"red":{c3},"green":{c4},"clear":{c5},"pink":{c6}}},'
                           f'"total":{total},"game":{tail}')
        if scored:
            for hand in hands:
                for d in scored:
                    if d in hand:
                        hand.remove(d)
        if r == ROUNDS:
            break

        if has_mischief and r == 1:
            for seat, d in zip(seats, t.mischief, strict=False):
                hands[seat].append(d)
            if log:
                out.append(su.dealt + tail)

        # --- step 2: pity dice to the lowest round totals, ties from the token's right
        for hand in hands:
            for d in pity:
                if d in hand:
                    hand.remove(d)
        # (round total, seats counter-clockwise from the token's right) as one number
        rank = [round_totals[p] * n + (token - 1 - p) % n for p in seats]
        ranked = sorted(seats, key=rank.__getitem__)
        given = list(zip(ranked, pity, strict=False))
        for seat, d in given:
            hands[seat].append(d)
        if log:
            gs = ",".join([f'{pkeys[seat]}{ids[d]}' for seat, d in given])
            out.append(f'{{"event":"pity","round":{r},"given":{{{gs}}},"game":{tail}')

        # --- the Captain sends matching Mercenaries back to the bag
        if has_mercenary:
            value = int(rnd() * CAPTAIN_SIDES) + 1
            lost: list[tuple[int, int]] = []
            for seat in seats:
                hand = hands[seat]
                gone = [d for d in hand if slot[d] == _MERCENARY_SLOT and values[d] == value]
                if gone:
                    hand[:] = [d for d in hand if d not in gone]
                    bag.extend(gone)
                    lost.extend((seat, d) for d in gone)
            if log:
                ls = ",".join([f'{{"player":{pnames[seat]},"die":{ids[d]}}}'
                               for seat, d in lost])
                out.append(f'{{"event":"captain","round":{r},"value":{value},"lost":[{ls}],'
                           f'"game":{tail}')

        # --- step 3: the trade pass, from the token holder's left
        # The random player numbers its moves: Pass, then each (clear die, player, die to take)
        # with players in seat order and dice in hand order; only the chosen move is found.
        # How many dice each hand offers stays the same through the pass: a trade swaps one
        # takeable die for another.
        traded: set[int] = set()
        offered: list[int] = []
        for i in range(1, n + 1):
            seat = (token + i) % n
            if not clears[seat]:
                continue
            hand = hands[seat]
            choose = ai[seat]
            while True:
                gives = [d for d in hand if giveable[d] and d not in traded]
                if not gives:
                    break
                if not offered:
                    offered = [len(h) for h in hands]
                    for holder, _ in given:
                        offered[holder] -= 1
                    if has_cannon:
                        cdie = t.cannon_die
                        for other in seats:
                            offered[other] -= sum([cdie[d] for d in hands[other]])
                per_give = sum(offered) - offered[seat]
                pick = int(choose() * (1 + len(gives) * per_give))
                if pick == 0:
                    break
                g, j = divmod(pick - 1, per_give)
                give = gives[g]
                for target in seats:
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
                clears[seat] -= 1
                clears[target] += 1
                if giveable[take]:
                    clears[seat] += 1
                    clears[target] -= 1
                elif is_red[take]:
                    reds[seat] += 1
                    reds[target] -= 1
                elif is_glitter[take]:
                    glitters[seat] += 1
                    glitters[target] -= 1
                traded.add(give)
                if log:
                    out.append(f'{{"event":"trade","round":{r},"player":{pnames[seat]},'
                               f'"target":{pnames[target]},"gave":{ids[give]},'
                               f'"took":{ids[take]},"game":{tail}')

        # --- the draft: players + 1 dice from the bag, highest yellow first
        pool = []
        size = len(bag)
        for left in range(size, max(size - n - 1, 0), -1):
            pool.append(bag.pop(int(rnd() * left)))
        if log:
            ps = ",".join([plain[d] for d in pool])
            out.append(f'{{"event":"draft_pool","round":{r},"dice":[{ps}],"game":{tail}')
        # (highest yellow first, seats clockwise from the token holder) as one number
        rank = [(p - token) % n - yellow[p] * n for p in seats]
        for seat in sorted(seats, key=rank.__getitem__):
            if not pool:
                break
            d = pool.pop(int(ai[seat]() * len(pool)))
            hands[seat].append(d)
            reds[seat] += is_red[d]
            glitters[seat] += is_glitter[d]
            clears[seat] += giveable[d]
            if log:
                out.append(f'{{"event":"pick","round":{r},"player":{pnames[seat]},'
                           f'"die":{ids[d]},"game":{tail}')
        bag.extend(pool)
        if log:
            rs = ",".join([ids[d] for d in pool])
            out.append(f'{{"event":"draft_return","round":{r},"dice":[{rs}],"game":{tail}')

    winners = winners_of(totals)
    if log:
        ts = ",".join([f"{pkeys[i]}{totals[i]}" for i in seats])
        ws = ",".join([pnames[i] for i in winners])
        out.append(f'{{"event":"game_end","totals":{{{ts}}},"winners":[{ws}],"game":{tail}')
    return totals, winners, out


__all__ = ["play_random_game"]
