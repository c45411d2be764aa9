"""A finished game again, round by round (Panda Royale) or turn by turn (Posing Pandas), in a
private card: the step's picture and what happened in it, with First / Previous / Next / Last.

The game-over card's Replay button and ``/<kind> replay`` open it at the first step; its
buttons (the step in their argument) redraw it. Every step is rebuilt from the game's stored
log by the service (:meth:`bot.service.GameService.replay`) and drawn by the kind's presenter
(``replay_page``), so the buttons keep working after a restart; they work in any channel of the
game's server, as the command does, and nowhere else.
"""

from __future__ import annotations

import io
import re
from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.registry import kind_of
from bot.service import Replay
from ui.board import Boards
from ui.cards import LOBBY, layout, picture, row, text
from ui.i18n import N_, Tr, for_user
from ui.items import GAME_PREFIXES, Clicked, GameItem, Verb, bot_of, place_of

_STEP_ARG: Final = re.compile(r"(?P<step>[0-9]{1,3})\.(?P<button>[fpnl])")
"""A step button's argument: the step it shows and which button it is (first, previous, next,
last: two buttons may show the same step, and a message's custom_ids must differ)."""
STALE: Final = N_("That replay button is not valid any more: open the replay again.")
POSITIONS: Final = (N_("Round {n} of {steps}"), N_("Turn {n} of {steps}"))
"""The kinds' step positions (their registry entries' ``progress.position``), for the
catalogue."""


def parse_step(arg: str) -> int:
    """The step a step button's argument shows; a polite error for anything else."""
    m = _STEP_ARG.fullmatch(arg)
    if m is None:
        raise UserError(STALE)
    return int(m["step"])


async def replay_message(boards: Boards, replay: Replay, step: int, tr: Tr) -> dict[str, Any]:
    """The replay at ``step`` (held to the steps there are) as a private message's keyword
    arguments: its card and its picture.
    """
    game = replay.game
    frame = replay.frame(step)
    kind = kind_of(game.kind)
    assert kind.progress is not None  # the service replays only kinds with steps
    page = await boards.presenter(game.kind).replay_page(game, frame, tr)
    filename = f"replay-{game.id}-{frame.step}.png"
    last = len(replay.frames)
    prefix = boards.prefix(game.kind)
    buttons = [Step.button(prefix, game.id, None, f"{to}.{button}", label=label, emoji=emoji,
                           disabled=off, style=discord.ButtonStyle.primary)
               for button, to, label, emoji, off in (
                   ("f", 1, tr("First"), "⏮️", frame.step <= 1),
                   ("p", max(frame.step - 1, 1), tr("Previous"), "◀️", frame.step <= 1),
                   ("n", min(frame.step + 1, last), tr("Next"), "▶️", frame.step >= last),
                   ("l", last, tr("Last"), "⏭️", frame.step >= last))]
    title = tr("🎬 Replay of {game} game {id}", game=tr(kind.title), id=game.id)  # extracted
    head = f"### {title}\n**{tr(kind.progress.position, n=frame.step, steps=last)}**"
    view = layout(LOBBY, text(head), picture(filename, page.description),
                  text(page.text[:3000]) if page.text else None, row(*buttons),
                  text("-# " + tr("Only you see this replay · game {id}", id=game.id)))
    return {"view": view, "file": discord.File(io.BytesIO(page.picture), filename=filename)}


async def send_replay(interaction: discord.Interaction[Any], kind: str,
                      game_id: int | None) -> None:
    """``/<kind> replay [game]``: finished game ``game_id`` of this server, or this channel's
    last game of ``kind``, from its first step, privately.
    """
    bot = bot_of(interaction.client)
    place = place_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    replay = await bot.service.replay(place, game_id, kind)
    message = await replay_message(bot.boards, replay, 1, for_user(interaction))
    await interaction.followup.send(ephemeral=True, **message)


class OpenReplay(GameItem, prefixes=GAME_PREFIXES, verb=Verb.REPLAY):
    """The game-over card's Replay button: the replay at its first step, privately."""

    async def act(self, clicked: Clicked) -> None:
        replay = await clicked.service.replay(place_of(clicked.interaction), clicked.game_id)
        message = await replay_message(clicked.boards, replay, 1,
                                       for_user(clicked.interaction))
        await clicked.interaction.followup.send(ephemeral=True, **message)


class Step(GameItem, prefixes=GAME_PREFIXES, verb=Verb.FRAME, server_wide=True):
    """A step button: the replay card redrawn at the step it names."""

    async def act(self, clicked: Clicked) -> None:
        step = parse_step(clicked.arg)
        replay = await clicked.service.replay(place_of(clicked.interaction), clicked.game_id)
        message = await replay_message(clicked.boards, replay, step,
                                       for_user(clicked.interaction))
        await clicked.redraw(message["view"], [message["file"]])


REPLAY_ITEMS: Final = (OpenReplay, Step)
