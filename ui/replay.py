"""A finished game again, round by round (Panda Royale) or turn by turn (Posing Pandas), in a
private message: the step's picture and what happened in it, with First / Previous / Next /
Last buttons.

The game-over message's Replay button (verb ``replay``) and ``/<kind> replay`` open it at the
first step; its buttons (verb ``frame``, the step in their argument) redraw it. Every step is
rebuilt from the game's stored log by the service (:meth:`bot.service.GameService.replay`) and
shown by the kind's presenter (``replay_page``), so the buttons keep working after a restart;
they work in any channel of the game's server (:data:`ui.clicks.SERVER_WIDE`), as the command
does, and nowhere else.
"""

from __future__ import annotations

import io
import re
from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.registry import kind_of
from bot.service import Replay
from ui.clicks import Click
from ui.hub import ClickContext, Hub, VerbTable, hub_of, place_of
from ui.i18n import N_, Tr, for_user

REPLAY_COLOR: Final = 0x3498DB
_STEP_ARG: Final = re.compile(r"(?P<step>[0-9]{1,3})\.(?P<button>[fpnl])")
"""A step button's argument: the step it shows and which button it is (first, previous, next,
last: two buttons may show the same step, and a message's custom_ids must differ)."""
STALE: Final = N_("That replay button is not valid any more: open the replay again.")
POSITIONS: Final = (N_("Round {n} of {steps}"), N_("Turn {n} of {steps}"))
"""The kinds' step positions (their registry entries' ``progress.position``), for the
catalogue."""


def step_arg(step: int, button: str) -> str:
    """The argument of the step button ``button`` (``f``, ``p``, ``n`` or ``l``) to ``step``."""
    return f"{step}.{button}"


def parse_step(arg: str) -> int:
    """The step a step button's argument shows; a polite error for anything else."""
    m = _STEP_ARG.fullmatch(arg)
    if m is None:
        raise UserError(STALE)
    return int(m["step"])


def replay_view(hub: Hub, replay: Replay, step: int, tr: Tr) -> discord.ui.View:
    """First / Previous / Next / Last, the ones that lead nowhere disabled."""
    game = replay.game
    component = hub.games[game.kind].component
    last = len(replay.frames)
    view = discord.ui.View(timeout=None)
    for button, to, label, emoji, off in (
            ("f", 1, tr("First"), "⏮️", step <= 1),
            ("p", max(step - 1, 1), tr("Previous"), "◀️", step <= 1),
            ("n", min(step + 1, last), tr("Next"), "▶️", step >= last),
            ("l", last, tr("Last"), "⏭️", step >= last)):
        view.add_item(component.button(Click("frame", game.id, None, step_arg(to, button)),
                                       label=label, emoji=emoji, disabled=off,
                                       style=discord.ButtonStyle.primary))
    return view


async def replay_message(hub: Hub, replay: Replay, step: int, tr: Tr) -> dict[str, Any]:
    """The replay at ``step`` (held to the steps there are) as a message's keyword arguments:
    its embed, its picture (``file``) and its buttons.
    """
    game = replay.game
    frame = replay.frame(step)
    kind = kind_of(game.kind)
    assert kind.progress is not None  # the service replays only kinds with steps
    page = await hub.presenter(game.kind).replay_page(game, frame, tr)
    filename = f"replay-{game.id}-{frame.step}.png"
    embed = page.embed
    embed.title = tr("🎬 Replay of {game} game {id}", game=tr(kind.title), id=game.id)
    header = "**" + tr(kind.progress.position, n=frame.step, steps=len(replay.frames)) + "**"
    embed.description = f"{header}\n{embed.description or ''}".strip()[:4000]
    embed.color = REPLAY_COLOR
    # the picture as an attachment of its own, not the embed's image: shown as wide as the
    # message (an embed's image is held to a few hundred pixels high; a 10-seat card is tall)
    embed.set_footer(text=tr("Only you see this replay · game {id}", id=game.id))
    return {"embed": embed, "view": replay_view(hub, replay, frame.step, tr),
            "file": discord.File(io.BytesIO(page.picture), filename=filename)}


async def _open(ctx: ClickContext) -> None:
    """The game-over message's Replay button: the replay at its first step, privately."""
    place = place_of(ctx.interaction)
    replay = await ctx.service.replay(place, ctx.game_id)
    message = await replay_message(ctx.hub, replay, 1, for_user(ctx.interaction))
    await ctx.interaction.followup.send(ephemeral=True, **message)


async def _frame(ctx: ClickContext) -> None:
    """A step button: the replay message redrawn at the step it names."""
    step = parse_step(ctx.click.arg)
    replay = await ctx.service.replay(place_of(ctx.interaction), ctx.game_id)
    message = await replay_message(ctx.hub, replay, step, for_user(ctx.interaction))
    picture = message.pop("file")
    await ctx.interaction.edit_original_response(attachments=[picture], **message)


async def replay_command(interaction: discord.Interaction[Any], kind: str,
                         game_id: int | None) -> None:
    """``/<kind> replay [game]``: finished game ``game_id`` of this server, or this channel's
    last game of ``kind``, from its first step, privately.
    """
    hub = hub_of(interaction.client)
    place = place_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    replay = await hub.service.replay(place, game_id, kind)
    message = await replay_message(hub, replay, 1, for_user(interaction))
    await interaction.followup.send(ephemeral=True, **message)


REPLAY_VERBS: Final[VerbTable] = {"replay": _open, "frame": _frame}
"""The replay's verbs, part of every game kind's table (with the game-over message's)."""
