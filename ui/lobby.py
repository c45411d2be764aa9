"""The lobby every game kind shares: its card (what the game is, who sits where, the options,
what the host does next) and its items: Join, Leave, Start, Cancel, a computer player, playing
in a thread, how to play.
"""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.rules.levels import EASY, HARD, LEVELS, NORMAL
from bot.rules.registry import kind_of
from bot.service import Game, GameStatus
from bot.service.lobby import by_app
from ui.board import Boards, Card, DiscordKind
from ui.cards import CLOSED, LOBBY, layout, row, text
from ui.i18n import N_, Tr, for_game, for_user
from ui.items import GAME_PREFIXES, Clicked, GameItem, Verb, place_of, shared_place_of
from ui.names import Names, safe
from ui.options import is_manager
from ui.settings import SLOW_WORDS
from ui.threads import open_thread, wants_thread

COMPUTER_LEVELS: Final = {EASY: N_("Easy: plays at random"),
                          NORMAL: N_("Normal: plays a sound plan"),
                          HARD: N_("Hard: looks ahead, hard to beat")}
"""Each computer level, as the lobby's select describes it."""
EXPANSION_NAMES: Final = {"mischief": N_("Mischief"), "cannon": N_("Cannon"),
                          "mercenary": N_("Mercenary")}
"""The Mayhem options by their names in the settings."""
def expansion_names(tr: Tr, expansions: list[str] | tuple[str, ...]) -> str:
    """The Mayhem options on, in ``tr``'s language, e.g. "Mischief, Cannon"."""
    return ", ".join(tr(EXPANSION_NAMES.get(e, e.title())) for e in expansions)


def lobby_text(game: Game, shown: DiscordKind, tr: Tr) -> str:
    """The lobby's words: the game in one sentence, the seats, the options, what comes next."""
    kind = shown.kind
    names = Names(game, tr)
    host, marked = str(game.host_id), tr("(host)")  # msgids outside f-strings: extracted
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if p.is_bot else ''}{safe(names.seat(i))}"
        f"{' ' + marked if p.player_id == host else ''}"
        for i, p in enumerate(game.players))
    minutes = shown.minutes_per_player * max(len(game.players), kind.min_players)
    lines = ["## " + tr(kind.title) + " · " + tr("new game"),
             tr(shown.pitch, minutes=minutes) if shown.pitch else "",
             "", tr("Players ({n}/{most}):", n=len(game.players), most=kind.max_players), seats,
             ""]
    facts = []
    exp = game.settings.get("expansions") or []
    if exp:
        facts.append(tr("Mayhem: {options}", options=expansion_names(tr, exp)))
    timeout = int(game.settings.get("turn_timeout", 120))
    if timeout in SLOW_WORDS:
        facts.append(tr(SLOW_WORDS[timeout]))
    else:
        facts.append(tr("{seconds} s a decision, then the computer plays it", seconds=timeout))
    if wants_thread(game):
        facts.append(tr("played in a thread"))
    lines.append(" · ".join(facts))
    start = tr("The host starts the game when everyone is in.")
    if len(game.players) < kind.min_players:
        start += " " + tr.ngettext("Needs at least {n} player to start.",
                                   "Needs at least {n} players to start.", kind.min_players)
    lines.append(start)
    return "\n".join(line for line in lines if line is not None)


def lobby_card(game: Game, boards: Boards, tr: Tr | None = None, *,
               buttons: bool = True) -> Card:
    """The lobby of ``game`` as it stands (in ``tr``'s language: a private copy, no buttons)."""
    tr = tr or for_game(game)
    shown = boards.kinds[game.kind]
    if game.status == GameStatus.LOBBY:
        boards.opened(game.id)
    if not buttons:
        return Card(layout(LOBBY, text(lobby_text(game, shown, tr))), version=game.version)
    prefix = boards.prefix(game.kind)
    g = game.id
    full = len(game.players) >= kind_of(game.kind).max_players
    main = row(Join.button(prefix, g, label=tr("Join"), emoji="🐼",
                           style=discord.ButtonStyle.success, disabled=full),
               Leave.button(prefix, g, label=tr("Leave")),
               Start.button(prefix, g, label=tr("Start"), emoji="▶️",
                            style=discord.ButtonStyle.primary),
               Cancel.button(prefix, g, label=tr("Cancel"), style=discord.ButtonStyle.danger))
    computers = row(Computer.select(
        prefix, g, None, options=[discord.SelectOption(label=tr(COMPUTER_LEVELS[level])[:100],
                                                       value=level, emoji="🤖")
                                  for level in LEVELS],
        placeholder=tr("Add a computer player…")))
    on = wants_thread(game)
    more = row(HowToPlay.button(prefix, g, label=tr("How to play"), emoji="❓"),
               *([] if by_app(game) else [  # a thread needs the bot in the server
                   Thread.button(prefix, g, arg="0" if on else "1",
                                 label=tr("Play here instead") if on
                                 else tr("Play in a thread"), emoji="🧵")]))
    parts: list[discord.ui.Item[Any]] = [text(lobby_text(game, shown, tr)), main]
    if not full:
        parts.append(computers)
    parts.append(more)
    return Card(layout(LOBBY, *parts), version=game.version)


