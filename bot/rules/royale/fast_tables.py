"""What the simulator's fast path (:mod:`bot.rules.royale.fast`) looks up instead of computing:
the dice of one set-up as flat lists indexed by die number, and the game log's text pieces.

Built once per set-up (player ids and options), then shared by every game of a simulation.
The log pieces are the exact text :func:`bot.rules.gamelog.log_lines` writes for the engine's
events (``json.dumps``, compact, ``ensure_ascii=False``), cut where a game's values go.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # mypyc turns u8(x), i16(x) in the compiled fast path into plain C casts
    from mypy_extensions import i16, u8
else:  # this module is never compiled: at run time they are ints
    i16 = u8 = int

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


def game_tail(game_id: str) -> bytes:
    """The end of every line of a game's log: ``,"game":<id>}`` and the newline, UTF-8."""
    if game_id.isprintable() and '"' not in game_id and "\\" not in game_id:
        return f',"game":"{game_id}"}}\n'.encode()  # what json.dumps gives for such an id
    return f',"game":{js(game_id)}}}\n'.encode()


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


def numbers(prefix: str, low: int, span: int) -> list[bytes]:
    """``prefix`` followed by each number from ``low`` on, UTF-8."""
    return [f"{prefix}{v}".encode() for v in range(low, low + span)]


def wide(table: list[bytes], low: int, value: int) -> bytes:
    """The piece of :func:`numbers` table ``table`` (starting at ``low``) for any ``value``."""
    if 0 <= value - low < len(table):
        return table[value - low]
    prefix = table[0][: -len(str(low).encode())]
    return prefix + str(value).encode()


class LogPieces:
    """The log text of one set-up (player ids, options) as UTF-8 pieces, cut where a game's
    values go.

    Lists by die are indexed by die number; lists by round and seat by ``round * n + seat``;
    Pieces named ``..._next`` start with
    the comma that separates them from the previous item of a JSON list or object.
    """

    __slots__ = (
        "dealt", "die", "die_next", "gave_head", "id_next", "ids", "key", "key_next", "names",
        "names_next", "opened", "opened_next", "pick_head", "pity_head", "pool_head", "rerolls",
        "return_head", "score_head", "setup_tail", "text_ids", "text_names", "token_head",
        "took", "trade_head",
    )

    def __init__(self, players: tuple[str, ...], expansions: tuple[str, ...], ds: DiceSet
                 ) -> None:
        specs = ds.specs
        order = list(specs.values())
        n = len(players)
        self.text_names: list[str] = [js(p) for p in players]
        self.text_ids: list[str] = [js(sp.id) for sp in order]
        self.names: list[bytes] = [name.encode() for name in self.text_names]
        self.names_next: list[bytes] = [b"," + name for name in self.names]
        self.ids: list[bytes] = [i.encode() for i in self.text_ids]
        self.id_next: list[bytes] = [b"," + i for i in self.ids]
        self.key: list[bytes] = [f"{name}:".encode() for name in self.text_names]
        self.key_next: list[bytes] = [b"," + key for key in self.key]
        self.die: list[bytes] = [_die(sp).encode() for sp in order]
        self.die_next: list[bytes] = [b"," + piece for piece in self.die]
        # a rolled die on the score line: its piece without the closing brace, then its value
        self.opened: list[bytes] = [piece[:-1] + b',"value":' for piece in self.die]
        self.opened_next: list[bytes] = [b"," + piece for piece in self.opened]
        self.rerolls: list[bytes] = numbers('},"rerolls":', 0, 64)
        rounds = range(ROUNDS + 1)

        def by_round_and_seat(event: str, rest: str) -> list[bytes]:
            return [f'{{"event":"{event}","round":{r},"player":{name},{rest}'.encode()
                    for r in rounds for name in self.text_names]

        self.token_head: list[bytes] = by_round_and_seat("token", '"yellow":{')
        self.score_head: list[bytes] = by_round_and_seat("score", '"dice":[')
        self.pick_head: list[bytes] = by_round_and_seat("pick", '"die":')
        self.trade_head: list[bytes] = by_round_and_seat("trade", '"target":')
        self.gave_head: list[bytes] = [f'{name},"gave":'.encode() for name in self.text_names]
        self.took: list[bytes] = [b',"took":' + i for i in self.ids]
        self.pity_head: list[bytes] = [f'{{"event":"pity","round":{r},"given":{{'.encode()
                                       for r in rounds]
        self.pool_head: list[bytes] = [f'{{"event":"draft_pool","round":{r},"dice":['.encode()
                                       for r in rounds]
        self.return_head: list[bytes] = [
            f'{{"event":"draft_return","round":{r},"dice":['.encode() for r in rounds]
        # setup: everything after the seed, up to the game id
        hands = {p: [specs[d].to_log()] for p, d in zip(players, ds.yellow, strict=True)}
        aside = [specs[d].to_log() for d in (*ds.pity, *ds.mischief)]
        tail = js({"players": list(players), "expansions": list(expansions), "hands": hands,
                   "bag": [specs[d].to_log() for d in ds.bag], "aside": aside})
        self.setup_tail: bytes = ("," + tail[1:-1]).encode()
        dealt = {p: specs[d].to_log() for p, d in zip(players, ds.mischief, strict=False)}
        self.dealt: bytes = ('{"event":"mischief_dealt","round":1,"dice":' + js(dealt)).encode()
        assert len(self.token_head) == (ROUNDS + 1) * n


__all__ = ["CANNON_SLOT", "MERCENARY_SLOT", "SLOTS", "DiceTable", "LogPieces", "dice_table",
           "game_tail", "i16", "js", "numbers", "u8", "wide"]
