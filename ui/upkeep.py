"""What a real server does to a game, and how the bot answers it.

- A game's board or ping is deleted: the board is posted again at once (once per deletion; a
  board deleted again within :data:`DELETE_WINDOW_S` of being posted pauses the game with a
  note, instead of a loop); the next decision pings again.
- The game's channel is deleted, or Discord says it is gone or out of sight; the bot is removed
  from the server: its games end as abandoned (no results, no ratings), with no further request
  to them.
- The bot may not post in the channel: the game pauses (no deadline runs) and the players are
  told, through the interaction they clicked, what to grant; the game goes on once it is
  granted (a permission change, or anyone's ``/royale board``).
- A player left the server: the computer takes their seat for the rest of the game, announced
  once, never pinged again, unrated.
- The gateway is down: no deadline runs out meanwhile; each is moved on by the time lost.

:class:`Upkeep` holds these answers; ``cogs.upkeep`` feeds it Discord's events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from typing import Any, Final, Protocol

import discord

from bot.request_budget import Urgency
from bot.service import Game, GameService, Outcome
from ui.channel_access import (
    UNKNOWN_MEMBER,
    UNKNOWN_USER,
    can_post,
    channel_permissions,
    missing,
)
from ui.i18n import N_, for_game
from ui.late import Lateness
from ui.messages import GameMessages
from ui.names import isolated, person_name, safe
from ui.shown import Shown

log = logging.getLogger("ui.upkeep")

DELETE_WINDOW_S: Final = 60
"""A board deleted again within this many seconds of being posted anew pauses its game."""
NO_SEND: Final = "send_messages"
"""The pause reason of a game whose channel the bot may not post in."""
DELETED: Final = "deleted"
"""The pause reason of a game whose board keeps being deleted."""
PAUSED_NO_SEND: Final = N_(
    "⚠️ I can't post in this channel, so the game is paused (nobody's time runs out). A server "
    "admin can grant me {permissions} here (channel settings > Permissions); the game goes on by "
    "itself then, or with /{kind} board.")
PAUSED_DELETED: Final = N_(
    "⚠️ The game's message keeps being deleted, so the game is paused. Anyone can bring it "
    "back with /{kind} board.")
TOOK_OVER: Final = N_("🤖 {name} left the server: the computer plays their seat for the rest "
                      "of the game (unrated).")
RESIGNED: Final = N_("🏳️ {name} resigned: the computer plays their seat for the rest of the "
                     "game (unrated).")
FORGOTTEN: Final = N_("🤖 A player asked the bot to forget them: the computer plays the seat of "
                      "{name} for the rest of the game (unrated).")
STAND_IN_NOTES: Final = {"resigned": RESIGNED, "forgotten": FORGOTTEN}


class Board(Protocol):
    """What the upkeep needs of a game kind's presenter."""

    async def board(self, game: Game) -> Shown:
        """The game's board to post anew."""
        ...

    async def prompt_current(self, game: Game) -> None:
        """Ping whoever must decide now."""
        ...

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed."""
        ...


class Upkeep:
    """The bot's answers to deletions, departures, lost permissions and outages."""

    def __init__(self, service: GameService, messages: GameMessages,
                 presenter: Callable[[str], Board], lateness: Lateness) -> None:
        """Act on ``service``'s games through ``messages`` and each kind's ``presenter``;
        tell ``lateness`` when events may be replayed.
        """
        self.service = service
        self.messages = messages
        self.presenter = presenter
        self.lateness = lateness
        self._reposted_at: dict[int, int] = {}  # game -> when its board was last posted anew
        self._restored: set[int] = set()  # the shards whose games were shown again once ready

    @property
    def client(self) -> discord.Client:
        """The bot's client."""
        return self.messages.client

    def now_ms(self) -> int:
        """Now, by the service's clock."""
        return self.service.clock()

    # ------------------------------------------------------------------ deletions

    async def messages_deleted(self, channel_id: int, message_ids: Sequence[int]) -> None:
        """Messages were deleted in a channel: a game's board among them (its lobby or its
        round, from before a restart too) is posted again.
        """
        for game_id in await self.messages.deleted(channel_id, message_ids):
            await self._board_deleted(game_id)

    async def _board_deleted(self, game_id: int) -> None:
        game = await self.service.get_game(game_id)
        if game is None or not game.is_open:
            return
        last = self._reposted_at.get(game.id)
        if last is not None and self.now_ms() - last < DELETE_WINDOW_S * 1000:
            await self._pause_deleted(game)
            return
        self._reposted_at[game.id] = self.now_ms()
        await self.bring_down(game)

    async def _pause_deleted(self, game: Game) -> None:
        if game.status == "active":
            await self.service.pause(game.id, DELETED)
        tr = for_game(game)
        try:
            await self.messages.delivery.send(game, {
                "content": tr(PAUSED_DELETED, kind=game.kind),
                "allowed_mentions": discord.AllowedMentions.none()})
        except discord.HTTPException as exc:
            log.info("game %s: could not say it is paused (%s)", game.id, exc.status)

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
            self._reposted_at.pop(game.id, None)
        presenter = self.presenter(game.kind)
        shown = await presenter.board(game)
        if not await self.messages.bring_down(game, shown, moved_note(game)):
            await self.cannot_post(game, interaction)
            return False
        if game.status == "active":
            await presenter.prompt_current(game)
        return True

    # ------------------------------------------------------------------ channels and servers

    async def channel_gone(self, game: Game) -> None:
        """Discord says the game's channel is gone or out of sight: end its games. What the
        Discord layer holds of ``game`` goes too, even when it had ended already (a second
        request refused after the first one ended it).
        """
        await self.channel_deleted(game.channel_id)
        self.forget(game)

    async def channel_deleted(self, channel_id: int) -> list[Game]:
        """The channel was deleted: its open games end as abandoned, silently."""
        games = await self.service.abandon_channel(channel_id, "channel deleted")
        for game in games:
            self.forget(game)
        return games

    async def guild_removed(self, guild_id: int) -> list[Game]:
        """The bot was removed from the server: its open games end as abandoned, and its
        data goes after the retention period unless the bot is added back.
        """
        games = await self.service.privacy.departed(guild_id)
        for game in games:
            self.forget(game)
        return games

    async def guild_joined(self, guild_id: int) -> None:
        """The bot was added to a server: if it had been removed, its data stays."""
        if await self.service.privacy.returned(guild_id):
            log.info("back in server %s: its data is kept", guild_id)

    async def still_in(self, guild_ids: set[int]) -> None:
        """Connected: the servers the bot is in keep their data (added back while away)."""
        for departure in await self.service.privacy.departures():
            if departure.guild_id in guild_ids:
                await self.guild_joined(departure.guild_id)

    async def purge(self) -> None:
        """Delete the data of servers whose retention period ran out."""
        for guild_id, rows in (await self.service.privacy.purge()).items():
            log.info("server %s's data deleted after the retention period: %s", guild_id, rows)

    def forget(self, game: Game) -> None:
        """Drop what the Discord layer holds of a game that ended without a message."""
        self.messages.forget(game.id)
        self._reposted_at.pop(game.id, None)

    def ended(self, game: Game) -> None:
        """A game ended (finished or cancelled): its ping goes, its entries are dropped."""
        self.messages.release(game)
        self._reposted_at.pop(game.id, None)

    # ------------------------------------------------------------------ permissions

    async def cannot_post(self, game: Game, interaction: discord.Interaction[Any] | None
                          ) -> None:
        """The bot may not post in the game's channel: pause it and tell the players through
        the interaction (channel permissions do not block its answers).
        """
        if game.status == "active" and game.paused is None:
            game = await self.service.pause(game.id, NO_SEND)
        if interaction is None:
            return
        tr = for_game(game)
        names = missing(channel_permissions(self.client, game)) or ["Send Messages"]
        text = tr(PAUSED_NO_SEND, permissions=", ".join(f"**{n}**" for n in names),
                  kind=game.kind)
        quiet = discord.AllowedMentions.none()
        try:
            await self.messages.delivery.answered(interaction)
            if interaction.response.is_done():
                await interaction.followup.send(text, allowed_mentions=quiet)
            else:
                await interaction.response.send_message(text, allowed_mentions=quiet)
        except discord.HTTPException as exc:
            log.info("game %s: could not tell the players it is paused (%s)", game.id,
                     exc.status)

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

    # ------------------------------------------------------------------ players

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the user is still in the server (one REST request; a deleted account is
        not). Any other failure counts as present.
        """
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return True
        if guild.get_member(user_id) is not None and self.client.intents.members:
            return True  # the cache is kept current by the members intent: no request
        try:
            async with self.messages.delivery.budget.spend(Urgency.EDIT):
                await guild.fetch_member(user_id)
        except discord.NotFound as exc:
            return exc.code not in (UNKNOWN_MEMBER, UNKNOWN_USER)
        except discord.HTTPException:
            return True
        return True

    async def member_left(self, guild_id: int, user_id: int) -> None:
        """A member left the server (the members intent tells): the computer takes their
        seats in the server's open games.
        """
        for game in await self.service.open_games_of_guild(guild_id):
            if game.status != "active" or str(user_id) not in game.player_ids:
                continue
            outcome = await self.service.player_left(game.id, user_id)
            if outcome is not None:
                await self.presenter(game.kind).show(outcome)

    # ------------------------------------------------------------------ outages and restarts

    def disconnected(self, shard: int = 0) -> None:
        """A shard's gateway connection dropped (a bot without shards: shard 0): no click of
        its servers can reach the bot, so none of their deadlines may run out until it is back.
        """
        self.lateness.dropped(shard)
        self.service.hold_deadlines(shard)

    async def reconnected(self, shard: int = 0) -> None:
        """A shard's session resumed: its deadlines go on, moved by the time lost."""
        self.lateness.resumed(shard)
        await self.service.release_deadlines(shard)

    async def ready(self, shard: int, guild_ids: Collection[int]) -> None:
        """A shard is connected (Discord's READY, listing ``guild_ids``, available or not).

        In order: a server of the shard whose games are open but that its READY does not list
        removed the bot while it was away (its games end, with no request to it); the shard's
        deadlines go on; and the first time, its games are shown again: the pings stored
        before the restart stand or are tidied, the computer seats a crash left waiting play,
        and a game that moved on after its standing ping was posted (a crash came between its
        move and its message) has its board brought up to date and its one ping naming
        exactly whoever must act.
        """
        self.lateness.resumed(shard)
        gone = await self.service.servers_gone(shard, guild_ids)
        for game in gone:
            self.forget(game)
        first = shard not in self._restored
        self._restored.add(shard)
        standing: dict[int, int] = {}
        if first:
            standing = await self.messages.restore(await self.service.pings_of_shard(shard),
                                                   {g.guild_id for g in gone})
        await self.service.release_deadlines(shard)
        if not first:
            return
        await self.service.resume_shard(shard)
        for game in await self.service.open_games_of_shard(shard):
            if game.id in standing and game.status == "active" and game.paused is None \
                    and self.messages.standing_version(game.id) != game.version:
                await self._show_again(game)

    async def _show_again(self, game: Game) -> None:
        """After a restart: the board of a game that moved on after its last ping is redrawn,
        and whoever must decide is pinged (nothing is sent when the standing ping already names
        them).
        """
        presenter = self.presenter(game.kind)
        try:
            await self.messages.edit(game, await presenter.board(game))
            await presenter.prompt_current(game)
        except Exception:
            log.exception("game %s: could not be shown again after the restart", game.id)


def moved_note(game: Game) -> Callable[[str], Shown]:
    """What an old board becomes once the game is posted anew: a note linking to the new one
    (no buttons).
    """
    tr = for_game(game)
    return lambda link: Shown(tr("⬇️ The game goes on below: {link}", link=link), None, None,
                              version=game.version)


def stand_in_note(outcome: Outcome) -> str:
    """The announcement of the seats the computer took over in ``outcome`` (or "")."""
    if not outcome.stood_in:
        return ""
    tr = for_game(outcome.game)
    lines = []
    for seat in outcome.stood_in:
        player = outcome.game.players[seat]
        text = STAND_IN_NOTES.get(player.stand_in or "", TOOK_OVER)
        name = person_name(tr, player.player_id, player.display_name, player.is_bot)
        lines.append(tr(text, name=safe(isolated(name))))
    return "\n".join(lines)
