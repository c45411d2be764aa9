"""The round message of Panda Royale: its text, embed and components, built from the game.

Everything here is a function of the stored game (row + engine state + this round's events):
the same message can be rebuilt after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.rules.royale.dice import CANNON_MULTIPLIER, ROUNDS, DieSpec
from bot.rules.royale.engine import current_seat
from bot.rules.royale.state import Phase, RoyaleState
from bot.service import Game
from cogs.royale.dice_text import die_emoji, die_value, happening
from ui.clicks import Click
from ui.components import RoyaleComponent
from ui.names import Names, short
from ui.names import standings as common_standings

EMBED_COLOR = 0x2ECC71
OVER_COLOR = 0xF1C40F
NAME_WIDTH = 9
MAX_HAPPENINGS = 14
COLUMNS_HEAD = "Yel Pur Blu Red Grn Clr Pnk"
DICE_LEGEND = "Dice · 💎 glitter · 🌸 pity · 😈 Mischief · 💥 Cannon · ⚔️ Mercenary · 🐼 token"


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message to send or edit."""

    content: str
    embed: discord.Embed
    view: discord.ui.View | None


def score_table(state: RoyaleState, names: Names) -> str:
    """The last scored row of the score sheet per player, with game totals, as a code block."""
    r = len(state.sheet)
    totals = state.totals()
    lines = [f"{'':<{NAME_WIDTH}} {COLUMNS_HEAD}  Rnd   Tot"]
    for seat in range(state.n):
        if r:
            cols = state.sheet[r - 1][seat]
            cells = "".join(f"{c:>4}" for c in cols)[1:]
            rnd = f"{sum(cols):>5}"
        else:
            cells = "".join(f"{'·':>4}" for _ in range(7))[1:]
            rnd = f"{'·':>5}"
        name = short(names.seat(seat), NAME_WIDTH)
        lines.append(f"{name:<{NAME_WIDTH}} {cells}{rnd}{totals[seat]:>6}")
    if r == 0:
        label = "Nothing scored yet"
    elif r == state.round:
        label = f"Round {r} scored"
    else:
        label = f"Round {r} (round {state.round} is scored after the decisions above)"
    return f"{label} · Tot = game total\n```\n" + "\n".join(lines) + "\n```"


def dice_lines(state: RoyaleState, names: Names) -> str:
    """Each player's dice and what they show this round (new dice show their sides)."""
    specs = state.dice.specs
    out = []
    for seat, hand in enumerate(state.hands):
        dice = " ".join(die_value(specs[d], state.values.get(d)) for d in hand) or "no dice"
        token = " 🐼" if seat == state.token else ""
        out.append(f"**{names.seat(seat)}**{token}: {dice}")
    return "\n".join(out)


def prompt(state: RoyaleState, names: Names) -> str:
    """What the game waits for, addressed to the deciding player."""
    seat = current_seat(state)
    if seat is None:
        return ""
    who = names.mention(seat)
    specs = state.dice.specs
    if state.phase is Phase.MISCHIEF:
        return (f"😈 {who}, your Mischief die rolled highest: choose another player's die "
                "(not yellow) to re-roll.")
    if state.phase is Phase.CANNON:
        die = state.queue[0][1]
        v = state.values[die]
        return (f"💥 {who}, your Cannon shows **{v}**: fire it for **{v * CANNON_MULTIPLIER}** "
                "points (it then leaves the game) or save it for a later round.")
    if state.phase is Phase.TRADE:
        return (f"🔄 {who}, trade a clear d6 for any die of another player (not pink pity dice "
                "or Cannons), or pass.")
    pool = ", ".join(f"{die_emoji(specs[d])} {specs[d].label}" for d in state.pool)
    return f"🎲 {who}, pick a die from the pool: {pool}."


def build_embed(game: Game, state: RoyaleState, tail: Sequence[dict[str, Any]],
                note: str = "") -> discord.Embed:
    """The round's embed: happenings, the score sheet, the dice."""
    names = Names(game)
    specs = state.dice.specs
    over = state.phase is Phase.OVER
    title = "Panda Royale · Final round" if over else f"Panda Royale · Round {state.round}/{ROUNDS}"
    lines = [h for e in tail if (h := happening(e, names, specs.__getitem__))]
    if len(lines) > MAX_HAPPENINGS:
        lines = ["…", *lines[-MAX_HAPPENINGS:]]
    desc = []
    if state.expansions:
        desc.append("Mayhem: " + ", ".join(e.title() for e in state.expansions))
    desc.extend(lines)
    if note:
        desc.append(note)
    embed = discord.Embed(title=title, description="\n".join(desc)[:4000],
                          color=OVER_COLOR if over else EMBED_COLOR)
    embed.add_field(name="Score sheet", value=score_table(state, names)[:1024], inline=False)
    embed.add_field(name=DICE_LEGEND, value=dice_lines(state, names)[:1024], inline=False)
    if state.phase is Phase.DRAFT and state.pool:
        embed.add_field(name="Draft pool",
                        value=" ".join(f"{die_emoji(specs[d])} {specs[d].label}"
                                       for d in state.pool)[:1024], inline=False)
    timeout = int(game.settings.get("turn_timeout", 120))
    embed.set_footer(text=f"Game {game.id} · {timeout}s per decision, then the computer plays "
                          "· /royale hand shows your dice")
    return embed


def _dice_summary(state: RoyaleState, seat: int, dice: Sequence[str]) -> str:
    specs = state.dice.specs
    return " ".join(die_value(specs[d], state.values.get(d)) for d in dice)[:100] or "no dice"


