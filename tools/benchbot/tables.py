"""The simulated players' side of the benchmark harness (:mod:`tools.benchbot.simworld`): a
:class:`GameTable` (one channel, its players and their game) finds the decision its game message
waits on and makes it as a :class:`Move`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import discord

MENTION = re.compile(r"<@(\d+)>")

PASSIVE = frozenset({"", "hand", "sheet", "pcard", "log", "explain", "back", "rematch", "replay",
                     "frame", "review", "page"})
"""Verbs that are not a decision of the game (private answers, help, a decision's step back,
the game-over buttons)."""
INTERACTIVE = frozenset({2, 3, 5, 6, 7, 8})
"""Buttons and selects (Discord's component types)."""
TEXT_DISPLAY = 10
"""A Text Display (Components V2)."""


class BenchError(RuntimeError):
    """The benchmark could not go on (a click was refused, a game stalled)."""


def _kind(component: Any) -> int:
    kind = getattr(component, "type", None)
    return int(getattr(kind, "value", kind) or 0)


def _walk(items: Any) -> list[Any]:
    """Every component, wherever it sits: inside containers, rows, sections (and their
    accessory) too.
    """
    out: list[Any] = []
    for c in items or []:
        out.append(c)
        inner = list(getattr(c, "children", None) or [])
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            inner.append(accessory)
        out.extend(_walk(inner))
    return out


def components(msg: Any) -> list[Any]:
    """Every button and select of a message (a Components V2 card: in its container's rows)."""
    return [c for c in _walk(getattr(msg, "components", None)) if _kind(c) in INTERACTIVE]


def text_of(msg: Any) -> str:
    """What a message says: its content and its Text Displays, in order."""
    parts = [getattr(msg, "content", None) or ""]
    parts += [getattr(c, "content", None) or "" for c in _walk(getattr(msg, "components", None))
              if _kind(c) == TEXT_DISPLAY]
    return "\n".join(p for p in parts if p)


def verb(custom_id: str | None) -> str:
    """The verb of a game component: ``<prefix>:<verb>:<game>:<version>:<arg>``."""
    parts = (custom_id or "").split(":")
    return parts[1] if len(parts) >= 5 else ""


@dataclass(frozen=True, slots=True)
class Move:
    """One interaction a player makes: a button click, or a select with ``values``."""

    actor: Any
    message: discord.Message
    custom_id: str
    values: tuple[str, ...] | None = None

    @property
    def verb(self) -> str:
        return verb(self.custom_id)

    async def play(self) -> Any:
        """Make the interaction through SimCord's public API (returns once settled)."""
        if self.values is None:
            return await self.actor.click(self.message, custom_id=self.custom_id)
        return await self.actor.select(self.message, list(self.values), custom_id=self.custom_id)


@dataclass
class GameTable:
    """One channel, its own players (``players[0]`` hosts) and the game played there."""

    channel: Any
    players: list[Any]
    by_id: dict[int, Any] = field(default_factory=dict)
    decisions: int = 0

    def __post_init__(self) -> None:
        self.by_id = {m.id: m for m in self.players}

    @property
    def host(self) -> Any:
        return self.players[0]

    def game_message(self) -> discord.Message | None:
        """The newest message with game components (other than My dice), if any."""
        for msg in reversed(self.channel.history()):
            if any(verb(getattr(c, "custom_id", None)) not in PASSIVE
                   for c in components(msg)):
                return msg  # type: ignore[no-any-return]
        return None

    def lobby_move(self, who: Any, what: str, level: str = "normal") -> Move:
        """A lobby button (join, start) clicked by ``who``, or its menu of computer players
        (``cpu``: one of ``level`` added).
        """
        msg = self.game_message()
        if msg is None:
            raise BenchError(f"no lobby message in #{self.channel.name}")
        for c in components(msg):
            if verb(c.custom_id) == what:
                return Move(who, msg, c.custom_id, (level,) if what == "cpu" else None)
        raise BenchError(f"no {what} button on the lobby of #{self.channel.name}")

    def next_move(self, rng: random.Random, trade_rate: float = 0.3) -> Move | None:
        """The decision the game message waits on, as its player would make it; None once
        the game is over.
        """
        msg = self.game_message()
        if msg is None:
            return None
        m = MENTION.search(text_of(msg))  # the first mention: whoever must decide
        who = self.by_id.get(int(m.group(1))) if m else None
        if who is None:
            return None
        comps = [c for c in components(msg) if verb(c.custom_id) not in PASSIVE]
        by_verb = {verb(c.custom_id): c for c in comps}
        picks = [c for c in comps if verb(c.custom_id) == "pick"]
        if picks:
            return Move(who, msg, rng.choice(picks).custom_id)
        if "fire" in by_verb:
            key = "fire" if rng.random() < 0.5 else "save"
            return Move(who, msg, by_verb[key].custom_id)
        for second in ("mdie", "tdie", "mtarget"):  # select steps of mischief and trade
            if second in by_verb:
                sel = by_verb[second]
                return Move(who, msg, sel.custom_id, (rng.choice(sel.options).value,))
        if "pass" in by_verb:
            if "ttarget" in by_verb and rng.random() < trade_rate:
                sel = by_verb["ttarget"]
                return Move(who, msg, sel.custom_id, (rng.choice(sel.options).value,))
            return Move(who, msg, by_verb["pass"].custom_id)
        raise BenchError(f"nothing to do on {text_of(msg)!r}: {sorted(by_verb)}")
