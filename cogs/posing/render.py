"""The turn message of Posing Pandas: its text, embed and components, built from the game.

Everything here is a function of the stored game (row + engine state + recent events) and of
the hold mask, which lives only in the components' custom_ids: the same message can be rebuilt
after a restart, and toggling a die needs no database write.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.posing.engine import ENGINE
from bot.rules.posing.poses import (
    ALL_DIFFERENT,
    BOX_COUNT,
    BOX_IDS,
    DICE_COUNT,
    MAX_ROLLS,
    MIX_UP,
    POSE_NAMES,
    SET_OF_3,
    SET_OF_4,
    SET_OF_5,
    box_name,
)
from bot.rules.posing.state import PosingState
from bot.service import Game
from cogs.posing.components import PosingComponent
from ui.clicks import Click
from ui.i18n import N_, P_, Tr
from ui.names import Names, heading, pad, rjust, table_names
from ui.names import standings as common_standings
from ui.shown import Shown

TURN_COLOR: Final = 0x9B59B6
DONE_COLOR: Final = 0x95A5A6
OVER_COLOR: Final = 0xF1C40F
NAME_WIDTH: Final = 15
"""Columns for a name in the score table: mark 2 + name 15 + boxes 6 + total 7 = 30 (a phone
shows about 34 inside an embed; 30 leaves room, as in the Royale table)."""
MAX_RECENT: Final = 12
CARD_FILE: Final = "posing-card.png"

POSE_EMOJI: Final[dict[int, str]] = {1: "🐼", 2: "🎋", 3: "🌀", 4: "🌳", 5: "😴", 6: "🤸"}
BOX_EMOJI: Final[dict[str, str]] = {
    **{f"pose_{pose}": emoji for pose, emoji in POSE_EMOJI.items()},
    SET_OF_3: "3️⃣",
    SET_OF_4: "4️⃣",
    SET_OF_5: "5️⃣",
    MIX_UP: "🔀",
    ALL_DIFFERENT: "🌈",
}
BOX_RULES: Final[dict[str, str]] = {
    **{f"pose_{pose}": N_("1 point per {pose} die") for pose in POSE_NAMES},
    SET_OF_3: N_("3 alike"),
    SET_OF_4: N_("4 alike"),
    SET_OF_5: N_("5 alike"),
    MIX_UP: N_("3 alike + 2 alike"),
    ALL_DIFFERENT: N_("5 different poses"),
}
NAMES: Final = (N_("Face It"), N_("Snack Time"), N_("Roly-Poly"), N_("Tree Hugger"),
                N_("Lazy Lounge"), N_("Handstand"), N_("Set of 3"), N_("Set of 4"),
                N_("Set of 5"), N_("Mix Up"), N_("All Different"))
"""The poses' and boxes' names (the rules engine's), for the catalogue."""


def pose_name(tr: Tr, face: int) -> str:
    """A pose's name in ``tr``'s language."""
    return tr(POSE_NAMES[face])


def box_title(tr: Tr, box: str) -> str:
    """A box's name in ``tr``'s language."""
    return tr(box_name(box))


def box_rule(tr: Tr, box: str) -> str:
    """What a box scores, in a few words."""
    pose = int(box[5:]) if box.startswith("pose_") else 0
    return tr(BOX_RULES[box], pose=pose_name(tr, pose)) if pose else tr(BOX_RULES[box])

Mask = tuple[bool, ...]
"""Which of the five dice are held (UI state until the next Roll)."""

NO_HOLD: Final[Mask] = (False,) * DICE_COUNT
_MASK = re.compile(rf"[01]{{{DICE_COUNT}}}")


# --- the hold mask -------------------------------------------------------------------------


def parse_mask(text: str) -> Mask:
    """The mask of a custom_id argument such as ``"01001"``."""
    if not _MASK.fullmatch(text):
        raise UserError("That button is not valid any more: use the latest message.")
    return tuple(c == "1" for c in text)


def mask_text(mask: Mask) -> str:
    """The custom_id argument of a hold mask, e.g. ``"01001"``."""
    return "".join("1" if held else "0" for held in mask)


def toggled(mask: Mask, index: int) -> Mask:
    """``mask`` with die ``index`` held or released."""
    return tuple(held != (i == index) for i, held in enumerate(mask))


def held_indexes(mask: Mask) -> tuple[int, ...]:
    """The indexes of the held dice."""
    return tuple(i for i, held in enumerate(mask) if held)


def carried_mask(state: PosingState, tail: Sequence[Mapping[str, Any]]) -> Mask:
    """The dice kept at the current player's last re-roll stay held (until toggled)."""
    if state.is_over or state.rolls <= 1:
        return NO_HOLD
    player = state.players[state.seat]
    for e in reversed(tail):
        if e.get("event") != "roll":
            continue
        if e.get("player") == player and e.get("turn") == state.turn \
                and e.get("roll") == state.rolls:
            held = {i for i in e.get("held", []) if isinstance(i, int)}
            return tuple(i in held for i in range(DICE_COUNT))
        return NO_HOLD
    return NO_HOLD


# --- points --------------------------------------------------------------------------------


def points_text(tr: Tr, n: int) -> str:
    """``n`` points, in ``tr``'s language (its plural rule)."""
    return tr.ngettext("{n} point", "{n} points", n)


# --- text ----------------------------------------------------------------------------------


def pose(tr: Tr, face: int) -> str:
    """A pose as emoji and name, e.g. "🐼 Face It"."""
    return f"{POSE_EMOJI[face]} {pose_name(tr, face)}"


def faces_emoji(faces: Sequence[int]) -> str:
    """The poses of some dice as emoji."""
    return "".join(POSE_EMOJI.get(f, "?") for f in faces)


def dice_text(tr: Tr, dice: Sequence[int], mask: Mask) -> str:
    """The five dice, one per line, held ones marked."""
    held = " " + tr("🔒 held")
    return "\n".join(tr("Die {n}: {pose}", n=i + 1, pose=pose(tr, face))
                     + (held if mask[i] else "") for i, face in enumerate(dice))


def score_table(tr: Tr, state: PosingState, names: Names, *, marked: bool = True) -> str:
    """Every player's filled boxes and total, the current player marked (unless not
    ``marked``: a replay's turn waits on nobody), as a code block.
    """
    current = None if state.is_over or not marked else state.seat
    shown = table_names(names, NAME_WIDTH)
    lines = ["  " + pad(heading(tr, P_("column heading", "Player")), NAME_WIDTH)
             + rjust(heading(tr, P_("column heading", "Boxes")), 6)
             + rjust(heading(tr, P_("column heading", "Total")), 7)]
    for seat, filled in enumerate(state.filled):
        mark = "> " if seat == current else "  "
        boxes = f"{len(filled)}/{BOX_COUNT}"
        lines.append(f"{mark}{shown[seat]}{boxes:>6}{sum(filled.values()):>7}")
    return "```\n" + "\n".join(lines) + "\n```"


def card_text(tr: Tr, state: PosingState, seat: int) -> str:
    """The boxes ``seat`` has filled, in score-card order, compactly."""
    filled = state.filled[seat]
    cells = [f"{BOX_EMOJI[b]} {box_title(tr, b)} **{filled[b]}**" for b in BOX_IDS if b in filled]
    return " · ".join(cells) or tr("Nothing filled yet.")


def fill_line(tr: Tr, e: Mapping[str, Any], names: Names) -> str:
    """One line about a filled box."""
    player = str(e.get("player", ""))
    bot = "🤖 " if names.is_bot(player) else ""
    box = str(e.get("box", ""))
    return bot + tr("**{player}** filled **{box}** for **{points}** with {faces}",
                    player=names.of(player), box=box_title(tr, box),
                    points=points_text(tr, int(e.get("points", 0))),
                    faces=faces_emoji(e.get("faces", [])))


def recent_lines(tr: Tr, state: PosingState, tail: Sequence[Mapping[str, Any]], names: Names
                 ) -> list[str]:
    """The fills since (and including) the current player's own last one: what happened since
    they last decided, computer turns included.
    """
    fills = [e for e in tail if e.get("event") == "fill"]
    if not state.is_over:
        me = state.players[state.seat]
        mine = [i for i, e in enumerate(fills) if e.get("player") == me]
        if mine:
            fills = fills[mine[-1]:]
    lines = [fill_line(tr, e, names) for e in fills]
    if len(lines) > MAX_RECENT:
        lines = ["…", *lines[-MAX_RECENT:]]
    return lines


def prompt(tr: Tr, state: PosingState, names: Names) -> str:
    """What the game waits for, addressed to the deciding player."""
    seat = state.seat
    left = ENGINE.rolls_left(state)
    who, turn = names.mention(seat), state.turn
    if left:
        return tr.ngettext("🎲 {who}, your turn {turn}/{turns}: hold dice and roll again ({n} "
                           "roll left), or fill a box.",
                           "🎲 {who}, your turn {turn}/{turns}: hold dice and roll again ({n} "
                           "rolls left), or fill a box.", left, who=who, turn=turn,
                           turns=BOX_COUNT)
    return tr("🎲 {who}, your turn {turn}/{turns}: no rolls left, fill a box.", who=who,
              turn=turn, turns=BOX_COUNT)


def footer(tr: Tr, game: Game) -> str:
    """The turn message's footer: the game and its time limit."""
    timeout = int(game.settings.get("turn_timeout", 120))
    return tr("Game {id} · {seconds}s per decision, then the computer plays the turn "
              "· /posing status", id=game.id, seconds=timeout)


# --- the turn message ----------------------------------------------------------------------


def turn_embed(tr: Tr, game: Game, state: PosingState, tail: Sequence[Mapping[str, Any]],
               mask: Mask) -> discord.Embed:
    """Who plays, what happened since their last turn, the dice, every player's score."""
    names = Names(game, tr)
    seat = state.seat
    desc = recent_lines(tr, state, tail, names)
    embed = discord.Embed(
        title=tr("Posing Pandas · {player}, turn {turn}/{turns}", player=names.seat(seat),
                 turn=state.turn, turns=BOX_COUNT),
        description="\n".join(desc)[:4000] or None, color=TURN_COLOR)
    left = ENGINE.rolls_left(state)
    embed.add_field(name=tr("Dice · roll {roll} of {rolls} ({left} left)", roll=state.rolls,
                            rolls=MAX_ROLLS, left=left),
                    value=dice_text(tr, state.dice, mask), inline=True)
    embed.add_field(name=tr("Scores"), value=score_table(tr, state, names)[:1024], inline=False)
    embed.add_field(name=tr("{player}'s card", player=names.seat(seat)),
                    value=card_text(tr, state, seat)[:1024], inline=False)
    embed.set_footer(text=footer(tr, game))
    return embed


def option_label(tr: Tr, box: str, points: int) -> str:
    """A box of the fill menu with the points it would score now."""
    return f"{box_title(tr, box)} — {points_text(tr, points)}"


def turn_view(tr: Tr, game: Game, state: PosingState, mask: Mask) -> discord.ui.View:
    """Five dice toggles, Roll, the score-card button, and the select of the empty boxes."""
    view = discord.ui.View(timeout=None)
    g, v = game.id, game.version
    left = ENGINE.rolls_left(state)
    for i, face in enumerate(state.dice):
        held = mask[i]
        view.add_item(PosingComponent.button(
            Click("hold", g, v, mask_text(toggled(mask, i))),
            label=(tr("Die {n}: {pose} (held) · click to release", n=i + 1,
                      pose=pose_name(tr, face)) if held
                   else tr("Die {n}: {pose} · click to hold", n=i + 1, pose=pose_name(tr, face))),
            emoji=POSE_EMOJI[face],
            style=discord.ButtonStyle.success if held else discord.ButtonStyle.secondary,
            disabled=left == 0, row=0))
    everything = all(mask)
    if left == 0:
        label = tr("No rolls left")
    elif everything:
        label = tr("Roll (every die is held)")
    else:
        label = tr("Roll the dice not held ({left} left)", left=left)
    view.add_item(PosingComponent.button(
        Click("roll", g, v, mask_text(mask)), label=label, emoji="🎲",
        style=discord.ButtonStyle.primary, disabled=left == 0 or everything, row=1))
    view.add_item(PosingComponent.button(Click("pcard", g), label=tr("Score card"), emoji="📋",
                                         row=1))
    points = ENGINE.box_points(state)
    options = [
        discord.SelectOption(label=option_label(tr, box, pts), value=box, emoji=BOX_EMOJI[box],
                             description=box_rule(tr, box))
        for box, pts in points.items()
    ]
    view.add_item(PosingComponent.select(Click("fill", g, v, mask_text(mask)), options=options,
                                         placeholder=tr("Fill a box (ends your turn)…"), row=2))
    return view


def render_turn(tr: Tr, game: Game, state: PosingState, tail: Sequence[Mapping[str, Any]],
                mask: Mask, note: str = "") -> Shown:
    """The whole turn message for the game as it is now."""
    content = prompt(tr, state, Names(game, tr))
    if note:
        content = f"{note}\n{content}"
    return Shown(content, turn_embed(tr, game, state, tail, mask),
                 turn_view(tr, game, state, mask))


def render_closed(tr: Tr, game: Game, state: PosingState, events: Sequence[Mapping[str, Any]],
                  player_id: str) -> Shown:
    """The final look of a message whose player's turn is over (no components): what they
    did, or what the computer players did when a computer player's move closes it (after a
    restart).
    """
    names = Names(game, tr)
    fills = [e for e in events if e.get("event") == "fill"]
    if not names.is_bot(player_id):
        fills = [e for e in fills if e.get("player") == names.token(player_id)]
    lines = [fill_line(tr, e, names) for e in fills]
    who = tr("Computer players") if names.is_bot(player_id) else names.of(player_id)
    embed = discord.Embed(title=tr("Posing Pandas · {player}: turn over", player=who),
                          description="\n".join(lines)[:4000] or None, color=DONE_COLOR)
    embed.add_field(name=tr("Scores"), value=score_table(tr, state, names)[:1024], inline=False)
    embed.set_footer(text=tr("Game {id}", id=game.id))
    if names.is_bot(player_id):
        summary = tr("The computer players have played.")
    elif fills:
        summary = tr("{player} filled {box}.", player=who,
                     box=box_title(tr, str(fills[-1]["box"])))
    else:
        summary = tr("{player} has played.", player=who)
    return Shown(summary, embed, None)


def replay_embed(tr: Tr, game: Game, state: PosingState, events: Sequence[Mapping[str, Any]]
                 ) -> discord.Embed:
    """One turn of a replay: each player's fill of the turn (``events``) and the scores after
    it (``state``).
    """
    names = Names(game, tr)
    lines = [fill_line(tr, e, names) for e in events if e.get("event") == "fill"]
    embed = discord.Embed(description="\n".join(lines)[:4000] or None, color=DONE_COLOR)
    embed.add_field(name=tr("Scores"), value=score_table(tr, state, names, marked=False)[:1024],
                    inline=False)
    return embed


# --- the end -------------------------------------------------------------------------------


def standings(tr: Tr, game: Game, state: PosingState) -> str:
    """Final standings with shared wins."""
    return common_standings(tr, Names(game, tr), ENGINE.totals(state), tr("Posing Pandas"),
                            lambda n: points_text(tr, n))


def final_embed(tr: Tr, game: Game, state: PosingState, tail: Sequence[Mapping[str, Any]],
                with_image: bool) -> discord.Embed:
    """The last message's embed: the last fills and every player's score."""
    names = Names(game, tr)
    last = [fill_line(tr, e, names) for e in tail
            if e.get("event") == "fill"][-len(game.players):]
    embed = discord.Embed(title=tr("Posing Pandas · Final scores"),
                          description="\n".join(last)[:4000] or None, color=OVER_COLOR)
    embed.add_field(name=tr("Scores"), value=score_table(tr, state, names)[:1024], inline=False)
    if with_image:
        embed.set_image(url=f"attachment://{CARD_FILE}")
    embed.set_footer(text=tr("Game {id} · /posing log for the game log", id=game.id))
    return embed
