"""Check 2 for Panda Royale: the rules, read from the log alone (no engine flow).

Every die is tracked from ``setup`` through each event that moves it (mischief_dealt, pity,
captain, trade, draft_pool, pick, draft_return, a scored Cannon leaving the game), and each
event is checked against docs/rules.md: the order of the round, the yellow token, the mischief
actions, the Cannon decisions, every ``score`` recomputed with :func:`score_dice`, the pity dice,
the Captain's losses, the trades, the draft pool and the pick order, and ``game_end``.

Only the dice table (``bot.rules.royale.dice``) and :func:`score_dice` come from the engine's
package. Locations follow the log (so one bad event is reported once, not at every later
event); every move checks that the die is where the rules say it must be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.rules.royale.dice import (
    BAG_DICE,
    CANNON,
    CANNON_D8,
    CANNON_KIND,
    CAPTAIN_SIDES,
    COLOR_COLUMN,
    COLUMN_NAMES,
    EXPANSIONS,
    MAX_PLAYERS,
    MERCENARY,
    MERCENARY_D6,
    MERCENARY_KIND,
    MIN_PLAYERS,
    MISCHIEF,
    MISCHIEF_D12,
    MISCHIEF_KIND,
    PITY,
    PITY_D12,
    ROUNDS,
    STANDARD,
    YELLOW_D6,
    DieSpec,
    DieType,
    dice_for,
)
from bot.rules.royale.scoring import score_dice
from bot.rules.validate.report import Problems

Obj = dict[str, Any]
Entry = tuple[int, Obj]  # (event index in the game, event)

_TYPES: dict[tuple[str, int, str], DieType] = {
    (t.color, t.sides, t.kind): t
    for t in (YELLOW_D6, PITY_D12, *BAG_DICE, MISCHIEF_D12, CANNON_D8, MERCENARY_D6)
}

# The order of a round (docs/game-log.md); mischief_dealt comes after round 1 is scored.
STAGES: dict[str, int] = {
    "token": 0, "mischief": 1, "cannon": 2, "score": 3, "mischief_dealt": 4, "pity": 5,
    "captain": 6, "trade": 7, "draft_pool": 8, "pick": 9, "draft_return": 10,
}
SINGLE = frozenset({"token", "mischief_dealt", "pity", "captain", "draft_pool", "draft_return"})
AFTER_SCORE = ("mischief_dealt", "pity", "captain", "trade", "draft_pool", "pick",
               "draft_return")

BAG = "the bag"
POOL = "the draft pool"
ASIDE = "set aside"
OUT = "out of the game"


def _hand(player: str) -> str:
    return f"hand:{player}"


def _where_text(loc: str | None) -> str:
    if loc is None:
        return "unknown"
    return f"in {loc[5:]}'s hand" if loc.startswith("hand:") else loc


def spec_of(d: Obj) -> DieSpec | None:
    """The die a log die object describes, or None if the box has no such die."""
    t = _TYPES.get((d["color"], d["sides"], d["kind"]))
    if t is None:
        return None
    return DieSpec(d["id"], t.color, t.sides, t.kind, t.faces, t.label, COLOR_COLUMN[t.color],
                   t.kind not in (PITY, CANNON_KIND), t.color == "clear" and t.kind == STANDARD)


def pity_order(totals: Sequence[int], token: int) -> list[int]:
    """Seats lowest round total first; ties counter-clockwise from the token holder's right."""
    n = len(totals)
    return sorted(range(n), key=lambda p: (totals[p], (token - 1 - p) % n))


def pick_order(yellow: Sequence[int], token: int) -> list[int]:
    """Seats highest yellow total first; ties clockwise from the token holder."""
    n = len(yellow)
    return sorted(range(n), key=lambda p: (-yellow[p], (p - token) % n))


