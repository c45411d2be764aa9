"""The slash commands every game kind shares, written once: :class:`GameCommands`, the group
each kind's cog inherits (``/royale``, ``/posing``) with its own ``new`` and whatever is its own.

Every command that writes answers in time through :class:`ui.board.Reply` (docs/architecture.md,
end of *Deploys and restarts*), asks Discord first when it may have come too late, and leaves
nothing half-made when its answer fails: a lobby that cannot be its answer is posted in the
channel, one that can be shown nowhere is cancelled, and a started game's board is shown whatever
happens to the answer.
"""

from __future__ import annotations

import io
from typing import Any, ClassVar, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import UserError
from bot.rules.errors import Term
from bot.rules.gamelog import dumps_line
from bot.rules.registry import kind_of
from bot.service import Game, GameStatus, NewSettings, Reach
from bot.service.lobby import by_app
from ui.board import Reply, jump_link
from ui.cards import layout, text
from ui.ending import END_ITEMS
from ui.errors import MISSING_PERMISSIONS
from ui.i18n import N_, for_game, for_user
from ui.items import GameBot, bot_of, person, place_of, shared_place_of
from ui.lobby import LOBBY_ITEMS, cancelled, lobby_card, redraw_lobby
from ui.options import GameNumber, can_manage_server, is_manager
from ui.replay import REPLAY_ITEMS, send_replay
from ui.review import Review, send_review
from ui.threads import open_thread

SHARED_ITEMS: Final = (*LOBBY_ITEMS, *END_ITEMS, *REPLAY_ITEMS, Review)
ATTACHMENT_LIMIT: Final = 10 * 1024 * 1024
"""Discord's attachment limit for bots without boosts."""
STATUS_WORDS: Final = {"lobby": N_("lobby"), "active": N_("active"),
                       "finished": N_("finished"), "cancelled": N_("cancelled")}
"""A game's status, as the log command names it."""


