"""Buttons and selects that own their clicks: one :class:`discord.ui.DynamicItem` class per verb,
its ``act`` doing the verb, and the one way a click goes from discord.py to the game service
(docs/architecture.md, *The path of one click*).

A custom_id is ``<prefix>:<verb>:<game>:<version>:<arg>``: the prefix names the kind of message
(``pr`` Panda Royale, ``pp`` Posing Pandas, ``lb`` leaderboards, ``hp`` help), the verb what to
do (:class:`Verb`), the game its id (empty when the component is not about a game), the version
the game's state version the component was drawn at (empty when the verb does not depend on
it), and the arg the verb's argument (a die, a page, a hold mask). A game kind's own verbs are
items of its prefix; the verbs every kind shares (the lobby's, the game over's) are one item
each that takes every game prefix. After a restart a message's components still reach their
item (discord.py matches the custom_id against each item's template), and a stale version is
refused politely by the service.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol, Self, cast

import discord

from bot.errors import GamePaused, StaleClick, UserError
from bot.invite import GUILD_INSTALL
from bot.request_budget import RequestBudget
from bot.service import (
    Game,
    GameService,
    GameStatus,
    People,
    Person,
    PersonalData,
    Place,
    Reach,
    Reviews,
    Seasons,
    ServerSettings,
    StatsService,
)
from bot.settings import Settings
from ui.board import Boards, count_answer
from ui.cards import Emojis
from ui.errors import guarded, report
from ui.i18n import N_
from ui.late import Lateness, still_answerable

NOT_OURS: Final = N_("That button is not one of this bot's (or it is from an older version): use "
                     "the latest game message, or /royale status.")
MAX_GAME_ID: Final = 2**63 - 1
GAME_PREFIXES: Final = "pr|pp"
"""The prefixes of the game kinds' messages (their shared verbs take them all)."""


class Verb(enum.StrEnum):
    """What a component does: its custom_id's second part."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    COMPUTER = "cpu"
    THREAD = "thread"
    HOW = "how"
    HAND = "hand"
    SHEET = "sheet"
    HELP = "explain"
    PICK = "pick"
    FIRE = "fire"
    SAVE = "save"
    PASS = "pass"
    MISCHIEF_TARGET = "mtarget"
    MISCHIEF_DIE = "mdie"
    TRADE_TARGET = "ttarget"
    TRADE_DIE = "tdie"
    BACK = "back"
    HOLD = "hold"
    ROLL = "roll"
    FILL = "fill"
    CARD = "pcard"
    LOG = "log"
    REMATCH = "rematch"
    REVIEW = "review"
    REPLAY = "replay"
    FRAME = "frame"
    PAGE = "page"
    FORGET = "forget"
    FORGET_SERVER = "server"
    KEEP = "keep"


_TAIL: Final = (r":(?P<verb>[a-z]{1,12}):(?P<game>[0-9]{1,19})?:(?P<version>[0-9]{1,9})?:"
                r"(?P<arg>[A-Za-z0-9_.|-]{0,60})")
CUSTOM_ID: Final = re.compile(rf"(?P<prefix>[a-z]{{2}}){_TAIL}")


@dataclass(frozen=True, slots=True)
class Click:
    """What a component says; each field means one thing."""

    verb: str
    game_id: int | None = None
    """The game the component acts on (None: not about one game)."""
    version: int | None = None
    """The game's state version the component was drawn at (None: any version)."""
    arg: str = ""
    """The verb's argument: a die id, a seat, a page, a hold mask..."""

    def custom_id(self, prefix: str) -> str:
        """The custom_id carrying this click, for components of ``prefix``."""
        game = "" if self.game_id is None else str(self.game_id)
        version = "" if self.version is None else str(self.version)
        cid = f"{prefix}:{self.verb}:{game}:{version}:{self.arg}"
        if len(cid) > 100 or not CUSTOM_ID.fullmatch(cid):  # Discord's limit; our shape
            raise ValueError(f"not a valid custom_id: {cid!r}")
        return cid


def parse_custom_id(custom_id: str) -> tuple[str, Click] | None:
    """The prefix and click of a custom_id of ours, or None for anything else."""
    m = CUSTOM_ID.fullmatch(custom_id)
    return None if m is None else (m["prefix"], click_from_match(m))


def click_from_match(m: re.Match[str]) -> Click:
    """The click of a matched custom_id."""
    game = int(m["game"]) if m["game"] else None
    if game is not None and game > MAX_GAME_ID:
        game = 0  # no such game: the service says so politely
    version = int(m["version"]) if m["version"] else None
    return Click(m["verb"], game, version, m["arg"])


class GameBot(Protocol):
    """What the Discord layer needs of the bot object (:class:`bot.client.PandaBot`)."""

    service: GameService
    stats: StatsService
    servers: ServerSettings
    seasons: Seasons
    reviews: Reviews
    privacy: PersonalData
    people: People
    settings: Settings
    budget: RequestBudget
    boards: Boards
    lateness: Lateness
    dice_emojis: Emojis


