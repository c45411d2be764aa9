"""Dice and events of Panda Royale as short Discord text (emoji, labels, happenings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from bot.rules.royale.dice import DieSpec
from ui.i18n import N_, Tr

COLOR_EMOJI = {"yellow": "🟡", "purple": "🟣", "blue": "🔵", "red": "🔴", "green": "🟢",
               "clear": "⚪", "pink": "🌸"}
KIND_EMOJI = {"glitter": "💎", "mischief": "😈", "cannon": "💥", "mercenary": "⚔️", "pity": "🌸"}
DIE_LABELS: Final = (
    N_("Yellow d6"), N_("Yellow d8"), N_("Purple d8"), N_("Purple d12"), N_("Blue d6"),
    N_("Blue d8"), N_("Blue d12"), N_("Blue glitter d6"), N_("Red d6"), N_("Red d8"),
    N_("Green d20"), N_("Clear d6"), N_("Pink pity d12"), N_("Mischief d12"), N_("Cannon d8"),
    N_("Mercenary d6"),
)
"""Every die's name (the rules engine's labels), for the catalogue."""


def die_emoji(spec: DieSpec) -> str:
    """One emoji for a die: its colour, or its kind for special dice."""
    return KIND_EMOJI.get(spec.kind) or COLOR_EMOJI[spec.color]


def die_label(tr: Tr, spec: DieSpec) -> str:
    """The die's name, e.g. "Purple d12", "Blue glitter d6"."""
    return tr(spec.label)


def die_words(tr: Tr, spec: DieSpec, value: int | None) -> str:
    """A die in words, e.g. "Blue d12 (showing 4)", "Red d8 (not rolled yet)"."""
    if value is None:
        return tr("{die} (not rolled yet)", die=tr(spec.label))
    return tr("{die} (showing {value})", die=tr(spec.label), value=value)


def die_value(spec: DieSpec, value: int | None) -> str:
    """A die and what it shows, e.g. "🟣12", "🔴-3", "🟢d20" when not rolled."""
    shown = f"d{spec.sides}" if value is None else str(value)
    return f"{die_emoji(spec)}{shown}"


def happening(tr: Tr, e: Mapping[str, Any], name: Callable[[str], str],
              spec: Callable[[str], DieSpec]) -> str | None:
    """One line about an event of the round, or None for events shown elsewhere."""
    kind = e.get("event")
    if kind == "token":
        rerolls = e["rerolls"]
        who, yellow = name(e["player"]), e["yellow"][e["player"]]
        if not rerolls:
            return tr("🐼 Panda token: **{player}** (yellow {yellow})", player=who,
                      yellow=yellow)
        return tr.ngettext("🐼 Panda token: **{player}** (yellow {yellow}; {n} yellow tie "
                           "re-roll)",
                           "🐼 Panda token: **{player}** (yellow {yellow}; {n} yellow tie "
                           "re-rolls)", rerolls, player=who, yellow=yellow)
    if kind == "mischief":
        d = spec(e["die"])
        return tr("😈 **{player}** made **{target}** re-roll {emoji} {die}: {before} → {after}",
                  player=name(e["player"]), target=name(e["target"]), emoji=die_emoji(d),
                  die=tr(d.label), before=e["before"], after=e["after"])
    if kind == "cannon":
        if e["decision"] == "score":
            return tr("💥 **{player}** fired a Cannon: {value} × 10", player=name(e["player"]),
                      value=e["value"])
        return tr("💥 **{player}** saved a Cannon (it showed {value})", player=name(e["player"]),
                  value=e["value"])
    if kind == "mischief_dealt":
        return tr("😈 Everyone gets a Mischief d12 (rolled from round 2).")
    if kind == "pity":
        given = ", ".join(name(p) for p in e["given"])
        return tr("🌸 Pity dice to: {players}", players=given) if given else None
    if kind == "captain":
        lost = ", ".join(f"{name(x['player'])}" for x in e["lost"])
        if lost:
            return tr("⚔️ Captain rolled {value}: Mercenaries lost by {players}",
                      value=e["value"], players=lost)
        return tr("⚔️ Captain rolled {value}: no Mercenary lost", value=e["value"])
    if kind == "trade":
        d = spec(e["took"])
        return tr("🔄 **{player}** gave a clear d6 to **{target}** and took {emoji} {die}",
                  player=name(e["player"]), target=name(e["target"]), emoji=die_emoji(d),
                  die=tr(d.label))
    if kind == "pick":
        d = spec(e["die"])
        return tr("🎲 **{player}** picked {emoji} {die}", player=name(e["player"]),
                  emoji=die_emoji(d), die=tr(d.label))
    return None
