"""One place for a game's board and everything it shows: :class:`Boards` (docs/architecture.md:
*One place for a board's life*, *Sending: the boards and the request budget*).

A board is one message, edited as the game goes on; whoever must act is told by a short new
*ping* (Discord notifies for a mention in a new message, never for an edit). A game's board
operations run in order under its :class:`Board`'s lock; pings are posted outside it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import enum
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

import aiohttp
import discord

from bot.errors import StaleClick
from bot.request_budget import RequestBudget, Urgency
from bot.service import Game, GameService, GameStatus, Outcome, PingRow, Reach
from bot.service.lobby import by_app, is_slow
from ui.cards import Emojis, note_view
from ui.errors import MISSING_PERMISSIONS as CANNOT_POST
from ui.errors import answer_error
from ui.i18n import N_, for_game, for_user
from ui.late import TooLate, Verdict

if TYPE_CHECKING:
    from bot.rules.registry import GameKind
    from bot.rules.replay import Frame
    from bot.rules.review import Option
    from ui.i18n import Tr

log = logging.getLogger("ui.board")

T = TypeVar("T")

# ---------------------------------------------------------------------------- permissions

UNKNOWN_CHANNEL: Final = 10003
UNKNOWN_MESSAGE: Final = 10008
UNKNOWN_WEBHOOK: Final = 10015
INVALID_WEBHOOK_TOKEN: Final = 50027
MISSING_ACCESS: Final = 50001
MISSING_PERMISSIONS: Final = 50013

NEEDED: Final = ("view_channel", "send_messages", "attach_files", "read_message_history")
"""The permissions a game channel needs, by discord.py's names."""
PERMISSION_NAMES: Final = {"view_channel": "View Channel", "send_messages": "Send Messages",
                           "embed_links": "Embed Links", "attach_files": "Attach Files",
                           "read_message_history": "Read Message History",
                           "send_messages_in_threads": "Send Messages in Threads",
                           "create_public_threads": "Create Public Threads",
                           "use_external_emojis": "Use External Emojis"}
"""Discord's own names of the permissions (as its settings show them, untranslated)."""

class OutOfReach(discord.DiscordException):
    """A game played through the app has no live interaction to carry this request: the app
    may send nothing with the bot token into its channel.
    """


SEND_FAILURES: Final = (discord.HTTPException, aiohttp.ClientError, OSError, OutOfReach)
"""What a request to Discord raises when it fails: refused (an HTTP error), the connection
dropped or timed out on the way (``TimeoutError`` is an ``OSError``), or no way to send it
(:class:`OutOfReach`)."""

PAUSED_NO_SEND: Final = N_(
    "⚠️ I can't post in this channel, so the game is paused (nobody's time runs out). A server "
    "admin can grant me {permissions} here (channel settings > Permissions); the game goes on by "
    "itself then, or with /{kind} board.")
NO_SEND: Final = "send_messages"
"""The pause reason of a game whose channel the bot may not post in."""


def failure(error: BaseException) -> str:
    """A failed request in a few words, for the log."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text}".strip()
    return f"{type(error).__name__}: {error}".rstrip(": ")


class Refusal(enum.Enum):
    """What a refused request says about the game's channel."""

    MESSAGE_GONE = "message gone"
    CHANNEL_GONE = "channel gone"
    NO_PERMISSION = "permission missing"
    OTHER = "other"


def refusal(error: BaseException) -> Refusal:
    """Read a refused request: its message or channel is gone, or a permission is missing
    (a connection that failed is :attr:`Refusal.OTHER`: tried again later).
    """
    if not isinstance(error, discord.HTTPException):
        return Refusal.OTHER
    code = getattr(error, "code", 0)
    if code in (UNKNOWN_MESSAGE, UNKNOWN_WEBHOOK):
        return Refusal.MESSAGE_GONE
    if code in (UNKNOWN_CHANNEL, MISSING_ACCESS):
        return Refusal.CHANNEL_GONE
    if code == MISSING_PERMISSIONS or isinstance(error, discord.Forbidden):
        return Refusal.NO_PERMISSION
    if isinstance(error, discord.NotFound):
        return Refusal.MESSAGE_GONE
    return Refusal.OTHER


def channel_permissions(client: discord.Client, game: Game) -> discord.Permissions | None:
    """The bot's permissions in the game's channel as discord.py's cache knows them (None:
    the cache does not know the server or the channel yet).
    """
    guild = client.get_guild(game.guild_id)
    if guild is None or guild.me is None:
        return None
    channel = guild.get_channel_or_thread(game.channel_id)
    if channel is None:
        return None
    return channel.permissions_for(guild.me)


def missing(perms: discord.Permissions | None, needed: tuple[str, ...] = NEEDED) -> list[str]:
    """Discord's names of the ``needed`` permissions that ``perms`` lacks (none if unknown)."""
    if perms is None:
        return []
    return [PERMISSION_NAMES[p] for p in needed if not getattr(perms, p)]


def can_post(perms: discord.Permissions | None) -> bool:
    """Whether the bot may post in the channel (unknown permissions: try)."""
    return perms is None or bool(perms.view_channel and perms.send_messages)


# ---------------------------------------------------------------------------- cards

NO_PINGS: Final = discord.AllowedMentions.none()


