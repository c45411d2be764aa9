"""A table of simulated players who read the game message and click what it offers."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

MENTION = re.compile(r"<@(\d+)>")
INTERACTIVE = frozenset({2, 3, 5, 6, 7, 8})
"""Buttons and selects (Discord's component types)."""
TEXT_DISPLAY = 10
MEDIA_GALLERY = 12
PASSIVE = frozenset({"hand", "pcard", "log", "rematch", "review", "sheet", "page", "replay",
                     "frame", "explain", "back"})
"""Verbs that are not a decision of the game (private answers, the game-over buttons)."""


@dataclass
class Table:
    env: Any
    guild: Any
    channel: Any
    members: dict[str, Any]
    by_id: dict[int, Any] = field(default_factory=dict)

    @classmethod
    async def create(cls, env: Any, names: list[str]) -> Table:
        await env.bot.tree.sync()
        guild = env.create_guild("Pandas")
        channel = guild.create_text_channel("games")
        members = {n: guild.add_member(env.create_user(n)) for n in names}
        t = cls(env, guild, channel, members)
        t.by_id = {m.id: m for m in members.values()}
        return t

    def __getitem__(self, name: str) -> Any:
        return self.members[name]

    # ---------------------------------------------------------------- reading

    def game_message(self) -> discord.Message:
        """The newest message with game components, else the newest bot message."""
        history = self.channel.history()
        for msg in reversed(history):
            if any(cid.startswith(("pr:", "pp:")) and verb(cid) not in PASSIVE
                   for cid in custom_ids(msg)):
                return msg
        return history[-1]

    def decider(self, msg: discord.Message) -> Any | None:
        """The member the card waits on (the first mention in its text), if any."""
        m = MENTION.search(text_of(msg))
        return self.by_id.get(int(m.group(1))) if m else None

    # ---------------------------------------------------------------- acting

    async def add_computer(self, actor: Any, lobby: Any, level: str = "normal") -> Any:
        """``actor`` adds a computer player of ``level`` with the lobby's menu."""
        menu = next(c for c in components(lobby) if verb(c.custom_id) == "cpu")
        return await actor.select(lobby, [level], custom_id=menu.custom_id)

    async def play_decision(self, rng: random.Random, trade_rate: float = 0.3) -> bool:
        """Make the decision the game message waits on, as its player would. False when
        the message waits on nobody (the game is over)."""
        msg = self.game_message()
        who = self.decider(msg)
        if who is None:
            return False
        comps = [c for c in components(msg)
                 if verb(getattr(c, "custom_id", None)) not in PASSIVE]
        verbs = {verb(c.custom_id): c for c in comps if c.custom_id}
        if not verbs:
            return False
        if any(verb(c.custom_id) == "pick" for c in comps):
            choice = rng.choice([c for c in comps if verb(c.custom_id) == "pick"])
            res = await who.click(msg, custom_id=choice.custom_id)
        elif "fire" in verbs:
            key = "fire" if rng.random() < 0.5 else "save"
            res = await who.click(msg, custom_id=verbs[key].custom_id)
        elif "mtarget" in verbs:
            res = await self._two_step(who, msg, verbs["mtarget"], "mdie", rng)
        elif "pass" in verbs:
            if "ttarget" in verbs and rng.random() < trade_rate:
                res = await self._two_step(who, msg, verbs["ttarget"], "tdie", rng)
            else:
                res = await who.click(msg, custom_id=verbs["pass"].custom_id)
        else:
            raise AssertionError(f"nothing to do on {text_of(msg)!r}: {list(verbs)}")
        assert res.acknowledged, res
        assert not refused(res), f"refused: {[text_of(a) for a in answers(res)]}"
        return True

    async def _two_step(self, who: Any, msg: discord.Message, first: Any, second: str,
                        rng: random.Random) -> Any:
        option = rng.choice(first.options)
        res = await who.select(msg, [option.value], custom_id=first.custom_id)
        assert res.acknowledged and not refused(res), res
        msg = self.game_message()
        sel = next(c for c in components(msg) if verb(c.custom_id) == second)
        die = rng.choice(sel.options)
        return await who.select(msg, [die.value], custom_id=sel.custom_id)

    async def play_to_end(self, rng: random.Random, limit: int = 2000,
                          trade_rate: float = 0.3) -> int:
        """Decide until the game ends; returns the number of decisions made."""
        for n in range(limit):
            if not await self.play_decision(rng, trade_rate):
                return n
        raise AssertionError("the game did not end")


def answers(res: Any) -> list[Any]:
    """Every message an interaction was answered with: the response and the followups."""
    return [r for r in [res.response, *res.followups] if r is not None]


def private(res: Any) -> Any:
    """The private (ephemeral) answer of an interaction: its response or a followup (clicks
    are acknowledged first, so their private answers are followups)."""
    for r in answers(res):
        if r.ephemeral:
            return r
    raise AssertionError(f"no private answer in {res}: {[a.content for a in answers(res)]}")


def refused(res: Any) -> bool:
    """Whether an interaction got a private answer (a refusal, or a private view)."""
    return any(r.ephemeral for r in answers(res))


@contextlib.contextmanager
def refusals(env: Any) -> Iterator[None]:
    """Slash commands inside that the bot refuses, as the test expects: a refusal is a
    :class:`bot.rules.errors.PlayerError` the command raises and the tree's ``on_error``
    answers privately, and SimCord captures it as an error of the bot. Here every error
    captured inside must be such a refusal, and they are dropped: only an unexpected error
    fails the test (any other error is logged too: the ``no_logged_errors`` check)."""
    from discord import app_commands

    from bot.rules.errors import PlayerError

    cursor = env.error_cursor
    yield
    captured = env.errors_since(cursor)
    assert all(isinstance(e.original if isinstance(e, app_commands.CommandInvokeError) else e,
                          PlayerError) for e in captured), captured
    del env._errors[cursor:]


def _children(component: Any) -> list[Any]:
    """The components inside one (a row's, a container's, a section's and its accessory)."""
    if isinstance(component, dict):
        inner = list(component.get("components") or [])
        if component.get("accessory"):
            inner.append(component["accessory"])
        return inner
    inner = list(getattr(component, "children", None) or [])
    accessory = getattr(component, "accessory", None)
    if accessory is not None:
        inner.append(accessory)
    return inner


def _walk(components_: Any) -> list[Any]:
    out: list[Any] = []
    for c in components_ or []:
        out.append(c)
        out.extend(_walk(_children(c)))
    return out


def _type(c: Any) -> int:
    kind = c.get("type") if isinstance(c, dict) else getattr(c, "type", None)
    return int(getattr(kind, "value", kind) or 0)


def components(msg: Any) -> list[Any]:
    """Every button and select of a message (a discord.Message or a SimCord response, whose
    components are raw dicts), wherever it sits in the message's layout."""
    return [_raw(c) if isinstance(c, dict) else c for c in _walk(msg.components)
            if _type(c) in INTERACTIVE]


def text_of(msg: Any) -> str:
    """Everything a message says: its content and its Text Displays, in order."""
    parts = [getattr(msg, "content", None) or ""]
    for c in _walk(getattr(msg, "components", None)):
        if _type(c) == TEXT_DISPLAY:
            parts.append((c.get("content") if isinstance(c, dict) else c.content) or "")
    for embed in getattr(msg, "embeds", None) or []:
        parts.append(getattr(embed, "description", None) or "")
    return "\n".join(p for p in parts if p)


def pictures_of(msg: Any) -> list[str]:
    """The file names of the pictures a message's media galleries show."""
    urls = []
    for c in _walk(getattr(msg, "components", None)):
        if _type(c) == MEDIA_GALLERY:
            items = c.get("items") if isinstance(c, dict) else c.items
            for item in items:
                media = item["media"]["url"] if isinstance(item, dict) else item.media.url
                urls.append(media.rsplit("/", 1)[-1])
    return urls


def _raw(c: dict[str, Any]) -> Any:
    from types import SimpleNamespace

    options = [SimpleNamespace(value=o["value"], label=o.get("label"))
               for o in c.get("options") or []]
    return SimpleNamespace(custom_id=c.get("custom_id"), label=c.get("label"),
                           disabled=bool(c.get("disabled")), options=options,
                           type=c.get("type"), placeholder=c.get("placeholder"))


def custom_ids(msg: Any) -> list[str]:
    return [c.custom_id for c in components(msg) if getattr(c, "custom_id", None)]


def verb(custom_id: str | None) -> str:
    parts = (custom_id or "").split(":")
    return parts[1] if len(parts) >= 5 else ""


async def click_together(env: Any, clicks: list[tuple[Any, Any, str]], *,
                         stale_ok: bool = False, mint: int | None = None) -> list[Any]:
    """Several button clicks that reach the bot at the same moment (SimCord's public API
    settles after every click, so this emits them all first and settles once).

    With ``stale_ok`` a click may name a custom_id the message no longer shows, as a client
    with an out-of-date copy of the message would send it. ``mint``: the interaction's id (a
    snowflake minted earlier: a click that reaches the bot late)."""
    from simcord import actors as sa
    from simcord import interactions as si
    from simcord.builders import ChannelHandle
    from simcord.enums import ComponentType, InteractionType
    from simcord.results import InteractionResult

    records = []
    backend = env.backend
    for actor, msg, custom_id in clicks:
        stored = sa._visible_message(actor, msg)
        if not stale_ok:
            sa._find_component(stored.components, types=(ComponentType.BUTTON,),
                               custom_id=custom_id, label=None)
        data = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        channel = ChannelHandle(env, actor.guild, backend.get_channel(stored.channel_id))
        record, payload = si.base_payload(
            backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=channel.id,
            guild_id=actor.guild.id, user_id=actor.id, data=data)
        payload["message"] = dict(sa.serializers.message_payload(backend, stored))
        if mint is not None:
            payload["id"] = str(mint)
        record.source_message_id = stored.id
        env._notify_dispatch_observers(record)
        backend.emit("INTERACTION_CREATE", payload)
        records.append(record)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return [InteractionResult(env, r) for r in records]


def token_of(game: Any, user_id: int) -> str:
    """The token a person is named by in the game's action log and events (``p2``)."""
    return str(next(p.token for p in game.players if p.player_id == str(user_id)))
