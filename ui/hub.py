"""What the Discord layer shares: the game service, the presenters and the verb tables.

The bot object (:class:`bot.client.PandaBot`) carries the services; the hub is attached to it
by the ``cogs.core`` extension and filled by each game's extension with its
:class:`DiscordGame` entry. Nothing here imports the bot's client: the layers point one way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.errors import UserError
from bot.request_budget import RequestBudget
from bot.rules.registry import GameKind
from bot.rules.replay import Frame
from bot.rules.review import Option
from bot.service import (
    Game,
    GameService,
    Outcome,
    Person,
    Place,
    StatsService,
)
from bot.settings import Settings
from ui.clicks import Click, values_of
from ui.i18n import Tr
from ui.late import Lateness
from ui.upkeep import Upkeep

if TYPE_CHECKING:
    from ui.messages import GameMessages
    from ui.shown import Shown

HUB_ATTRIBUTE = "ui_hub"


class GameBot(Protocol):
    """What the Discord layer needs of the bot object."""

    service: GameService
    stats: StatsService
    settings: Settings
    budget: RequestBudget


@dataclass(slots=True)
class ReplayPage:
    """One step of a replay as a game kind shows it (see :mod:`ui.replay`): an embed of what
    happened in the step (its text and tables; the replay sets its title, image and footer)
    and the step's picture, as PNG bytes.
    """

    embed: discord.Embed
    picture: bytes


class Presenter(Protocol):
    """How a game kind shows itself in a channel (cogs/<game>/present.py)."""

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed (answering ``interaction`` if given)."""
        ...

    async def current(self, game: Game, *, tr: Tr | None = None) -> Shown:
        """The game's message as it should look now (in ``tr``'s language: a private copy)."""
        ...

    async def moved(self, outcome: Outcome, reason: str) -> None:
        """The service moved the game on its own: ``"timeout"``, ``"resume"`` or
        ``"expired"`` (a lobby nobody started).
        """
        ...

    async def board(self, game: Game) -> Shown:
        """The game's board to post anew (lobby or round, with its picture)."""
        ...

    async def prompt_current(self, game: Game) -> None:
        """Ping whoever must decide now (after the board was posted anew)."""
        ...

    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage:
        """One step of the finished game's replay, in ``tr``'s language (a private message)."""
        ...


@dataclass(slots=True)
class ClickContext:
    """One click on one of our components, with everything its handler needs."""

    interaction: discord.Interaction[Any]
    click: Click
    hub: Hub

    @property
    def service(self) -> GameService:
        """The game service."""
        return self.hub.service

    @property
    def values(self) -> list[str]:
        """The options chosen in a select (empty for a button)."""
        return values_of(self.interaction)

    @property
    def who(self) -> Person:
        """The clicking user."""
        return person(self.interaction.user)

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
        values = self.values
        if len(values) != 1:
            raise UserError("Choose exactly one option.")
        return values[0]


Handler = Callable[[ClickContext], Awaitable[None]]
VerbTable = Mapping[str, Handler]


class ComponentMaker(Protocol):
    """A component class of one prefix (see :mod:`ui.components`)."""

    prefix: str

    def button(self, click: Click, *, label: str | None = None,
               style: discord.ButtonStyle = ..., emoji: str | None = None,
               disabled: bool = False, row: int | None = None) -> discord.ui.Item[Any]:
        """A button carrying ``click``."""
        ...


@dataclass(frozen=True, slots=True)
class ReviewWords:
    """How a game review (:mod:`ui.review`) names a kind's options: ``describe(tr, option,
    name)`` (``name(token)``: a player the option mentions), and whether its decisions are
    counted in turns (Posing) rather than rounds.
    """

    describe: Callable[[Tr, Option, Callable[[str], str]], str]
    turns: bool = False


@dataclass(frozen=True, slots=True)
class DiscordGame:
    """The Discord layer's part of a game kind's entry (the rules' part is ``kind``)."""

    kind: GameKind[Any, Any]
    component: ComponentMaker
    presenter: Presenter
    verbs: VerbTable
    review_words: ReviewWords | None = None
    moves: frozenset[str] = frozenset()
    """Verbs whose click edits the clicked message (a decision, a step of one): answered by
    that edit when it is ready at once (:mod:`ui.answers`), the others deferred at once."""


@dataclass
class Hub:
    """The presenters and verb tables of every loaded game, by kind and by prefix, and the one
    :class:`ui.messages.GameMessages` every game's messages go through.
    """

    bot: GameBot
    messages: GameMessages
    games: dict[str, DiscordGame] = field(default_factory=dict)
    tables: dict[str, VerbTable] = field(default_factory=dict)
    moves: dict[str, frozenset[str]] = field(default_factory=dict)
    """Component prefix -> the verbs that show their move in the clicked message."""
    lateness: Lateness = field(default_factory=Lateness)
    """How late each interaction came, by Discord's clock (:mod:`ui.late`)."""

    upkeep: Upkeep = field(init=False)

    def __post_init__(self) -> None:
        """Refused edits are redrawn from the committed state; what real servers do to games
        is answered by :class:`ui.upkeep.Upkeep`.
        """
        self.upkeep = Upkeep(self.service, self.messages, self.presenter, self.lateness)
        self.messages.redraw = self.redraw
        self.messages.gone = self.upkeep.channel_gone
        self.service.present = self.upkeep.is_member

    async def redraw(self, game_id: int) -> None:
        """Edit a game's message to show its committed state (raises if Discord refuses)."""
        game = await self.service.get_game(game_id)
        if game is None or game.kind not in self.games:
            return
        if game.status == "lobby":
            return
        shown = await self.presenter(game.kind).current(game)
        await self.messages.edit(game, shown, strict=True)

    @property
    def service(self) -> GameService:
        """The game service."""
        return self.bot.service

    @property
    def stats(self) -> StatsService:
        """The leaderboards and stats."""
        return self.bot.stats

    def add_game(self, game: DiscordGame) -> None:
        """Register a game kind's presenter, component prefix and verbs."""
        self.games[game.kind.name] = game
        self.add_table(game.component.prefix, game.verbs)
        self.moves[game.component.prefix] = game.moves
        self.service.listeners[game.kind.name] = game.presenter.moved

    def add_table(self, prefix: str, verbs: VerbTable) -> None:
        """Register the verbs of one component prefix."""
        if prefix in self.tables:
            raise RuntimeError(f"component prefix {prefix!r} is registered twice")
        self.tables[prefix] = verbs

    def presenter(self, kind: str) -> Presenter:
        """The presenter of a game kind."""
        return self.games[kind].presenter


def hub_of(client: object) -> Hub:
    """The hub attached to the bot (see ``cogs.core``)."""
    hub = getattr(client, HUB_ATTRIBUTE, None)
    if not isinstance(hub, Hub):
        raise RuntimeError("the cogs.core extension is not loaded")
    return hub


def person(user: discord.abc.User) -> Person:
    """The service's view of a Discord user."""
    return Person(user.id, getattr(user, "display_name", None) or user.name)


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """Where the interaction happened; a clear error outside a server channel."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("Games are played in server channels, not in direct messages.")
    return Place(interaction.guild_id, interaction.channel_id)