def closed_lobby_card(game: Game, why: str, note: str = "") -> Card:
    """A lobby that will not be played (``why``: a msgid, e.g. "cancelled")."""
    tr = for_game(game)
    names = Names(game, tr)
    seats = ", ".join(safe(names.seat(i)) for i in range(len(game.players)))
    number = tr("Game {id}", id=game.id)
    words = f"**{tr(kind_of(game.kind).title)}: {tr(why)}** · {number}"
    return Card(layout(CLOSED, text("\n".join(x for x in (note, words, seats) if x))), [],
                version=game.version)


async def redraw_lobby(boards: Boards, game: Game,
                       interaction: discord.Interaction[Any] | None = None) -> None:
    """Edit the lobby to show ``game``'s seats now."""
    await boards.edit(game, lobby_card(game, boards), interaction)


async def lobby_expired(boards: Boards, game: Game) -> None:
    """A lobby nobody started closed by itself: its card says so."""
    tr = for_game(game)
    minutes = boards.service.limits.lobby_ttl_s // 60
    await boards.edit(game, closed_lobby_card(game, N_("expired"), tr.ngettext(
        "Nobody started this game for {n} minute: it is closed.",
        "Nobody started this game for {n} minutes: it is closed.", minutes)))
    boards.release(game)


async def cancelled(boards: Boards, game: Game, who: str,
                    interaction: discord.Interaction[Any] | None = None) -> None:
    """A game was cancelled by ``who``: its board is closed, its ping goes."""
    tr = for_game(game)
    await boards.edit(game, closed_lobby_card(
        game, N_("cancelled"), tr("Cancelled by {name}.", name=safe(who))), interaction)
    boards.release(game)


class LobbyItem(GameItem, prefixes=GAME_PREFIXES):
    """A lobby button: any game kind's."""


class Join(LobbyItem, verb=Verb.JOIN):
    async def act(self, clicked: Clicked) -> None:
        shared_place_of(clicked.interaction)  # the app's answers must reach everyone
        game = await clicked.service.join(clicked.game_id, clicked.who)
        await redraw_lobby(clicked.boards, game, clicked.interaction)


class Leave(LobbyItem, verb=Verb.LEAVE):
    async def act(self, clicked: Clicked) -> None:
        game = await clicked.service.leave(clicked.game_id, clicked.who)
        await redraw_lobby(clicked.boards, game, clicked.interaction)


class Computer(LobbyItem, verb=Verb.COMPUTER):
    async def act(self, clicked: Clicked) -> None:
        level = clicked.arg or clicked.one()  # a button of an older lobby names its level
        game = await clicked.service.add_computer(clicked.game_id, clicked.who, level)
        await redraw_lobby(clicked.boards, game, clicked.interaction)


class Thread(LobbyItem, verb=Verb.THREAD):
    async def act(self, clicked: Clicked) -> None:
        game = await clicked.service.set_thread(clicked.game_id, clicked.who,
                                                clicked.arg == "1")
        await redraw_lobby(clicked.boards, game, clicked.interaction)


class Start(LobbyItem, verb=Verb.START):
    async def act(self, clicked: Clicked) -> None:
        outcome = await clicked.service.start(clicked.game_id, clicked.who)
        outcome.game = await open_thread(clicked.boards, outcome.game, clicked.interaction)
        await clicked.boards.presenter(outcome.game.kind).show(outcome, clicked.interaction)


class Cancel(LobbyItem, verb=Verb.CANCEL):
    async def act(self, clicked: Clicked) -> None:
        who = clicked.who
        game = await clicked.service.cancel(
            clicked.game_id, who, manager=is_manager(clicked.interaction),
            guild_id=place_of(clicked.interaction).guild_id)
        await cancelled(clicked.boards, game, who.name, clicked.interaction)


class HowToPlay(LobbyItem, verb=Verb.HOW):
    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        tr = for_user(clicked.interaction)
        how = clicked.boards.kinds[game.kind].how_to_play
        await clicked.interaction.followup.send(tr(how), ephemeral=True)


LOBBY_ITEMS: Final = (Join, Leave, Computer, Thread, Start, Cancel, HowToPlay)
"""The lobby's items, registered once for every game kind."""