class RoyaleRules:
    """Reads one game's events (already shape-checked) and records every rule broken."""

    def __init__(self, events: Sequence[Obj], problems: Problems) -> None:
        self.events = events
        self.p = problems
        setup = events[0]
        self.players: list[str] = list(setup["players"])
        self.n = len(self.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.expansions: set[str] = set()
        self.specs: dict[str, DieSpec] = {}
        self.where: dict[str, str] = {}
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        self.round = 0
        self.token = 0
        self.sheet: dict[str, list[int]] = {p: [] for p in self.players}
        self.ended = False
        self.tk = 0  # index of the current round's token event
        self.reached = len(STAGES)  # the last step of the round the log reaches

    # ------------------------------------------------------------------ dice and places

    def known(self, k: int, d: Obj) -> DieSpec | None:
        """The spec of a die object met in event ``k``, checking it never changes."""
        spec = self.specs.get(d["id"])
        if spec is None:
            self.p.add(k, f"die {d['id']} was not in the game at setup")
            return None
        if (spec.color, spec.sides, spec.kind) != (d["color"], d["sides"], d["kind"]):
            self.p.add(k, f"die {d['id']} is now {d['color']} d{d['sides']} {d['kind']}, "
                          f"but was {spec.color} d{spec.sides} {spec.kind}")
        return spec

    def place(self, k: int, die: str, loc: str, what: str) -> None:
        """Put a die that enters the game (setup) at ``loc``."""
        if die in self.where:
            self.p.add(k, f"{what}: die {die} is already {_where_text(self.where[die])}")
            return
        self.where[die] = loc
        if loc.startswith("hand:"):
            self.hands[loc[5:]].append(die)

    def move(self, k: int, die: str, frm: str | tuple[str, ...], to: str, what: str) -> None:
        """Move ``die`` to ``to``, checking it is at ``frm`` (one of them) now."""
        now = self.where.get(die)
        allowed = (frm,) if isinstance(frm, str) else frm
        if now not in allowed:
            want = " or ".join(_where_text(f) for f in allowed)
            self.p.add(k, f"{what}: die {die} is {_where_text(now)}, not {want}")
            if now is None:
                return
        self.relocate(die, to)

    def relocate(self, die: str, to: str) -> None:
        """Move ``die`` without a check (to follow the log after a reported problem)."""
        now = self.where.get(die)
        if now is not None and now.startswith("hand:"):
            self.hands[now[5:]].remove(die)
        self.where[die] = to
        if to.startswith("hand:"):
            self.hands[to[5:]].append(die)

    def holds(self, player: str, die: str) -> bool:
        return self.where.get(die) == _hand(player)

    def kind(self, die: str) -> str:
        spec = self.specs.get(die)
        return spec.kind if spec else ""

    # ------------------------------------------------------------------ the game

    def run(self, partial_end: bool) -> None:
        """Check every event; ``partial_end``: the log may stop anywhere (unfinished game)."""
        self.setup()
        block: list[Entry] = []
        events = self.events
        for k in range(1, len(events)):
            obj = events[k]
            name = obj["event"]
            if self.ended or name == "setup":
                self.p.after_end(k, name, len(self.events) - k)
                break
            if name == "game_end":
                if block:
                    self.round_block(block, partial=False)
                    block = []
                self.game_end(k, obj)
                continue
            if name == "token" and block:
                self.round_block(block, partial=False)
                block = []
            if not block and name != "token":
                self.p.add(k, f"{name} before the round's token event")
                continue
            block.append((k, obj))
        if block:
            self.round_block(block, partial=partial_end)

    def setup(self) -> None:
        s = self.events[0]
        n = self.n
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            self.p.add(0, f"Panda Royale is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                          f"not {n}")
        for e in s["expansions"]:
            if e not in EXPANSIONS:
                self.p.add(0, f"unknown expansion option {e!r}")
            elif e in self.expansions:
                self.p.add(0, f"expansion option {e} listed twice")
            self.expansions.add(e)
        exps = tuple(e for e in EXPANSIONS if e in self.expansions)
        table = dice_for(max(MIN_PLAYERS, min(n, MAX_PLAYERS)), exps)

        def triple(x: DieSpec | Obj) -> tuple[str, int, str]:
            if isinstance(x, DieSpec):
                return (x.color, x.sides, x.kind)
            return (x["color"], x["sides"], x["kind"])

        def register(d: Obj, loc: str) -> None:
            spec = spec_of(d)
            if spec is None:
                self.p.add(0, f"die {d['id']}: the box has no {d['color']} d{d['sides']} "
                              f"{d['kind']} die")
                return
            if d["id"] in self.specs:
                self.p.add(0, f"die id {d['id']} is used twice")
                return
            self.specs[d["id"]] = spec
            self.place(0, d["id"], loc, "setup")

        for p in self.players:
            hand = s["hands"][p]
            if [triple(d) for d in hand] != [(YELLOW_D6.color, 6, STANDARD)]:
                self.p.add(0, f"{p} must start with one yellow d6, not {len(hand)} dice "
                              f"({', '.join(d['id'] for d in hand)})")
            for d in hand:
                register(d, _hand(p))
        bag = s["bag"]
        want = Counter(triple(table.specs[d]) for d in table.bag)
        got = Counter(triple(d) for d in bag)
        if got != want:
            self.p.add(0, f"the bag holds {len(bag)} dice, not the {len(table.bag)} of the "
                          f"components table ({_counter_diff(want, got)})")
        for d in bag:
            register(d, BAG)
        aside_ids = (*table.pity, *table.mischief)
        if "aside" in s:
            aside = s["aside"]
            want = Counter(triple(table.specs[d]) for d in aside_ids)
            got = Counter(triple(d) for d in aside)
            if got != want:
                self.p.add(0, f"the dice set aside are not the {len(table.pity)} pity dice and "
                              f"the Mischief dice of this game ({_counter_diff(want, got)})")
            for d in aside:
                register(d, ASIDE)
        else:  # docs/game-log.md does not require "aside": take the components table's.
            for d in aside_ids:
                sp = table.specs[d]
                register({"id": sp.id, "color": sp.color, "sides": sp.sides, "kind": sp.kind},
                         ASIDE)

    # ------------------------------------------------------------------ one round

    def round_block(self, block: list[Entry], partial: bool) -> None:
        tk, tok = block[0]
        r = tok["round"]
        if r != self.round + 1:
            self.p.add(tk, f"token of round {r}, expected round {self.round + 1}")
        if not 1 <= r <= ROUNDS:
            self.p.add(tk, f"there is no round {r}")
            r = min(max(r, 1), ROUNDS)
        self.round = r
        buckets: dict[str, list[Entry]] = {name: [] for name in STAGES}
        stage, last = 0, "token"
        for k, obj in block:
            name = obj["event"]
            if name not in STAGES:
                self.p.add(k, f"{name} inside round {r}")
                continue
            if obj["round"] != r:
                self.p.add(k, f"{name} says round {obj['round']} inside round {r}")
            if STAGES[name] < stage:
                self.p.add(k, f"{name} out of order: after {last} in round {r}")
            elif name in SINGLE and buckets[name]:
                self.p.add(k, f"a second {name} in round {r}")
                continue
            else:
                stage, last = STAGES[name], name
            buckets[name].append((k, obj))
        reached = max(STAGES[obj["event"]] for _, obj in block if obj["event"] in STAGES)
        # Where the log stops in an unfinished game, later steps are not missing yet.
        self.reached = reached if partial else len(STAGES)
        self.tk = tk
        self.token_event(tk, tok)
        values: dict[str, int] = {}
        mischief = buckets["mischief"]
        cannons = buckets["cannon"]
        self.mischief_events(mischief)
        scored = self.cannon_events(cannons)
        totals = self.scores(buckets["score"], values, scored, tok)
        if self.reached > STAGES["score"] or not partial:
            self.mischief_actors(mischief, values)
        for k, obj in cannons:
            if "value" in obj and obj["die"] in values and obj["value"] != values[obj["die"]]:
                self.p.add(k, f"Cannon {obj['die']} shows {obj['value']} here but "
                              f"{values[obj['die']]} in its score")
        hands = tuple(_hand(p) for p in self.players)
        for k, obj in cannons:
            if obj["decision"] == "score" and obj["die"] in self.where:
                self.move(k, obj["die"], hands, OUT, "scored Cannon")
        if r == ROUNDS:
            for name in AFTER_SCORE:
                for k, _ in buckets[name]:
                    self.p.add(k, f"round {ROUNDS} has no {name}")
            return
        self.mischief_dealt(buckets["mischief_dealt"])
        self.pity(buckets["pity"], totals)
        self.captain(buckets["captain"], values)
        self.trades(buckets["trade"])
        self.draft(buckets["draft_pool"], buckets["pick"], buckets["draft_return"], tok)

    def missing(self, name: str, why: str = "") -> None:
        if STAGES[name] < self.reached:
            self.p.add(self.tk, f"round {self.round} has no {name} event{why}")

    def token_event(self, k: int, tok: Obj) -> None:
        r = self.round
        yellow: dict[str, int] = tok["yellow"]
        holders = [p for p in self.players
                   if any(self.specs[d].color == "yellow" for d in self.hands[p])]
        for p in self.players:
            if p not in holders and yellow[p] != 0:
                self.p.add(k, f"{p} holds no yellow die but has yellow total {yellow[p]}")
        expected: str | None = self.players[self.token]
        if holders:
            top = max(yellow[p] for p in holders)
            tops = [p for p in self.players if yellow[p] == top]
            if len(tops) == 1:
                expected = tops[0]
            elif r < ROUNDS:
                self.p.add(k, f"{' and '.join(tops)} share the top yellow total {top}: the yellow "
                              "dice must be re-rolled until one player alone has it")
                expected = None
        if expected is not None and tok["player"] != expected:
            why = "the top yellow total" if holders else "nobody holds a yellow die"
            self.p.add(k, f"the token goes to {tok['player']}, but {why}: it goes to "
                          f"{expected}")
        if (r == ROUNDS or not holders) and tok["rerolls"] != 0:
            self.p.add(k, f"{tok['rerolls']} yellow re-rolls where there can be none")
        if tok["rerolls"] < 0:
            self.p.add(k, "a negative number of yellow re-rolls")
        self.token = self.seat[tok["player"]]

    def mischief_events(self, events: list[Entry]) -> None:
        if events and (MISCHIEF not in self.expansions or self.round < 2):
            why = "without the mischief option" if MISCHIEF not in self.expansions else \
                "in round 1"
            self.p.add(events[0][0], f"a mischief action {why}")
        for k, obj in events:
            die, who, target = obj["die"], obj["player"], obj["target"]
            if who == target:
                self.p.add(k, "mischief must target another player's die")
            if not self.holds(target, die):
                self.p.add(k, f"{target} does not hold {die} (it is "
                              f"{_where_text(self.where.get(die))})")
            spec = self.specs.get(die)
            if spec is None:
                continue
            if spec.color == "yellow":
                self.p.add(k, f"mischief cannot re-roll the yellow die {die}")
            for key in ("before", "after"):
                if obj[key] not in spec.faces:
                    self.p.add(k, f"{die} has no face {obj[key]} ({key})")

    def cannon_events(self, events: list[Entry]) -> set[str]:
        scored: set[str] = set()
        if events and CANNON not in self.expansions:
            self.p.add(events[0][0], "a Cannon decision without the cannon option")
        held = {d: p for p in self.players for d in self.hands[p] if self.kind(d) == CANNON_KIND}
        seen: set[str] = set()
        last = -1
        for k, obj in events:
            die, who = obj["die"], obj["player"]
            if self.kind(die) != CANNON_KIND:
                self.p.add(k, f"{die} is not a Cannon die")
            elif held.get(die) != who:
                self.p.add(k, f"{who} does not hold the Cannon {die}")
            if die in seen:
                self.p.add(k, f"a second decision on Cannon {die} this round")
            seen.add(die)
            pos = (self.seat[who] - self.token) % self.n
            if pos < last:
                self.p.add(k, f"Cannon decision of {who} out of turn (they go clockwise from "
                              "the token holder)")
            last = max(last, pos)
            if obj["decision"] == "score":
                scored.add(die)
        if STAGES["cannon"] < self.reached:
            for die, p in held.items():
                if die not in seen:
                    self.p.add(self.tk, f"round {self.round}: {p} rolled the Cannon {die} but "
                                        "no cannon decision is logged")
        return scored

    def scores(self, events: list[Entry], values: dict[str, int], scored: set[str],
               tok: Obj) -> dict[str, int]:
        totals: dict[str, int] = {}
        r = self.round
        for k, obj in events:
            p = obj["player"]
            if p in totals:
                self.p.add(k, f"a second score of {p} in round {r}")
                continue
            rolled: list[tuple[DieSpec, int]] = []
            ids: list[str] = []
            for d in obj["dice"]:
                spec = self.known(k, d)
                ids.append(d["id"])
                if spec is None:
                    continue
                v = d["value"]
                if v not in spec.faces:
                    self.p.add(k, f"{d['id']} ({spec.label}) has no face {v}")
                rolled.append((spec, v))
                values[d["id"]] = v
            if len(set(ids)) != len(ids):
                dup = sorted(d for d, c in Counter(ids).items() if c > 1)
                self.p.add(k, f"{p}'s score lists {', '.join(dup)} twice")
            hand = set(self.hands[p])
            if set(ids) != hand:
                extra = sorted(set(ids) - hand)
                missing = sorted(hand - set(ids))
                bits = []
                if extra:
                    bits.append(f"lists {', '.join(extra)}, which {p} does not hold")
                if missing:
                    bits.append(f"leaves out {', '.join(missing)}, which {p} holds")
                self.p.add(k, f"{p}'s score {' and '.join(bits)}")
                # Follow the score from here (it lists every die held), so one bad move is
                # reported once rather than at every later round.
                for die in extra:
                    if die in self.where:
                        self.relocate(die, _hand(p))
            cols = score_dice(rolled, r, scored)
            logged = obj["columns"]
            for name, want in zip(COLUMN_NAMES, cols, strict=True):
                if logged[name] != want:
                    self.p.add(k, f"{p}'s {name} column is {logged[name]}, its dice score {want}")
            total = sum(logged[name] for name in COLUMN_NAMES)
            if obj["total"] != total:
                self.p.add(k, f"{p}'s round total is {obj['total']}, its columns add up to "
                              f"{total}")
            if logged["yellow"] != tok["yellow"][p]:
                self.p.add(k, f"{p} scores {logged['yellow']} in yellow but the token event "
                              f"says {tok['yellow'][p]}")
            totals[p] = obj["total"]
        for p in self.players:
            if p in totals:
                self.sheet[p].append(totals[p])
            elif STAGES["score"] < self.reached:
                self.p.add(self.tk, f"round {r} has no score event for {p}")
        return totals

    def mischief_actors(self, events: list[Entry], values: dict[str, int]) -> None:
        """Who acts: each Mischief die showing the top Mischief value, token holder first."""
        if MISCHIEF not in self.expansions or self.round < 2:
            return
        first: dict[str, int] = {}  # the value each die showed before any mischief
        chain: dict[str, int] = {}
        for k, obj in events:
            die = obj["die"]
            first.setdefault(die, obj["before"])
            if die in chain and chain[die] != obj["before"]:
                self.p.add(k, f"{die} showed {chain[die]}, not {obj['before']}, before this "
                              "mischief")
            chain[die] = obj["after"]
        for die, after in chain.items():
            if die in values and values[die] != after:
                k = max(k for k, obj in events if obj["die"] == die)
                self.p.add(k, f"{die} is re-rolled to {after} but scores {values[die]}")
        held = []
        for i in range(self.n):
            p = self.players[(self.token + i) % self.n]
            for d in self.hands[p]:
                if self.kind(d) == MISCHIEF_KIND:
                    v = first.get(d, values.get(d))
                    if v is None:
                        return
                    held.append((p, v))
        top = max((v for _, v in held), default=None)
        expected = [p for p, v in held if v == top and self.has_target(p)]
        actual = [obj["player"] for _, obj in events]
        if actual != expected:
            k = events[0][0] if events else self.tk
            why = (f"the Mischief dice showing the top value {top} give them to "
                   f"[{', '.join(expected)}]" if held else "no Mischief die is in play")
            self.p.add(k, f"round {self.round}: mischief actions by [{', '.join(actual)}], "
                          f"but {why}")

    def has_target(self, p: str) -> bool:
        return any(self.specs[d].color != "yellow" for q in self.players if q != p
                   for d in self.hands[q])

    def mischief_dealt(self, events: list[Entry]) -> None:
        due = MISCHIEF in self.expansions and self.round == 1
        if not due:
            for k, _ in events:
                self.p.add(k, "Mischief dice are dealt once, after round 1, with the mischief "
                              "option")
            return
        if not events:
            self.missing("mischief_dealt")
            return
        k, obj = events[0]
        dealt: dict[str, Obj] = obj["dice"]
        missing = [p for p in self.players if p not in dealt]
        if missing:
            self.p.add(k, f"no Mischief die dealt to {', '.join(missing)}")
        for p, d in dealt.items():
            spec = self.known(k, d)
            if spec is not None and spec.kind != MISCHIEF_KIND:
                self.p.add(k, f"{d['id']} dealt to {p} is not a Mischief die")
            if spec is not None:
                self.move(k, d["id"], ASIDE, _hand(p), f"Mischief die dealt to {p}")

    def pity(self, events: list[Entry], totals: dict[str, int]) -> None:
        if not events:
            self.missing("pity")
            return
        k, obj = events[0]
        given: dict[str, str] = obj["given"]
        pity = [d for d, spec in self.specs.items() if spec.kind == PITY]
        count = min(len(pity), self.n)
        if len(totals) == self.n:
            order = pity_order([totals[p] for p in self.players], self.token)
            want = [self.players[i] for i in order[:count]]
            if set(given) != set(want):
                self.p.add(k, f"pity dice go to [{', '.join(given)}], but the lowest round "
                              f"totals give them to [{', '.join(want)}]")
        if len(given) != count:
            self.p.add(k, f"{len(given)} pity dice given, not {count}")
        dice = list(given.values())
        if len(set(dice)) != len(dice):
            self.p.add(k, "a pity die is given twice")
        for p, d in given.items():
            if self.kind(d) != PITY:
                self.p.add(k, f"{d} given to {p} is not a pity die")
        holders = (*(_hand(p) for p in self.players), ASIDE)
        to = {d: p for p, d in given.items()}
        for d in pity:
            if d in to:
                self.move(k, d, holders, _hand(to[d]), f"pity die given to {to[d]}")
            elif self.where.get(d) != ASIDE:
                self.move(k, d, holders, ASIDE, "pity die taken back")

    def captain(self, events: list[Entry], values: dict[str, int]) -> None:
        if MERCENARY not in self.expansions:
            for k, _ in events:
                self.p.add(k, "a Captain roll without the mercenary option")
            return
        if not events:
            self.missing("captain")
            return
        k, obj = events[0]
        value = obj["value"]
        if not 1 <= value <= CAPTAIN_SIDES:
            self.p.add(k, f"the Captain d{CAPTAIN_SIDES} has no face {value}")
        want = {(p, d) for p in self.players for d in self.hands[p]
                if self.kind(d) == MERCENARY_KIND and values.get(d) == value}
        got = [(x["player"], x["die"]) for x in obj["lost"]]
        if set(got) != want or len(got) != len(want):
            self.p.add(k, f"the Captain shows {value}: lost {_pairs(got)}, but the Mercenary "
                          f"dice showing {value} are {_pairs(sorted(want))}")
        for p, d in got:
            self.move(k, d, _hand(p), BAG, f"Mercenary lost by {p}")

    def trades(self, events: list[Entry]) -> None:
        given: set[str] = set()
        last = -1
        for k, obj in events:
            who, target, gave, took = obj["player"], obj["target"], obj["gave"], obj["took"]
            pos = (self.seat[who] - self.token - 1) % self.n
            if pos < last:
                self.p.add(k, f"{who} trades after their turn (the pass goes clockwise from the "
                              "token holder's left, the token holder last)")
            last = max(last, pos)
            if who == target:
                self.p.add(k, "a trade must be with another player")
            spec = self.specs.get(gave)
            if spec is None or not spec.giveable:
                self.p.add(k, f"{gave} is not a clear d6: only a clear d6 can be given")
            elif gave in given:
                self.p.add(k, f"{gave} was already given this round")
            if not self.holds(who, gave):
                self.p.add(k, f"{who} does not hold {gave}")
            if self.kind(took) in (PITY, CANNON_KIND):
                self.p.add(k, f"{took} is a {self.kind(took)} die: it cannot be taken")
            if not self.holds(target, took):
                self.p.add(k, f"{target} does not hold {took}")
            given.add(gave)
            self.move(k, gave, _hand(who), _hand(target), f"{who} gives")
            self.move(k, took, _hand(target), _hand(who), f"{who} takes")

    def draft(self, pools: list[Entry], picks: list[Entry], returns: list[Entry],
              tok: Obj) -> None:
        if not pools:
            self.missing("draft_pool")
            if picks:
                self.p.add(picks[0][0], "picks without a draft pool")
            return
        k, obj = pools[0]
        bag_size = sum(1 for loc in self.where.values() if loc == BAG)
        want = min(self.n + 1, bag_size)
        pool_dice: list[Obj] = obj["dice"]
        if len(pool_dice) != want:
            self.p.add(k, f"the draft pool has {len(pool_dice)} dice, not {want} "
                          f"(players + 1, the bag holds {bag_size})")
        for d in pool_dice:
            if self.known(k, d) is not None:
                self.move(k, d["id"], BAG, POOL, "draft pool")
        yellow = [tok["yellow"][p] for p in self.players]
        order = [self.players[i] for i in pick_order(yellow, self.token)]
        due = min(self.n, len(pool_dice))
        for i, (k, obj) in enumerate(picks):
            who = obj["player"]
            if i >= due:
                self.p.add(k, f"pick {i + 1} of a round with {due} picks")
            elif who != order[i]:
                self.p.add(k, f"{who} picks in turn {i + 1}, but the yellow totals give that "
                              f"turn to {order[i]}")
            self.move(k, obj["die"], POOL, _hand(who), f"{who} picks")
        if len(picks) < due and STAGES["pick"] < self.reached:
            self.p.add(self.tk, f"round {self.round} has {len(picks)} picks, not {due}")
        left = [d for d, loc in self.where.items() if loc == POOL]
        if not returns:
            self.missing("draft_return")
            return
        k, obj = returns[0]
        back: list[str] = obj["dice"]
        if sorted(back) != sorted(left):
            self.p.add(k, f"returns [{', '.join(back)}] to the bag, but the pool holds "
                          f"[{', '.join(left)}]")
        for die in back:
            self.move(k, die, POOL, BAG, "draft return")
        for die in left:
            if self.where.get(die) == POOL:
                self.where[die] = BAG

    # ------------------------------------------------------------------ the end

    def game_end(self, k: int, obj: Obj) -> None:
        self.ended = True
        if self.round != ROUNDS:
            self.p.add(k, f"game_end after round {self.round}, not round {ROUNDS}")
        totals = self.totals()
        logged: dict[str, int] = obj["totals"]
        for p in self.players:
            if logged[p] != totals[p]:
                self.p.add(k, f"{p}'s game total is {logged[p]}, their round totals add up to "
                              f"{totals[p]}")
        want = self.winners()
        if sorted(obj["winners"]) != sorted(want):
            self.p.add(k, f"the winners are [{', '.join(obj['winners'])}], but the top total "
                          f"belongs to [{', '.join(want)}]")

    @property
    def complete(self) -> bool:
        return self.ended and self.round == ROUNDS

    def totals(self) -> dict[str, int]:
        return {p: sum(self.sheet[p]) for p in self.players}

    def winners(self) -> list[str]:
        totals = self.totals()
        top = max(totals.values())
        return [p for p in self.players if totals[p] == top]


def _pairs(pairs: Sequence[tuple[str, str]]) -> str:
    return "[" + ", ".join(f"{d} of {p}" for p, d in pairs) + "]" if pairs else "none"


def _counter_diff(want: Counter[tuple[str, int, str]], got: Counter[tuple[str, int, str]]) -> str:
    bits = []
    for t in sorted(set(want) | set(got)):
        if want[t] != got[t]:
            bits.append(f"{got[t]} {t[0]} d{t[1]} {t[2]} instead of {want[t]}")
    return "; ".join(bits[:4]) + ("; ..." if len(bits) > 4 else "")
