"""How late an interaction reached the bot, by Discord's clock as far as the bot can tell
(docs/architecture.md, *What real servers do*). Discord refuses a first answer more than 3
seconds after it made the interaction, and this machine's clock may run fast or slow against
Discord's: :class:`Lateness` learns the offset from the gateway's events (the smallest recent gap
between an event's snowflake and its arrival), and a doubtful interaction is deferred first and
dropped only if Discord refuses the deferral.
"""

from __future__ import annotations

import datetime as dt
import enum
import logging
import time
from collections import OrderedDict, deque
from typing import Any, Final

import discord

log = logging.getLogger("ui.late")

FRESH_WITHIN: Final = 1.5
"""Seconds an interaction may come later than the quickest events lately and still be fresh
(Discord's 3 seconds leave the rest for the answer)."""
LEARNT_FOR_S: Final = 1800.0
"""How long a gap seen counts (clocks drift slowly; a step of the bot's clock is forgotten)."""
GAPS: Final = 256
"""How many gaps are kept."""


def host_now() -> dt.datetime:
    """Now, by this machine's clock."""
    return discord.utils.utcnow()


class Verdict(enum.Enum):
    """What the bot makes of an interaction's arrival."""

    FRESH = "fresh"
    """It came about as quickly as events do: it is answered as usual."""
    DOUBTFUL = "doubtful"
    """It may be too late: Discord is asked first (a deferral it accepts or refuses)."""


class Lateness:
    """The clocks' offset learnt from the gateway's events, and the verdict on each
    interaction.
    """

    def __init__(self) -> None:
        self._gaps: deque[tuple[float, float]] = deque(maxlen=GAPS)  # (monotonic, gap s)
        self._replaying: set[int] = set()  # shards between a drop and their RESUMED
        self._verdicts: OrderedDict[int, Verdict] = OrderedDict()  # the latest, by id

    def _gap(self, snowflake: int) -> float:
        made = discord.utils.snowflake_time(snowflake)
        return (host_now() - made).total_seconds()

    def offset(self) -> float | None:
        """The smallest gap seen lately (seconds; of every gap kept when none is recent), or
        None when nothing was learnt yet.
        """
        oldest = time.monotonic() - LEARNT_FOR_S
        gaps = [gap for at, gap in self._gaps if at >= oldest] or [gap for _, gap in self._gaps]
        return min(gaps) if gaps else None

    def learn(self, snowflake: int) -> None:
        """A gateway event made at ``snowflake`` just arrived (not while events may be
        replayed).
        """
        if not self._replaying:
            self._gaps.append((time.monotonic(), self._gap(snowflake)))

    def judge(self, interaction: discord.Interaction[Any]) -> Verdict:
        """Fresh, or doubtful (ask Discord first), once per interaction (each listener that
        asks gets the same verdict); the interaction is learnt from after.
        """
        verdict = self._verdicts.get(interaction.id)
        if verdict is not None:
            return verdict
        gap = self._gap(interaction.id)
        offset = self.offset()
        self.learn(interaction.id)
        if offset is None:  # nothing learnt yet (no replay comes before a first session's
            # events): this machine's clock is trusted within the margin, either way
            fresh = -FRESH_WITHIN <= gap <= FRESH_WITHIN
        else:
            fresh = gap - offset <= FRESH_WITHIN
        verdict = Verdict.FRESH if fresh else Verdict.DOUBTFUL
        self._verdicts[interaction.id] = verdict
        while len(self._verdicts) > GAPS:
            self._verdicts.popitem(last=False)
        return verdict

    def dropped(self, shard: int) -> None:
        """A shard's connection dropped: what it delivers until its RESUMED may be replayed."""
        self._replaying.add(shard)

    def resumed(self, shard: int) -> None:
        """A shard resumed or logged in anew: its events are live again."""
        self._replaying.discard(shard)


class TooLate(Exception):
    """Discord refused an interaction's first answer: it came too late (Discord told its user)."""


async def still_answerable(interaction: discord.Interaction[Any], verdict: Verdict) -> bool:
    """For a doubtful interaction, ask Discord by answering it first with a deferral: False
    when Discord refuses it (it came too late; nothing is to be done), True otherwise.
    """
    if verdict is Verdict.FRESH or interaction.response.is_done():
        return True
    try:
        await interaction.response.defer()
    except discord.NotFound:
        log.info("dropped an interaction of %s that Discord no longer takes (it came %.1f s "
                 "after it was made, by this machine's clock)", interaction.user.id,
                 (host_now() - interaction.created_at).total_seconds())
        return False
    except discord.HTTPException as exc:
        log.warning("Discord refused to acknowledge an interaction (%s): going on", exc.status)
    return True
