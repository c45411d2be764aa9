"""Panda Royale in words: its dice (the game's own emojis, names, ranges and how each colour
scores), what happened in a round, what each step asks, a review's options, the rules, a
player's own dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.rules.review import Option
from bot.rules.royale.dice import DieSpec
from bot.rules.royale.engine import tradeable_dice
from bot.rules.royale.events import (
    CannonEvent,
    CaptainEvent,
    MischiefDealtEvent,
    MischiefEvent,
    PickEvent,
    PityEvent,
    RoyaleEvent,
    TokenEvent,
    TradeEvent,
)
from bot.rules.royale.state import Phase, RoyaleState
from bot.service import Game
from pictures.emoji import die_emoji_name
from ui.board import ReviewWords
from ui.cards import COLOR_EMOJI, Emojis
from ui.i18n import N_, Tr

DIE_LABELS: Final = (
    N_("Yellow d6"), N_("Yellow d8"), N_("Purple d8"), N_("Purple d12"), N_("Blue d6"),
    N_("Blue d8"), N_("Blue d12"), N_("Blue glitter d6"), N_("Red d6"), N_("Red d8"),
    N_("Green d20"), N_("Clear d6"), N_("Pink pity d12"), N_("Mischief d12"), N_("Cannon d8"),
    N_("Mercenary d6"),
)
"""Every die's name (the rules engine's labels), for the catalogue."""
SCORING: Final = {"purple": "×2", "red": N_("× reds"), "pink": ""}
"""How a colour scores beyond its sum, on a pool button (yellow, blue, green, clear: the sum)."""
KIND_SCORING: Final = {"glitter": N_("blue ×2"), "cannon": "×10", "mercenary": N_("× round")}
PHASE_HELP: Final = {
    Phase.DRAFT: N_("Draft: in turn, from the highest yellow total, each player picks one die "
                    "from the pool for the next rounds. Purple scores twice its sum; red can be "
                    "negative and counts once per red die you hold."),
    Phase.TRADE: N_("Trade: in turn, each player may give a clear d6 for any die of another "
                    "player (not pink pity dice or Cannons), or pass. A clear d6 given this "
                    "round can't be given again until the next."),
    Phase.MISCHIEF: N_("Mischief: the highest Mischief die lets its owner make another player "
                       "re-roll one of their dice (not yellow), before the round is scored."),
    Phase.CANNON: N_("Cannon: fire it now for ten times its value (it then leaves the game), "
                     "or save it for a later round. In round 10 a Cannon not fired scores "
                     "nothing."),
}
"""What each step of a round is, in two lines (the ? button)."""
ASKS: Final = {
    Phase.MISCHIEF: N_("choose a die for your mischief"),
    Phase.CANNON: N_("fire or save your Cannon"),
    Phase.TRADE: N_("trade or pass"),
    Phase.DRAFT: N_("pick a die from the pool"),
}
"""What a step asks of its player (the card's line and the ping)."""


def emoji_of(emojis: Emojis, spec: DieSpec, value: int | None) -> str:
    """A die in text: the game's own emoji (its colour, size and face), else its colour's
    circle and what it shows.
    """
    fallback = f"{COLOR_EMOJI[spec.color]}{value if value is not None else f'd{spec.sides}'}"
    return emojis.markup(die_emoji_name(spec, value), fallback)


def button_emoji(emojis: Emojis, spec: DieSpec) -> object:
    """A die's emoji for a button (unrolled: its size), else its colour's circle."""
    return emojis.get(die_emoji_name(spec, None)) or COLOR_EMOJI[spec.color]


def die_range(spec: DieSpec) -> str:
    """The faces a die can show, e.g. "1-12", "-3…6"."""
    low, high = min(spec.faces), max(spec.faces)
    return f"{low}…{high}" if low < 0 else f"{low}-{high}"


def pool_label(tr: Tr, spec: DieSpec, count: int) -> str:
    """A pool button: the die, its range and how its colour scores, e.g. "Purple d12 · 1-12
    ×2" (and how many of it the pool has).
    """
    extra = KIND_SCORING.get(spec.kind) or SCORING.get(spec.color, "")
    parts = [tr(spec.label), die_range(spec)]
    label = " · ".join(parts) + (f" {tr(extra)}" if extra else "")
    return f"{label} (×{count})" if count > 1 else label


def die_words(tr: Tr, spec: DieSpec, value: int | None) -> str:
    """A die in words, e.g. "Blue d12 (showing 4)", "Red d8 (not rolled yet)"."""
    if value is None:
        return tr("{die} (not rolled yet)", die=tr(spec.label))
    return tr("{die} (showing {value})", die=tr(spec.label), value=value)


def happening(tr: Tr, e: RoyaleEvent, name: Callable[[str], str],
              die: Callable[[str], str]) -> str | None:
    """One line about an event of the round (``die``: a die id in text), or None for events
    the picture shows.
    """
    if isinstance(e, TokenEvent):
        yellow = dict(e.yellow)[e.player]
        if not e.rerolls:
            return tr("🐼 Panda token: **{player}** (yellow {yellow})", player=name(e.player),
                      yellow=yellow)
        return tr.ngettext("🐼 Panda token: **{player}** (yellow {yellow}; {n} yellow tie "
                           "re-roll)",
                           "🐼 Panda token: **{player}** (yellow {yellow}; {n} yellow tie "
                           "re-rolls)", e.rerolls, player=name(e.player), yellow=yellow)
    if isinstance(e, MischiefEvent):
        return tr("😈 **{player}** made **{target}** re-roll {die}: {before} → {after}",
                  player=name(e.player), target=name(e.target), die=die(e.die),
                  before=e.before, after=e.after)
    if isinstance(e, CannonEvent):
        if e.score:
            return tr("💥 **{player}** fired a Cannon: {value} × 10", player=name(e.player),
                      value=e.value)
        return tr("💥 **{player}** saved a Cannon (it showed {value})", player=name(e.player),
                  value=e.value)
    if isinstance(e, MischiefDealtEvent):
        return tr("😈 Everyone gets a Mischief d12 (rolled from round 2).")
    if isinstance(e, PityEvent):
        given = ", ".join(name(p) for p, _ in e.given)
        return tr("🌸 Pity dice to: {players}", players=given) if given else None
    if isinstance(e, CaptainEvent):
        lost = ", ".join(name(p) for p, _ in e.lost)
        if lost:
            return tr("⚔️ Captain rolled {value}: Mercenaries lost by {players}",
                      value=e.value, players=lost)
        return tr("⚔️ Captain rolled {value}: no Mercenary lost", value=e.value)
    if isinstance(e, TradeEvent):
        return tr("🔄 **{player}** gave a clear d6 to **{target}** and took {die}",
                  player=name(e.player), target=name(e.target), die=die(e.took))
    if isinstance(e, PickEvent):
        return tr("🎲 **{player}** picked {die}", player=name(e.player), die=die(e.die))
    return None


def hand_text(game: Game, state: RoyaleState, user_id: int, tr: Tr, emojis: Emojis) -> str:
    """The user's dice with what they show this round (or a note for spectators), in the
    user's language (``tr``).
    """
    seats = [p.seat for p in game.players if p.player_id == str(user_id)]
    if not seats:
        return tr("You're not playing in this game.")
    seat = seats[0]
    specs = state.dice.specs
    lines = ["### " + tr("Your dice · round {n}", n=state.round)]
    for d in state.hands[seat]:
        spec = specs[d]
        v = state.values.get(d)
        shown = tr("showing **{value}**", value=v) if v is not None else tr("not rolled yet")
        lines.append(f"{emoji_of(emojis, spec, v)} {tr(spec.label)} {shown}")
    if len(lines) == 1:
        lines.append(tr("You hold no dice."))
    free = len(tradeable_dice(state, seat))
    if free:
        lines.append(tr("You can give {n} Clear d6 in trades this round.", n=free))
    lines.append("-# " + tr("Your total so far: {total}", total=state.totals()[seat]))
    return "\n".join(lines)


def option_words(tr: Tr, option: Option, name: Callable[[str], str]) -> str:
    """One option of a review, e.g. "taking the Red d8", "trading for Mochi's Green d20"."""
    what = option.what
    if option.verb == "take":
        return tr("taking the {die}", die=tr(what[0]))
    if option.verb == "trade":
        return tr("trading for {player}'s {die}", die=tr(what[0]), player=name(what[1]))
    if option.verb == "pass":
        return tr("passing on trades")
    if option.verb == "mischief":
        return tr("re-rolling {player}'s {die}", die=tr(what[0]), player=name(what[1]))
    if option.verb == "fire":
        return tr("firing the Cannon ({value} × 10)", value=what[0])
    return tr("saving the Cannon (showing {value})", value=what[0])


ROYALE_REVIEW: Final = ReviewWords(option_words)
"""How a Panda Royale review names its options."""

RULES: Final = [
    (N_("A round (10 rounds)"),
     N_("1. **Roll** every die. Highest yellow total takes the 🐼 token; a tie for highest "
        "makes *everyone holding yellow* re-roll their yellow dice until one player is alone "
        "on top.\n"
        "2. **Score**: yellow sum · purple ×2 · blue sum (×2 once with any glitter) · red "
        "signed sum × number of red dice · green · clear · pink.\n"
        "3. **Pity dice** (rounds 1-9): pink d12s go to the lowest round totals; ties go "
        "counter-clockwise from the token holder's right.\n"
        "4. **Trade** (rounds 1-9): from the token holder's left, each player may give clear "
        "d6s (one per trade) for any die of another player except pity dice and Cannons. A "
        "clear d6 given this round can't be given again until next round.\n"
        "5. **Draft** (rounds 1-9): players + 1 dice from the bag; highest yellow picks "
        "first, ties clockwise from the token holder. Round 10 is roll and score only.")),
    (N_("Red dice"),
     N_("Faces −1 −2 −3 +4 +5 +6 (d6) and −1 −2 −3 −4 +5 +6 +7 +8 (d8).")),
    (N_("Mayhem: Mischief"),
     N_("From round 2 each player rolls a clear d12. Every Mischief die showing the highest "
        "value lets its owner force a re-roll of another player's non-yellow die, from the "
        "token holder clockwise. Mischief dice can be taken in trades, never given.")),
    (N_("Mayhem: Cannon"),
     N_("Pink d8s in the bag: each round you may fire one (value ×10 in pink, then it leaves "
        "the game) or save it. They can't be taken in trades.")),
    (N_("Mayhem: Mercenary"),
     N_("Green d6s scoring value × round. After the pity dice, the Captain d6 is rolled: "
        "every Mercenary showing that number goes back to the bag.")),
    (N_("Winning"),
     N_("Highest total after round 10 wins; tied players share the win.")),
]
"""The rules the bot plays by (``/royale rules``)."""


def rules_text(tr: Tr) -> str:
    """The rules, in ``tr``'s language."""
    parts = ["## " + tr("Panda Royale: the rules we play")]
    parts += [f"**{tr(name)}**\n{tr(value)}" for name, value in RULES]
    parts.append("-# " + tr("**Help:** `/help` explains the games and every command."))
    return "\n\n".join(parts)


def dice_line(dice: Sequence[str], state: RoyaleState, emojis: Emojis) -> str:
    """Dice in text, each as its emoji and face."""
    specs = state.dice.specs
    return " ".join(emoji_of(emojis, specs[d], state.values.get(d)) for d in dice)
