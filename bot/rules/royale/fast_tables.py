"""What the simulator's fast path (:mod:`bot.rules.royale.fast`) looks up instead of computing:
the dice of one set-up as flat lists indexed by die number, and the game log's text pieces.

Built once per set-up (player ids and options), then shared by every game of a simulation.
The log pieces are the exact text :func:`bot.rules.gamelog.log_lines` writes for the engine's
events (``json.dumps``, compact, ``ensure_ascii=False``), cut where a game's values go.
"""

from __future__ import annotations

import json
from typing import Final

from bot.rules.royale.dice import (
    CANNON_KIND,
    GLITTER,
    MERCENARY_KIND,
    MISCHIEF_KIND,
    ROUNDS,
    Column,
    DiceSet,
    DieSpec,
    dice_for,
)

# Where a die's value is summed as it is rolled: its column (0-6), but Mercenary and Cannon dice
# apart (they score value x round, and value x 10 if fired).
MERCENARY_SLOT: Final = 7
CANNON_SLOT: Final = 8
SLOTS: Final = 9


def js(value: object) -> str:
    """``value`` as the log writer serialises it (json.dumps, compact, ensure_ascii=False)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _die(spec: DieSpec) -> str:
    return js(spec.to_log())


def game_tail(game_id: str) -> str:
    """The end of every line of a game's log: ``,"game":<id>}`` and the newline."""
    if game_id.isprintable() and '"' not in game_id and "\\" not in game_id:
        return f',"game":"{game_id}"}}\n'  # what json.dumps gives for such a string
    return f',"game":{js(game_id)}}}\n'


class DiceTable:
    """The dice of one set-up (player count and options), numbered 0..D-1 in spec order."""

    __slots__ = (
        "bag", "cannon_die", "faces", "giveable", "glitter", "ids", "mischief", "mischief_die",
        "pity", "red", "sides", "slot", "start", "takeable", "yellow",
    )

    def __init__(self, ds: DiceSet) -> None:
        specs = list(ds.specs.values())
        index = {sp.id: i for i, sp in enumerate(specs)}
        self.ids: list[str] = [sp.id for sp in specs]
        self.faces: list[tuple[int, ...]] = [sp.faces for sp in specs]
        self.sides: list[int] = [sp.sides for sp in specs]
        slots = {MERCENARY_KIND: MERCENARY_SLOT, CANNON_KIND: CANNON_SLOT}
        self.slot: list[int] = [slots.get(sp.kind, int(sp.column)) for sp in specs]
        self.red: list[int] = [int(sp.column == Column.RED) for sp in specs]
        self.glitter: list[int] = [int(sp.kind == GLITTER) for sp in specs]
        self.yellow: list[bool] = [sp.color == "yellow" for sp in specs]
        self.giveable: list[int] = [int(sp.giveable) for sp in specs]
        self.takeable: list[bool] = [sp.takeable for sp in specs]
        self.mischief_die: list[bool] = [sp.kind == MISCHIEF_KIND for sp in specs]
        self.cannon_die: list[int] = [int(sp.kind == CANNON_KIND) for sp in specs]
        self.pity: list[int] = [index[d] for d in ds.pity]
        self.mischief: list[int] = [index[d] for d in ds.mischief]
        self.bag: list[int] = [index[d] for d in ds.bag]
        self.start: list[int] = [index[d] for d in ds.yellow]


_TABLES: dict[tuple[int, tuple[str, ...]], DiceTable] = {}


def dice_table(players: int, expansions: tuple[str, ...]) -> DiceTable:
    """The :class:`DiceTable` of a player count and (normalised) options, built once."""
    t = _TABLES.get((players, expansions))
    if t is None:
        t = _TABLES[(players, expansions)] = DiceTable(dice_for(players, expansions))
    return t


class LogPieces:
    """The log text of one set-up (player ids, options), cut where a game's values go.

    Lists by die are indexed by die number; lists by round and seat by ``round * n + seat``;
    a rolled die's piece by ``value_base[die] + value``. Pieces named ``..._next`` start with
    the comma that separates them from the previous item of a JSON list or object.
    """

    __slots__ = (
        "dealt", "die", "die_next", "ids", "names", "rolled", "rolled_next", "score_head",
        "setup_tail", "token_head", "value_base", "yellow_key",
    )

    def __init__(self, players: tuple[str, ...], expansions: tuple[str, ...], ds: DiceSet
                 ) -> None:
        specs = ds.specs
        order = list(specs.values())
        n = len(players)
        self.names: list[str] = [js(p) for p in players]
        self.yellow_key: list[str] = [("," if i else "") + f"{name}:"
                                      for i, name in enumerate(self.names)]
        self.ids: list[str] = [js(sp.id) for sp in order]
        self.die: list[str] = [_die(sp) for sp in order]
        self.die_next: list[str] = ["," + piece for piece in self.die]
        self.value_base: list[int] = []
        self.rolled: list[str] = []
        for sp in order:
            low = min(sp.faces)
            self.value_base.append(len(self.rolled) - low)
            head = _die(sp)[:-1] + ',"value":'
            self.rolled += [f"{head}{v}}}" if v in sp.faces else ""
                            for v in range(low, max(sp.faces) + 1)]
        self.rolled_next: list[str] = ["," + piece for piece in self.rolled]
        rounds = range(ROUNDS + 1)
        self.token_head: list[str] = [
            f'{{"event":"token","round":{r},"player":{name},"yellow":{{'
            for r in rounds for name in self.names]
        self.score_head: list[str] = [
            f'{{"event":"score","round":{r},"player":{name},"dice":['
            for r in rounds for name in self.names]
        # setup: everything after the seed, up to the game id
        hands = {p: [specs[d].to_log()] for p, d in zip(players, ds.yellow, strict=True)}
        aside = [specs[d].to_log() for d in (*ds.pity, *ds.mischief)]
        tail = js({"players": list(players), "expansions": list(expansions), "hands": hands,
                   "bag": [specs[d].to_log() for d in ds.bag], "aside": aside})
        self.setup_tail: str = "," + tail[1:-1]
        dealt = {p: specs[d].to_log() for p, d in zip(players, ds.mischief, strict=False)}
        self.dealt: str = '{"event":"mischief_dealt","round":1,"dice":' + js(dealt)
        assert len(self.token_head) == (ROUNDS + 1) * n


__all__ = ["CANNON_SLOT", "MERCENARY_SLOT", "SLOTS", "DiceTable", "LogPieces", "dice_table",
           "game_tail", "js"]
