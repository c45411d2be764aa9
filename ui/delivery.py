"""Which door each of a game's requests takes to Discord.

Discord allows one bot 50 requests per second with its token, all shards and clusters
together; the interaction endpoints are outside that limit: the callback that answers a click,
and for 15 minutes after it the interaction's webhook (followup messages, and edits and deletes
of the interaction's own messages). So a game's request goes, in order of preference:

- through the interaction that caused it (a click's edit of its own message);
- through the webhook of the game's newest interaction still fresh (a new board, a ping, the
  end: a followup; a board or ping that webhook created: edited or deleted through it);
- with the bot token, only where no fresh interaction exists (a turn timeout long after the
  last click, a restart's redraw), spent from the process's :class:`RequestBudget` in order of
  urgency.

A click that shows its move is answered by that edit itself when the move is ready at once
(:mod:`ui.answers`): one callback, limited by nothing. Pings in a followup notify as any new
message's mentions do; Discord keeps with each followup the interaction it answers (who
clicked, on which message).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.request_budget import RequestBudget, Urgency
from bot.service import Game
from ui import answers
from ui.answers import Answer
from ui.channel_access import SEND_FAILURES, failure

log = logging.getLogger("ui.delivery")

FRESH_FOR: Final = dt.timedelta(minutes=14)
"""How long after an interaction its webhook is used (Discord's 15 minutes, less a margin)."""
INVALID_WEBHOOK_TOKEN: Final = 50027
UNKNOWN_WEBHOOK: Final = 10015
_FOLLOWS: Final = frozenset({discord.InteractionResponseType.deferred_message_update,
                             discord.InteractionResponseType.message_update,
                             discord.InteractionResponseType.channel_message})
"""Responses after which a followup is a new public message (after a "thinking" deferral the
first followup would replace the private "thinking" message instead)."""

Sent = discord.Message | discord.WebhookMessage


@dataclass(slots=True)
class _Door:
    webhook: discord.Webhook
    until: dt.datetime
    channel_id: int | None  # an interaction's followups go to its own channel


def fresh(message: Sent | None) -> bool:
    """Whether a message posted through an interaction's webhook can still be edited or
    deleted through it.
    """
    if not isinstance(message, discord.WebhookMessage):
        return False
    return discord.utils.utcnow() < message.created_at + FRESH_FOR


def _loop_time() -> float:
    return asyncio.get_running_loop().time()


def _webhook_refused(error: discord.HTTPException) -> bool:
    return getattr(error, "code", 0) in (INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK) \
        or error.status == 401


class Delivery:
    """Sends, edits and deletes a game's messages through the cheapest door open."""

    def __init__(self, client: discord.Client, budget: RequestBudget) -> None:
        """Send through ``client``; spend bot-token requests from ``budget``."""
        self.client = client
        self.budget = budget
        self._doors: dict[int, _Door] = {}
        self.token_requests = 0
        """Requests sent with the bot token (the global budget)."""
        self.webhook_requests = 0
        """Requests sent through an interaction's webhook (outside the global budget)."""
        self.shown_by_answer = 0
        """Edits carried by a click's own answer (the callback: outside every limit)."""
        self._answers: dict[int, Answer] = {}
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """What a click's deferral waits with (:class:`ui.answers.Answer`): the event loop's
        clock. A simulated Discord whose clock stands still (the bot's benchmarks) gives one
        on the wall clock, as a real loop's timers run."""
        self.now: Callable[[], float] = _loop_time
        """The clock a move's time is measured with, the one :attr:`sleep` waits on."""
        self._started: dict[int, float] = {}
        self._last_move_s = 0.0
        """How long the last move shown took from its click to its edit (:meth:`behind`)."""

    def answer_later(self, interaction: discord.Interaction[Any]) -> None:
        """A click that may show its move: answered by the move's edit if it comes at once,
        else deferred (:mod:`ui.answers`). :meth:`answered` must follow, whatever happens.
        """
        self._answers[interaction.id] = Answer(interaction, sleep=self.sleep)
        self._started[interaction.id] = self.now()

    def behind(self) -> bool:
        """Whether a new click should be deferred first: so many clicks already wait for their
        own edit (:data:`ui.answers.WAITING_AT_MOST`), or the last move took longer than its
        window (:data:`ui.answers.SHOW_WITHIN`) from its click to its edit.
        """
        return len(self._answers) > answers.WAITING_AT_MOST \
            or self._last_move_s > answers.SHOW_WITHIN

    def click_done(self, interaction: discord.Interaction[Any]) -> None:
        """The click's handler is done (after its last :meth:`answered`)."""
        self._started.pop(interaction.id, None)

    async def answered(self, interaction: discord.Interaction[Any]) -> None:
        """Make sure the click is answered (deferred if nothing answered it yet): before any
        followup of the click, and when its handler is done.
        """
        answer = self._answers.pop(interaction.id, None)
        if answer is not None:
            await answer.defer()

    def channel(self, game: Game, channel_id: int | None = None) -> discord.PartialMessageable:
        """The game's channel (or ``channel_id``), for requests with the bot token."""
        return self.client.get_partial_messageable(channel_id or game.channel_id,
                                                   guild_id=game.guild_id)

    def note(self, game: Game, interaction: discord.Interaction[Any] | None) -> None:
        """Remember the game's newest interaction: its webhook carries the next requests."""
        if interaction is None or not interaction.response.is_done() \
                or interaction.response.type not in _FOLLOWS:
            return
        until = interaction.created_at + FRESH_FOR
        door = self._doors.get(game.id)
        if door is None or door.until <= until:
            self._doors[game.id] = _Door(interaction.followup, until, interaction.channel_id)

    def _door(self, game_id: int, channel_id: int) -> discord.Webhook | None:
        door = self._doors.get(game_id)
        if door is None:
            return None
        if discord.utils.utcnow() >= door.until:
            del self._doors[game_id]
            return None
        return door.webhook if door.channel_id == channel_id else None

    async def send(self, game: Game, kwargs: dict[str, Any],
                   urgency: Urgency = Urgency.NOTIFY, channel_id: int | None = None) -> Sent:
        """A new message in the game's channel (or in ``channel_id``: a thread's parent)."""
        target = channel_id or game.channel_id
        webhook = self._door(game.id, target)
        if webhook is not None:
            try:
                message = await webhook.send(wait=True, **kwargs)
                self.webhook_requests += 1
                return message
            except discord.HTTPException as exc:
                if not _webhook_refused(exc):
                    raise
                self._doors.pop(game.id, None)
        async with self.budget.spend(urgency):
            self.token_requests += 1
            return await self.channel(game, target).send(**kwargs)

    async def edit(self, game: Game, message_id: int, kwargs: dict[str, Any],
                   interaction: discord.Interaction[Any] | None = None,
                   sent: Sent | None = None) -> None:
        """Edit one of the game's messages: through the interaction if it is its message,
        through the webhook that posted it while fresh, else with the bot token.
        """
        if interaction is not None and interaction.message is not None \
                and interaction.message.id == message_id:
            started = self._started.pop(interaction.id, None)
            if started is not None:  # the click's move, ready to be shown
                self._last_move_s = self.now() - started
            answer = self._answers.get(interaction.id)
            if answer is not None and await answer.show(kwargs):
                self.shown_by_answer += 1
                self.note(game, interaction)
                return
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
                self.webhook_requests += 1
                self.note(game, interaction)
                return
        if isinstance(sent, discord.WebhookMessage) and sent.id == message_id and fresh(sent):
            try:
                await sent.edit(**kwargs)
                self.webhook_requests += 1
                return
            except discord.HTTPException as exc:
                if not _webhook_refused(exc):
                    raise
        async with self.budget.spend(Urgency.EDIT):
            self.token_requests += 1
            await self.channel(game).get_partial_message(message_id).edit(**kwargs)

    async def delete_message(self, guild_id: int, channel_id: int, message_id: int,
                             sent: Sent | None = None) -> None:
        """Delete a message of the bot's in a channel: through the webhook that posted it
        while fresh, else with the bot token.
        """
        if isinstance(sent, discord.WebhookMessage) and sent.id == message_id and fresh(sent):
            try:
                await sent.delete()
                self.webhook_requests += 1
                return
            except discord.HTTPException as exc:
                if not _webhook_refused(exc):
                    raise
        async with self.budget.spend(Urgency.TIDY):
            self.token_requests += 1
            channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
            await channel.get_partial_message(message_id).delete()

    async def elsewhere(self, game: Game, public: dict[str, Any], private: dict[str, Any],
                        people: Sequence[str],
                        interaction: discord.Interaction[Any] | None) -> None:
        """A message the game's channel does not take (the end, where the bot may not post):
        ``public`` through ``interaction`` (channel permissions do not block its answers),
        else ``private`` to each of ``people`` (Discord ids) in a direct message.
        """
        if interaction is not None:
            try:
                await self.answered(interaction)
                await interaction.followup.send(**public)
                return
            except SEND_FAILURES as exc:
                log.info("game %s: the end could not be sent as a followup (%s)", game.id,
                         failure(exc))
        for user_id in people:
            try:
                user = self.client.get_user(int(user_id)) or await self.client.fetch_user(
                    int(user_id))
                await user.send(**private)
            except SEND_FAILURES as exc:
                log.info("game %s: could not tell %s of the end (%s)", game.id, user_id,
                         failure(exc))

    def forget(self, game_id: int) -> None:
        """The game ended: its interaction is no longer kept."""
        self._doors.pop(game_id, None)

    def __len__(self) -> int:
        """Games whose newest interaction is kept, and clicks being answered."""
        return len(self._doors) + len(self._answers)
