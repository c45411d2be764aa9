"""A click's one answer to Discord: the move itself when it is ready at once, else a deferral.

Discord needs an answer to every interaction within 3 seconds, and it is one request whatever
it carries. A move that is committed and drawn within :data:`SHOW_WITHIN` is answered by the
edit of the clicked message itself (the callback ``UPDATE_MESSAGE``): the board shows the move
in one request that no rate limit touches (interaction callbacks count against neither the
bot's global limit nor the channel's). A slower one is deferred at :data:`SHOW_WITHIN`
(``DEFERRED_UPDATE_MESSAGE``) and its edit goes through the interaction's webhook.
Either way the click is answered within :data:`SHOW_WITHIN` plus one request. A bot that is
behind defers every new click first, so that a backlog never delays the answers: behind is
more than :data:`WAITING_AT_MOST` clicks waiting for their edit, or a last move that took
longer than :data:`SHOW_WITHIN` from its click to its edit (a busy event loop: the move would
miss its window and its deferral would wait its turn as well). Every move's time is measured,
those of clicks deferred first too, so a bot that catches up shows moves in their answer again.

An :class:`Answer` holds that choice for one click: the deferral timer, and a lock so that the
timer and the move's edit never both answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from ui.late import TooLate, Verdict

log = logging.getLogger("ui.answers")

SHOW_WITHIN: Final = 0.025
"""Seconds a move may take (commit and drawing) to be answered by its own edit; past them the
click is deferred. Well inside Discord's 3 seconds, and short enough that the answer's own
latency stays that of an immediate deferral for a person."""

WAITING_AT_MOST: Final = 16
"""Clicks that may wait for their own move's edit at once; past them a click is deferred
first (a bot that is behind answers every click at once, as a deferral costs no database)."""


class Answer:
    """The answer of one click that may show its move: the edit, or a deferral on time."""

    __slots__ = ("_lock", "_timer", "interaction", "refused")

    def __init__(self, interaction: discord.Interaction[Any], within: float | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """Defer ``interaction`` after ``within`` seconds (default :data:`SHOW_WITHIN`), waited
        with ``sleep``, unless :meth:`show` answered it first.
        """
        self.interaction = interaction
        self.refused = False
        """Discord refused this click's answer: nothing more is tried through its callback."""
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._defer_after(SHOW_WITHIN if within is None else within, sleep),
            name=f"answer-{interaction.id}")

    async def _defer_after(self, within: float,
                           sleep: Callable[[float], Awaitable[None]]) -> None:
        await sleep(within)
        self._timer = None
        await self.defer()

    def _stop_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None

    async def show(self, kwargs: dict[str, Any]) -> bool:
        """Answer with the clicked message edited to ``kwargs``; False if the click was
        already answered (deferred: the caller edits through the webhook instead) or Discord
        refused the answer (the caller edits the message by id).
        """
        async with self._lock:
            if self.interaction.response.is_done() or self.refused:
                return False
            self._stop_timer()
            try:
                await self.interaction.response.edit_message(**kwargs)
            except discord.HTTPException as exc:
                log.warning("Discord refused a click's answer (%s): its move is shown by "
                            "message id", exc.status)
                self.refused = True
                return False
            return True

    async def defer(self) -> None:
        """Answer now with a deferral if nothing answered yet (then followups may be sent).
        If Discord refuses it, the click still counts: its edit then goes by message id.
        """
        async with self._lock:
            self._stop_timer()
            if self.interaction.response.is_done() or self.refused:
                return
            try:
                await self.interaction.response.defer()
            except discord.HTTPException as exc:
                self.refused = True
                log.warning("Discord refused to acknowledge a click (%s): going on", exc.status)


REPLY_WITHIN: Final = 1.0
"""Seconds a command's work (its reads and writes) may take before the command is deferred:
Discord refuses a first answer more than 3 seconds after the command was sent."""


class Reply:
    """The answer of one command: sent at once when the command's work is done within
    :data:`REPLY_WITHIN`, else deferred then (privately, "thinking"), and completed later by the
    deferral's followup. A public answer (a new lobby) that could not be the first answer is
    posted in the channel by the caller instead (:meth:`public` says so).
    """

    __slots__ = ("_lock", "_timer", "interaction", "late", "refused")

    @classmethod
    async def begin(cls, interaction: discord.Interaction[Any], verdict: Verdict) -> Reply:
        """The answer of a command that writes, before it does anything: one that may have
        come too late (``verdict``) is deferred at once, and :class:`ui.late.TooLate` is raised
        when Discord refuses the deferral (nothing is done then).
        """
        reply = cls(interaction)
        if verdict is Verdict.DOUBTFUL:
            await reply.defer()
            if reply.late:
                raise TooLate
        return reply

    def __init__(self, interaction: discord.Interaction[Any], within: float | None = None
                 ) -> None:
        """Defer ``interaction`` after ``within`` seconds (default :data:`REPLY_WITHIN`)
        unless it was answered first.
        """
        self.interaction = interaction
        self.refused = False
        """Discord refused this command's first answer."""
        self.late = False
        """Discord no longer takes this command: it came too late."""
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._defer_after(REPLY_WITHIN if within is None else within),
            name=f"reply-{interaction.id}")

    async def _defer_after(self, within: float) -> None:
        await asyncio.sleep(within)
        self._timer = None
        await self.defer()

    def _stop_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None

    async def defer(self) -> None:
        """Answer now with a private "thinking" deferral, if nothing answered yet."""
        async with self._lock:
            self._stop_timer()
            if self.interaction.response.is_done() or self.refused:
                return
            try:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            except discord.NotFound:  # too late: Discord no longer takes it
                self.refused = self.late = True
            except discord.HTTPException as exc:
                self.refused = True
                log.warning("Discord refused to acknowledge a command (%s): going on",
                            exc.status)

    async def public(self, **kwargs: Any) -> int | None:
        """Answer with a public message of ``kwargs``; its id, or None when the command was
        already deferred or Discord refused the answer (the caller then posts the message
        in the channel itself, and completes the deferral with :meth:`private`).
        """
        async with self._lock:
            self._stop_timer()
            if self.interaction.response.is_done() or self.refused:
                return None
            try:
                sent = await self.interaction.response.send_message(**kwargs)
            except discord.HTTPException as exc:
                self.refused = True
                log.warning("Discord refused a command's answer (%s): posting it in the "
                            "channel", exc.status)
                return None
        message_id = sent.message_id if sent is not None else None
        if message_id is None:  # pragma: no cover - Discord returns the message it created
            message_id = (await self.interaction.original_response()).id
        return message_id

    async def private(self, content: str, **kwargs: Any) -> None:
        """Answer privately with ``content`` (the deferral's followup when deferred); a
        refusal is logged, not raised: what the command did stands.
        """
        async with self._lock:
            self._stop_timer()
            if self.refused:
                return
            try:
                if self.interaction.response.is_done():
                    await self.interaction.followup.send(content, ephemeral=True, **kwargs)
                else:
                    await self.interaction.response.send_message(content, ephemeral=True,
                                                                 **kwargs)
            except discord.HTTPException as exc:
                log.warning("Discord refused a command's private answer (%s)", exc.status)

    def done(self) -> None:
        """The command is over: no deferral comes after it."""
        self._stop_timer()
