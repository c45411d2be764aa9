"""The round message of Panda Royale: its text, embed and components, built from the game.

Everything here is a function of the stored game (row + engine state + this round's events):
the same message can be rebuilt after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.rules.royale.dice import CANNON_MULTIPLIER, ROUNDS
from bot.rules.royale.engine import current_seat, tradeable_dice
from bot.rules.royale.state import Phase, RoyaleState
from bot.service import Game
from cogs.royale.components import RoyaleComponent
from cogs.royale.dice_text import die_emoji, die_label, die_value, die_words, happening
from ui.clicks import Click
from ui.i18n import N_, P_, Tr
from ui.lobby import expansion_names
from ui.names import Names, heading, isolated, pad, rjust, short, table_names
from ui.names import standings as common_standings
from ui.phone import PHONE_LINES
from ui.shown import Shown, add_line_fields

EMBED_COLOR = 0x2ECC71
OVER_COLOR = 0xF1C40F
NAME_WIDTH = 16
"""Columns for a name in the score table: mark 2 + name 16 + round 6 + game 6 = 30 (a little
room under the 34 a phone shows, for the embed's margin)."""
CELL_NAME_WIDTH = 6
"""Columns for a name in the column breakdown: name 6 + 7 columns of 4 = 34."""
MAX_HAPPENINGS = 14
COLUMNS_HEAD = (P_("column heading", "Yel"), P_("column heading", "Pur"),
                P_("column heading", "Blu"), P_("column heading", "Red"),
                P_("column heading", "Grn"), P_("column heading", "Clr"),
                P_("column heading", "Pnk"))
"""The seven columns' headings (3 columns wide at most in every language)."""
DICE_LEGEND = N_("Dice · 🟣12 = Purple die showing 12 · d8 = not rolled · 🐼 token")


def _table(tr: Tr, names: Names, rnd: Sequence[int | None], totals: Sequence[int],
           marked: int | None = None) -> str:
    """The compact score table: a mark, the short name, the round total, the game total."""
    shown = table_names(names, NAME_WIDTH)
    lines = ["  " + pad(heading(tr, P_("column heading", "Player")), NAME_WIDTH)
             + rjust(heading(tr, P_("column heading", "Round")), 6)
             + rjust(heading(tr, P_("column heading", "Game")), 6)]
    for seat, name in enumerate(shown):
        mark = "> " if seat == marked else "  "
        r = "·" if rnd[seat] is None else str(rnd[seat])
        lines.append(f"{mark}{name}{r:>6}{totals[seat]:>6}")
    return "```\n" + "\n".join(lines) + "\n```"


def columns_table(tr: Tr, state: RoyaleState, names: Names, round_no: int) -> str:
    """The seven columns of round ``round_no`` per player, as a narrow code block."""
    shown = table_names(names, CELL_NAME_WIDTH)
    lines = [" " * CELL_NAME_WIDTH + "".join(rjust(heading(tr, c), 4) for c in COLUMNS_HEAD)]
    for seat, name in enumerate(shown):
        cols = state.sheet[round_no - 1][seat]
        lines.append(name + "".join(f"{c:>4}" for c in cols))
    return "```\n" + "\n".join(lines) + "\n```"


def score_table(tr: Tr, state: RoyaleState, names: Names) -> str:
    """The last scored round's total and the game total per player, as a narrow code block
    (the seven columns are on the picture), under a one-line label.
    """
    r = len(state.sheet)
    rnd: list[int | None] = ([sum(c) for c in state.sheet[r - 1]] if r
                             else [None] * state.n)
    if r == 0:
        label = tr("Nothing scored yet")
    elif r == state.round:
        label = tr("Round {n} scored", n=r)
    else:
        label = tr("Round {n} (round {now} is scored after the decisions above)", n=r,
                   now=state.round)
    return tr("{label} · Game = game total", label=label) + "\n" + _table(
        tr, names, rnd, state.totals(), current_seat(state))


def dice_lines(tr: Tr, state: RoyaleState, names: Names) -> str:
    """Each player's dice and what they show this round (new dice show their sides)."""
    specs = state.dice.specs
    out = []
    for seat, hand in enumerate(state.hands):
        dice = " ".join(die_value(specs[d], state.values.get(d)) for d in hand) or tr("no dice")
        token = " 🐼" if seat == state.token else ""
        out.append(f"**{names.md(seat)}**{token}: {dice}")
    return "\n".join(out)


def prompt(tr: Tr, state: RoyaleState, names: Names) -> str:
    """What the game waits for, addressed to the deciding player."""
    seat = current_seat(state)
    if seat is None:
        return ""
    who = names.mention(seat)
    if state.phase is Phase.MISCHIEF:
        return tr("😈 {who}, your Mischief die rolled highest: choose another player's die "
                  "(not yellow) to re-roll.", who=who)
    if state.phase is Phase.CANNON:
        die = state.queue[0][1]
        v = state.values[die]
        if state.round >= ROUNDS:
            return tr("💥 {who}, your Cannon shows **{value}**: fire it for **{points}** points. "
                      "This is the last round: a Cannon not fired scores nothing.", who=who,
                      value=v, points=v * CANNON_MULTIPLIER)
        return tr("💥 {who}, your Cannon shows **{value}**: fire it for **{points}** points (it "
                  "then leaves the game) or save it for a later round.", who=who, value=v,
                  points=v * CANNON_MULTIPLIER)
    if state.phase is Phase.TRADE:
        return tr("🔄 {who}, you may give a Clear d6 for any die of another player (not pink "
                  "pity dice or Cannons), or pass.", who=who)
    return tr("🎲 {who}, pick a die from the pool (the buttons below).", who=who)


def _lines_budget(n: int, fixed: int) -> int:
    """How many happenings fit with ``fixed`` other lines, within one phone screen."""
    return max(3, min(MAX_HAPPENINGS, PHONE_LINES - fixed - 2 * n))


def build_embed(tr: Tr, game: Game, state: RoyaleState, tail: Sequence[dict[str, Any]],
                note: str = "") -> discord.Embed:
    """The round's embed: happenings, the score sheet, the dice."""
    names = Names(game, tr)
    specs = state.dice.specs
    over = state.phase is Phase.OVER
    title = (tr("Panda Royale · Final round") if over
             else tr("Panda Royale · Round {n}/{rounds}", n=state.round, rounds=ROUNDS))
    lines = [h for e in tail if (h := happening(tr, e, names, specs.__getitem__))]
    # content 2, title 1, table 1 + 1 + 2 + 1 + n, dice 1 + n, footer 1, note 1
    budget = _lines_budget(state.n, 11 + (1 if note else 0))
    if len(lines) > budget:
        lines = ["…", *lines[-(budget - 1):]]
    desc = list(lines)
    if note:
        desc.append(note)
    embed = discord.Embed(title=title, description="\n".join(desc)[:4000] or None,
                          color=OVER_COLOR if over else EMBED_COLOR)
    embed.add_field(name=tr("Scores"), value=score_table(tr, state, names)[:1024], inline=False)
    add_line_fields(embed, tr(DICE_LEGEND), dice_lines(tr, state, names))
    timeout = int(game.settings.get("turn_timeout", 120))
    mayhem = (tr("Mayhem: {options}", options=expansion_names(tr, state.expansions)) + " · "
              if state.expansions else "")
    if over:
        embed.set_footer(text=tr("Game {id} · {mayhem}over · /royale log: the game's log",
                                 id=game.id, mayhem=mayhem))
    else:
        embed.set_footer(text=tr("Game {id} · {mayhem}{seconds}s per decision, then the "
                                 "computer plays · /royale hand: your dice in words",
                                 id=game.id, mayhem=mayhem, seconds=timeout))
    return embed


def _dice_summary(tr: Tr, state: RoyaleState, dice: Sequence[str]) -> str:
    specs = state.dice.specs
    text = tr("Then choose one: {dice}", dice=", ".join(
        die_words(tr, specs[d], state.values.get(d)) for d in dice))
    return text if len(text) <= 100 else text[:99] + "…"


def _option_label(text: str) -> str:
    return text if len(text) <= 100 else text[:99] + "…"


def build_view(tr: Tr, game: Game, state: RoyaleState, step: str = "", chosen: int = -1
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
    names = Names(game, tr)

    def click(verb: str, arg: str = "") -> Click:
        return Click(verb, g, v, arg)

    if state.phase is Phase.DRAFT:
        for i, d in enumerate(state.pool):
            spec = specs[d]
            view.add_item(RoyaleComponent.button(
                click("pick", d), label=die_label(tr, spec), emoji=die_emoji(spec),
                style=discord.ButtonStyle.primary, row=i // 5))
    elif state.phase is Phase.CANNON:
        die = state.queue[0][1]
        value = state.values[die]
        view.add_item(RoyaleComponent.button(
            click("fire", die), label=tr("Fire: score {points} now",
                                         points=value * CANNON_MULTIPLIER), emoji="💥",
            style=discord.ButtonStyle.danger))
        save = (tr("Don't score it (0 points)") if state.round >= ROUNDS
                else tr("Save for a later round"))
        view.add_item(RoyaleComponent.button(click("save", die), label=save, emoji="🛡️",
                                             style=discord.ButtonStyle.secondary))
    elif step in ("mdie", "tdie") and 0 <= chosen < state.n and chosen != seat:
        hand = state.hands[chosen]
        whose = isolated(short(names.seat(chosen), 24))
        if step == "mdie":
            dice = [d for d in hand if specs[d].color != "yellow"]
            placeholder = tr("Which of {player}'s dice must be re-rolled?", player=whose)
            labels = [tr("Re-roll {player}'s {die}", player=whose,
                         die=die_words(tr, specs[d], state.values.get(d))) for d in dice]
        else:
            dice = [d for d in hand if specs[d].takeable]
            placeholder = tr("Which of {player}'s dice do you take?", player=whose)
            give = tradeable_dice(state, seat)
            mine = die_words(tr, specs[give[0]], state.values.get(give[0])) if give else ""
            labels = [tr("Take {player}'s {die} for your {mine}", player=whose,
                         die=die_words(tr, specs[d], state.values.get(d)), mine=mine) if mine
                      else tr("Take {player}'s {die}", player=whose,
                              die=die_words(tr, specs[d], state.values.get(d)))
                      for d in dice]
        options = [discord.SelectOption(label=_option_label(label), value=d,
                                        emoji=die_emoji(specs[d]))
                   for d, label in zip(dice[:25], labels, strict=False)]
        view.add_item(RoyaleComponent.select(click(step, str(chosen)), options=options,
                                 placeholder=placeholder, row=0))
        view.add_item(RoyaleComponent.button(click("back"), label=tr("Back to the players"),
                                             emoji="↩️", row=1))
    elif state.phase is Phase.MISCHIEF:
        options = []
        for other, hand in enumerate(state.hands):
            dice = [d for d in hand if specs[d].color != "yellow"]
            if other != seat and dice:
                options.append(discord.SelectOption(
                    label=_option_label(tr("Re-roll a die of {player}", player=names.seat(other))),
                    value=str(other), description=_dice_summary(tr, state, dice)))
        view.add_item(RoyaleComponent.select(click("mtarget"), options=options[:25],
                                             placeholder=tr("Whose die do you re-roll?"), row=0))
    elif state.phase is Phase.TRADE:
        options = []
        for other, hand in enumerate(state.hands):
            dice = [d for d in hand if specs[d].takeable]
            if other != seat and dice:
                options.append(discord.SelectOption(
                    label=_option_label(tr("Trade with {player}", player=names.seat(other))),
                    value=str(other), description=_dice_summary(tr, state, dice)))
        if options:
            view.add_item(RoyaleComponent.select(click("ttarget"), options=options[:25],
                                                 placeholder=tr("Give your Clear d6 to…"), row=0))
        view.add_item(RoyaleComponent.button(click("pass"), label=tr("Pass: no trade this round"),
                                             emoji="⏭️", row=1))
    view.add_item(RoyaleComponent.button(Click("hand", g), label=tr("My dice (only you see it)"),
                                         emoji="🎲", row=4))
    return view


def render(tr: Tr, game: Game, state: RoyaleState, tail: Sequence[dict[str, Any]], *,
           note: str = "", step: str = "", chosen: int = -1) -> Shown:
    """The whole round message for the game as it is now."""
    names = Names(game, tr)
    content = prompt(tr, state, names)
    if note:
        content = f"{note}\n{content}" if content else note
    return Shown(content, build_embed(tr, game, state, tail),
                 build_view(tr, game, state, step, chosen))


def render_closed_round(tr: Tr, game: Game, state: RoyaleState,
                        events: Sequence[dict[str, Any]], round_no: int) -> Shown:
    """The final look of a finished round's message (no components)."""
    names = Names(game, tr)
    specs = state.dice.specs
    lines = [h for e in events if e.get("round") == round_no
             and (h := happening(tr, e, names, specs.__getitem__))]
    # title 1, scores 1 + 2 + 1 + n, columns 1 + 2 + 1 + n, footer 1
    budget = _lines_budget(state.n, 10)
    if len(lines) > budget:
        lines = ["…", *lines[-(budget - 1):]]
    totals = [0] * state.n
    for rnd in state.sheet[:round_no]:
        for seat, cols in enumerate(rnd):
            totals[seat] += sum(cols)
    table = _table(tr, names, [sum(c) for c in state.sheet[round_no - 1]], totals)
    embed = discord.Embed(title=tr("Panda Royale · Round {n}/{rounds} (done)", n=round_no,
                                   rounds=ROUNDS),
                          description="\n".join(lines)[:4000] or None, color=0x95A5A6)
    embed.add_field(name=tr("Scores"), value=table[:1024], inline=False)
    embed.add_field(name=tr("The seven columns"),
                    value=columns_table(tr, state, names, round_no)[:1024], inline=False)
    embed.set_footer(text=tr("Game {id}", id=game.id))
    return Shown("", embed, None)


def standings(tr: Tr, game: Game, state: RoyaleState) -> str:
    """Final standings with shared wins."""
    return common_standings(tr, Names(game, tr), state.totals(), tr("Panda Royale"))