def bot_of(client: object) -> GameBot:
    """The bot an interaction came to, as the Discord layer sees it."""
    if not hasattr(client, "boards"):
        raise RuntimeError("not the game bot")
    return cast(GameBot, client)


def person(user: discord.abc.User) -> Person:
    """The service's view of a Discord user."""
    return Person(user.id, getattr(user, "display_name", None) or user.name)


def reach_of(interaction: discord.Interaction[Any]) -> Reach:
    """How the bot reaches the interaction's channel: as a member of its server (installed
    there), or through the app a player installed (its interactions only: in a DM or group DM,
    or a server without the bot).
    """
    # discord.py keeps the payload's authorizing_integration_owners private (2.7): keyed by
    # integration type (bot.invite.GUILD_INSTALL: the server's install); a payload naming no
    # owner at all comes from the server's bot, as before user installs
    owners: dict[int, int] = getattr(interaction, "_integration_owners", {})
    if interaction.guild_id is not None and (GUILD_INSTALL in owners or not owners):
        return Reach.BOT
    if interaction.guild_id is not None:
        return Reach.APP
    return Reach.PRIVATE


EXTERNAL_APPS_OFF: Final = N_(
    "This server turned off Use External Apps for its members, so the app's answers here are "
    "private to whoever asks: no game can be shared here. Play in a group DM, or ask the "
    "server to add the bot.")


def shared_place_of(interaction: discord.Interaction[Any]) -> Place:
    """Where a shared game is played (:func:`place_of`): refused in a server without the bot
    that turned off Use External Apps for its members (Discord makes the app's answers there
    private to whoever asks).
    """
    place = place_of(interaction)
    if place.reach is Reach.APP and not interaction.permissions.use_external_apps:
        raise UserError(EXTERNAL_APPS_OFF)
    return place


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """Where the interaction happened; a clear error in a direct message with the bot. In a
    DM or group DM the place's server is the channel's own id (its league).
    """
    if interaction.channel_id is None or (
            interaction.guild_id is None
            and interaction.context.private_channel is not True):
        raise UserError("Games are played in server channels and group DMs, not in direct "
                        "messages with the bot.")
    reach = reach_of(interaction)
    guild_id = interaction.guild_id if interaction.guild_id is not None \
        else interaction.channel_id
    return Place(guild_id, interaction.channel_id, reach)


