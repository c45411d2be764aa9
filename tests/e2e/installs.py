"""The app as players install it on their own account (a *user install*): its commands used in a
group DM, or in a server the bot never joined. There Discord gives the app nothing but the
interactions: no gateway event from the place, no member list, and a request with the bot
token to the place's channel routes fails (403, code 50001 Missing Access). The app answers
through the interaction alone: its callback, its followups (at most five for a user install),
the edits of its original response.

SimCord models only the bot's own places: every guild it creates has the bot as a member and
announces itself to it, and a DM channel is open to the bot token. Its interaction payloads
always come from a guild install (``context`` 0 or 1, ``authorizing_integration_owners`` {}).
:class:`Installs` adds to one environment what a user install meets:

- :meth:`Installs.group_dm`: a group DM (channel type 3) of test users, the bot not among them;
- :meth:`Installs.server_without_bot`: a server with members and a text channel, of which the
  bot is no member (it never gets the server's GUILD_CREATE: ``bot.get_guild(id)`` is None);
- :meth:`Installs.slash`, :meth:`Installs.click`, :meth:`Installs.select`: interactions sent
  there from a given user, shaped as Discord sends them to a user-installed app, with SimCord's
  own record of the interaction, so its answer is an :class:`~simcord.results.InteractionResult`
  as everywhere else and the interaction routes (callback, followups, ``@original``) serve it;
- :meth:`Installs.table`: a place as a :class:`tests.e2e.table.Table` of players
  (:class:`Player`: a person with the verbs of SimCord's actors, acting through the user
  install), so that the table's helpers play whole games there;
- :meth:`Installs.channel_requests` and :meth:`Installs.followups`: what the bot asked of
  Discord since a mark, for "no request to a channel route" and "at most five followups".

How the gaps are closed, all from the test side (SimCord's code is untouched):

- The gateway: :class:`Installs` takes over ``emit`` of the environment's backend (that
  instance only, which outlives every restart of the bot) so that an event about one of its
  places never reaches the bot; it is written to the transcript as ``HIDDEN``, not ``GATEWAY``.
  INTERACTION_CREATE alone goes through. The GUILD_CREATE a restarted bot gets for every guild
  of the backend is dropped the same way.
- The server's guild is built on the backend's models directly (SimCord's ``create_guild``
  always adds the bot and announces the guild before its id could be known to the filter).
- The bot token: each place's channel routes (and the server's guild routes) answer 403/50001
  through SimCord's own fault injection (``env.inject_error`` with no end): SimCord already
  refuses most routes of a guild channel the bot is no member of with 50001, but lets the bot
  token into any DM-like channel, a group DM included.

Not modelled: Discord's refusal of a sixth followup (error 40094; :meth:`Installs.followups`
lets a test count them), and the answers Discord makes ephemeral in a server that turned
USE_EXTERNAL_APPS off (the member's ``permissions`` in the payload lack it, as on Discord; the
bot answers as it chooses). The messages SimCord stores for an interaction's answers name no
installation in their ``interaction_metadata``; the copy a component interaction carries is
given its owners here. A gateway reconnect of an ``AutoShardedClient`` replays every guild of
the backend without ``emit``, past the filter (the bot here is no such client).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import discord
from simcord import Env
from simcord import actors as sa
from simcord import interactions as si
from simcord.backend import serializers
from simcord.backend.access import channel_accessible
from simcord.backend.command_access import command_access
from simcord.backend.errors import SetupError
from simcord.backend.models import Channel, Guild, Message, Role
from simcord.backend.ops.guilds import DEFAULT_EVERYONE_PERMISSIONS
from simcord.builders import ChannelHandle, GuildHandle, UserHandle
from simcord.enums import AppCommandType, ComponentType, InteractionType
from simcord.results import InteractionResult, ResponseMessage
from simcord.types import HttpLogEntry

if TYPE_CHECKING:
    from tests.e2e.table import Table

GUILD_INSTALL: Final = "0"
USER_INSTALL: Final = "1"
"""Keys of ``authorizing_integration_owners`` (Discord's application integration types)."""

GUILD: Final = 0
BOT_DM: Final = 1
PRIVATE_CHANNEL: Final = 2
"""Discord's interaction context types: a server, the bot's DM, a group DM or another DM."""

GROUP_DM: Final = discord.ChannelType.group.value

USE_EXTERNAL_APPS: Final = 1 << 50
"""Lets user-installed apps answer publicly in a server that did not install them; without it
Discord makes their answers ephemeral."""

_P = discord.Permissions
APP_IN_PRIVATE_CHANNEL: Final = (_P.attach_files.flag | _P.embed_links.flag
                                 | _P.mention_everyone.flag)
"""``app_permissions`` in a group DM (Discord's interaction object: ATTACH_FILES, EMBED_LINKS
and MENTION_EVERYONE "for (G)DMs with other users")."""

APP_IN_SERVER: Final = (_P.view_channel.flag | _P.send_messages.flag | _P.embed_links.flag
                        | _P.attach_files.flag | _P.external_emojis.flag
                        | _P.mention_everyone.flag)
"""What a user-installed app's answers may do in a server without the bot: read the channel,
send, embed links, attach files, use external emojis, mention. Discord documents no value for
``app_permissions`` there; it follows the invoking member's permissions in the channel
(discord/discord-api-docs#7251), so the payload carries this mask of them."""

EVERYONE_IN_SERVER: Final = DEFAULT_EVERYONE_PERMISSIONS | USE_EXTERNAL_APPS
"""@everyone of a server without the bot: SimCord's default, and USE_EXTERNAL_APPS, which a
new Discord server grants everyone."""

FOLLOWUP_CAP: Final = 5
"""Discord refuses a user-installed app's sixth followup of one interaction."""

MISSING_ACCESS: Final = (403, 50001, "Missing Access")

User = Any
"""A person: a :class:`simcord.builders.UserHandle` or a :class:`simcord.actors.MemberActor`."""


@dataclass
class GroupDM:
    """A group DM of ``users`` (its owner first), which the app is not a member of."""

    installs: Installs
    channel: ChannelHandle
    users: list[UserHandle]

    @property
    def id(self) -> int:
        return self.channel.id

    def history(self, *, viewer: User | None = None) -> list[discord.Message]:
        """The messages, oldest first; with ``viewer``, as that user sees them (no one else's
        ephemeral answers)."""
        return self.installs.history(self.channel.id, viewer=viewer)

    async def say(self, user: User, content: str) -> discord.Message:
        """``user`` writes in the group (the app hears nothing of it)."""
        return await self.installs.say(user, self.channel.id, content)


@dataclass
class ServerWithoutBot:
    """A server with ``members`` (by name) and a text ``channel``; the bot is no member."""

    installs: Installs
    guild: GuildHandle
    channel: ChannelHandle
    members: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.guild.id

    def __getitem__(self, name: str) -> Any:
        return self.members[name]

    def add_member(self, who: str | User) -> Any:
        """``who`` joins: a new user of that name, or a user of the environment (one who plays
        elsewhere too). The member is a :class:`simcord.actors.MemberActor`, whose own verbs
        send guild-install interactions: act through :class:`Installs` or a :class:`Player`."""
        env = self.installs.env
        user = (env.create_user(who) if isinstance(who, str)
                else UserHandle(env, env.backend.get_user(who.id)))
        member = self.guild.add_member(user)
        self.members[user.name] = member
        return member

    def text_channel(self, name: str) -> ChannelHandle:
        """Another text channel of the server, closed to the bot token like the first."""
        channel = self.guild.create_text_channel(name)
        self.installs._close_to_bot_token(f"/channels/{channel.id}")
        return channel

    def allow_external_apps(self, allowed: bool) -> None:
        """The server grants @everyone USE_EXTERNAL_APPS, or takes it back."""
        role = self.installs.env.backend.get_guild(self.id).everyone_role
        role.permissions = (role.permissions | USE_EXTERNAL_APPS if allowed
                            else role.permissions & ~USE_EXTERNAL_APPS)

    def history(self, *, viewer: User | None = None) -> list[discord.Message]:
        """The channel's messages, oldest first (with ``viewer``, as that member sees them)."""
        return self.installs.history(self.channel.id, viewer=viewer)

    async def say(self, member: User, content: str) -> discord.Message:
        """``member`` writes in the channel (the app hears nothing of it)."""
        return await self.installs.say(member, self.channel.id, content)


class Player:
    """A person acting through their user install, with the verbs of SimCord's actors
    (``slash``, ``click``, ``select``): :class:`tests.e2e.table.Table` plays games with them
    (:meth:`Installs.table`)."""

    def __init__(self, installs: Installs, user: User) -> None:
        self.installs = installs
        self.user = user

    @property
    def id(self) -> int:
        return int(self.user.id)

    @property
    def name(self) -> str:
        return str(self.user.name)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    async def slash(self, place: Place, command: str, /, **options: Any) -> InteractionResult:
        return await self.installs.slash(self.user, place, command, **options)

    async def click(self, message: discord.Message | ResponseMessage, *,
                    label: str | None = None, custom_id: str | None = None
                    ) -> InteractionResult:
        return await self.installs.click(self.user, message, label=label, custom_id=custom_id)

    async def select(self, message: discord.Message | ResponseMessage, values: Sequence[str],
                     *, custom_id: str | None = None) -> InteractionResult:
        return await self.installs.select(self.user, message, values, custom_id=custom_id)

    def __repr__(self) -> str:
        return f"<Player {self.name} id={self.id}>"


Place = GroupDM | ServerWithoutBot | ChannelHandle
"""Where an interaction is sent: a group DM, a server without the bot (its first channel), or
any SimCord channel (another channel of such a server, or a channel of a server where the bot
is: there the server installed the app too)."""

class Installs:
    """User installs of the app in one SimCord environment: the places it reaches only through
    interactions, and the interactions themselves. One per environment (:meth:`of`); it
    outlives the bot's restarts, as the environment's backend does."""

    app_installs: frozenset[int] = frozenset({0, 1})
    """The installation contexts the app's settings allow (0 guild, 1 user): what a command
    without ``integration_types`` inherits."""

    def __init__(self, env: Env) -> None:
        """Take over the ``emit`` of ``env``'s backend (use :meth:`of`: one per backend)."""
        backend = env.backend
        if isinstance(getattr(backend.emit, "__self__", None), Installs):
            raise SetupError("the environment has its Installs already: Installs.of(env)")
        self.env = env
        self._guilds: set[int] = set()
        self._channels: set[int] = set()
        self._owners: dict[int, dict[str, str]] = {}
        self._real_emit: Callable[[str, Mapping[str, Any]], None] = backend.emit
        backend.emit = self._emit  # type: ignore[method-assign]

    @classmethod
    def of(cls, env: Env) -> Installs:
        """The environment's user installs (made at the first call; found again through the
        backend's ``emit``, which they hold, so they live exactly as long as the backend)."""
        owner = getattr(env.backend.emit, "__self__", None)
        return owner if isinstance(owner, Installs) else cls(env)

    # ------------------------------------------------------------------ places

    def group_dm(self, users: Sequence[User], *, name: str | None = None) -> GroupDM:
        """A group DM of ``users`` (at least two; the first owns it). The bot hears nothing of
        it, and the bot token cannot reach it."""
        if len(users) < 2:
            raise SetupError("a group DM has two people at least")
        backend = self.env.backend
        people = [u if isinstance(u, UserHandle) else UserHandle(self.env, backend.get_user(u.id))
                  for u in users]
        channel = backend.create_channel(None, name, type=GROUP_DM)  # no guild: announced to none
        channel.recipient_ids = [u.id for u in people]
        channel.owner_id = people[0].id
        self._channels.add(channel.id)
        self._close_to_bot_token(f"/channels/{channel.id}")
        return GroupDM(self, ChannelHandle(self.env, None, channel), people)

    def server_without_bot(self, people: Sequence[str | User], *, name: str = "Elsewhere",
                           channel: str = "games", external_apps: bool = True
                           ) -> ServerWithoutBot:
        """A server with a member for each of ``people`` (a name for a new user, or a user of
        the environment) and a text ``channel``, which never added the bot.
        ``external_apps``: whether @everyone has USE_EXTERNAL_APPS."""
        backend = self.env.backend
        guild_id = backend.snowflake()
        self._guilds.add(guild_id)
        owner = backend.make_user(f"{name} Owner")
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild_id] = Role(id=guild_id, name="@everyone", position=0,
                                     permissions=EVERYONE_IN_SERVER)
        backend.guilds[guild_id] = guild
        backend.add_member(guild_id, owner.id)
        self._close_to_bot_token(f"/guilds/{guild_id}")
        handle = GuildHandle(self.env, guild)
        server = ServerWithoutBot(self, handle, handle.create_text_channel(channel))
        self._close_to_bot_token(f"/channels/{server.channel.id}")
        for who in people:
            server.add_member(who)
        server.allow_external_apps(external_apps)
        return server

    def table(self, place: GroupDM | ServerWithoutBot) -> Table:
        """The place as a :class:`tests.e2e.table.Table` of its people (a group's users, a
        server's members), each a :class:`Player`: ``table["alice"].click(...)`` goes through
        the user install, and the table's helpers (``game_message``, ``play_to_end``) play
        there."""
        from tests.e2e.table import Table

        if isinstance(place, GroupDM):
            people = {u.name: Player(self, u) for u in place.users}
            guild = None
        else:
            people = {name: Player(self, m) for name, m in place.members.items()}
            guild = place.guild
        table = Table(self.env, guild, place.channel, dict(people))
        table.by_id = {p.id: p for p in people.values()}
        return table

    # ------------------------------------------------------------ interactions

    async def slash(self, user: User, place: Place, command: str, /,
                    **options: Any) -> InteractionResult:
        """``user`` runs ``/command`` (``"royale new"``: with its subcommand) with ``options``
        in ``place``, through the app they installed. Refused (SetupError) when Discord would
        not offer the command there: its ``contexts`` leave the place out, neither installation
        it allows applies, or the member may not use application commands."""
        channel = self._channel(place)
        path = command.split()
        root = self.env.backend.find_command(path[0], channel.guild_id,
                                             type=AppCommandType.CHAT_INPUT)
        if root is None:
            raise SetupError(f"/{path[0]} is not registered: sync the command tree first")
        self._check_member(user, channel)
        owners = self._command_owners(root, user, channel)
        leaf, nesting = si.walk_to_subcommand(root, path[1:])
        built, resolved = si.build_options(user, command, leaf, options, channel_id=channel.id)
        data: dict[str, Any] = {"id": root["id"], "name": root["name"],
                                "type": root.get("type", AppCommandType.CHAT_INPUT),
                                "options": si.nest_options(root, nesting, built)}
        if resolved:
            data["resolved"] = resolved
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        return await self._send(user, channel, InteractionType.APPLICATION_COMMAND, data,
                                owners)

    async def click(self, user: User, message: discord.Message | ResponseMessage, *,
                    label: str | None = None, custom_id: str | None = None
                    ) -> InteractionResult:
        """``user`` clicks the button of ``message`` with that ``label`` or ``custom_id``."""
        stored = self._visible(user, message)
        button = sa._find_component(stored.components, types=(ComponentType.BUTTON,),
                                    custom_id=custom_id, label=label)
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise SetupError("That button is a link or premium control, not an interaction")
        data: dict[str, Any] = {"custom_id": button["custom_id"],
                                "component_type": ComponentType.BUTTON}
        return await self._component(user, stored, button, data)

    async def select(self, user: User, message: discord.Message | ResponseMessage,
                     values: Sequence[str], *, custom_id: str | None = None
                     ) -> InteractionResult:
        """``user`` chooses ``values`` in the string select of ``message`` (by ``custom_id``
        when it has several)."""
        stored = self._visible(user, message)
        menu = sa._find_component(stored.components, types=(ComponentType.STRING_SELECT,),
                                  custom_id=custom_id, label=None)
        chosen = list(values)
        valid = {o["value"] for o in menu.get("options") or []}
        if not set(chosen) <= valid or len(set(chosen)) != len(chosen):
            raise SetupError(f"Select values {chosen} are not options of {sorted(valid)}")
        if not menu.get("min_values", 1) <= len(chosen) <= menu.get("max_values", 1):
            raise SetupError(f"Select expects {menu.get('min_values', 1)} to "
                             f"{menu.get('max_values', 1)} values, got {len(chosen)}")
        data: dict[str, Any] = {"custom_id": menu["custom_id"],
                                "component_type": ComponentType.STRING_SELECT,
                                "values": chosen}
        return await self._component(user, stored, menu, data)

    # ---------------------------------------------------------------- accounting

    def mark(self) -> int:
        """A mark in the requests of the bot: pass it as ``since``."""
        return len(self.env.http_requests)

    def channel_requests(self, since: int = 0, place: Place | None = None
                         ) -> list[HttpLogEntry]:
        """The bot's requests to channel routes (``/channels/...``) since the mark: to any
        channel, or to ``place``'s channel (all of a server's channels)."""
        wanted: set[int] | None = None
        if isinstance(place, ServerWithoutBot):
            wanted = set(self.env.backend.get_guild(place.id).channel_ids)
        elif place is not None:
            wanted = {self._channel(place).id}
        out = []
        for r in self.env.http_requests[since:]:
            parts = r.path.split("/")
            if len(parts) > 2 and parts[1] == "channels" and (
                    wanted is None or (parts[2].isdigit() and int(parts[2]) in wanted)):
                out.append(r)
        return out

    def followups(self, since: int = 0, *, user_installs_only: bool = True
                  ) -> dict[str, list[HttpLogEntry]]:
        """The followups the bot sent since the mark (POST /webhooks/{application id}/{token}),
        by interaction token; only those of the interactions sent as a user install unless
        ``user_installs_only`` is False. The first such POST after a deferred response
        completes it rather than adding a message: it is counted all the same."""
        app = str(self.env.backend.application_id)
        mine = {self.env.backend.interactions[i].token for i in self._owners}
        out: dict[str, list[HttpLogEntry]] = defaultdict(list)
        for r in self.env.http_requests[since:]:
            parts = r.path.split("/")
            if (r.method == "POST" and len(parts) == 4 and parts[1] == "webhooks"
                    and parts[2] == app and (parts[3] in mine or not user_installs_only)):
                out[parts[3]].append(r)
        return dict(out)

    def hidden_events(self) -> list[str]:
        """The gateway events kept from the bot so far (about the places), by name."""
        return [name for kind, name, _ in self.env.backend.transcript if kind == "HIDDEN"]

    def delivered_about(self, place: Place) -> list[tuple[str, Any]]:
        """The gateway events SimCord delivered to the bot about ``place``: only its
        INTERACTION_CREATEs, when the place is modelled faithfully."""
        ids = {str(self._channel(place).id)}
        if isinstance(place, ServerWithoutBot):
            ids |= {str(place.id)} | {str(c) for c in self.env.backend.get_guild(place.id)
                                      .channel_ids}
        out = []
        for kind, name, payload in self.env.backend.transcript:
            if kind != "GATEWAY" or not isinstance(payload, Mapping):
                continue
            about = {str(payload.get(k)) for k in ("id", "guild_id", "channel_id")}
            if about & ids:
                out.append((name, payload))
        return out

    # ------------------------------------------------------------------- reading

    def history(self, channel_id: int, *, viewer: User | None = None) -> list[discord.Message]:
        """A channel's messages as ``viewer`` (or anyone, without) sees them, oldest first."""
        from simcord.results import to_discord_message

        stored = sorted(self.env.backend.messages.get(channel_id, {}).values(),
                        key=lambda m: m.id)
        return [to_discord_message(self.env, m) for m in stored
                if m.visible_to(viewer.id if viewer is not None else None)]

    async def say(self, user: User, channel_id: int, content: str) -> discord.Message:
        """``user`` posts ``content`` in a channel they can read."""
        from simcord.results import to_discord_message

        self._check_member(user, self.env.backend.get_channel(channel_id))
        message = self.env.backend.create_message(channel_id, user.id, content)
        await self.env._settle_internal(dispatch="INSTALLS.say")
        return to_discord_message(self.env, message)

    # ------------------------------------------------------------------ plumbing

    def _emit(self, event: str, payload: Mapping[str, Any]) -> None:
        """The backend's ``emit``, but for the events about the places."""
        if self._hides(event, payload):
            self.env.backend.transcript.append(
                ("HIDDEN", event, "about a place of a user install: the app is no member of it"))
            return
        self._real_emit(event, payload)

    def _hides(self, event: str, payload: Mapping[str, Any]) -> bool:
        """Whether a gateway event is about one of the places (INTERACTION_CREATE never is:
        it is what the app gets from them; application-wide entitlements neither)."""
        if event == "INTERACTION_CREATE" or event.startswith("ENTITLEMENT_"):
            return False
        guild_id = payload.get("guild_id")
        if guild_id is None and event.startswith("GUILD_"):
            guild_id = payload.get("id")
        if guild_id is not None and int(guild_id) in self._guilds:
            return True
        channel_id = payload.get("channel_id")
        if channel_id is None and event.startswith(("CHANNEL_", "THREAD_")):
            channel_id = payload.get("id")
        if channel_id is None:
            return False
        if int(channel_id) in self._channels:
            return True
        channel = self.env.backend.channels.get(int(channel_id))
        return channel is not None and channel.guild_id in self._guilds

    def _close_to_bot_token(self, route: str) -> None:
        status, code, message = MISSING_ACCESS
        for path in (route, route + "/*"):
            self.env.inject_error("*", path, status=status, code=code, message=message,
                                  times=None)

    def _channel(self, place: Place) -> Channel:
        if isinstance(place, ChannelHandle):
            return self.env.backend.get_channel(place.id)
        return self.env.backend.get_channel(place.channel.id)

    def _bot_in(self, channel: Channel) -> bool:
        """Whether the bot is a member of the channel's server (which then installed it)."""
        if channel.guild_id is None:
            return False
        return self.env.backend.bot_user.id in self.env.backend.get_guild(channel.guild_id).members

    def _check_member(self, user: User, channel: Channel) -> None:
        """``user`` can read ``channel``, else SetupError (a real user could not act there)."""
        backend = self.env.backend
        if channel.type == GROUP_DM:
            seen = user.id in channel.recipient_ids
        else:
            seen = channel_accessible(backend, channel.id, user.id)
        if not seen:
            raise SetupError(f"{user!r} cannot see channel {channel.id}: a real user could not "
                             "act there")

    def _command_owners(self, root: dict[str, Any], user: User, channel: Channel
                        ) -> dict[str, str]:
        """The ``authorizing_integration_owners`` of ``/root`` run by ``user`` in ``channel``:
        the user's install, and the server's when the bot is in it, each when the command
        allows that installation. SetupError when Discord would not offer it there."""
        context = PRIVATE_CHANNEL if channel.guild_id is None else GUILD
        contexts = root.get("contexts")
        if contexts is not None and context not in contexts:
            raise SetupError(f"/{root['name']} is not offered in this context ({context}): "
                             f"its contexts are {contexts}")
        if channel.guild_id is not None:
            access = command_access(self.env.backend, root, user_id=user.id,
                                    channel_id=channel.id)
            if not access.allowed:
                raise SetupError(f"/{root['name']} is not offered to {user!r} here "
                                 f"({access.reason})")
        allowed = root.get("integration_types")
        if root.get("guild_id"):  # a server's own command: its install alone
            kinds = {0}
        else:
            kinds = set(allowed) if allowed is not None else set(self.app_installs)
        owners = {}
        if self._bot_in(channel) and 0 in kinds:
            owners[GUILD_INSTALL] = str(channel.guild_id)
        if 1 in kinds:
            owners[USER_INSTALL] = str(user.id)
        if not owners:
            raise SetupError(f"/{root['name']} allows no installation that applies here "
                             f"(integration_types {allowed})")
        return owners

    def _visible(self, user: User, message: discord.Message | ResponseMessage) -> Message:
        channel_id = (message.channel_id if isinstance(message, ResponseMessage)
                      else message.channel.id)
        backend = self.env.backend
        self._check_member(user, backend.get_channel(channel_id))
        stored = backend.get_message(channel_id, message.id)
        if not stored.visible_to(user.id):
            raise SetupError("That message is not visible to this user (another's ephemeral "
                             "answer): a real user could not interact with it")
        return stored

    def _owners_of_message(self, stored: Message, user: User) -> dict[str, str]:
        """A component's ``authorizing_integration_owners``: those of the interaction whose
        answer the message is (a click on A's lobby names A's install, whoever clicks)."""
        meta = stored.interaction_metadata or {}
        if meta.get("id") is not None and int(meta["id"]) in self._owners:
            return dict(self._owners[int(meta["id"])])
        channel = self.env.backend.get_channel(stored.channel_id)
        owners = {USER_INSTALL: str(user.id)}
        if self._bot_in(channel):
            owners[GUILD_INSTALL] = str(channel.guild_id)
        return owners

    async def _component(self, user: User, stored: Message, component: dict[str, Any],
                         data: dict[str, Any]) -> InteractionResult:
        if component.get("disabled"):
            raise SetupError("That component is disabled: a real user could not use it")
        if component.get("id") is not None:
            data["id"] = component["id"]
        owners = self._owners_of_message(stored, user)
        channel = self.env.backend.get_channel(stored.channel_id)
        message: dict[str, Any] = dict(serializers.message_payload(self.env.backend, stored))
        if "interaction_metadata" in message:
            message["interaction_metadata"] = {**message["interaction_metadata"],
                                               "authorizing_integration_owners": owners}
        return await self._send(user, channel, InteractionType.MESSAGE_COMPONENT, data, owners,
                                message=message, source=stored.id)

    async def _send(self, user: User, channel: Channel, type_: int, data: dict[str, Any],
                    owners: dict[str, str], *, message: dict[str, Any] | None = None,
                    source: int | None = None) -> InteractionResult:
        """Emit the interaction as Discord shapes it for a user install, settle, and return
        SimCord's record of its answer."""
        backend = self.env.backend
        if channel.guild_id is None and channel.type != GROUP_DM:
            raise SetupError("Only a group DM or a server channel is a place of a user install "
                             "here (the bot's own DM: SimCord's UserHandle verbs)")
        record, payload = si.base_payload(backend, type=type_, channel_id=channel.id,
                                          guild_id=channel.guild_id, user_id=user.id,
                                          data=data)
        payload["authorizing_integration_owners"] = owners
        if channel.guild_id is None:
            payload["context"] = PRIVATE_CHANNEL
            payload["channel"] = self._group_payload(channel)
            payload["app_permissions"] = str(APP_IN_PRIVATE_CHANNEL)
        else:
            payload["context"] = GUILD
            guild = backend.get_guild(channel.guild_id)
            payload["guild"] = {"id": str(guild.id), "locale": payload["guild_locale"],
                                "features": []}
            payload["channel"]["permissions"] = payload["member"]["permissions"]
            if not self._bot_in(channel):
                member = int(payload["member"]["permissions"])
                payload["app_permissions"] = str(APP_IN_SERVER & member)
        if message is not None:
            payload["message"] = message
        if source is not None:
            record.source_message_id = source
        self._owners[record.id] = owners
        self.env._notify_dispatch_observers(record)
        backend.emit("INTERACTION_CREATE", payload)
        await self.env._settle_internal(dispatch="INTERACTION_CREATE")
        return InteractionResult(self.env, record)

    def _group_payload(self, channel: Channel) -> dict[str, Any]:
        """The group DM as an interaction carries it (a partial channel, recipients in)."""
        users = self.env.backend.users
        return {"id": str(channel.id), "type": GROUP_DM, "name": channel.name, "icon": None,
                "owner_id": str(channel.owner_id), "flags": 0,
                "last_message_id": (str(channel.last_message_id)
                                    if channel.last_message_id else None),
                "recipients": [dict(serializers.user_payload(users[i]))
                               for i in channel.recipient_ids]}