def _option_label(spec: DieSpec, value: int | None) -> str:
    shown = f" showing {value}" if value is not None else ""
    return f"{spec.label}{shown}"[:100]


def build_view(game: Game, state: RoyaleState, step: str = "", chosen: int = -1
               ) -> discord.ui.View | None:
    """The components of the decision the game waits on.

    ``step``/``chosen`` select the second step of mischief or trade (the chosen player's dice).
    """
    seat = current_seat(state)
    if seat is None:
        return None
    view = discord.ui.View(timeout=None)
    v = game.version
    g = game.id
    specs = state.dice.specs
    names = Names(game)

    def click(verb: str, arg: str = "") -> Click:
        return Click(verb, g, v, arg)

    if state.phase is Phase.DRAFT:
        for i, d in enumerate(state.pool):
            spec = specs[d]
            view.add_item(RoyaleComponent.button(
                click("pick", d), label=spec.label, emoji=die_emoji(spec),
                style=discord.ButtonStyle.primary, row=i // 5))
    elif state.phase is Phase.CANNON:
        die = state.queue[0][1]
        value = state.values[die]
        view.add_item(RoyaleComponent.button(
            click("fire", die), label=f"Fire: {value * CANNON_MULTIPLIER} points", emoji="💥",
            style=discord.ButtonStyle.danger))
        view.add_item(RoyaleComponent.button(click("save", die), label="Save it", emoji="🛡️",
                                 style=discord.ButtonStyle.secondary))
    elif step in ("mdie", "tdie") and 0 <= chosen < state.n and chosen != seat:
        hand = state.hands[chosen]
        if step == "mdie":
            dice = [d for d in hand if specs[d].color != "yellow"]
            placeholder = f"Which of {names.seat(chosen)}'s dice must be re-rolled?"
        else:
            dice = [d for d in hand if specs[d].takeable]
            placeholder = f"Which of {names.seat(chosen)}'s dice do you take?"
        options = [discord.SelectOption(label=_option_label(specs[d], state.values.get(d)),
                                        value=d, emoji=die_emoji(specs[d])) for d in dice[:25]]
        view.add_item(RoyaleComponent.select(click(step, str(chosen)), options=options,
                                 placeholder=placeholder, row=0))
        view.add_item(RoyaleComponent.button(click("back"), label="Back", emoji="↩️", row=1))
    elif state.phase is Phase.MISCHIEF:
        options = []
        for other, hand in enumerate(state.hands):
            dice = [d for d in hand if specs[d].color != "yellow"]
            if other != seat and dice:
                options.append(discord.SelectOption(
                    label=names.seat(other)[:100], value=str(other),
                    description=_dice_summary(state, other, dice)))
        view.add_item(RoyaleComponent.select(click("mtarget"), options=options[:25],
                                 placeholder="Make mischief on…", row=0))
    elif state.phase is Phase.TRADE:
        options = []
        for other, hand in enumerate(state.hands):
            dice = [d for d in hand if specs[d].takeable]
            if other != seat and dice:
                options.append(discord.SelectOption(
                    label=names.seat(other)[:100], value=str(other),
                    description=_dice_summary(state, other, dice)))
        if options:
            view.add_item(RoyaleComponent.select(click("ttarget"), options=options[:25],
                                     placeholder="Trade your clear d6 with…", row=0))
        view.add_item(RoyaleComponent.button(click("pass"), label="Pass", emoji="⏭️", row=1))
    view.add_item(RoyaleComponent.button(Click("hand", g), label="My dice", emoji="🎲", row=4))
    return view


def render(game: Game, state: RoyaleState, tail: Sequence[dict[str, Any]], *,
           note: str = "", step: str = "", chosen: int = -1) -> Rendered:
    """The whole round message for the game as it is now."""
    names = Names(game)
    content = prompt(state, names)
    if note:
        content = f"{note}\n{content}" if content else note
    return Rendered(content, build_embed(game, state, tail),
                    build_view(game, state, step, chosen))


def render_closed_round(game: Game, state: RoyaleState, events: Sequence[dict[str, Any]],
                        round_no: int) -> Rendered:
    """The final look of a finished round's message (no components)."""
    names = Names(game)
    specs = state.dice.specs
    lines = [h for e in events if e.get("round") == round_no
             and (h := happening(e, names, specs.__getitem__))]
    if len(lines) > MAX_HAPPENINGS:
        lines = ["…", *lines[-MAX_HAPPENINGS:]]
    table = ["```", f"{'':<{NAME_WIDTH}} {COLUMNS_HEAD}  Rnd   Tot"]
    totals = [0] * state.n
    for rnd in state.sheet[:round_no]:
        for seat, cols in enumerate(rnd):
            totals[seat] += sum(cols)
    for seat in range(state.n):
        cols = state.sheet[round_no - 1][seat]
        cells = "".join(f"{c:>4}" for c in cols)[1:]
        table.append(f"{short(names.seat(seat), NAME_WIDTH):<{NAME_WIDTH}} {cells}{sum(cols):>5}"
                     f"{totals[seat]:>6}")
    table.append("```")
    embed = discord.Embed(title=f"Panda Royale · Round {round_no}/{ROUNDS} (done)",
                          description="\n".join(lines)[:4000], color=0x95A5A6)
    embed.add_field(name="Score sheet", value="\n".join(table)[:1024], inline=False)
    embed.set_footer(text=f"Game {game.id}")
    return Rendered("", embed, None)


def standings(game: Game, state: RoyaleState) -> str:
    """Final standings with shared wins."""
    return common_standings(Names(game), state.totals(), "Panda Royale")