@dataclass(slots=True)
class Clicked:
    """One click being handled: the interaction, what its component says, and the bot."""

    interaction: discord.Interaction[Any]
    click: Click
    bot: GameBot

    @property
    def service(self) -> GameService:
        return self.bot.service

    @property
    def boards(self) -> Boards:
        return self.bot.boards

    @property
    def who(self) -> Person:
        return person(self.interaction.user)

    @property
    def arg(self) -> str:
        return self.click.arg

    @property
    def game_id(self) -> int:
        """The game the component is about (every game verb has one)."""
        if self.click.game_id is None:
            raise UserError("That button is not valid any more: use the latest message.")
        return self.click.game_id

    @property
    def version(self) -> int:
        """The state version the component was drawn at (every move verb has one)."""
        if self.click.version is None:
            raise UserError("That button is not valid any more: use the latest message.")
        return self.click.version

    def one(self) -> str:
        """The one option chosen in a select."""
        data: dict[str, Any] = dict(self.interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        if len(values) != 1:
            raise UserError("Choose exactly one option.")
        return values[0]

    async def redraw(self, view: discord.ui.LayoutView,
                     files: Sequence[discord.File] = ()) -> None:
        """Show ``view`` (and ``files``) in the clicked message instead of what it held: a
        message an older version of the bot wrote has text, embeds and attachments, which a
        Components V2 message may not keep.
        """
        await self.interaction.edit_original_response(content=None, embed=None, view=view,
                                                      attachments=list(files))

    async def game(self) -> Game:
        game = await self.service.get_game(self.game_id)
        if game is None:
            raise UserError("That game no longer exists.")
        return game


class GameItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A button or select that does one verb. Subclasses name it (``verb=``), the prefixes
    it takes (``prefixes=``: a kind's own, or :data:`GAME_PREFIXES` for a shared verb), and
    whether its click shows its move in the clicked board (``shows_move=True``: answered by
    that edit when it is ready at once) or works anywhere in the game's server
    (``server_wide=True``: the replay's steps); they implement :meth:`act`.
    """

    prefixes: ClassVar[str] = ""
    verb: ClassVar[Verb]
    shows_move: ClassVar[bool] = False
    server_wide: ClassVar[bool] = False
    about_a_game: ClassVar[bool] = True

    def __init_subclass__(cls, *, verb: Verb | None = None, prefixes: str | None = None,
                          shows_move: bool | None = None, server_wide: bool | None = None,
                          about_a_game: bool | None = None, **kwargs: Any) -> None:
        if prefixes is not None:
            cls.prefixes = prefixes
        if shows_move is not None:
            cls.shows_move = shows_move
        if server_wide is not None:
            cls.server_wide = server_wide
        if about_a_game is not None:
            cls.about_a_game = about_a_game
        if verb is None:
            super().__init_subclass__(template=r"(?!)", **kwargs)
            return
        cls.verb = verb
        tail = _TAIL.replace("(?P<verb>[a-z]{1,12})", f"(?P<verb>{re.escape(verb.value)})")
        super().__init_subclass__(template=rf"(?P<prefix>{cls.prefixes}){tail}", **kwargs)

    def __init__(self, item: discord.ui.Item[Any], click: Click) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    def button(cls, prefix: str, game_id: int | None = None, version: int | None = None,
               arg: str = "", *, label: str | None = None,
               style: discord.ButtonStyle = discord.ButtonStyle.secondary,
               emoji: str | discord.PartialEmoji | None = None,
               disabled: bool = False) -> Self:
        """A button of ``prefix``'s messages doing this verb."""
        click = Click(cls.verb, game_id, version, arg)
        return cls(discord.ui.Button(label=label, style=style, emoji=emoji, disabled=disabled,
                                     custom_id=click.custom_id(prefix)), click)

    @classmethod
    def select(cls, prefix: str, game_id: int | None, version: int | None, arg: str = "", *,
               options: list[discord.SelectOption], placeholder: str | None = None) -> Self:
        """A one-choice select of ``prefix``'s messages doing this verb."""
        click = Click(cls.verb, game_id, version, arg)
        return cls(discord.ui.Select(custom_id=click.custom_id(prefix), options=options,
                                     placeholder=placeholder, min_values=1, max_values=1),
                   click)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /) -> Self:
        """Rebuild the component of a clicked custom_id (after a restart too)."""
        return cls(item, click_from_match(match))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """A click that may have come too late is asked to Discord first, and dropped if
        Discord refuses it (its user saw it fail: :mod:`ui.late`).
        """
        bot = bot_of(interaction.client)
        return await still_answerable(interaction, bot.lateness.judge(interaction))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The one way of a click: answered in time, checked, done, every failure told."""
        bot = bot_of(interaction.client)
        clicked = Clicked(interaction, self.click, bot)
        boards = bot.boards
        boards.answer_later(interaction)
        try:
            if not self.shows_move or boards.behind():
                await boards.answered(interaction)
            if self.about_a_game and self.click.game_id is not None:
                if self.server_wide:
                    await bot.service.check_server(self.click.game_id,
                                                   place_of(interaction).guild_id)
                else:
                    await bot.service.check_place(self.click.game_id, place_of(interaction))
            try:
                await self.act(clicked)
            except StaleClick as stale:
                await boards.refresh_stale(interaction, clicked.game_id, stale)
            except GamePaused:
                if not await boards.resume(clicked.game_id, interaction):
                    raise
                await self.act(clicked)
        except Exception as exc:
            await boards.answered(interaction)
            await report(interaction, exc)
        finally:
            await boards.answered(interaction)
            boards.click_done(interaction)
            count_answer(interaction)

    async def act(self, clicked: Clicked) -> None:
        """Do the verb (the click is answered already, or answered by the move's edit)."""
        raise NotImplementedError


def _items(cls: type[GameItem]) -> Iterator[type[GameItem]]:
    for sub in cls.__subclasses__():
        if "verb" in sub.__dict__:
            yield sub
        yield from _items(sub)


def is_ours(custom_id: str) -> bool:
    """Whether one of the items takes this custom_id."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id)  # discord.py's
               for item in _items(GameItem))


def _components(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, inside rows, containers and sections too."""
    for component in components:
        yield component
        yield from _components(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


async def answer_unmatched(interaction: discord.Interaction[Any]) -> None:
    """Answer the interactions no item will take (discord.py's ``on_interaction``; an item
    takes a click only when its message still shows its component, with the same type): a
    modal (the bot asks for none), a custom_id that is not ours or not well formed, a component
    the message no longer shows (a client with an out-of-date copy), one sent with another
    type than the message's (forged).
    """
    bot = bot_of(interaction.client)
    bot.lateness.judge(interaction)  # learnt from, whoever answers it
    if interaction.type is discord.InteractionType.modal_submit:
        await guarded(interaction, _refuse(NOT_OURS))
        return
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if not is_ours(custom_id):
        await guarded(interaction, _refuse(NOT_OURS))
        return
    if interaction.message is None:
        return
    shown = {getattr(c, "custom_id", None): getattr(c, "type", None)
             for c in _components(interaction.message.components)}
    kind = shown.get(custom_id)
    if isinstance(kind, discord.ComponentType) and kind.value == data.get("component_type"):
        return  # its item answers it
    if custom_id in shown:  # a button's id sent as a select, or the reverse: forged
        await guarded(interaction, _refuse(NOT_OURS))
        return
    parsed = parse_custom_id(custom_id)
    await guarded(interaction, _gone(bot, parsed[1].game_id if parsed else None))


async def _refuse(message: str) -> None:
    raise UserError(message)


async def _gone(bot: GameBot, game_id: int | None) -> None:
    game = await bot.service.get_game(game_id) if game_id else None
    if game is not None and game.status == GameStatus.FINISHED:
        raise UserError("This game is over.")
    if game is not None and game.status == GameStatus.CANCELLED:
        raise UserError("This game was cancelled.")
    raise UserError("That button is no longer on the game's message: use the latest one.")