def pings_for(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Allowed mentions that notify exactly these users (Discord ids as text) and nobody else."""
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in user_ids],
                                   roles=False, everyone=False, replied_user=False)


def jump_link(game: Game, message_id: int | None) -> str:
    """A link to one of the game's messages (in a DM or group DM: Discord's ``@me``)."""
    if message_id is None:
        return ""
    where = "@me" if game.reach is Reach.PRIVATE else game.guild_id
    return f"https://discord.com/channels/{where}/{game.channel_id}/{message_id}"


class Card:
    """A game message as the bot shows it: a Components V2 layout and its pictures
    (``files=None`` keeps the message's attachments on an edit; a list replaces them), the same
    card without pictures (``plain``: where the bot may not attach files), the game version it
    shows, and who a *new* copy of it notifies (edits notify nobody).
    """

    def __init__(self, view: discord.ui.LayoutView, files: list[discord.File] | None = None,
                 *, plain: discord.ui.LayoutView | None = None, version: int | None = None,
                 pings: Sequence[str] = ()) -> None:
        self.view = view
        self.files = files
        self.plain = plain
        self.version = version
        self.pings = tuple(pings)

    def edit_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of an edit (an older message's text and embeds go)."""
        kw: dict[str, Any] = {"content": None, "embed": None, "view": self.view,
                              "allowed_mentions": NO_PINGS}
        if self.files is not None:
            kw["attachments"] = self.files
        return kw

    def send_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of a new message (it notifies :attr:`pings` only)."""
        return {"view": self.view, "files": self.files or [],
                "allowed_mentions": pings_for(self.pings) if self.pings else NO_PINGS}

    def fitted(self, perms: discord.Permissions | None) -> Card:
        """This card as the bot may send it with ``perms``: without Attach Files, its
        picture-less form.
        """
        if perms is None or perms.attach_files or self.plain is None:
            return self
        return Card(self.plain, [] if self.files is not None else None, version=self.version,
                    pings=self.pings)


def warned(card: Card, warning: str) -> Card:
    """``card`` with ``warning`` above its text (in its picture-less form too)."""
    for view in (card.view, card.plain):
        first = next((item for item in view.walk_children()
                      if isinstance(item, discord.ui.TextDisplay)), None) if view else None
        if first is not None:
            first.content = f"⚠️ {warning}\n{first.content}"
    return card


Sent = discord.Message | discord.WebhookMessage


class Presenting(Protocol):
    """What the boards ask of a game kind's presenter: :class:`ui.presenter.Presenter`, named
    here by its methods (that module imports this one).
    """

    async def current(self, game: Game, *, tr: Tr | None = None) -> Card: ...
    async def board(self, game: Game) -> Card: ...
    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None: ...
    async def moved(self, outcome: Outcome, reason: str) -> None: ...
    async def prompt_current(self, game: Game) -> None: ...
    def your_turn(self, tr: Tr, state: Any) -> str: ...
    async def missed(self, tr: Tr, game: Game, state: Any, seat: int) -> str: ...
    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage: ...


@dataclass(slots=True)
class ReplayPage:
    """One step of a replay as a game kind shows it: its text and its picture (PNG bytes)."""

    text: str
    picture: bytes
    description: str = ""


@dataclass(frozen=True, slots=True)
class ReviewWords:
    """How a game review names a kind's options: ``describe(tr, option, name)`` (``name``: a
    player the option mentions), and whether its decisions are counted in turns (Posing).
    """

    describe: Callable[[Tr, Option, Callable[[str], str]], str]
    turns: bool = False


@dataclass(frozen=True, slots=True)
class DiscordKind:
    """The Discord layer's part of a game kind's entry (the rules' part is ``kind``): its
    components' prefix, its presenter, how its review names options, the button of its full
    score sheet on the game-over card, and how its lobby presents it.
    """

    kind: GameKind[Any, Any]
    prefix: str
    presenter: Presenting
    review_words: ReviewWords | None = None
    sheet: Callable[[Game, Tr], discord.ui.Item[Any]] | None = None
    pitch: str = ""
    """What the game is, in one sentence with about how long it takes (``{minutes}``)."""
    how_to_play: str = ""
    """How to play, in a few lines (the lobby's How to play button)."""
    minutes_per_player: int = 3
    """About how many minutes each seat adds to a game (people deciding as the clock asks)."""


# ---------------------------------------------------------------------------- answers

SHOW_WITHIN: Final = 0.025
"""Seconds a move may take (commit and drawing) to be answered by its own edit; past them the
click is deferred. Well inside Discord's 3 seconds, and short enough that the answer's own
latency stays that of an immediate deferral for a person."""
WAITING_AT_MOST: Final = 16
"""Clicks that may wait for their own move's edit at once; past them a click is deferred
first (a bot that is behind answers every click at once, as a deferral costs no database)."""
REPLY_WITHIN: Final = 1.0
"""Seconds a command's work (its reads and writes) may take before the command is deferred:
Discord refuses a first answer more than 3 seconds after the command was sent."""
FRESH_FOR: Final = dt.timedelta(minutes=14)
"""How long after an interaction its webhook is used (Discord's 15 minutes, less a margin)."""
_FOLLOWS: Final = frozenset({discord.InteractionResponseType.deferred_message_update,
                             discord.InteractionResponseType.message_update,
                             discord.InteractionResponseType.channel_message})
"""Responses after which a followup is a new public message (after a "thinking" deferral the
first followup would replace the private "thinking" message instead)."""


def emojis_shown(client: discord.Client, game: Game, emojis: Emojis) -> Emojis:
    """The dice emojis the game's channel can show: the application's, or the coloured
    circles where the bot may not use external emojis there.
    """
    perms = channel_permissions(client, game)
    return Emojis() if perms is not None and not perms.use_external_emojis else emojis


def count_answer(interaction: discord.Interaction[Any]) -> None:
    """The interaction got its first answer: the bot's metrics time it from its arrival
    (each interaction is timed once; discord.py has no event for an answer).
    """
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.answered(interaction)


class _Timed:
    """An interaction's first answer, deferred by a timer unless the work answers it first:
    a lock keeps the timer and the answer from both answering.
    """

    __slots__ = ("_lock", "_timer", "interaction", "late", "refused")

    def __init__(self, interaction: discord.Interaction[Any], within: float,
                 sleep: Callable[[float], Awaitable[None]], name: str) -> None:
        self.interaction = interaction
        self.refused = False  # Discord refused its first answer
        self.late = False  # ... because it came too late
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._defer_after(within, sleep), name=f"{name}-{interaction.id}")

    async def _defer_after(self, within: float, sleep: Callable[[float], Awaitable[None]]
                           ) -> None:
        await sleep(within)
        self._timer = None
        await self.defer()

    def _stop_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None

    async def _first(self, answer: Callable[[], Awaitable[T]], refused: str, *,
                     late_if_gone: bool = False) -> tuple[bool, T | None]:
        """Give the interaction its first answer, ``answer()``, unless something answered it:
        whether it was given, and its result. Discord's refusal is logged (``refused``, with its
        status) and no other first answer is tried; with ``late_if_gone`` an unknown
        interaction came too late, quietly.
        """
        async with self._lock:
            self._stop_timer()
            if self.interaction.response.is_done() or self.refused:
                return False, None
            try:
                result = await answer()
            except discord.HTTPException as exc:
                self.refused = True
                if late_if_gone and isinstance(exc, discord.NotFound):
                    self.late = True
                else:
                    log.warning(refused, exc.status)
                return False, None
            count_answer(self.interaction)
            return True, result

    async def defer(self) -> None:
        """Acknowledge the interaction now, if nothing answered it yet."""
        raise NotImplementedError


class Answer(_Timed):
    """The answer of one click that may show its move: the edit of its board when the move is
    ready within :data:`SHOW_WITHIN` (the callback ``UPDATE_MESSAGE``: one request no rate
    limit counts), else a deferral then (``DEFERRED_UPDATE_MESSAGE``; the edit then goes
    through the interaction's webhook).
    """

    __slots__ = ()

    def __init__(self, interaction: discord.Interaction[Any], within: float,
                 sleep: Callable[[float], Awaitable[None]]) -> None:
        super().__init__(interaction, within, sleep, "answer")

    async def show(self, kwargs: dict[str, Any]) -> bool:
        """Answer with the clicked message edited to ``kwargs``; False if the click was
        already answered (the caller edits through the webhook) or Discord refused the answer
        (the caller edits the message by id).
        """
        shown, _ = await self._first(
            lambda: self.interaction.response.edit_message(**kwargs),
            "Discord refused a click's answer (%s): its move is shown by message id")
        return shown

    async def defer(self) -> None:
        """Answer now with a deferral if nothing answered yet. If Discord refuses it, the
        click still counts: its edit then goes by message id.
        """
        await self._first(self.interaction.response.defer,
                          "Discord refused to acknowledge a click (%s): going on")


class Reply(_Timed):
    """The answer of one command that writes: sent at once when its work is done within
    :data:`REPLY_WITHIN`, else deferred then (privately, "thinking") and completed by the
    deferral's followup. A public answer (a new lobby) that could not be the first answer is
    posted in the channel by the caller instead (:meth:`public` says so).
    """

    __slots__ = ()

    @classmethod
    async def begin(cls, interaction: discord.Interaction[Any], verdict: Verdict,
                    within: float = REPLY_WITHIN) -> Reply:
        """The answer of a command, before it does anything: one that may have come too
        late (``verdict``) is deferred at once, and :class:`ui.late.TooLate` is raised when
        Discord refuses the deferral (nothing is done then).
        """
        reply = cls(interaction, within)
        if verdict is Verdict.DOUBTFUL:
            await reply.defer()
            if reply.late:
                raise TooLate
        return reply

    def __init__(self, interaction: discord.Interaction[Any], within: float = REPLY_WITHIN
                 ) -> None:
        super().__init__(interaction, within, asyncio.sleep, "reply")

    async def defer(self) -> None:
        """Answer now with a private "thinking" deferral, if nothing answered yet."""
        await self._first(lambda: self.interaction.response.defer(ephemeral=True, thinking=True),
                          "Discord refused to acknowledge a command (%s): going on",
                          late_if_gone=True)

    async def public(self, **kwargs: Any) -> int | None:
        """Answer with a public message of ``kwargs``; its id, or None when the command was
        already deferred or Discord refused the answer (the caller then posts the message in
        the channel itself, and completes the deferral with :meth:`private`).
        """
        answered, sent = await self._first(
            lambda: self.interaction.response.send_message(**kwargs),
            "Discord refused a command's answer (%s): posting it in the channel")
        if not answered:
            return None
        message_id = sent.message_id if sent is not None else None
        if message_id is None:  # pragma: no cover - Discord returns the message it created
            message_id = (await self.interaction.original_response()).id
        return message_id

    async def private(self, content: str) -> None:
        """Answer privately (the deferral's followup when deferred); a refusal is logged, not
        raised: what the command did stands.
        """
        async with self._lock:
            self._stop_timer()
            if not self.refused:
                await answer_error(self.interaction, content)

    def done(self) -> None:
        """The command is over: no deferral comes after it."""
        self._stop_timer()


# ---------------------------------------------------------------------------- one game's board

REPAIR_DELAYS: Final = (1.0, 3.0, 10.0)
"""Seconds before each attempt to redraw a board whose edit Discord refused."""
SWEEP_LIMIT: Final = 50
"""How many of a channel's messages after an unrecorded ping was asked for are looked at."""
SWEEP_MARGIN_MS: Final = 2000
"""How long before it was asked for the look starts (this machine's clock against Discord's)."""
DELETE_WINDOW_S: Final = 60
"""A board deleted again within this many seconds of being posted anew pauses its game."""
REST_AFTER_MS: Final = 10 * 60_000
"""A slow game's board untouched this long rests (:meth:`Boards.rest_idle`)."""
DELETED: Final = "deleted"
"""The pause reason of a game whose board keeps being deleted."""
PAUSED_DELETED: Final = N_(
    "⚠️ The game's message keeps being deleted, so the game is paused. Anyone can bring it "
    "back with /{kind} board.")


@dataclass(slots=True)
class Ping:
    """A game's standing ping: its row in storage, its message, who it names, the board it
    links to and the game version it was posted for.
    """

    ping_id: int
    message_id: int
    people: frozenset[str]
    board_id: int | None
    version: int
    sent: Sent | None = None


@dataclass(slots=True)
class Door:
    """The webhook of a game's newest interaction, until when it takes requests, and the
    messages it may edit (the clicked one or the answer, and what was posted through it).
    """

    webhook: discord.Webhook
    until: dt.datetime
    channel_id: int | None
    messages: set[int] = field(default_factory=set)


@dataclass(slots=True)
class Board:
    """What this process holds of one game's board: its message and the version it shows,
    the standing ping, the newest interaction's webhook, a pending redraw; one lock orders
    every operation on it.
    """

    game_id: int
    message_id: int | None = None
    version: int = -1
    sent: Sent | None = None
    ping: Ping | None = None
    ping_turn: int = 0
    door: Door | None = None
    repair: asyncio.Task[None] | None = None
    reposted_at: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ping_known: bool = False  # False: its standing ping is still to be read back
    slow: bool = False
    touched_ms: int = 0


def fresh(message: Sent | None) -> bool:
    """Whether a message posted through an interaction's webhook can still be edited or
    deleted through it.
    """
    if not isinstance(message, discord.WebhookMessage):
        return False
    return discord.utils.utcnow() < message.created_at + FRESH_FOR


def _webhook_refused(error: discord.HTTPException) -> bool:
    return getattr(error, "code", 0) in (INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK) \
        or error.status == 401


def _loop_time() -> float:
    return asyncio.get_running_loop().time()


class Boards:
    """Every game's board and pings, and the doors their requests take to Discord."""

    def __init__(self, client: discord.Client, service: GameService, budget: RequestBudget,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.client = client
        self.service = service
        self.budget = budget
        self.kinds: dict[str, DiscordKind] = {}
        self.sleep = sleep
        self.now = _loop_time  # a move's clock (tools/benchbot times moves by the wall clock)
        self._boards: dict[int, Board] = {}
        self._answers: dict[int, Answer] = {}
        self._started: dict[int, float] = {}
        self._last_move_s = 0.0
        self._chores: set[asyncio.Task[None]] = set()

    # -- kinds -------------------------------------------------------------------------------

    def add_kind(self, kind: DiscordKind) -> None:
        """Register a game kind's Discord part (its extension does, when loaded)."""
        if kind.kind.name in self.kinds:
            raise RuntimeError(f"the game kind {kind.kind.name!r} is registered twice")
        self.kinds[kind.kind.name] = kind
        self.service.listeners[kind.kind.name] = kind.presenter.moved

    def presenter(self, kind: str) -> Presenting:
        return self.kinds[kind].presenter

    def prefix(self, kind: str) -> str:
        """The custom_id prefix of a game kind's components."""
        return self.kinds[kind].prefix

    def board(self, game_id: int) -> Board:
        """The game's board (made when first needed)."""
        board = self._boards.get(game_id)
        if board is None:
            board = self._boards[game_id] = Board(game_id)
        return board

    def message_of(self, game: Game) -> int | None:
        """The game's current message (the newest known, even before ``game`` was reloaded)."""
        board = self._boards.get(game.id)
        if board is not None and board.message_id is not None:
            return board.message_id
        return game.message_id

    def sizes(self) -> dict[str, int]:
        """How many entries each per-game structure holds."""
        return {"boards": len(self._boards),
                "pings": sum(b.ping is not None for b in self._boards.values()),
                "doors": sum(b.door is not None for b in self._boards.values()),
                "repairs": sum(b.repair is not None for b in self._boards.values()),
                "clicks": len(self._answers)}

    # -- a click's or a command's answer -----------------------------------------------------

    def answer_later(self, interaction: discord.Interaction[Any]) -> None:
        """A click that may show its move: answered by the move's edit if it comes at once,
        else deferred. :meth:`answered` must follow, whatever happens.
        """
        self._answers[interaction.id] = Answer(interaction, SHOW_WITHIN, self.sleep)
        self._started[interaction.id] = self.now()

    def behind(self) -> bool:
        """Whether a new click should be deferred first: so many clicks already wait for their
        own edit, or the last move took longer than its window from its click to its edit.
        """
        return len(self._answers) > WAITING_AT_MOST or self._last_move_s > SHOW_WITHIN

    async def answered(self, interaction: discord.Interaction[Any]) -> None:
        """Make sure the click is answered (deferred if nothing answered it yet)."""
        answer = self._answers.pop(interaction.id, None)
        if answer is not None:
            await answer.defer()

    def click_done(self, interaction: discord.Interaction[Any]) -> None:
        """The click's item is done (after its last :meth:`answered`)."""
        self._started.pop(interaction.id, None)

    # -- the doors ---------------------------------------------------------------------------

    def note(self, game: Game, interaction: discord.Interaction[Any] | None,
             answer_id: int | None = None) -> None:
        """Remember the game's newest interaction: its webhook carries the next requests
        (``answer_id``: the message that answered a command, which it may edit too).
        """
        board = self.board(game.id)
        board.slow, board.touched_ms = is_slow(game), self.service.clock()
        if interaction is None or not interaction.response.is_done() \
                or (interaction.response.type not in _FOLLOWS and answer_id is None):
            return
        until = interaction.created_at + FRESH_FOR
        board = self.board(game.id)
        if board.door is None or board.door.until <= until:
            own = interaction.message.id if interaction.message is not None else answer_id
            board.door = Door(interaction.followup, until, interaction.channel_id,
                              {own} if own is not None else set())

    def _door(self, game_id: int, channel_id: int) -> Door | None:
        board = self._boards.get(game_id)
        if board is None or board.door is None:
            return None
        if discord.utils.utcnow() >= board.door.until:
            board.door = None
            return None
        return board.door if board.door.channel_id == channel_id else None

    def channel(self, game: Game, channel_id: int | None = None) -> discord.PartialMessageable:
        """The game's channel (or ``channel_id``), for requests with the bot token."""
        return self.client.get_partial_messageable(channel_id or game.channel_id,
                                                   guild_id=game.guild_id)

    async def send(self, game: Game, kwargs: dict[str, Any], urgency: Urgency = Urgency.NOTIFY,
                   channel_id: int | None = None) -> Sent:
        """A new message in the game's channel (or in ``channel_id``: a thread's parent)."""
        target = channel_id or game.channel_id
        door = self._door(game.id, target)
        if door is not None:
            try:
                sent = await door.webhook.send(wait=True, **kwargs)
                door.messages.add(sent.id)
                return sent
            except discord.HTTPException as exc:
                if not _webhook_refused(exc):
                    raise
                self.board(game.id).door = None
        if by_app(game):
            raise OutOfReach(f"game {game.id}: no interaction lives to post through")
        async with self.budget.spend(urgency):
            return await self.channel(game, target).send(**kwargs)

    async def _edit_message(self, game: Game, message_id: int, kwargs: dict[str, Any],
                            interaction: discord.Interaction[Any] | None,
                            sent: Sent | None) -> None:
        if interaction is not None and interaction.message is not None \
                and interaction.message.id == message_id:
            started = self._started.pop(interaction.id, None)
            if started is not None:  # the click's move, ready to be shown
                self._last_move_s = self.now() - started
            answer = self._answers.get(interaction.id)
            if answer is not None and await answer.show(kwargs):
                self.note(game, interaction)
                return
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
                self.note(game, interaction)
                return
        if isinstance(sent, discord.WebhookMessage) and sent.id == message_id and fresh(sent):
            try:
                await sent.edit(**kwargs)
                return
            except discord.HTTPException as exc:
                if not _webhook_refused(exc):
                    raise
        if by_app(game):
            door = self._door(game.id, game.channel_id)
            if door is None or message_id not in door.messages:
                raise OutOfReach(f"game {game.id}: no interaction lives to edit through")
            await door.webhook.edit_message(message_id, **kwargs)
            return
        async with self.budget.spend(Urgency.EDIT):
            await self.channel(game).get_partial_message(message_id).edit(**kwargs)

    async def edit_message(self, game: Game, message_id: int, card: Card,
                           interaction: discord.Interaction[Any] | None = None) -> None:
        """Edit a message of the game's that is not its board (the lobby a game left for its
        thread).
        """
        card = card.fitted(channel_permissions(self.client, game))
        await self._edit_message(game, message_id, card.edit_kwargs(), interaction, None)

    async def delete_message(self, guild_id: int, channel_id: int, message_id: int,
                             sent: Sent | None = None, *, fresh_only: bool = False) -> None:
        """Delete a message of the bot's: through the webhook that posted it while fresh,
        else with the bot token (not ``fresh_only``: :class:`OutOfReach` then).
        """
        if isinstance(sent, discord.WebhookMessage) and sent.id == message_id and fresh(sent):
            try:
                await sent.delete()
                return
            except discord.HTTPException as exc:
                if not _webhook_refused(exc):
                    raise
        if fresh_only:
            raise OutOfReach(f"message {message_id}: no interaction lives to delete it")
        async with self.budget.spend(Urgency.TIDY):
            channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
            await channel.get_partial_message(message_id).delete()

    # -- the board ---------------------------------------------------------------------------

    async def edit(self, game: Game, card: Card,
                   interaction: discord.Interaction[Any] | None = None, *,
                   strict: bool = False) -> None:
        """Edit the game's board (through the clicked interaction when it is that message). An
        edit older than what the board shows is dropped. A board that is gone is posted anew;
        another refusal is redrawn later, or raised with ``strict``.
        """
        self.note(game, interaction)
        async with self.board(game.id).lock:
            await self._edit(game, card, interaction, strict=strict)

    async def _edit(self, game: Game, card: Card,
                    interaction: discord.Interaction[Any] | None, *,
                    strict: bool = False) -> None:
        board = self.board(game.id)
        msg_id = self.message_of(game)
        if msg_id is None:
            await self._post(game, card)
            return
        if card.version is not None and board.message_id == msg_id \
                and card.version < board.version:
            return  # a newer state is already shown
        card = card.fitted(channel_permissions(self.client, game))
        try:
            await self._edit_message(game, msg_id, card.edit_kwargs(), interaction,
                                     board.sent if board.message_id == msg_id else None)
        except SEND_FAILURES as exc:
            if isinstance(exc, OutOfReach):  # shown by the game's next interaction
                log.info("game %s: %s", game.id, exc)
                return
            why = refusal(exc)
            if why is Refusal.MESSAGE_GONE:
                log.info("game %s: its message %s is gone: posting it anew", game.id, msg_id)
                board.message_id = None
                await self._post(game, card, reposted=True)
                return
            if why is Refusal.CHANNEL_GONE:
                await self._channel_gone(game)
                return
            if strict:
                raise
            log.warning("game %s: the edit of message %s failed (%s): redrawing it shortly",
                        game.id, msg_id, failure(exc))
            self._repair(game.id)
            return
        self._track(board, msg_id, card.version)

    @staticmethod
    def _track(board: Board, message_id: int, version: int | None,
               sent: Sent | None = None) -> None:
        if board.message_id != message_id:
            board.message_id, board.version, board.sent = message_id, -1, sent
        if version is not None:
            board.version = max(board.version, version)

    async def post(self, game: Game, card: Card) -> bool:
        """Post a new board and make it the game's current one. False when the bot may not post
        there (the caller keeps using the current one).
        """
        async with self.board(game.id).lock:
            return await self._post(game, card)

    async def _post(self, game: Game, card: Card, *, reposted: bool = False) -> bool:
        perms = channel_permissions(self.client, game)
        if not can_post(perms):
            log.info("game %s: may not post in channel %s", game.id, game.channel_id)
            return False
        card = card.fitted(perms)
        try:
            msg = await self.send(game, card.send_kwargs())
        except SEND_FAILURES as exc:
            if refusal(exc) is Refusal.CHANNEL_GONE:
                await self._channel_gone(game)
            elif isinstance(exc, OutOfReach):
                log.info("%s", exc)
            else:
                log.warning("game %s: could not post in channel %s (%s)", game.id,
                            game.channel_id, failure(exc))
            return False
        board = self.board(game.id)
        self._track(board, msg.id, card.version, msg)
        if reposted:
            log.info("game %s: board posted anew as %s", game.id, msg.id)
        await self.service.set_message(game.id, msg.id)
        people = frozenset(u for u in card.pings if u.isdigit())
        if people:  # the board itself pings: it is the game's standing ping too
            await self._known(board)
            board.ping_turn += 1
            old = board.ping
            ping_id = 0 if by_app(game) else await self.service.ping_asked(
                game, sorted(people), msg.id, message_id=msg.id,
                retired=[old.ping_id] if old is not None else [])
            board.ping = Ping(ping_id, msg.id, people, msg.id, game.version, msg)
            if old is not None:
                self._delete_later(game, old)
        return True

    async def advance(self, game: Game, closing: Card, make_next: Callable[[], Awaitable[Card]],
                      interaction: discord.Interaction[Any] | None) -> bool:
        """A round ended: close the current board, then build and post the next round's. If
        posting is refused, the current message carries on with the next round instead (False:
        the bot may not post there at all). The closing edit goes first: it is the click's
        answer, so it need not wait for the next round's picture.
        """
        self.note(game, interaction)
        async with self.board(game.id).lock:
            if self.message_of(game) is None:
                await self._edit(game, await make_next(), interaction)
                return True
            if not can_post(channel_permissions(self.client, game)):
                await self._edit(game, await make_next(), interaction)
                return False
            await self._edit(game, closing, interaction)
            if not await self._post(game, await make_next()):  # refused, the permissions
                # looking right: the current message carries on, saying why
                await self._edit(game, warned(await make_next(),
                                              for_game(game)(CANNOT_POST)), None)
            return True

    async def move_down(self, game: Game, card: Card,
                        interaction: discord.Interaction[Any]) -> bool:
        """A slow game passed to another person by a click on its board: the board is posted
        anew at the bottom of its channel, mentioning them (``card.pings``; it is the game's
        standing ping), and the clicked one is deleted, both through the click's interaction.

        A ping of its own would have to be deleted hours later, when no interaction that could
        delete it lives: a bot-token request per hand-over. False when the bot may not post
        there (the clicked board then shows the card).
        """
        async with self.board(game.id).lock:
            old_id = self.message_of(game)
            clicked = interaction.message.id if interaction.message is not None else None
            if old_id is None or clicked != old_id \
                    or not can_post(channel_permissions(self.client, game)):
                await self._edit(game, card, interaction)
                return can_post(channel_permissions(self.client, game))
            answer = self._answers.get(interaction.id)
            if answer is not None:
                await answer.defer()
            self.note(game, interaction)
            if not await self._post(game, card):
                await self._edit(game, card, interaction)
                return False
            try:
                await interaction.delete_original_response()
            except discord.HTTPException as exc:
                if isinstance(exc, discord.NotFound) and not _webhook_refused(exc):
                    return True  # already gone
                try:
                    await self.delete_message(game.guild_id, game.channel_id, old_id)
                except SEND_FAILURES as again:
                    log.info("game %s: its old board %s stays (%s)", game.id, old_id,
                             failure(again))
        return True

    async def answer_with_board(self, game: Game, interaction: discord.Interaction[Any]
                                ) -> None:
        """A game played through the app, which cannot post on its own: its board is posted
        anew as the answer to ``interaction`` (``/royale board``), the game woken
        (:meth:`~bot.service.GameService.wake`: a deadline already past is played now), and
        whoever must decide pinged through the same interaction.
        """
        await interaction.response.defer(thinking=True)  # public: the board replaces it
        woken = await self.service.wake(game.id)
        game = woken.game if woken is not None else game
        presenter = self.presenter(game.kind)
        card = await presenter.board(game)
        async with self.board(game.id).lock:
            sent = await interaction.followup.send(wait=True, **card.send_kwargs())
            self._track(self.board(game.id), sent.id, card.version, sent)
            await self.service.set_message(game.id, sent.id)
            self.note(game, interaction, sent.id)
        if game.status == GameStatus.ACTIVE:
            await presenter.prompt_current(game)

    async def waits_on(self, game: Game, user_id: str) -> bool:
        """Whether the game's standing ping names ``user_id`` alone and links to its current
        board (they were told already).
        """
        ping = (await self._known(self.board(game.id))).ping
        return ping is not None and ping.people == {user_id} \
            and ping.board_id == self.message_of(game)

    async def bring_down(self, game: Game, interaction: discord.Interaction[Any] | None = None
                         ) -> bool:
        """Post the game's board at the bottom of its channel (the old one, if it stands,
        links to it); a paused game goes on if the bot may post again. False if it may not.
        """
        if game.paused is not None:
            if not can_post(channel_permissions(self.client, game)):
                await self.cannot_post(game, interaction)
                return False
            game = await self.service.unpause(game.id)
            self.board(game.id).reposted_at = None
        presenter = self.presenter(game.kind)
        card = await presenter.board(game)
        async with self.board(game.id).lock:
            old_id = self.message_of(game)
            posted = await self._post(game, card)
            new_id = self.board(game.id).message_id
            if posted and old_id is not None and old_id != new_id:
                await self._point_to(game, old_id, jump_link(game, new_id))
        if not posted:
            await self.cannot_post(game, interaction)
            return False
        if game.status == GameStatus.ACTIVE:
            await presenter.prompt_current(game)
        return True

    async def _point_to(self, game: Game, old_id: int, link: str) -> None:
        """An old board becomes a note linking to the new one (no buttons)."""
        tr = for_game(game)
        card = Card(note_view(tr("⬇️ The game goes on below: {link}", link=link)), [])
        try:
            await self._edit_message(game, old_id, card.edit_kwargs(), None, None)
        except SEND_FAILURES as exc:
            log.info("game %s: the old board %s was not closed (%s)", game.id, old_id,
                     failure(exc))

    async def redraw(self, game_id: int) -> None:
        """Edit a game's board to show its committed state (raises if Discord refuses)."""
        game = await self.service.get_game(game_id)
        if game is None or game.kind not in self.kinds or game.status != GameStatus.ACTIVE:
            return
        await self.edit(game, await self.presenter(game.kind).current(game), strict=True)

    def _repair(self, game_id: int) -> None:
        board = self.board(game_id)
        if board.repair is None:
            board.repair = asyncio.create_task(self._repairing(board),
                                               name=f"redraw-game-{game_id}")

    async def _repairing(self, board: Board) -> None:
        try:
            for delay in REPAIR_DELAYS:
                await asyncio.sleep(delay)
                try:
                    await self.redraw(board.game_id)
                    return
                except SEND_FAILURES as exc:
                    log.warning("game %s: redraw failed too (%s)", board.game_id, failure(exc))
                except Exception:
                    log.exception("game %s: redraw failed", board.game_id)
                    return
        finally:
            if board.repair is asyncio.current_task():
                board.repair = None

    async def refresh_stale(self, interaction: discord.Interaction[Any], game_id: int,
                            stale: StaleClick) -> None:
        """A click on game ``game_id``'s out-of-date message: nothing is applied; if it is the
        game's current board (an edit that never arrived), it is redrawn; the user is told
        privately.
        """
        game = await self.service.get_game(game_id)
        if game is not None and game.status == GameStatus.ACTIVE \
                and interaction.message is not None and interaction.message.id == game.message_id:
            woken = await self.service.wake(game.id)  # played through the app: it goes on
            if woken is not None:
                await self.presenter(game.kind).show(woken, interaction)
            else:
                await self.edit(game, await self.presenter(game.kind).current(game),
                                interaction)
            await self.answered(interaction)
            tr = for_user(interaction)
            await interaction.followup.send(
                tr("That was already decided: here is the game as it is now."), ephemeral=True)
            return
        raise stale

    # -- pings -------------------------------------------------------------------------------

    async def direct(self, user_id: int, text: str) -> bool:
        """Send ``text`` to a person by direct message; False when Discord refuses it (their
        direct messages are closed to the bot, or the account is gone).
        """
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            async with self.budget.spend(Urgency.NOTIFY):
                await user.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("a direct message to a player was refused (%s)", failure(exc))
            return False
        return True

    async def ping(self, game: Game, user_ids: Sequence[str], text: str, *,
                   again: bool = False) -> None:
        """Tell ``user_ids`` (Discord ids) by a new message that mentions them; the game's
        previous ping is deleted. Nothing is sent when the same people's ping still stands and
        links to the game's current board, unless ``again`` (a reminder: a new mention).

        Posted outside the board's lock: the newest ping wins, an older one that lands later
        is deleted. Each ping is recorded before it is posted and given its message once
        posted, so that after a restart the bot knows which stands and which to tidy.
        """
        people = frozenset(u for u in user_ids if u.isdigit())
        board = await self._known(self.board(game.id))
        board_id = self.message_of(game)
        last = board.ping
        if last is not None and last.people == people and last.board_id == board_id \
                and not again:
            return
        board.ping_turn += 1
        turn = board.ping_turn
        if not people:
            self._drop_ping(game)
            return
        if not can_post(channel_permissions(self.client, game)):
            return
        mentioned = [u for u in user_ids if u in people]
        # Played through the app, pings are not stored: nothing can tidy them after a restart
        recorded = not by_app(game)
        ping_id = await self.service.ping_asked(game, mentioned, board_id) if recorded else 0
        content = " ".join(f"<@{u}>" for u in mentioned) + f" {text}"
        try:
            msg = await self.send(game, {"content": content[:2000],
                                         "allowed_mentions": pings_for(sorted(people))})
        except SEND_FAILURES as exc:
            if recorded:
                await self.service.ping_posted(ping_id, None)
            if refusal(exc) is Refusal.CHANNEL_GONE:
                await self._channel_gone(game)
            else:
                log.warning("game %s: could not post a ping (%s)", game.id, failure(exc))
            return
        posted = Ping(ping_id, msg.id, people, board_id, game.version, msg)
        if board.ping_turn != turn:  # a newer ping was asked for meanwhile
            if recorded:
                await self.service.ping_posted(ping_id, msg.id, retired=[ping_id])
            self._delete_later(game, posted)
            return
        old, board.ping = board.ping, posted
        if recorded:
            await self.service.ping_posted(ping_id, msg.id,
                                           retired=[old.ping_id] if old is not None else [])
        if old is not None:
            self._delete_later(game, old)

    async def unping(self, game: Game) -> None:
        """Delete the game's standing ping, if any (in the background)."""
        (await self._known(self.board(game.id))).ping_turn += 1
        self._drop_ping(game)

    async def _known(self, board: Board) -> Board:
        """The board with its standing ping read back through the service the first time this
        process needs it (after a restart, or after the board rested: :meth:`rest_idle`).
        """
        if not board.ping_known:
            row = await self.service.standing_ping(board.game_id)
            board.ping_known = True
            if row is not None and board.ping is None and row.message_id is not None:
                board.ping = Ping(row.id, row.message_id, frozenset(row.people), row.board_id,
                                  row.version)
        return board

    def opened(self, game_id: int) -> None:
        """A game in its lobby: no ping of it stands (pings begin with the game), so its board
        needs no read to know it.
        """
        self.board(game_id).ping_known = True

    async def standing_version(self, game_id: int) -> int | None:
        """The game version the game's standing ping was posted for (None: none stands)."""
        board = await self._known(self.board(game_id))
        return None if board.ping is None else board.ping.version

    def rest_idle(self, idle_ms: int = REST_AFTER_MS) -> int:
        """Forget the boards of slow games nobody touched for ``idle_ms`` (their message and
        standing ping are stored and read back when needed): waiting slow games cost no
        memory. Returns how many rested.
        """
        now = self.service.clock()
        idle = [b.game_id for b in self._boards.values()
                if b.slow and now - b.touched_ms > idle_ms and not b.lock.locked()
                and b.repair is None and b.ping_known]
        for game_id in idle:
            del self._boards[game_id]
        return len(idle)

    def _drop_ping(self, game: Game) -> None:
        board = self._boards.get(game.id)
        if board is not None and board.ping is not None:
            old, board.ping = board.ping, None
            self._delete_later(game, old)

    def _delete_later(self, game: Game, ping: Ping) -> None:
        if by_app(game):  # tidied while the interaction that posted it lives; then it stays
            if fresh(ping.sent) and ping.message_id != ping.board_id:
                self._chore(self._delete_fresh(game, ping), f"unping-game-{game.id}")
            return
        self._chore(self._delete_ping(game.guild_id, game.channel_id, ping),
                    f"unping-game-{game.id}")

    async def _delete_fresh(self, game: Game, ping: Ping) -> None:
        try:
            await self.delete_message(game.guild_id, game.channel_id, ping.message_id,
                                      ping.sent, fresh_only=True)
        except SEND_FAILURES as exc:
            log.info("game %s: ping %s stays (%s)", game.id, ping.message_id, failure(exc))

    def _chore(self, work: Awaitable[None], name: str) -> None:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _delete_ping(self, guild_id: int, channel_id: int, ping: Ping) -> None:
        if ping.message_id == ping.board_id:  # the board itself: it stays
            await self.service.pings_gone([ping.ping_id])
            return
        try:
            await self.delete_message(guild_id, channel_id, ping.message_id, ping.sent)
        except SEND_FAILURES as exc:
            if refusal(exc) is Refusal.OTHER:  # a passing failure: tried again at a restart
                log.info("could not delete ping %s (%s): tidied after the next restart",
                         ping.message_id, failure(exc))
                await self.service.pings_retired([ping.ping_id])
                return
        await self.service.pings_gone([ping.ping_id])

    async def announce(self, game: Game, card: Card, user_ids: Sequence[str],
                       interaction: discord.Interaction[Any] | None = None) -> Sent | None:
        """Post a new message that notifies ``user_ids`` (the end of a game): the standing
        ping goes, the announcement stays. Where the bot may not post, the announcement goes
        through ``interaction`` (which channel permissions do not block), else to each person
        privately. Returns the message, when it reached the channel.
        """
        people = sorted({u for u in user_ids if u.isdigit()})
        card = Card(card.view, card.files, plain=card.plain, version=card.version, pings=people)
        await self._known(self.board(game.id))
        self._drop_ping(game)
        self.note(game, interaction)
        perms = channel_permissions(self.client, game)
        if can_post(perms):
            try:
                return await self.send(game, card.fitted(perms).send_kwargs())
            except SEND_FAILURES as exc:
                if refusal(exc) is Refusal.CHANNEL_GONE:
                    await self._channel_gone(game)
                    return None
                log.warning("game %s: the end could not be posted (%s)", game.id,
                            failure(exc))
        private = card.fitted(discord.Permissions.none())
        if interaction is not None:
            try:
                await self.answered(interaction)
                await interaction.followup.send(**card.send_kwargs())
                return None
            except SEND_FAILURES as exc:
                log.info("game %s: the end could not be sent as a followup (%s)", game.id,
                         failure(exc))
        if by_app(game):  # direct messages are the bot token's
            return None
        for user_id in people:
            try:
                user = self.client.get_user(int(user_id)) or await self.client.fetch_user(
                    int(user_id))
                await user.send(view=private.view)
            except SEND_FAILURES as exc:
                log.info("game %s: could not tell %s of the end (%s)", game.id, user_id,
                         failure(exc))
        return None

    # -- after a restart ---------------------------------------------------------------------

    async def restore(self, pings: Sequence[PingRow], skip_guilds: Collection[int] = ()
                      ) -> dict[int, int]:
        """After a restart, what storage says the bot had shown: each open game's newest
        posted ping stands again (the next hand-over replaces it); every other ping, and those
        of games that ended, is deleted; a ping a crash left unrecorded (posted, its message
        never written down) is looked for in its channel and deleted. ``skip_guilds``: servers
        the bot is no longer in (their rows just go). Returns the game version each standing
        ping was posted for, by game.
        """
        standing: dict[int, PingRow] = {}
        for row in pings:  # oldest first: the newest live one of each game stands
            if row.game_open and row.live and row.message_id is not None:
                standing[row.game_id] = row
        dropped: list[int] = []
        for row in pings:
            ping = Ping(row.id, row.message_id or 0, frozenset(row.people), row.board_id,
                        row.version)
            if standing.get(row.game_id) is row:
                continue  # it stands: read back when its game next needs it
            elif row.guild_id in skip_guilds or row.on_board:
                dropped.append(row.id)
            elif row.message_id is None:
                self._chore(self._sweep(row), f"sweep-game-{row.game_id}")
            else:
                self._chore(self._delete_ping(row.guild_id, row.channel_id, ping),
                            f"unping-game-{row.game_id}")
        if dropped:
            await self.service.pings_gone(dropped)
        return {game_id: row.version for game_id, row in standing.items()}

    async def _sweep(self, row: PingRow) -> None:
        """Delete the ping of ``row`` that was posted but never recorded: a message of the
        bot's in its channel, after it was asked for, that mentions someone, has no buttons
        and is no live message of a game's.
        """
        me = self.client.user.id if self.client.user is not None else None
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        since = dt.datetime.fromtimestamp(max(0, row.asked_ms - SWEEP_MARGIN_MS) / 1000, dt.UTC)
        try:
            async with self.budget.spend(Urgency.TIDY):
                found = [m async for m in channel.history(
                    limit=SWEEP_LIMIT, after=discord.Object(discord.utils.time_snowflake(since)))]
            live = {s.message_id for s in await self.service.shown(
                row.channel_id, [m.id for m in found])}
            for message in found:
                if message.author.id == me and message.raw_mentions \
                        and message.content.startswith("<@") and not message.components \
                        and not message.embeds and message.id not in live:
                    log.info("game %s: deleting ping %s that a crash left unrecorded",
                             row.game_id, message.id)
                    await self.delete_message(row.guild_id, row.channel_id, message.id)
        except SEND_FAILURES as exc:
            log.info("game %s: could not look for an unrecorded ping (%s)", row.game_id,
                     failure(exc))
        await self.service.pings_gone([row.id])

    # -- deletions, the end, paused games ------------------------------------------------------

    async def deleted(self, channel_id: int, message_ids: Sequence[int]) -> None:
        """Messages were deleted in a channel: a game's board among them (its lobby or its
        round, from before a restart too) is posted again (a board deleted again within
        :data:`DELETE_WINDOW_S` of being posted anew pauses its game instead of a loop); a
        deleted ping is just forgotten (the next decision pings again).
        """
        boards: list[int] = []
        gone_pings: list[int] = []
        for shown in await self.service.shown(channel_id, message_ids):
            board = await self._known(self.board(shown.game_id))
            if shown.role == "board":
                if board.message_id == shown.message_id:
                    board.message_id = None
                boards.append(shown.game_id)
                continue
            if board.ping is not None and board.ping.message_id == shown.message_id:
                gone_pings.append(board.ping.ping_id)
                board.ping = None
        if gone_pings:
            await self.service.pings_gone(gone_pings)
        for game_id in boards:
            game = await self.service.get_game(game_id)
            if game is None or not game.is_open:
                continue
            board = self.board(game.id)
            now = self.service.clock()
            if board.reposted_at is not None and now - board.reposted_at < DELETE_WINDOW_S * 1000:
                await self._pause_deleted(game)
                continue
            board.reposted_at = now
            await self.bring_down(game)

    async def _pause_deleted(self, game: Game) -> None:
        if game.status == GameStatus.ACTIVE:
            await self.service.pause(game.id, DELETED)
        tr = for_game(game)
        try:
            await self.send(game, {"content": tr(PAUSED_DELETED, kind=game.kind),
                                   "allowed_mentions": NO_PINGS})
        except SEND_FAILURES as exc:
            log.info("game %s: could not say it is paused (%s)", game.id, failure(exc))

    async def cannot_post(self, game: Game, interaction: discord.Interaction[Any] | None
                          ) -> None:
        """The bot may not post in the game's channel: pause it and tell the players through
        the interaction (channel permissions do not block its answers).
        """
        if by_app(game):  # nothing to grant: its next interaction shows it
            return
        if game.status == GameStatus.ACTIVE and game.paused is None:
            game = await self.service.pause(game.id, NO_SEND)
        if interaction is None:
            return
        tr = for_game(game)
        names = missing(channel_permissions(self.client, game)) or ["Send Messages"]
        text = tr(PAUSED_NO_SEND, permissions=", ".join(f"**{n}**" for n in names),
                  kind=game.kind)
        await self.answered(interaction)
        await answer_error(interaction, text, ephemeral=False)

    async def resume(self, game_id: int, interaction: discord.Interaction[Any] | None) -> bool:
        """Someone acts in a paused game: if the bot may post again it goes on (True)."""
        game = await self.service.get_game(game_id)
        if game is None or game.paused is None:
            return game is not None
        if game.paused == NO_SEND and can_post(channel_permissions(self.client, game)):
            await self.service.unpause(game.id)
            return True
        return False

    async def permissions_changed(self, guild_id: int) -> None:
        """The bot's permissions may have changed in a server: paused games whose channel it
        may post in again go on.
        """
        for game in await self.service.open_games_of_guild(guild_id):
            if game.paused == NO_SEND and can_post(channel_permissions(self.client, game)):
                await self.bring_down(game)

    async def _channel_gone(self, game: Game) -> None:
        """Discord says the game's channel is gone or out of sight: its games end."""
        log.info("game %s: channel %s is gone or out of sight", game.id, game.channel_id)
        for ended in await self.service.abandon_channel(game.channel_id, "channel deleted"):
            self.forget(ended.id)
        self.forget(game.id)

    def release(self, game: Game) -> None:
        """The game ended: its standing ping is deleted and its board is forgotten."""
        self._drop_ping(game)
        self._drop(game.id)

    def forget(self, game_id: int) -> None:
        """Forget the game without a request (its channel is gone); its pings' rows go."""
        board = self._boards.get(game_id)
        if board is not None and board.ping is not None:
            self._chore(self.service.pings_gone([board.ping.ping_id]), f"unping-game-{game_id}")
        self._drop(game_id)

    def _drop(self, game_id: int) -> None:
        board = self._boards.pop(game_id, None)
        if board is not None and board.repair is not None \
                and board.repair is not asyncio.current_task():
            board.repair.cancel()

    async def settle(self) -> None:
        """Wait for the background deletions (tests, shutdown)."""
        while self._chores:
            await asyncio.gather(*list(self._chores), return_exceptions=True)
