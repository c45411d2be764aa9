"""Shard clusters: which shards this process runs, and which games it owns.

Discord puts each server (guild) on shard ``(guild_id >> 22) % shard_count``. A cluster is one
process running some of the shards (``SHARD_COUNT`` and ``SHARD_IDS``); several clusters share
one PostgreSQL database. A game belongs to the cluster whose shard holds its guild: only that
process runs its turn timeouts and computer turns and restores it at start-up.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

MAX_SHARDS: Final = 4096


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that holds ``guild_id`` among ``shard_count`` shards (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2"`` or ``"0-1,5"`` as sorted, distinct shard ids.

    Raises :class:`ValueError` for anything else (a negative id, a reversed range, junk).
    """
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"not a shard id or range: {part!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"reversed range: {part!r}")
        if last >= MAX_SHARDS:
            raise ValueError(f"shard id too large: {last}")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def format_shard_ids(ids: tuple[int, ...]) -> str:
    """Shard ids as compact ranges (``(0, 1, 2, 5)`` -> ``"0-2,5"``)."""
    parts: list[str] = []
    for _, run in itertools.groupby(enumerate(ids), lambda pair: pair[1] - pair[0]):
        first, *rest = [i for _, i in run]  # consecutive ids keep the same id - position
        parts.append(f"{first}-{rest[-1]}" if rest else str(first))
    return ",".join(parts)


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """This process's shards: ``count`` shards in all, ``ids`` of them here.

    ``count`` is ``None`` for an unsharded bot (one process, every guild).
    """

    count: int | None = None
    ids: tuple[int, ...] = ()

    @property
    def sharded(self) -> bool:
        """Whether the process runs discord.py's AutoShardedBot."""
        return self.count is not None

    @property
    def shard_ids(self) -> list[int]:
        """The shards to connect (every shard when ``SHARD_IDS`` is not set)."""
        if self.count is None:
            return [0]
        return list(self.ids) if self.ids else list(range(self.count))

    def owns(self, guild_id: int | None) -> bool:
        """Whether games of ``guild_id`` belong to this process (DMs: shard 0's)."""
        if self.count is None:
            return True
        return shard_of(guild_id or 0, self.count) in self.shard_ids

    @property
    def layout(self) -> int:
        """How many shards the bot has in all (1 for an unsharded bot)."""
        return self.count or 1

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that holds ``guild_id``'s events (an unsharded bot: 0; DMs: shard 0)."""
        return shard_of(guild_id or 0, self.layout)

    @property
    def holds_shard_zero(self) -> bool:
        """Whether this cluster runs shard 0 (the one that does once-only start-up work)."""
        return 0 in self.shard_ids

    @property
    def label(self) -> str:
        """The cluster's name in logs and metrics: its shard ids, or ``all``."""
        if self.count is None:
            return "all"
        return format_shard_ids(tuple(self.shard_ids))