def bot_permissions_ok(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post game cards in the interaction's channel."""
    perms = interaction.app_permissions
    return bool(perms.view_channel and perms.send_messages and perms.attach_files)


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)
class GameCommands(commands.GroupCog):
    """The commands of one game kind (``kind``): its subclass is the kind's group."""

    kind: ClassVar[str] = ""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """The shared items take their clicks from now on (after a restart too)."""
        self.bot.add_dynamic_items(*SHARED_ITEMS)

    @property
    def game_bot(self) -> GameBot:
        return bot_of(self.bot)

    async def _open_game(self, interaction: discord.Interaction[Any]) -> Game:
        return await self.game_bot.service.game_in_channel(place_of(interaction).channel_id,
                                                           self.kind)

    async def _reply(self, interaction: discord.Interaction[Any]) -> Reply:
        return await Reply.begin(interaction, self.game_bot.lateness.judge(interaction))

    async def open_lobby(self, interaction: discord.Interaction[Any],
                         settings: NewSettings) -> None:
        """Open a lobby in this channel and post its card (as the module's docstring says).
        Played through the app, the lobby can only be the command's answer.
        """
        place = shared_place_of(interaction)
        if place.reach is Reach.BOT and not bot_permissions_ok(interaction):
            raise UserError(MISSING_PERMISSIONS)
        bot = self.game_bot
        reply = await self._reply(interaction)
        try:
            game = await bot.service.new_lobby(kind=self.kind, place=place,
                                               host=person(interaction.user),
                                               settings=settings)
            card = lobby_card(game, bot.boards)
            message_id = await reply.public(**card.send_kwargs())
            if message_id is not None:
                await bot.service.set_message(game.id, message_id)
                if place.reach is not Reach.BOT:  # what comes next goes through it
                    bot.boards.note(game, interaction, message_id)
                return
            if place.reach is not Reach.BOT or not await bot.boards.post(game, card):
                await bot.service.cancel(game.id, person(interaction.user),
                                         manager=True)
                bot.boards.release(game)
                raise UserError(MISSING_PERMISSIONS)
            tr = for_user(interaction)
            await reply.private(tr("Your game is open: {link}",
                                   link=jump_link(game, bot.boards.message_of(game))))
        finally:
            reply.done()

    @app_commands.command(name=loc("join"), description=loc("Join the game's lobby here"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        reply = await self._reply(interaction)
        try:
            game = await self._open_game(interaction)
            game = await bot.service.join(game.id, person(interaction.user),
                                          loaded=game)
            tr = for_user(interaction)
            await reply.private(
                tr.ngettext("You joined the {game} game ({n} player).",
                            "You joined the {game} game ({n} players).", len(game.players),
                            game=tr(kind_of(self.kind).title)))
        finally:
            reply.done()
        await redraw_lobby(bot.boards, game)

    @app_commands.command(name=loc("leave"), description=loc("Leave the game's lobby here"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        reply = await self._reply(interaction)
        try:
            game = await self._open_game(interaction)
            game = await bot.service.leave(game.id, person(interaction.user),
                                           loaded=game)
            tr = for_user(interaction)
            await reply.private(tr("You left the game."))
        finally:
            reply.done()
        await redraw_lobby(bot.boards, game)

    @app_commands.command(name=loc("start"), description=loc("Start the game (host only)"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        reply = await self._reply(interaction)
        try:
            game = await self._open_game(interaction)
            outcome = await bot.service.start(game.id, person(interaction.user), loaded=game)
            tr = for_user(interaction)
            await reply.private(tr("The game is on! Decisions are made on the game message."))
        finally:
            reply.done()
        outcome.game = await open_thread(bot.boards, outcome.game, interaction)
        await bot.boards.presenter(self.kind).show(outcome, interaction)

    @app_commands.command(name=loc("status"),
                          description=loc("The game in this channel, privately"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        game = await self._open_game(interaction)
        tr = for_user(interaction)
        card = await bot.boards.presenter(self.kind).current(game, tr=tr)
        lines = []
        if game.message_id:
            jump = tr("Jump to the game")  # outside the f-string: extracted
            lines.append(f"[{jump}]({jump_link(game, game.message_id)})")
        seat = next((p.seat for p in game.players
                     if p.player_id == str(interaction.user.id)), None)
        if game.state is not None and seat is not None:
            presenter = bot.boards.presenter(self.kind)
            missed = await presenter.missed(tr, game, bot.service.state_of(game), seat)
            if missed:
                lines.append(missed.strip())
        lines.append("-# " + tr("Lost the game's message? /{kind} board brings it to the "
                                "bottom of the channel.", kind=self.kind))
        view = card.view
        view.add_item(text("\n".join(lines)))
        await interaction.response.send_message(view=view, files=card.files or [],
                                                ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=loc("cancel"),
                          description=loc("Cancel the game here (host or channel managers)"))
    @app_commands.describe(game=loc("A game elsewhere in this server, by its number (yours, "
                                    "or any if you manage the server)"))
    @app_commands.rename(game=loc("game"))
    async def cancel(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        """Cancel the channel's game, or game ``game`` elsewhere in this server."""
        bot = self.game_bot
        place = place_of(interaction)
        who = person(interaction.user)
        reply = await self._reply(interaction)
        try:
            if game is None:
                found = await self._open_game(interaction)
                manager = is_manager(interaction)
            else:
                maybe = await bot.service.get_game(game)
                if maybe is None or maybe.guild_id != place.guild_id or maybe.kind != self.kind:
                    raise UserError("There is no {game} game {id} in this server.",
                                    game=Term(kind_of(self.kind).title), id=game)
                found = maybe
                manager = can_manage_server(interaction) or (
                    found.channel_id == place.channel_id and is_manager(interaction))
            ended = await bot.service.cancel(found.id, who, manager=manager,
                                             guild_id=place.guild_id)
            tr = for_game(ended)
            said = tr("{game} game {id} cancelled: it won't count on the leaderboard.",
                      game=tr(kind_of(self.kind).title), id=ended.id)
            if await reply.public(view=layout(0x95A5A6, text(said)),
                                  allowed_mentions=discord.AllowedMentions.none()) is None:
                await reply.private(said)
        finally:
            reply.done()
        await cancelled(bot.boards, ended, who.name)

    @app_commands.command(name=loc("board"),
                          description=loc("Bring the game's message down to the bottom of the "
                                          "channel"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        game = await self._open_game(interaction)
        if by_app(game):
            await bot.boards.answer_with_board(game, interaction)
            return
        tr = for_user(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if await bot.boards.bring_down(game, interaction):
            await interaction.followup.send(tr("Here is the game, at the bottom of the channel."),
                                            ephemeral=True)

    @app_commands.command(name=loc("resign"),
                          description=loc("Hand your seat to the computer for the rest of the "
                                          "game"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        game = await self._open_game(interaction)
        if game.status != GameStatus.ACTIVE:
            raise UserError("The game hasn't started yet: leave the lobby instead (/{kind} "
                            "leave).", kind=self.kind)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await bot.service.resign(game.id, person(interaction.user))
        await interaction.followup.send(
            for_user(interaction)("You resigned: the computer plays your seat for the rest of "
                                  "the game, and the game won't count for you."), ephemeral=True)
        await bot.boards.presenter(self.kind).show(outcome, None)

    @app_commands.command(name=loc("pause"),
                          description=loc("Pause your slow game: no deadline, no reminder until "
                                          "you resume it (host only)"))
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        game = await self._open_game(interaction)
        game = await bot.service.pause_by_host(game.id, person(interaction.user))
        await interaction.response.send_message(for_game(game)(
            "⏸ The host paused the game: no deadline runs until /{kind} resume.",
            kind=self.kind), allowed_mentions=discord.AllowedMentions.none())
        await bot.boards.redraw(game.id)

    @app_commands.command(name=loc("resume"),
                          description=loc("Resume your paused slow game (host only)"))
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        bot = self.game_bot
        game = await self._open_game(interaction)
        game = await bot.service.resume_by_host(game.id, person(interaction.user))
        await interaction.response.send_message(for_game(game)(
            "▶ The host resumed the game: the player it waits on has a whole turn."),
            allowed_mentions=discord.AllowedMentions.none())
        await bot.boards.redraw(game.id)
        await bot.boards.presenter(self.kind).prompt_current(game)

    @app_commands.command(name=loc("log"),
                          description=loc("The game log (JSON Lines) of the current or last game"))
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        """The JSON Lines game log of the channel's current or most recent game, as a file."""
        bot = self.game_bot
        logged = await bot.service.game_log(place_of(interaction).channel_id, self.kind)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = for_user(interaction)
        data = "".join(dumps_line(e) for e in logged.events).encode("utf-8")
        if len(data) > ATTACHMENT_LIMIT:
            raise UserError("This game's log is too large to attach.")
        game = logged.game
        note = "" if logged.complete else " " + tr(
            "The game is still on: the seed is left out until it ends (it would predict "
            "every roll to come).")
        status = tr(STATUS_WORDS.get(game.status, game.status))
        await interaction.followup.send(
            tr.ngettext("Game {id} ({status}): {n} event.", "Game {id} ({status}): {n} events.",
                        len(logged.events), id=game.id, status=status) + note,
            file=discord.File(io.BytesIO(data), filename=f"{self.kind}-game-{game.id}.jsonl"),
            ephemeral=True)

    @app_commands.command(name=loc("review"),
                          description=loc("Your decisions in a finished game judged by the "
                                          "Hard player, privately"))
    @app_commands.describe(game=loc("A finished game of this server, by its number (default: "
                                    "this channel's last one)"))
    @app_commands.rename(game=loc("game"))
    async def review(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        await send_review(interaction, self.kind, game)

    @app_commands.command(name=loc("replay"),
                          description=loc("Watch a finished game again, step by step (only you "
                                          "see it)"))
    @app_commands.describe(game=loc("The game's number (default: the last one in this "
                                    "channel)"))
    @app_commands.rename(game=loc("game"))
    async def replay(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        await send_replay(interaction, self.kind, game)
