"""What the drill's child and parent agree on: the table, the game variants, the stdout lines.

The child writes one line per fact, flushed at once, so the parent can kill it right after:

``FRESH``
    start-up found no open game (the child will open one, or stop if enough were played).
``RESUMED <game> <version> <status>``
    start-up found this open game and carries on with it.
``COMMITTING <game> <version>``
    a transaction that moves the game on from ``version`` has done all its writes and has not
    committed yet. With ``--hold`` the child then waits for a line on stdin before committing.
``ANSWERED <game> <version> <digest>``
    a service call returned: the moment the bot would answer the user. ``digest`` identifies
    the stored state at that version (``-`` in the lobby).
``STUCK <game> <version> <seat>``
    after a restart the game waits on a computer seat that the service does not play.
``FINISHED <game>``
    the game is over.
``DONE <games>``
    the child played as many games as it was told and exits.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

GUILD_ID: Final = 4242
CHANNEL_ID: Final = 4343
FIRST_HUMAN_ID: Final = 1001
"""The humans of every drill game are users 1001, 1002, ... (the first one hosts)."""

DEFAULT_VARIANTS: Final = (
    "3+1:mischief,cannon,mercenary",
    "4+0:",
    "2+1:cannon",
    "4+1:mischief,mercenary",
    "2+0:mischief,cannon",
)
"""Game ``n`` (1, 2, ...) of a drill database is played with ``variants[(n - 1) % len]``."""


@dataclass(frozen=True, slots=True)
class Variant:
    """Who sits at a drill game and which Mayhem options it uses: ``H+C:opt,opt``."""

    humans: int
    computers: int
    expansions: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Read ``"3+1:mischief,cannon"`` (3 humans, 1 computer, two options)."""
        seats, _, opts = text.partition(":")
        humans, plus, computers = seats.partition("+")
        try:
            h, c = int(humans), int(computers) if plus else 0
        except ValueError:
            raise ValueError(f"bad variant {text!r}: expected H+C:options") from None
        if h < 1 or c < 0 or not 2 <= h + c <= 10:
            raise ValueError(f"bad variant {text!r}: 1+ humans and 2 to 10 players")
        names = tuple(p.strip() for p in opts.split(",") if p.strip() and p.strip() != "none")
        return cls(h, c, names)

    def __str__(self) -> str:
        return f"{self.humans}+{self.computers}:{','.join(self.expansions)}"

    @property
    def players(self) -> int:
        return self.humans + self.computers

    def human_ids(self) -> list[int]:
        return [FIRST_HUMAN_ID + i for i in range(self.humans)]

    def settings(self) -> dict[str, Any]:
        # No turn timer fires during a drill: every human decision is played at once.
        return {"expansions": list(self.expansions), "turn_timeout": 3600}


def variant_of(game_number: int, variants: tuple[Variant, ...]) -> Variant:
    """The variant of the ``game_number``-th game (1-based) of a drill database."""
    return variants[(game_number - 1) % len(variants)]


def game_seed(drill_seed: int, game_number: int) -> int:
    """The engine seed of the ``game_number``-th game of a drill run."""
    return (drill_seed * 1_000_003 + game_number * 7_919) % (2**48)


def decision_seed(game_seed_: int, version: int, seat: int) -> int:
    """Seed of the computer player deciding for a human seat (the same after a restart)."""
    return (game_seed_ * 31 + version * 1_009 + seat * 7) % (2**62)


def state_text(state_json: Any) -> str:
    """A state as storage writes it into ``games.state`` (compact JSON)."""
    return json.dumps(state_json, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def digest(text: str) -> str:
    """Short fingerprint of a stored state's text."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
